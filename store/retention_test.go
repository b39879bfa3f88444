package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
)

// rowCounts is what a thread holds: checkpoints, runs and run events.
type rowCounts struct{ threads, checkpoints, runs, events int }

func countRows(t *testing.T, s *Store, thread string) rowCounts {
	t.Helper()
	var c rowCounts
	err := s.Pool.QueryRow(context.Background(), `SELECT
		(SELECT count(*) FROM threads WHERE id = $1),
		(SELECT count(*) FROM checkpoints WHERE thread_id = $1),
		(SELECT count(*) FROM runs WHERE thread_id = $1),
		(SELECT count(*) FROM run_events e JOIN runs r ON r.id = e.run_id WHERE r.thread_id = $1)`, thread).
		Scan(&c.threads, &c.checkpoints, &c.runs, &c.events)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fillThread writes checkpoints at the times given, and runs, each with
// events; the last run stays active when active is "pending" or "running".
func fillThread(t *testing.T, s *Store, owner, thread string, at []time.Time, runs int, active string) {
	t.Helper()
	ctx := context.Background()
	cp := s.Checkpoints
	head := ""
	for i, when := range at {
		c := graph.Checkpoint{ThreadID: thread, ID: newID(), ParentID: head, Step: i,
			State: []byte(fmt.Sprintf(`{"step":%d}`, i)), Metadata: graph.Metadata{Source: graph.SourceLoop}, CreatedAt: when}
		if err := cp.Put(ctx, c, head); err != nil {
			t.Fatal(err)
		}
		head = c.ID
	}
	for i := range runs {
		r, err := s.ForOwner(owner).CreateRun(ctx, thread, NewRun{})
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			appendEvent(t, s, r.ID, "values", []byte(`{}`))
		}
		switch {
		case i < runs-1 || active == "":
			if _, err := s.ForOwner(owner).CancelRun(ctx, r.ID); err != nil {
				t.Fatal(err)
			}
		case active == RunRunning:
			if _, err := s.Pool.Exec(ctx, `UPDATE runs SET status = 'running', worker_id = 'w', attempts = 1,
				lease_expires_at = now() + interval '1 hour', started_at = now() WHERE id = $1`, r.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Pruning deletes the threads idle for longer than the TTL, of every owner,
// with all their rows, in batches and over several passes, and nothing of
// any other thread; a dry run deletes nothing.
func TestPruneThreads(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	now := time.Now()
	old, older, recent := now.Add(-48*time.Hour), now.Add(-72*time.Hour), now.Add(-time.Minute)
	ownerA, _ := newThread(t, s, "prune-a")
	ownerB, _ := newThread(t, s, "prune-b")
	if _, err := s.Pool.Exec(ctx, `DELETE FROM threads`); err != nil {
		t.Fatal(err)
	}
	type threadCase struct {
		name    string
		owner   string
		at      []time.Time // checkpoint times
		runs    int
		active  string    // the last run's status when it is active
		created time.Time // when set, the thread's creation time
		expired bool
	}
	cases := []threadCase{
		{name: "old with runs", owner: ownerA, at: []time.Time{older, old}, runs: 2, expired: true},
		{name: "another owner's old one", owner: ownerB, at: []time.Time{old, old, old}, runs: 1, expired: true},
		{name: "never written, created long ago", owner: ownerA, created: older, expired: true},
		{name: "old with many checkpoints", owner: ownerB, at: repeat(older, 30), expired: true},
		{name: "old but with a pending run", owner: ownerA, at: []time.Time{old}, runs: 2, active: RunPending},
		{name: "old but with a running run", owner: ownerB, at: []time.Time{older}, runs: 1, active: RunRunning},
		{name: "old history, recent head", owner: ownerA, at: []time.Time{older, old, recent}, runs: 1},
		{name: "recent", owner: ownerB, at: []time.Time{recent}, runs: 2},
		{name: "never written, new", owner: ownerB},
	}
	ids := make([]string, len(cases))
	before := make([]rowCounts, len(cases))
	expired := 0
	for i, c := range cases {
		th, err := s.ForOwner(c.owner).CreateThread(ctx, NewThread{})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = th.ID
		if !c.created.IsZero() {
			if _, err := s.Pool.Exec(ctx, `UPDATE threads SET created_at = $2 WHERE id = $1`, th.ID, c.created); err != nil {
				t.Fatal(err)
			}
		}
		fillThread(t, s, c.owner, th.ID, c.at, c.runs, c.active)
		before[i] = countRows(t, s, th.ID)
		if c.expired {
			expired++
		}
	}
	cutoff := now.Add(-24 * time.Hour)

	n, err := s.PruneThreads(ctx, cutoff, PruneOptions{DryRun: true})
	if err != nil || n != int64(expired) {
		t.Fatalf("dry run: %d threads, %v; want %d", n, err, expired)
	}
	for i := range cases {
		if got := countRows(t, s, ids[i]); got != before[i] {
			t.Fatalf("the dry run changed %s: %+v, was %+v", cases[i].name, got, before[i])
		}
	}

	collect := pruneCollect
	pruneCollect = 2 // passes over threads of 2 expired ones, each deleted alone
	defer func() { pruneCollect = collect }()
	n, err = s.PruneThreads(ctx, cutoff, PruneOptions{BatchSize: 1})
	if err != nil || n != int64(expired) {
		t.Fatalf("prune: %d threads, %v; want %d", n, err, expired)
	}
	for i, c := range cases {
		got := countRows(t, s, ids[i])
		switch {
		case c.expired && got != (rowCounts{}):
			t.Errorf("%s: %+v left after the prune", c.name, got)
		case !c.expired && got != before[i]:
			t.Errorf("%s: %+v after the prune, was %+v", c.name, got, before[i])
		}
	}
	if n, err := s.PruneThreads(ctx, cutoff, PruneOptions{}); err != nil || n != 0 {
		t.Errorf("a second prune deleted %d threads (%v)", n, err)
	}
	err = s.Checkpoints.Put(ctx, graph.Checkpoint{ThreadID: ids[0], ID: newID(), State: []byte(`{}`)}, "")
	if errcode.Of(err) != errcode.NotFound {
		t.Errorf("writing into a pruned thread: %v, want NOT_FOUND", err)
	}
}

func repeat(at time.Time, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = at
	}
	return out
}

// No statement of a prune asks for the threads in the order of their last
// activity, so none needs the index on it, which a later release drops so
// that moving a thread's head updates no index. Without that index
// (dropped in a transaction rolled back, and with whole-table scans and
// sorts made the planner's last resort, as they are on a large table),
// none sorts the expired threads.
func TestPruneNeedsNoActivityIndex(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	tx, err := s.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `DROP INDEX threads_last_active_idx;
		SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off`); err != nil {
		t.Fatal(err)
	}
	for _, st := range []struct {
		name, sql string
		args      []any
	}{
		{"collecting the expired", expiredIDsSQL, []any{time.Now(), pruneCollect}},
		{"deleting a batch", pruneBatchSQL, []any{time.Now(), []string{"00000000-0000-4000-8000-000000000001"}}},
	} {
		rows, err := tx.Query(ctx, `EXPLAIN `+st.sql, st.args...)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if plan := strings.Join(lines, "\n"); strings.Contains(plan, "Sort") {
			t.Errorf("%s sorts the threads without threads_last_active_idx:\n%s", st.name, plan)
		}
	}
}
