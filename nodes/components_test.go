package nodes

import (
	"testing"

	"github.com/tripgraph/tripgraph/toolname"
)

// Every tool of our server has the component that shows its result.
func TestEveryToolHasAComponent(t *testing.T) {
	for _, name := range toolname.All {
		if componentForTool[name] == "" {
			t.Errorf("no component shows the result of %s", name)
		}
	}
}
