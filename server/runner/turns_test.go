package runner

import (
	"context"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// The runner's runs share its turns on the cores: with one turn, held by
// a run inside a tool call, another traveller's run shows its first step
// (extraction's update) and calls no tool until the turn comes back.
func TestRunsShareTheRunnersTurns(t *testing.T) {
	gate := plannertest.Held()
	r, st := testRunner(t, gate)
	r.turns = graph.NewTurns(1, time.Hour)
	r.Start()
	owner1, run1 := queueTurn(t, st, plannertest.Lisbon)
	if u := within(t, gate.Started, "the first run's tool call"); u != owner1 {
		t.Fatalf("the first tool call acts for %s, want %s", u, owner1)
	}
	owner2, run2 := queueTurn(t, st, plannertest.Lisbon)
	waitFor(t, "the second run's first step", func() bool {
		events, err := st.ForOwner(owner2).RunEvents(context.Background(), run2.ID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range events {
			if e.Event == "updates" {
				return true
			}
		}
		return false
	})
	select {
	case u := <-gate.Started:
		t.Fatalf("the run of %s called a tool while the only turn was held", u)
	case <-time.After(200 * time.Millisecond):
	}
	close(gate.Release)
	if u := within(t, gate.Started, "the second run's tool call"); u != owner2 {
		t.Fatalf("the second tool call acts for %s, want %s", u, owner2)
	}
	for owner, id := range map[string]string{owner1: run1.ID, owner2: run2.ID} {
		if _, done := storetest.Finish(t, st, owner, id); done.Status != store.RunSuccess {
			t.Fatalf("run %s ended %s (%q)", id, done.Status, done.Error)
		}
	}
}
