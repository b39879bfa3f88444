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

// openQueueStores opens n stores, as n processes would, on a database of
// the test's own, so that claims see no other test's runs.
func openQueueStores(t testing.TB, n int) []*Store {
	t.Helper()
	ctx := context.Background()
	url, drop, err := pgtest.NewDatabase(ctx, "storeq")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	if err := migrations.Up(ctx, url); err != nil {
		t.Fatal(err)
	}
	stores := make([]*Store, n)
	for i := range stores {
		if stores[i], err = Open(ctx, url); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stores[i].Close)
	}
	return stores
}
