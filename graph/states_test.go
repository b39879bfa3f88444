package graph

import (
	"context"
	"encoding/json"
	"slices"
	"sync/atomic"
	"testing"
)

// countedState is tstate that counts how often it is decoded.
type countedState struct{ tstate }

var stateDecodes atomic.Int64

func (s *countedState) UnmarshalJSON(b []byte) error {
	stateDecodes.Add(1)
	return json.Unmarshal(b, &s.tstate)
}

func countedGraph() *Graph[countedState, tupdate] {
	g := New(func(s countedState, u tupdate) countedState { return countedState{reduce(s.tstate, u)} })
	g.AddNode("a", func(_ context.Context, s countedState) (tupdate, error) {
		return tupdate{Log: []string{"a"}}, nil
	})
	g.AddEdge(START, "a").AddEdge("a", END)
	return g
}

// The next run on a thread starts from the state the last one ended on,
// not decoded again; any other checkpoint, or a graph that did not run the
// thread, decodes it from the saver.
func TestTheNextRunStartsFromTheStateTheLastEndedOn(t *testing.T) {
	ctx := context.Background()
	saver := NewMemorySaver()
	c, err := countedGraph().Compile(saver)
	if err != nil {
		t.Fatal(err)
	}
	turn := func(c *Compiled[countedState, tupdate], cfg RunConfig[tupdate]) countedState {
		t.Helper()
		cfg.ThreadID = tid
		s, err := c.Invoke(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	decodes := func(want int64, what string) {
		t.Helper()
		if got := stateDecodes.Swap(0); got != want {
			t.Errorf("%s decoded the state %d times, want %d", what, got, want)
		}
	}
	stateDecodes.Store(0)
	turn(c, RunConfig[tupdate]{Input: tupdate{Log: []string{"one"}}})
	decodes(0, "the first run")
	s := turn(c, RunConfig[tupdate]{Input: tupdate{Log: []string{"two"}}})
	decodes(0, "the second run")
	if want := []string{"one", "a", "two", "a"}; !slices.Equal(s.Log, want) {
		t.Fatalf("the second run ended with %v, want %v", s.Log, want)
	}
	if got, _, err := c.GetState(ctx, tid, ""); err != nil || !slices.Equal(got.Log, s.Log) {
		t.Fatalf("GetState = %v, %v; want %v", got.Log, err, s.Log)
	}
	decodes(0, "GetState of the newest checkpoint")

	// A fork starts from its own checkpoint, decoded unless it is where the
	// thread's last run ended: the graph keeps one state per thread.
	list := history(t, saver, tid)
	s = turn(c, RunConfig[tupdate]{CheckpointID: list[4].ID, Input: tupdate{Log: []string{"other"}}})
	decodes(1, "a fork from the middle of a run")
	if want := []string{"one", "other", "a"}; !slices.Equal(s.Log, want) {
		t.Fatalf("the fork ended with %v, want %v", s.Log, want)
	}
	s = turn(c, RunConfig[tupdate]{CheckpointID: list[3].ID, Input: tupdate{Log: []string{"other"}}})
	decodes(1, "a fork from the end of an earlier run")
	if want := []string{"one", "a", "other", "a"}; !slices.Equal(s.Log, want) {
		t.Fatalf("the fork ended with %v, want %v", s.Log, want)
	}

	// Another graph on the same saver has not seen the thread.
	other, err := countedGraph().Compile(saver)
	if err != nil {
		t.Fatal(err)
	}
	s = turn(other, RunConfig[tupdate]{Input: tupdate{Log: []string{"three"}}})
	decodes(1, "a run on a graph that had not run the thread")
	if want := []string{"one", "a", "other", "a", "three", "a"}; !slices.Equal(s.Log, want) {
		t.Fatalf("the run on the other graph ended with %v, want %v", s.Log, want)
	}
	// Copies made with WithCheckpointer share what the graph keeps.
	turn(other.WithCheckpointer(saver), RunConfig[tupdate]{Input: tupdate{Log: []string{"four"}}})
	decodes(0, "a run on a copy made with WithCheckpointer")
}

// Each state kept is charged its entry's bookkeeping besides its JSON, so
// that many small states cannot hold several times the cache's bytes.
func TestSmallStatesAreChargedTheirEntries(t *testing.T) {
	d := newDecodedStates[tstate]()
	const size = len(`{}`)
	fit := int(stateCacheBytes / (int64(size) + d.entryBytes))
	threads := make([]string, fit+1)
	for i := range threads {
		threads[i] = newID()
		d.keep(threads[i], "checkpoint", tstate{}, size)
	}
	if _, ok := d.states.Get(threads[0]); ok {
		t.Fatalf("%d small states were kept where %d fit", len(threads), fit)
	}
	if _, ok := d.states.Get(threads[fit]); !ok {
		t.Fatal("the newest state was not kept")
	}
}
