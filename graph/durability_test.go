package graph

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"
	"testing"
	"time"
)

// chainGraph is START → a → b → c → END, each logging its name.
func chainGraph() *Graph[tstate, tupdate] {
	g := New(reduce)
	for _, n := range []string{"a", "b", "c"} {
		g.AddNode(n, logNode(n))
	}
	return g.AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", "c").AddEdge("c", END)
}

func TestDurabilityModes(t *testing.T) {
	tests := []struct {
		mode      Durability
		wantSaved int // checkpoints stored by one run
	}{
		{"", 5},
		{DurabilitySync, 5},
		{DurabilityAsync, 5},
		{DurabilityExit, 1},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode), func(t *testing.T) {
			saver := NewMemorySaver()
			c := mustCompile(t, chainGraph(), saver)
			thread := newID()
			for turn := range 2 {
				var reported []string
				var finished bool
				for ev, err := range c.Run(context.Background(), RunConfig[tupdate]{ThreadID: thread, Durability: tt.mode, Input: tupdate{Log: []string{"in"}}}) {
					if err != nil {
						t.Fatal(err)
					}
					switch ev.Kind {
					case CheckpointSaved:
						if finished {
							t.Fatal("a checkpoint was reported after the run finished")
						}
						reported = append(reported, ev.Checkpoint.ID)
					case RunFinished:
						finished = true
					}
				}
				list := history(t, saver, thread)
				if len(list) != tt.wantSaved*(turn+1) {
					t.Fatalf("turn %d: the thread holds %d checkpoints, want %d", turn, len(list), tt.wantSaved*(turn+1))
				}
				stored := ids(list[:tt.wantSaved])
				slices.Reverse(stored)
				if !slices.Equal(reported, stored) {
					t.Fatalf("turn %d: reported %v, stored %v", turn, reported, stored)
				}
				for i := 0; i+1 < len(list); i++ {
					if list[i].ParentID != list[i+1].ID {
						t.Fatalf("turn %d: checkpoint %d does not follow the one stored before it", turn, i)
					}
				}
				s, _, _ := c.GetState(context.Background(), thread, "")
				if n := len(s.Log); n != 4*(turn+1) {
					t.Fatalf("turn %d: the latest state logs %d entries, want %d", turn, n, 4*(turn+1))
				}
			}
		})
	}
	_, err := mustCompile(t, chainGraph(), nil).Invoke(context.Background(), RunConfig[tupdate]{ThreadID: newID(), Durability: "often"})
	if err == nil {
		t.Fatal("an unknown durability was accepted")
	}
}

func ids(list []Checkpoint) []string {
	out := make([]string, len(list))
	for i, cp := range list {
		out[i] = cp.ID
	}
	return out
}

// A run that fails, pauses or is cancelled still writes its last good
// checkpoint in every mode.
func TestDurabilityWhenTheRunStopsEarly(t *testing.T) {
	for _, mode := range []Durability{DurabilitySync, DurabilityAsync, DurabilityExit} {
		t.Run(string(mode), func(t *testing.T) {
			g := New(reduce)
			g.AddNode("a", logNode("a"))
			g.AddNode("b", func(ctx context.Context, s tstate) (tupdate, error) { return tupdate{}, errors.New("b broke") })
			g.AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", END)
			saver := NewMemorySaver()
			thread := newID()
			_, err := mustCompile(t, g, saver).Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread, Durability: mode})
			if err == nil {
				t.Fatal("the run did not fail")
			}
			latest, err := saver.Latest(context.Background(), thread)
			if err != nil || latest.Node != "a" || !slices.Equal(latest.Next, []string{"b"}) {
				t.Fatalf("latest = after %q, next %v (%v); want a's checkpoint, b next", latest.Node, latest.Next, err)
			}
			ran := 0
			c := mustCompile(t, askGraph(&ran), saver)
			thread = newID()
			if _, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread, Durability: mode}); !errors.Is(err, ErrInterrupted) {
				t.Fatal(err)
			}
			if p := pending(t, c, thread); len(p) != 1 {
				t.Fatalf("the pause was not stored: %d pending", len(p))
			}
		})
	}
}

