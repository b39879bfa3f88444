package tenanttest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/graph/checkpointtest"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/checkpoint"
)

// A user's checkpointer is a graph.Checkpointer (the engine's own suite);
// its first checkpoint creates the thread, the user's; another user's
// threads are out of its reach; a run's writes stop once its lease is
// lost and carry its stream's output.
func testCheckpoints(t *testing.T, b Backend) {
	t.Run("the checkpointer's suite", func(t *testing.T) {
		checkpointtest.Run(t, func(t *testing.T) graph.Checkpointer { return b.Records(b.NewUser(t)).Checkpoints })
	})
	t.Run("the first checkpoint creates the thread", func(t *testing.T) { testFirstCheckpoint(t, b) })
	t.Run("a run's writes are fenced and carry its output", func(t *testing.T) { testRunCheckpoints(t, b) })
	t.Run("a discarded run takes its checkpoints", func(t *testing.T) { testDiscardRun(t, b) })
	t.Run("a run ends with its last checkpoint", func(t *testing.T) { testEndWithCheckpoint(t, b) })
}

// A run whose output says its checkpoint ends it is ended, with success,
// in that checkpoint's write: the thread's queued run moves up, the end is
// handed to the output with what announces it, and the lease is spent.
// A write that stores no checkpoint (a head that moved, a lease lost)
// ends nothing; nor does a write whose output does not say so.
func testEndWithCheckpoint(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	run := mustCreate(t, mine, thread, "")
	c := mustClaim(t, b, "w1")
	out := &stepOutput{events: []store.NewRunEvent{{Event: "values", Data: []byte(`{"n":1}`)}}}
	cps := mine.RunCheckpoints(c.Lease(), out)
	first := graph.Checkpoint{ThreadID: thread, ID: newCheckpointID(), State: []byte(`{"n":1}`), Next: []string{"a"}, Metadata: graph.Metadata{RunID: run.ID}}
	if err := cps.Put(ctx, first, ""); err != nil {
		t.Fatal(err)
	}
	if out.ended != nil || runOf(t, mine, run.ID).Status != store.RunRunning {
		t.Fatalf("a checkpoint its output did not say ends the run ended it: %+v", out.ended)
	}

	queued := mustCreate(t, mine, thread, store.MultitaskEnqueue)
	stale := graph.Checkpoint{ThreadID: thread, ID: newCheckpointID(), ParentID: first.ID, State: []byte(`{"n":2}`)}
	out.ends = true
	if err := cps.Put(ctx, stale, newCheckpointID()); errcode.Of(err) != errcode.Conflict {
		t.Fatalf("a write over a head that moved: %v, want a conflict", err)
	}
	if out.ended != nil || runOf(t, mine, run.ID).Status != store.RunRunning {
		t.Fatalf("a checkpoint that was not stored ended its run: %+v", out.ended)
	}

	last := graph.Checkpoint{ThreadID: thread, ID: newCheckpointID(), ParentID: first.ID, State: []byte(`{"n":3}`), Metadata: graph.Metadata{RunID: run.ID}}
	out.events, out.ends = []store.NewRunEvent{{Event: "values", Data: []byte(`{"n":3}`)}}, true
	if err := cps.Put(ctx, last, first.ID); err != nil {
		t.Fatal(err)
	}
	if out.ended == nil || out.ended.ID != run.ID || out.ended.Status != store.RunSuccess || out.ended.FinishedAt == nil || out.announce == nil {
		t.Fatalf("the output was told the run ended as %+v (announce %v), want it ended with success", out.ended, out.announce != nil)
	}
	out.announce()
	if got := runOf(t, mine, run.ID); got.Status != store.RunSuccess || got.LeaseExpiresAt != nil {
		t.Fatalf("the run after its last checkpoint: %+v", got)
	}
	if events, _ := mine.RunEvents(ctx, run.ID, 0, 0); len(events) != 2 || string(events[1].Data) != `{"n":3}` {
		t.Fatalf("the stream holds %d events, want the two checkpoints' with the last one's last", len(events))
	}
	if got := runOf(t, mine, queued.ID); got.Status != store.RunPending {
		t.Fatalf("the thread's queued run is %s after the run ended, want pending", got.Status)
	}
	if th, _ := mine.Thread(ctx, thread); th.Status != store.ThreadBusy {
		t.Fatalf("the thread is %s with its queued run pending, want busy", th.Status)
	}
	if _, err := b.Queue.FinishRun(ctx, c.Lease(), store.RunSuccess, ""); !lost(err) {
		t.Fatalf("ending the run again: %v, want a lost lease", err)
	}

	// A lease lost: the write is fenced and ends nothing.
	next := mustClaim(t, b, "w2")
	out2 := &stepOutput{ends: true}
	lapse(t, b, next.Lease())
	if _, err := b.Queue.ReclaimExpired(ctx, 3); err != nil {
		t.Fatal(err)
	}
	mustClaim(t, b, "w3")
	after := graph.Checkpoint{ThreadID: thread, ID: newCheckpointID(), ParentID: last.ID, State: []byte(`{"n":4}`)}
	if err := mine.RunCheckpoints(next.Lease(), out2).Put(ctx, after, last.ID); !fenced(err) {
		t.Fatalf("a write after the lease was lost: %v, want a lost lease", err)
	}
	if out2.ended != nil || runOf(t, mine, queued.ID).Status != store.RunRunning {
		t.Fatalf("a fenced write ended the run: %+v", out2.ended)
	}
}

