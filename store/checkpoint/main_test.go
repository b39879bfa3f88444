package checkpoint

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// testURL is this package's fresh database.
var testURL string

func TestMain(m *testing.M) {
	os.Exit(pgtest.Run(m, "checkpoint", &testURL))
}

// testDB is a migrated database with its pool.
type testDB struct{ Pool *pgxpool.Pool }

// openDB opens a pool on a migrated database.
func openDB(ctx context.Context, url string) (*testDB, error) {
	if err := migrations.Up(ctx, url); err != nil {
		return nil, err
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, err
	}
	return &testDB{Pool: pool}, nil
}

// Close closes the pool.
func (d *testDB) Close() { d.Pool.Close() }

// openTestStore opens the package's migrated database.
func openTestStore(t testing.TB) *testDB {
	return &testDB{Pool: pgtest.MigratedPool(t, testURL, migrations.Up)}
}

// newThread creates a user and a thread of theirs for a test.
func newThread(t testing.TB, s *testDB, user string) (ownerID, threadID string) {
	t.Helper()
	ctx := context.Background()
	err := s.Pool.QueryRow(ctx, `INSERT INTO users (name) VALUES ($1)
		ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id`, user).Scan(&ownerID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Pool.QueryRow(ctx, `INSERT INTO threads (owner_id) VALUES ($1) RETURNING id`, ownerID).Scan(&threadID); err != nil {
		t.Fatal(err)
	}
	return ownerID, threadID
}

// runFence makes a running run on thread, held by worker w1 in its first
// attempt, and returns the fence of its writes.
func runFence(t testing.TB, s *testDB, threadID string) Fence {
	t.Helper()
	var runID string
	if err := s.Pool.QueryRow(context.Background(), `INSERT INTO runs (thread_id, owner_id, status, worker_id, attempts)
		SELECT id, owner_id, 'running', 'w1', 1 FROM threads WHERE id = $1 RETURNING id`, threadID).Scan(&runID); err != nil {
		t.Fatal(err)
	}
	return Fence{RunID: runID, WorkerID: "w1", Attempt: 1}
}

// putThread writes cps to a new thread of user's, each over the one
// before, with a saver it returns, and returns the thread and the
// checkpoints as saved.
func putThread(t *testing.T, s *testDB, user string, cps []graph.Checkpoint) (*Saver, string, []graph.Checkpoint) {
	t.Helper()
	_, thread := newThread(t, s, user)
	saver := New(s.Pool, Options{})
	return saver, thread, putAll(t, saver, thread, cps)
}

// putAll writes cps to thread with saver, each over the one before, and
// returns them as saved.
func putAll(t *testing.T, saver *Saver, thread string, cps []graph.Checkpoint) []graph.Checkpoint {
	t.Helper()
	saved := make([]graph.Checkpoint, 0, len(cps))
	parent := ""
	for _, c := range cps {
		c.ThreadID, c.ID, c.ParentID = thread, newID(), parent
		if err := saver.Put(context.Background(), c, parent); err != nil {
			t.Fatal(err)
		}
		saved, parent = append(saved, c), c.ID
	}
	return saved
}