// Another writer moves the head during a run: the run fails with a
// conflict in every mode, and what the other writer wrote stays the head.
func TestDurabilityKeepsCompareAndSet(t *testing.T) {
	for _, mode := range []Durability{DurabilitySync, DurabilityAsync, DurabilityExit} {
		t.Run(string(mode), func(t *testing.T) {
			var c *Compiled[tstate, tupdate]
			var intruder Checkpoint
			g := New(reduce)
			g.AddNode("a", func(ctx context.Context, s tstate) (tupdate, error) {
				info, _ := Info(ctx)
				var err error
				// With async writes the run's input checkpoint may land
				// between the intruder's read and its write: the intruder
				// then loses and tries again over it, as a writer must.
				for range 10 {
					intruder, err = c.UpdateState(context.Background(), info.ThreadID, "", tupdate{Log: []string{"intruder"}}, START)
					if ce := (*ConflictError)(nil); !errors.As(err, &ce) {
						break
					}
				}
				return tupdate{Log: []string{"a"}}, err
			})
			g.AddNode("b", logNode("b"))
			g.AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", END)
			saver := NewMemorySaver()
			c = mustCompile(t, g, saver)
			thread := newID()
			if _, err := c.UpdateState(context.Background(), thread, "", tupdate{Log: []string{"seed"}}, "b"); err != nil {
				t.Fatal(err)
			}
			_, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread, Durability: mode, Input: tupdate{Log: []string{"in"}}})
			var ce *ConflictError
			if !errors.As(err, &ce) || ce.ThreadID != thread {
				t.Fatalf("error = %v, want a conflict on the thread", err)
			}
			if latest, _ := saver.Latest(context.Background(), thread); latest.ID != intruder.ID {
				t.Fatalf("the head is %s (after %q), not the other writer's %s", latest.ID, latest.Node, intruder.ID)
			}
		})
	}
}

// slowSaver holds the write of node a's checkpoint until released.
type slowSaver struct {
	*MemorySaver
	entered, release chan struct{}
}

func (s *slowSaver) Put(ctx context.Context, cp Checkpoint, head string) error {
	if cp.Node == "a" {
		close(s.entered)
		select {
		case <-s.release:
		case <-time.After(timeout): // a bound, so that a broken engine fails instead of hanging
			return errors.New("node a's checkpoint was held and never released")
		}
	}
	return s.MemorySaver.Put(ctx, cp, head)
}

// With DurabilityAsync the next node runs while the previous checkpoint is
// being written.
func TestAsyncWritesWhileTheNextStepRuns(t *testing.T) {
	saver := &slowSaver{MemorySaver: NewMemorySaver(), entered: make(chan struct{}), release: make(chan struct{})}
	g := New(reduce)
	g.AddNode("a", logNode("a"))
	g.AddNode("b", func(ctx context.Context, s tstate) (tupdate, error) {
		select {
		case <-saver.entered: // a's checkpoint is being written now
			close(saver.release)
			return tupdate{Log: []string{"b"}}, nil
		case <-time.After(timeout):
			return tupdate{}, errors.New("a's checkpoint write never started")
		}
	})
	g.AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", END)
	thread := newID()
	if _, err := mustCompile(t, g, saver).Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread, Durability: DurabilityAsync}); err != nil {
		t.Fatal(err)
	}
	if n := len(history(t, saver, thread)); n != 4 {
		t.Fatalf("the thread holds %d checkpoints, want 4", n)
	}
}

// batchSaver holds the write of the run's first checkpoint until released,
// and records the batches PutAll is given.
type batchSaver struct {
	*MemorySaver
	release chan struct{}
	mu      sync.Mutex
	batches []int
}

func (s *batchSaver) Put(ctx context.Context, cp Checkpoint, head string) error {
	if cp.Step == -1 {
		select {
		case <-s.release:
		case <-time.After(timeout):
			return errors.New("the first checkpoint was held and never released")
		}
	}
	return s.MemorySaver.Put(ctx, cp, head)
}

func (s *batchSaver) PutAll(ctx context.Context, cps []Checkpoint, head string) (int, error) {
	s.mu.Lock()
	s.batches = append(s.batches, len(cps))
	s.mu.Unlock()
	for i, cp := range cps {
		if err := s.Put(ctx, cp, head); err != nil {
			return i, err
		}
		head = cp.ID
	}
	return len(cps), nil
}

// With DurabilityAsync the checkpoints made while a write is under way are
// written together, and each is reported saved, in order.
func TestAsyncWritesWhatQueuedTogether(t *testing.T) {
	saver := &batchSaver{MemorySaver: NewMemorySaver(), release: make(chan struct{})}
	g := New(reduce)
	g.AddNode("a", logNode("a"))
	g.AddNode("b", func(ctx context.Context, s tstate) (tupdate, error) {
		close(saver.release) // a's checkpoint is queued behind the first, held until now
		return tupdate{Log: []string{"b"}}, nil
	})
	g.AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", END)
	thread := newID()
	wantSaved(t, mustCompile(t, g, saver).Run(context.Background(), RunConfig[tupdate]{ThreadID: thread, Durability: DurabilityAsync}), []int{-1, 0, 1, 2})
	if n := len(history(t, saver, thread)); n != 4 {
		t.Fatalf("the thread holds %d checkpoints, want 4", n)
	}
	saver.mu.Lock()
	defer saver.mu.Unlock()
	if len(saver.batches) == 0 || saver.batches[0] < 2 {
		t.Errorf("PutAll was given batches of %v; want the checkpoints queued behind the first written together", saver.batches)
	}
}