// Discarding a run that has ended deletes it, its events and its
// checkpoints, and the thread's head is the checkpoint before them; a
// run going on, another owner's run, or one that later checkpoints build
// on cannot be discarded.
func testDiscardRun(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	write := func(run store.Run, parent string, n int) string {
		t.Helper()
		c := mustClaim(t, b, "w")
		if c.ID != run.ID {
			t.Fatalf("claimed %s, want %s", c.ID, run.ID)
		}
		out := &stepOutput{}
		cps := mine.RunCheckpoints(c.Lease(), out)
		for i := range n {
			out.events = []store.NewRunEvent{{Event: "values", Data: []byte(`{}`)}}
			cp := graph.Checkpoint{ThreadID: thread, ID: newCheckpointID(), ParentID: parent, State: []byte(fmt.Sprintf(`{"n":%d}`, i)), Metadata: graph.Metadata{RunID: run.ID}}
			if err := cps.Put(ctx, cp, parent); err != nil {
				t.Fatal(err)
			}
			parent = cp.ID
		}
		if _, err := b.Queue.FinishRun(ctx, c.Lease(), store.RunCancelled, ""); err != nil {
			t.Fatal(err)
		}
		return parent
	}
	first := mustCreate(t, mine, thread, "")
	kept := write(first, "", 1)
	second := mustCreate(t, mine, thread, "")
	if err := mine.DiscardRun(ctx, second.ID); !wantCode(t, "discarding a pending run", err, errcode.Conflict) {
		return
	}
	write(second, kept, 2)
	other := b.Records(b.NewUser(t))
	wantCode(t, "another owner discarding the run", other.DiscardRun(ctx, second.ID), errcode.NotFound)
	if err := mine.DiscardRun(ctx, second.ID); err != nil {
		t.Fatal(err)
	}
	_, err := mine.Run(ctx, second.ID)
	wantCode(t, "reading a discarded run", err, errcode.NotFound)
	if head, err := mine.Checkpoints.Latest(ctx, thread); err != nil || head.ID != kept {
		t.Fatalf("the head after the discard is %s (%v), want %s", head.ID, err, kept)
	}
	if list, _ := mine.Checkpoints.List(ctx, thread, graph.ListOptions{}); len(list) != 1 {
		t.Fatalf("%d checkpoints left, want the first run's one", len(list))
	}
	wantCode(t, "discarding twice", mine.DiscardRun(ctx, second.ID), errcode.NotFound)

	// A later run's checkpoints build on the first run's: it stays.
	third := mustCreate(t, mine, thread, "")
	write(third, kept, 1)
	wantCode(t, "discarding a run others build on", mine.DiscardRun(ctx, first.ID), errcode.Conflict)
	// The newest run, which started nothing, goes; then the first, which
	// started the thread, leaves it with no checkpoint.
	if err := mine.DiscardRun(ctx, third.ID); err != nil {
		t.Fatal(err)
	}
	if err := mine.DiscardRun(ctx, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := mine.Checkpoints.Latest(ctx, thread); !errors.Is(err, graph.ErrNotFound) {
		t.Fatalf("the thread's head after discarding every run: %v, want none", err)
	}
}

// A thread's first checkpoint creates it, the writer's; another user's
// checkpointer neither reads nor writes it, nor creates a thread of that
// id; a deleted thread takes its checkpoints.
func testFirstCheckpoint(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, theirs, _, _ := two(t, b)
	thread := uuid.NewString()
	first := graph.Checkpoint{ThreadID: thread, ID: newCheckpointID(), State: []byte(`{}`), Metadata: graph.Metadata{Source: graph.SourceInput}}
	if err := mine.Checkpoints.Put(ctx, first, ""); err != nil {
		t.Fatal(err)
	}
	if th, err := mine.Thread(ctx, thread); err != nil || th.Status != store.ThreadIdle {
		t.Fatalf("the thread the first checkpoint made: %+v, %v", th, err)
	}
	next := graph.Checkpoint{ThreadID: thread, ID: newCheckpointID(), ParentID: first.ID, State: []byte(`{"n":1}`)}
	for _, c := range []struct {
		name string
		err  error
	}{
		{"another user's write at the head", theirs.Checkpoints.Put(ctx, next, first.ID)},
		{"another user's first write", theirs.Checkpoints.Put(ctx, graph.Checkpoint{ThreadID: thread, ID: newCheckpointID(), State: []byte(`{}`)}, "")},
		{"another user's read", second(theirs.Checkpoints.Latest(ctx, thread))},
		{"another user's read by id", second(theirs.Checkpoints.Get(ctx, thread, first.ID))},
	} {
		if errcode.Of(c.err) != errcode.NotFound || !errors.Is(c.err, graph.ErrNotFound) {
			t.Errorf("%s: %v, want NOT_FOUND", c.name, c.err)
		}
	}
	if list, err := theirs.Checkpoints.List(ctx, thread, graph.ListOptions{}); err != nil || len(list) != 0 {
		t.Errorf("another user lists %d checkpoints (%v)", len(list), err)
	}
	if err := mine.Checkpoints.Put(ctx, first, ""); errcode.Of(err) != errcode.Conflict {
		t.Errorf("a first checkpoint on a thread that has one: %v, want CONFLICT", err)
	}
	if err := mine.Checkpoints.Put(ctx, graph.Checkpoint{ThreadID: "nope", ID: newCheckpointID(), State: []byte(`{}`)}, ""); errcode.Of(err) != errcode.BadRequest || !errors.Is(err, graph.ErrInvalidID) {
		t.Errorf("a malformed thread id: %v, want BAD_REQUEST", err)
	}
	if err := mine.DeleteThread(ctx, thread); err != nil {
		t.Fatal(err)
	}
	if _, err := mine.Checkpoints.Latest(ctx, thread); errcode.Of(err) != errcode.NotFound {
		t.Errorf("the checkpoints of a deleted thread: %v, want NOT_FOUND", err)
	}
}

// A run's checkpointer writes while the run's lease holds it, with the
// events its output gives in the same step; once the lease is lost it
// writes nothing, neither checkpoint nor events.
func testRunCheckpoints(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	run := mustCreate(t, mine, thread, "")
	c := mustClaim(t, b, "w1")
	out := &stepOutput{events: []store.NewRunEvent{{Event: "values", Data: []byte(`{"n":1}`), Position: "1.values.0.0"}}}
	cps := mine.RunCheckpoints(c.Lease(), out)
	first := graph.Checkpoint{ThreadID: thread, ID: newCheckpointID(), State: []byte(`{"n":1}`), Metadata: graph.Metadata{RunID: run.ID}}
	if err := cps.Put(ctx, first, ""); err != nil {
		t.Fatal(err)
	}
	if len(out.appended) != 1 || out.appended[0].Event != "values" || len(out.saving) != 1 || out.saving[0].ID != first.ID {
		t.Fatalf("the output was told %+v of saving %+v, want its one event with the checkpoint", out.appended, out.saving)
	}
	if events, _ := mine.RunEvents(ctx, run.ID, 0, 0); len(events) != 1 {
		t.Fatalf("the stream holds %d events, want the checkpoint's one", len(events))
	}

	out.events = []store.NewRunEvent{{Event: "values", Data: []byte(`{"n":2}`)}}
	stale := graph.Checkpoint{ThreadID: thread, ID: newCheckpointID(), ParentID: first.ID, State: []byte(`{"n":2}`)}
	if err := cps.Put(ctx, stale, newCheckpointID()); errcode.Of(err) != errcode.Conflict || !errors.Is(err, graph.ErrConflict) {
		t.Fatalf("a write over a head that moved: %v, want a conflict", err)
	}

	lapse(t, b, c.Lease())
	if _, err := b.Queue.ReclaimExpired(ctx, 3); err != nil {
		t.Fatal(err)
	}
	taker := mustClaim(t, b, "w2")
	late := graph.Checkpoint{ThreadID: thread, ID: newCheckpointID(), ParentID: first.ID, State: []byte(`{"n":3}`)}
	if err := cps.Put(ctx, late, first.ID); !fenced(err) {
		t.Fatalf("a write after the lease was lost: %v, want a lost lease", err)
	}
	if head, err := mine.Checkpoints.Latest(ctx, thread); err != nil || head.ID != first.ID {
		t.Fatalf("the head is %s (%v), want the one written before the lease was lost", head.ID, err)
	}
	if events, _ := mine.RunEvents(ctx, run.ID, 0, 0); len(events) != 1 && len(events) != 2 {
		t.Fatalf("the stream holds %d events", len(events))
	}
	out.events = []store.NewRunEvent{{Event: "values", Data: []byte(`{"n":3}`)}}
	before, _ := mine.RunEvents(ctx, run.ID, 0, 0)
	if err := cps.Put(ctx, graph.Checkpoint{ThreadID: thread, ID: newCheckpointID(), ParentID: first.ID, State: []byte(`{}`)}, first.ID); !fenced(err) {
		t.Fatalf("a fenced write with output: %v, want a lost lease", err)
	}
	if after, _ := mine.RunEvents(ctx, run.ID, 0, 0); len(after) != len(before) {
		t.Fatalf("a fenced write appended %d events", len(after)-len(before))
	}
	if err := mine.RunCheckpoints(taker.Lease(), nil).Put(ctx, late, first.ID); err != nil {
		t.Fatalf("the new holder's write: %v", err)
	}
}

// fenced reports whether err refuses a run's write because its lease was
// lost: the checkpoint's fence, or the output's append, which may find it
// first.
func fenced(err error) bool {
	return (errors.Is(err, checkpoint.ErrFenced) || errors.Is(err, store.ErrLeaseLost)) && errcode.Of(err) == errcode.Conflict
}

// stepOutput is a run's output as a test gives it: events for the next
// write and whether it ends the run, and what it was told.
type stepOutput struct {
	events   []store.NewRunEvent
	ends     bool
	saving   []graph.Checkpoint
	appended []store.RunEvent
	ended    *store.Run
	announce func()
}

func (o *stepOutput) Take(saving []graph.Checkpoint) ([]store.NewRunEvent, bool) {
	o.saving = saving
	events := o.events
	o.events = nil
	return events, o.ends
}

func (o *stepOutput) Ended(run store.Run, announce func()) {
	o.ended, o.announce = &run, announce
}

func (o *stepOutput) Appended(events []store.RunEvent, err error) error {
	o.appended = events
	return err
}

func newCheckpointID() string { return uuid.Must(uuid.NewV7()).String() }
