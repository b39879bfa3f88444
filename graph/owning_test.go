package graph

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// A MemorySaver keeps a copy of what Put is given, and of what a run
// hands out (to its consumer in events, to UpdateState's caller), so that
// changing those bytes changes nothing stored; what Invoke makes, which no
// one else holds, it keeps as it is. The pause's checkpoint has the state
// of the node's before it, which Invoke then stores once for both.
func TestMemorySaverCopiesWhatOthersHold(t *testing.T) {
	ctx := context.Background()
	g := New(reduce)
	g.AddNode("a", logNode("a"))
	g.AddNode("ask", func(ctx context.Context, _ tstate) (tupdate, error) {
		_, err := Interrupt[string](ctx, "which?")
		return tupdate{}, err
	})
	g.AddEdge(START, "a").AddEdge("a", "ask").AddEdge("ask", END)
	saver := NewMemorySaver()
	c := mustCompile(t, g, saver)

	invoked := newID()
	if _, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: invoked}); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("Invoke: %v, want it paused", err)
	}
	list := saver.threads[invoked]
	nodeCp, pause := list[len(list)-2], list[len(list)-1]
	if len(pause.Interrupts) == 0 || &pause.State[0] != &nodeCp.State[0] {
		t.Error("Invoke's pause checkpoint does not share its state with the node's before it: the saver copied what only the run held")
	}

	streamed := newID()
	var given [][]byte
	for ev, err := range c.Run(ctx, RunConfig[tupdate]{ThreadID: streamed}) {
		if err == nil && ev.Kind == CheckpointSaved {
			given = append(given, ev.Checkpoint.State)
		}
	}
	for _, state := range given {
		clear(state) // a consumer writing into what it was given, once the run is over
	}
	updated := newID()
	cp, err := c.UpdateState(ctx, updated, "", tupdate{Log: []string{"u"}}, START)
	if err != nil {
		t.Fatal(err)
	}
	clear(cp.State)
	put := Checkpoint{ThreadID: newID(), ID: newID(), State: []byte(`{"log":["p"]}`), Update: []byte(`{}`)}
	if err := saver.Put(ctx, put, ""); err != nil {
		t.Fatal(err)
	}
	clear(put.State)
	for _, thread := range []string{streamed, updated, put.ThreadID} {
		for _, stored := range saver.threads[thread] {
			if _, err := decode[tstate](stored.State); err != nil {
				t.Errorf("thread %s (%d), checkpoint %s: a stored state changed with the bytes handed out: %v", thread, slices.Index([]string{streamed, updated, put.ThreadID}, thread), stored.ID, err)
			}
		}
	}
}
