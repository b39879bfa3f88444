package main

import (
	"os"
	"testing"

	"github.com/tripgraph/tripgraph/internal/pgtest"
)

// testURL is a fresh database for the commands that need one.
var testURL string

func TestMain(m *testing.M) {
	os.Exit(pgtest.Run(m, "cmd", &testURL))
}
