package assistants

import (
	"os"
	"testing"

	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// testURL is this package's fresh database.
var testURL string

func TestMain(m *testing.M) {
	os.Exit(pgtest.Run(m, "assistants", &testURL))
}
