package checkpointtest

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/tripgraph/tripgraph/graph"
)

// knows is a checkpointer that knows a thread's head without reading it
// (graph.HeadKnower): the checkpoint it was told, stale or not, as a
// process knows the head it last wrote after another process wrote over
// it. It counts the engine's reads of the head, and runs beforeWrite
// before its first write.
type knows struct {
	graph.Checkpointer
	head        graph.Checkpoint
	reads       atomic.Int32
	beforeWrite func()
}

func (k *knows) KnownHead(thread string) (graph.Checkpoint, bool) {
	return k.head, thread == k.head.ThreadID
}

func (k *knows) Latest(ctx context.Context, thread string) (graph.Checkpoint, error) {
	k.reads.Add(1)
	return k.Checkpointer.Latest(ctx, thread)
}

func (k *knows) Put(ctx context.Context, cp graph.Checkpoint, head string) error {
	k.writing()
	return k.Checkpointer.Put(ctx, cp, head)
}

func (k *knows) PutAll(ctx context.Context, cps []graph.Checkpoint, head string) (int, error) {
	k.writing()
	if b, ok := k.Checkpointer.(graph.BatchPutter); ok {
		return b.PutAll(ctx, cps, head)
	}
	return graph.PutAll(ctx, k.Checkpointer, cps, head)
}

func (k *knows) writing() {
	if f := k.beforeWrite; f != nil {
		k.beforeWrite = nil
		f()
	}
}

// A run with input starts from the head its checkpointer knows, without
// reading it. When that head is stale (the thread moved before the run
// started), its input is refused, nothing is stored, and the run reads
// the head and starts again from there: its state holds what the other
// writer wrote, and the history is one chain. A head moved after the run
// started is a race the run loses, as one that read the head does.
func testKnownHead(t *testing.T, s graph.Checkpointer) {
	ctx := context.Background()
	c := compile(t, s)
	thread := newID()
	run := func(c *graph.Compiled[state, update], word string) (state, error) {
		return c.Invoke(ctx, graph.RunConfig[update]{ThreadID: thread, Input: update{Log: []string{word}}})
	}
	if _, err := run(c, "one"); err != nil {
		t.Fatal(err)
	}
	first, err := s.Latest(ctx, thread)
	if err != nil {
		t.Fatal(err)
	}

	// The head known is the thread's: no read.
	k := &knows{Checkpointer: s, head: first}
	if _, err := run(compile(t, k), "two"); err != nil {
		t.Fatalf("a run from the known head: %v", err)
	}
	if n := k.reads.Load(); n != 0 {
		t.Fatalf("a run from the thread's known head read the head %d times, want 0", n)
	}

	// The head known is stale: one read, and the run goes on from the head.
	k = &knows{Checkpointer: s, head: first}
	got, err := run(compile(t, k), "three")
	if err != nil {
		t.Fatalf("a run from a stale known head: %v", err)
	}
	if want := []string{"one", "a", "b", "two", "a", "b", "three", "a", "b"}; !slices.Equal(got.Log, want) {
		t.Fatalf("a run from a stale known head ended with %v, want %v", got.Log, want)
	}
	if n := k.reads.Load(); n != 1 {
		t.Fatalf("a run from a stale known head read the head %d times, want 1", n)
	}
	history := list(t, s, thread, graph.ListOptions{})
	if len(history) != 12 {
		t.Fatalf("the thread holds %d checkpoints, want 12 (4 a run)", len(history))
	}
	for i, cp := range history[:len(history)-1] {
		if cp.ParentID != history[i+1].ID {
			t.Fatalf("checkpoint %s follows %s, not the one before it, %s", cp.ID, cp.ParentID, history[i+1].ID)
		}
	}

	// The head moves after the run started: a conflict, as for a run that
	// read the head, and nothing of it is stored.
	head := history[0]
	k = &knows{Checkpointer: s, head: head}
	k.beforeWrite = func() {
		if _, err := run(c, "racer"); err != nil {
			t.Errorf("the racing run: %v", err)
		}
	}
	if _, err := run(compile(t, k), "four"); !errors.Is(err, graph.ErrConflict) {
		t.Fatalf("a run whose known head moved after it started: %v, want a conflict", err)
	}
	if n := len(list(t, s, thread, graph.ListOptions{})); n != 16 {
		t.Fatalf("after the race the thread holds %d checkpoints, want 16 (the racer's 4 and none of the loser's)", n)
	}
}
