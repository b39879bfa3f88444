// Package storetest gives a test a store on a fresh, migrated database of
// its own, dropped when the test ends. It is for tests outside package
// store; inside it, use testing/pgtest directly.
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// Open creates a database named after prefix, applies every migration and
// opens a store on it. The store is closed and the database dropped when
// the test ends.
func Open(t testing.TB, prefix string) *store.Store {
	t.Helper()
	st, _ := OpenURL(t, prefix)
	return st
}

// OpenURL is Open, and also returns the database's URL, for a test that
// starts a process on the same database.
func OpenURL(t testing.TB, prefix string) (*store.Store, string) {
	t.Helper()
	return OpenWith(t, prefix, store.Options{})
}

// OpenWith is OpenURL with the store's options: a tracer, a pool size.
func OpenWith(t testing.TB, prefix string, o store.Options) (*store.Store, string) {
	t.Helper()
	ctx := context.Background()
	url := pgtest.Database(t, prefix)
	if err := migrations.Up(ctx, url); err != nil {
		t.Fatalf("migrating the test database: %v", err)
	}
	st, err := store.OpenWith(ctx, url, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st, url
}

// Finish follows a run's events to its end and returns them with the run
// as it ended; it fails the test when that takes more than a minute.
func Finish(t testing.TB, st *store.Store, owner, runID string) ([]store.RunEvent, store.Run) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var events []store.RunEvent
	for e, err := range st.ForOwner(owner).FollowRunEvents(ctx, runID, 0) {
		if err != nil {
			t.Fatalf("following run %s: %v", runID, err)
		}
		events = append(events, e)
	}
	r, err := st.ForOwner(owner).Run(ctx, runID)
	if err != nil {
		t.Fatal(err)
	}
	return events, r
}
