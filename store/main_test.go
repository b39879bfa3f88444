package store

import (
	"context"
	"os"
	"testing"

	"github.com/tripgraph/tripgraph/internal/pgtest"
	"github.com/tripgraph/tripgraph/migrations"
)

// testURL is this package's fresh, migrated database.
var testURL string

func TestMain(m *testing.M) {
	os.Exit(pgtest.Run(m, "store", &testURL))
}

// openTestStore migrates the package database (idempotent) and opens it.
func openTestStore(t testing.TB) *Store {
	t.Helper()
	ctx := context.Background()
	if err := migrations.Up(ctx, testURL); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}