// A sync run saves its input's two checkpoints, pending then applied, in
// one batch where the checkpointer writes batches (no node runs between
// them), and each node's checkpoint alone. An input that cannot be
// applied (here its router panics) is saved pending, alone.
func TestSyncSavesTheInputInOneBatch(t *testing.T) {
	saver := &batchSaver{MemorySaver: NewMemorySaver(), release: make(chan struct{})}
	close(saver.release)
	thread := newID()
	wantSaved(t, mustCompile(t, chainGraph(), saver).Run(context.Background(), RunConfig[tupdate]{ThreadID: thread, Input: tupdate{Log: []string{"in"}}}), []int{-1, 0, 1, 2, 3})
	if !slices.Equal(saver.batches, []int{2}) {
		t.Errorf("PutAll was given batches of %v, want one of the input's two checkpoints", saver.batches)
	}

	g := New(reduce)
	g.AddNode("a", logNode("a"))
	g.AddConditionalEdges(START, func(tstate) string { panic("no way on") }, "a")
	g.AddEdge("a", END)
	stuck := newID()
	_, err := mustCompile(t, g, saver).Invoke(context.Background(), RunConfig[tupdate]{ThreadID: stuck, Input: tupdate{Log: []string{"in"}}})
	if err == nil {
		t.Fatal("a run whose router panics succeeded")
	}
	list := history(t, saver, stuck)
	if len(list) != 1 || !slices.Equal(list[0].Next, []string{START}) {
		t.Fatalf("the thread holds %d checkpoints (want 1, with its input pending)", len(list))
	}
}

// With InputDurable, a sync run saves its input's two checkpoints in one
// batch with its first node's: the thread is untouched while that node
// runs, and the run's checkpoints are the same as without it. A run that
// ends before another checkpoint (its first node fails, or a breakpoint
// stops it before that node) saves the input alone when it ends; async and
// exit runs are not changed by it.
func TestInputDurableSavesTheInputWithTheFirstStep(t *testing.T) {
	ctx := context.Background()
	saver := &batchSaver{MemorySaver: NewMemorySaver(), release: make(chan struct{})}
	close(saver.release)
	thread := newID()
	g := New(reduce)
	g.AddNode("a", func(ctx context.Context, s tstate) (tupdate, error) {
		if _, err := saver.Latest(ctx, thread); !errors.Is(err, ErrNotFound) {
			return tupdate{}, fmt.Errorf("while the first node runs, the thread's latest checkpoint: %v, want none", err)
		}
		return tupdate{Log: []string{"a"}}, nil
	})
	g.AddNode("b", logNode("b"))
	g.AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", END)
	wantSaved(t, mustCompile(t, g, saver).Run(ctx, RunConfig[tupdate]{ThreadID: thread, Input: tupdate{Log: []string{"in"}}, InputDurable: true}), []int{-1, 0, 1, 2})
	if !slices.Equal(saver.batches, []int{3}) {
		t.Errorf("PutAll was given batches of %v, want one of the input's two checkpoints and the first node's", saver.batches)
	}
	list := history(t, saver, thread)
	if len(list) != 4 || list[3].Metadata.Source != SourceInput || list[2].Node != "" || list[1].Node != "a" || list[1].ParentID != list[2].ID {
		t.Errorf("the thread holds %d checkpoints, want input pending, applied, a, b in a chain", len(list))
	}

	failing := New(reduce)
	failing.AddNode("a", func(context.Context, tstate) (tupdate, error) { return tupdate{}, errors.New("no") })
	failing.AddNode("b", logNode("b"))
	failing.AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", END)
	for _, tc := range []struct {
		name string
		g    *Graph[tstate, tupdate]
		cfg  RunConfig[tupdate]
	}{
		{"first node fails", failing, RunConfig[tupdate]{}},
		{"breakpoint before the first node", chainGraph(), RunConfig[tupdate]{InterruptBefore: []string{"a"}}},
		{"async", chainGraph(), RunConfig[tupdate]{Durability: DurabilityAsync, InterruptBefore: []string{"a"}}},
	} {
		cfg := tc.cfg
		cfg.ThreadID, cfg.Input, cfg.InputDurable = newID(), tupdate{Log: []string{"in"}}, true
		mustCompile(t, tc.g, saver).Invoke(ctx, cfg)
		list := history(t, saver, cfg.ThreadID)
		if len(list) != 2 || !slices.Equal(list[0].Next, []string{"a"}) || list[0].Metadata.Source != SourceLoop {
			t.Errorf("%s: the thread holds %d checkpoints, want the input pending and applied, a due", tc.name, len(list))
		}
	}
}

// wantSaved runs a run to its end and checks the steps its CheckpointSaved
// events report, in order.
func wantSaved(t *testing.T, run iter.Seq2[Event[tstate, tupdate], error], want []int) {
	t.Helper()
	var saved []int
	for ev, err := range run {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == CheckpointSaved {
			saved = append(saved, ev.Step)
		}
	}
	if !slices.Equal(saved, want) {
		t.Errorf("saved steps reported: %v, want %v", saved, want)
	}
}
