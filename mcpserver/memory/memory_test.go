package memory_test

import (
	"testing"

	"github.com/tripgraph/tripgraph/mcpserver/backendtest"
	"github.com/tripgraph/tripgraph/mcpserver/memory"
)

func TestBackend(t *testing.T) {
	backendtest.Run(t, func(t *testing.T) backendtest.Fixture {
		const user, other = "11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"
		return backendtest.Fixture{Backend: memory.NewDemo(backendtest.Cities(), user, other), User: user, Other: other}
	})
}
