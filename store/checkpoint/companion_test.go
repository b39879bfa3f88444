package checkpoint

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// noteCompanion writes a note in the checkpoint's transaction; fail makes
// reading its result fail.
type noteCompanion struct {
	note  string
	fail  error
	asked int
}

func (c *noteCompanion) Queue(b *pgx.Batch, _ []graph.Checkpoint) func(pgx.BatchResults) error {
	c.asked++
	if c.note == "" {
		return nil
	}
	b.Queue(`INSERT INTO companion_notes (note) VALUES ($1)`, c.note)
	return func(res pgx.BatchResults) error {
		if _, err := res.Exec(); err != nil {
			return err
		}
		return c.fail
	}
}

// A companion's writes commit with the checkpoint or not at all: both in
// when the checkpoint is saved; the note too when the thread's head moved
// (a conflict writes nothing of the checkpoint, and is no failure of the
// statements); neither when the checkpoint's statement fails; and a
// failure the companion reads fails the Put (the statements ran: a
// companion whose write must stop the checkpoint fails in SQL).
func TestCompanionWritesWithTheCheckpoint(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	if _, err := s.Pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS companion_notes (note text PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	owner, thread := newThread(t, s, "companion")
	saver := New(s.Pool, Options{}).ForOwner(owner)
	fence := runFence(t, s, thread)
	notes := func(note string) int {
		var n int
		if err := s.Pool.QueryRow(ctx, `SELECT count(*) FROM companion_notes WHERE note = $1`, note).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	put := func(c *noteCompanion, cp graph.Checkpoint, head string) error {
		return saver.ForRun(fence, c).Put(ctx, cp, head)
	}

	first := graph.Checkpoint{ThreadID: thread, ID: newID(), State: []byte(`{"n":1}`)}
	c := &noteCompanion{note: "first"}
	if err := put(c, first, ""); err != nil || c.asked != 1 {
		t.Fatalf("Put with a companion: %v (asked %d times)", err, c.asked)
	}
	if notes("first") != 1 {
		t.Fatal("the companion's note is not in")
	}

	// A checkpoint without a state: its insert fails, and takes the note
	// with it.
	if err := put(&noteCompanion{note: "again"}, graph.Checkpoint{ThreadID: thread, ID: newID(), ParentID: first.ID, Step: 1}, first.ID); err == nil {
		t.Fatal("a checkpoint without a state was accepted")
	}
	if notes("again") != 0 {
		t.Fatal("the note of a failed checkpoint was kept")
	}

	// A head that moved: a conflict; the note is in, as the stream's parts
	// of a run that lost its thread are.
	err := put(&noteCompanion{note: "stale"}, graph.Checkpoint{ThreadID: thread, ID: newID(), State: []byte(`{}`)}, "")
	if !errors.Is(err, graph.ErrConflict) || notes("stale") != 1 {
		t.Fatalf("a stale head: %v, want a conflict, and the note in", err)
	}

	// A failure the companion reads fails the Put.
	boom := errors.New("boom")
	second := graph.Checkpoint{ThreadID: thread, ID: newID(), ParentID: first.ID, Step: 1, State: []byte(`{"n":2}`)}
	if err := put(&noteCompanion{note: "boom", fail: boom}, second, first.ID); !errors.Is(err, boom) {
		t.Fatalf("a companion's failure: %v, want it", err)
	}

	// Nothing to write: the checkpoint alone.
	head, err := saver.Latest(ctx, thread)
	if err != nil {
		t.Fatal(err)
	}
	if err := put(&noteCompanion{}, graph.Checkpoint{ThreadID: thread, ID: newID(), ParentID: head.ID, Step: 2, State: []byte(`{"n":3}`)}, head.ID); err != nil {
		t.Fatalf("a companion with nothing to write: %v", err)
	}
}

// lockCompanion holds a row of its own while the checkpoint is saved, as
// the runner's appends hold their run's.
type lockCompanion struct{ id int }

func (c lockCompanion) Queue(b *pgx.Batch, _ []graph.Checkpoint) func(pgx.BatchResults) error {
	b.Queue(`SELECT id FROM companion_locks WHERE id = $1 FOR SHARE`, c.id)
	return func(res pgx.BatchResults) error {
		_, err := res.Exec()
		return err
	}
}

// A checkpoint whose companion locks a row of its own, saved while another
// transaction holds the thread and then wants that row (a cancel of the
// run locks the thread, then the run), waits for the thread before it
// locks the row: the other transaction gets the row, and both end well
// instead of one of them being chosen to break a deadlock.
func TestCompanionLocksTheThreadFirst(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	if _, err := s.Pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS companion_locks (id int PRIMARY KEY);
		INSERT INTO companion_locks VALUES (1) ON CONFLICT DO NOTHING`); err != nil {
		t.Fatal(err)
	}
	owner, thread := newThread(t, s, "companion-lock")
	saver := New(s.Pool, Options{}).ForOwner(owner)
	fence := runFence(t, s, thread)

	cancel, err := s.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer cancel.Rollback(ctx)
	var cancelPID uint32
	if err := cancel.QueryRow(ctx, `SELECT pg_backend_pid() FROM threads WHERE id = $1 FOR NO KEY UPDATE`, thread).Scan(&cancelPID); err != nil {
		t.Fatal(err)
	}
	saved := make(chan error, 1)
	go func() {
		cp := graph.Checkpoint{ThreadID: thread, ID: newID(), State: []byte(`{"n":1}`)}
		saved <- saver.ForRun(fence, lockCompanion{id: 1}).Put(ctx, cp, "")
	}()
	pgtest.WaitUntilBlockedBy(t, s.Pool, cancelPID)
	if _, err := cancel.Exec(ctx, `SELECT id FROM companion_locks WHERE id = 1 FOR NO KEY UPDATE`); err != nil {
		t.Fatalf("the other transaction's lock of the companion's row: %v", err)
	}
	if err := cancel.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-saved; err != nil {
		t.Fatalf("saving the checkpoint: %v", err)
	}
}
