package checkpointtest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tripgraph/tripgraph/graph"
)

// state and update are the suite's graph: each step appends to a log.
type state struct {
	Log []string `json:"log"`
}

type update struct {
	Log []string `json:"log,omitempty"`
}

func reduce(s state, u update) state { return state{Log: slices.Concat(s.Log, u.Log)} }

// compile builds START → a → b → END on saver.
func compile(t *testing.T, saver graph.Checkpointer) *graph.Compiled[state, update] {
	t.Helper()
	g := graph.New(reduce)
	for _, name := range []string{"a", "b"} {
		g.AddNode(name, func(context.Context, state) (update, error) { return update{Log: []string{name}}, nil })
	}
	g.AddEdge(graph.START, "a").AddEdge("a", "b").AddEdge("b", graph.END)
	c, err := g.Compile(saver)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// barrier holds every Latest call until n have been made, so that n runs
// start from the same head.
type barrier struct {
	graph.Checkpointer
	n       atomic.Int32
	arrived chan struct{}
	once    sync.Once
}

func (b *barrier) Latest(ctx context.Context, thread string) (graph.Checkpoint, error) {
	cp, err := b.Checkpointer.Latest(ctx, thread)
	if b.n.Add(-1) == 0 {
		b.once.Do(func() { close(b.arrived) })
	}
	<-b.arrived
	return cp, err
}

func testGraph(t *testing.T, s graph.Checkpointer) {
	ctx := context.Background()
	c := compile(t, s)
	thread := newID()
	if _, err := c.Invoke(ctx, graph.RunConfig[update]{ThreadID: thread, Input: update{Log: []string{"one"}}}); err != nil {
		t.Fatal(err)
	}
	before := ids(list(t, s, thread, graph.ListOptions{}))

	// Runs racing on the thread: one wins, the others fail with a conflict
	// naming the thread, and the history is the old one plus the winner's.
	b := &barrier{Checkpointer: s, arrived: make(chan struct{})}
	b.n.Store(Writers)
	racing := compile(t, b)
	errs := make([]error, Writers)
	var wg sync.WaitGroup
	for i := range Writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = racing.Invoke(ctx, graph.RunConfig[update]{ThreadID: thread, Input: update{Log: []string{"racer"}}})
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		var ce *graph.ConflictError
		switch {
		case err == nil:
			won++
		case !errors.As(err, &ce) || ce.ThreadID != thread:
			t.Fatalf("a losing run failed with %v, want a conflict naming thread %s", err, thread)
		}
	}
	if won != 1 {
		t.Fatalf("%d of %d racing runs won, want exactly 1", won, Writers)
	}
	after := list(t, s, thread, graph.ListOptions{})
	if len(after) != len(before)+4 || !slices.Equal(ids(after[4:]), before) {
		t.Fatalf("after the race the thread holds %d checkpoints, want the old %d and the winner's 4", len(after), len(before))
	}
	final, _, err := c.GetState(ctx, thread, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"one", "a", "b", "racer", "a", "b"}; !slices.Equal(final.Log, want) {
		t.Fatalf("state after the race = %v, want %v", final.Log, want)
	}

	// A fork and an update from an older checkpoint still work.
	first := after[len(after)-2] // the first run's input, applied
	forked, err := c.Invoke(ctx, graph.RunConfig[update]{ThreadID: thread, CheckpointID: first.ID, Input: update{Log: []string{"fork"}}})
	if err != nil {
		t.Fatalf("forking from an older checkpoint: %v", err)
	}
	if want := []string{"one", "fork", "a", "b"}; !slices.Equal(forked.Log, want) {
		t.Fatalf("forked state = %v, want %v", forked.Log, want)
	}
	cp, err := c.UpdateState(ctx, thread, first.ID, update{Log: []string{"edited"}}, "b")
	if err != nil {
		t.Fatalf("updating an older checkpoint: %v", err)
	}
	if latest, _ := s.Latest(ctx, thread); latest.ID != cp.ID || latest.ParentID != first.ID {
		t.Fatalf("the update is not the head, or not a child of the older checkpoint")
	}
	if n := len(list(t, s, thread, graph.ListOptions{})); n != len(after)+5 {
		t.Fatalf("after a fork and an update the thread holds %d checkpoints, want %d", n, len(after)+5)
	}
}
