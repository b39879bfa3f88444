package checkpoint

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/graph"
)

// readCounting counts the engine's reads of a thread's head.
type readCounting struct {
	*Owned
	reads atomic.Int32
}

func (r *readCounting) Latest(ctx context.Context, thread string) (graph.Checkpoint, error) {
	r.reads.Add(1)
	return r.Owned.Latest(ctx, thread)
}

// Two processes (two savers, each with its own cache) run turns on one
// thread in turn. A process starts a run from the head it knows without
// reading it; when the other process wrote since, the input's
// compare-and-set refuses it and the run reads the head and starts again:
// every run sees the other's last checkpoint, no update is lost, and a
// process that runs twice in a row reads nothing the second time.
func TestTwoProcessesTakingTurnsOnAThread(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	owner, _ := newThread(t, s, "turns")
	procs := [2]*readCounting{
		{Owned: New(s.Pool, Options{}).ForOwner(owner)},
		{Owned: New(s.Pool, Options{}).ForOwner(owner)},
	}
	graphs := [2]*graph.Compiled[chatState, chatUpdate]{tripGraph(t, procs[0], nil), tripGraph(t, procs[1], nil)}
	thread := uuid.NewString()
	order := []int{0, 1, 0, 0, 1, 1, 0, 1, 0, 1}
	var want []string
	for turn, p := range order {
		readsBefore := procs[p].reads.Load()
		final, err := graphs[p].Invoke(ctx, graph.RunConfig[chatUpdate]{ThreadID: thread, Input: humanInput(turn)})
		if err != nil {
			t.Fatalf("turn %d in process %d: %v", turn, p, err)
		}
		want = append(want, fmt.Sprintf("h%d", turn), fmt.Sprintf("a%d", 2*turn+1))
		var got []string
		for _, m := range final.Messages {
			got = append(got, m.ID)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("turn %d in process %d ended with messages %v, want %v", turn, p, got, want)
		}
		wantReads := int32(1) // a new thread's, or the other process wrote last
		if turn > 0 && order[turn-1] == p {
			wantReads = 0
		}
		if n := procs[p].reads.Load() - readsBefore; n != wantReads {
			t.Errorf("turn %d in process %d read the head %d times, want %d", turn, p, n, wantReads)
		}
	}
	history, err := procs[0].List(ctx, thread, graph.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(history) != 5*len(order) {
		t.Fatalf("the thread holds %d checkpoints, want %d (5 a turn)", len(history), 5*len(order))
	}
	for i, cp := range history[:len(history)-1] {
		if cp.ParentID != history[i+1].ID {
			t.Fatalf("checkpoint %s follows %s, not the one before it, %s", cp.ID, cp.ParentID, history[i+1].ID)
		}
	}
}

// The head a saver knows is the newest checkpoint it wrote, for its
// owner's checkpointers only, and for a run's only when its writes carry
// no companion: a batch refused because the head moved still commits the
// companion's statements, so that run reads the head.
func TestKnownHeadIsTheOwnersWithoutACompanion(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	owner, thread := newThread(t, s, "known")
	other, _ := newThread(t, s, "known-other")
	saver := New(s.Pool, Options{}).ForOwner(owner)
	cp := graph.Checkpoint{ThreadID: thread, ID: newID(), Step: -1, State: []byte(`{"n":1}`), Next: []string{"a"},
		Metadata: graph.Metadata{Source: graph.SourceInput}}
	if err := saver.Put(ctx, cp, ""); err != nil {
		t.Fatal(err)
	}
	f := runFence(t, s, thread)
	for _, c := range []struct {
		name string
		k    graph.HeadKnower
		want bool
	}{
		{"the owner's", saver, true},
		{"a run's without a companion", saver.ForRun(f, nil), true},
		{"a run's with a companion", saver.ForRun(f, &noteCompanion{}), false},
		{"another owner's, on the same cache", saver.ForOwner(other), false},
	} {
		got, ok := c.k.KnownHead(thread)
		if ok != c.want {
			t.Errorf("%s: knows the head: %v, want %v", c.name, ok, c.want)
			continue
		}
		if ok && (got.ID != cp.ID || string(got.State) != string(cp.State) || got.Step != cp.Step || !slices.Equal(got.Next, cp.Next)) {
			t.Errorf("%s: knows %+v, want %+v", c.name, got, cp)
		}
	}
}
