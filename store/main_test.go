package store

import (
	"context"
	"os"
	"testing"

	"github.com/google/uuid"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// testURL is this package's fresh, migrated database.
var testURL string

func TestMain(m *testing.M) {
	// A follower that missed an announcement would read again after
	// followQuiet; past the guard, a test of announcements fails instead.
	followQuiet = 2 * guard
	os.Exit(pgtest.Run(m, "store", &testURL))
}

// openTestStore migrates the package database (idempotent) and opens it.
func openTestStore(t testing.TB) *Store {
	t.Helper()
	pgtest.Skip(t)
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
	return openQueueStoresWith(t, n, Options{})
}

// openQueueStoresWith is openQueueStores with options.
func openQueueStoresWith(t testing.TB, n int, o Options) []*Store {
	t.Helper()
	url := migratedDatabase(t)
	stores := make([]*Store, n)
	for i := range stores {
		var err error
		if stores[i], err = OpenWith(context.Background(), url, o); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stores[i].Close)
	}
	return stores
}

// migratedDatabase makes a migrated database of the test's own, dropped
// when it ends, and returns its URL.
func migratedDatabase(t testing.TB) string {
	t.Helper()
	ctx := context.Background()
	url := pgtest.Database(t, "storeq")
	if err := migrations.Up(ctx, url); err != nil {
		t.Fatal(err)
	}
	return url
}

// newID is a new checkpoint or thread id.
func newID() string { return uuid.Must(uuid.NewV7()).String() }

// newThread creates a user and a thread of theirs for a test.
func newThread(t testing.TB, s *Store, user string) (ownerID, threadID string) {
	t.Helper()
	ctx := context.Background()
	u, err := s.Accounts.EnsureUser(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	th, err := s.ForOwner(u.ID).CreateThread(ctx, NewThread{})
	if err != nil {
		t.Fatal(err)
	}
	return u.ID, th.ID
}

// second is the error of a call that returns a value and an error.
func second[T any](_ T, err error) error { return err }

// wantCode fails the test unless err has code.
func wantCode(t *testing.T, what string, err error, code errcode.Code) {
	t.Helper()
	if errcode.Of(err) != code || err == nil {
		t.Fatalf("%s: %v, want %s", what, err, code)
	}
}

// appendEvent adds an event to a run's stream and announces it, as a
// worker holding the run does, for tests that hold no lease.
func appendEvent(t testing.TB, s *Store, runID, event string, data []byte) {
	t.Helper()
	var seq int64
	err := s.Pool.QueryRow(context.Background(), `INSERT INTO run_events (run_id, event, data) VALUES ($1, $2, $3)
		RETURNING seq`, runID, event, data).Scan(&seq)
	if err != nil {
		t.Error(err)
		return
	}
	s.AnnounceRunEvents([]RunEvent{{RunID: runID, Seq: seq}})
}
