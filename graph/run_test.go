package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// timeout bounds tests that would otherwise hang on a bug.
const timeout = 10 * time.Second

func history(t *testing.T, cp Checkpointer, thread string) []Checkpoint {
	t.Helper()
	list, err := cp.List(context.Background(), thread, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

func TestResumeStartsFromLatestCheckpoint(t *testing.T) {
	ctx := context.Background()
	saver := NewMemorySaver()
	c := mustCompile(t, plannerGraph(), saver)
	first, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: tid, Input: tupdate{Log: []string{"hi"}, Want: "extraction"}})
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: tid, Input: tupdate{Log: []string{"again"}, Want: "classify"}})
	if err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(first.Log), "again", "classify", "callTools")
	if !slices.Equal(second.Log, want) {
		t.Fatalf("second run's log = %v, want %v", second.Log, want)
	}
	// One unbroken chain: every checkpoint's parent is the one before it.
	list := history(t, saver, tid)
	if len(list) != 8 {
		t.Fatalf("thread has %d checkpoints, want 8 (the input pending, applied, and 2 nodes, twice)", len(list))
	}
	for i := 0; i+1 < len(list); i++ {
		if list[i].ParentID != list[i+1].ID || list[i].Step != list[i+1].Step+1 {
			t.Fatalf("checkpoint %d (step %d) does not follow %d (step %d)", i, list[i].Step, i+1, list[i+1].Step)
		}
	}
	if src := list[3].Metadata.Source; src != SourceInput || !slices.Equal(list[3].Next, []string{START}) {
		t.Fatalf("the second run's first checkpoint has source %q and next %v, want input and START", src, list[3].Next)
	}
	if src := list[2].Metadata.Source; src != SourceLoop || list[2].Node != "" {
		t.Fatalf("the second run's input was applied with source %q by %q, want loop by no node", src, list[2].Node)
	}
	if list[7].Step != -1 || list[6].Step != 0 {
		t.Fatalf("the first run's input checkpoints are steps %d and %d, want -1 and 0", list[7].Step, list[6].Step)
	}
}

// A run that failed part-way is resumed from its last good checkpoint, and
// runs only what had not run.
func TestResumeAfterFailure(t *testing.T) {
	ctx := context.Background()
	fail := true
	g := New(reduce)
	g.AddNode("a", logNode("a"))
	g.AddNode("b", func(ctx context.Context, s tstate) (tupdate, error) {
		if fail {
			return tupdate{}, errors.New("tool timed out")
		}
		return tupdate{Log: []string{"b"}}, nil
	})
	g.AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", END)
	c := mustCompile(t, g, nil)
	_, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: tid})
	var ne *NodeError
	if !errors.As(err, &ne) || ne.Node != "b" {
		t.Fatalf("first run: error = %v, want a NodeError from b", err)
	}
	fail = false
	s, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: tid, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Log, []string{"a", "b"}) {
		t.Fatalf("resumed log = %v, want [a b]: a must not run twice", s.Log)
	}
	if _, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: newID(), Resume: true}); err == nil {
		t.Fatal("resuming a thread with no checkpoint succeeded")
	}
}

func TestForkKeepsHistory(t *testing.T) {
	ctx := context.Background()
	saver := NewMemorySaver()
	c := mustCompile(t, plannerGraph(), saver)
	for _, in := range []string{"one", "two"} {
		if _, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: tid, Input: tupdate{Log: []string{in}, Want: "classify"}}); err != nil {
			t.Fatal(err)
		}
	}
	before := history(t, saver, tid)
	forkPoint := before[4] // the end of the first run
	s, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: tid, CheckpointID: forkPoint.ID,
		Input: tupdate{Log: []string{"other"}, Want: "extraction"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"one", "classify", "callTools", "other", "extraction", "callTools"}
	if !slices.Equal(s.Log, want) {
		t.Fatalf("forked log = %v, want %v", s.Log, want)
	}
	after := history(t, saver, tid)
	if len(after) != len(before)+4 {
		t.Fatalf("after the fork the thread has %d checkpoints, want %d", len(after), len(before)+4)
	}
	if !reflect.DeepEqual(after[4:], before) {
		t.Fatal("forking changed the old branch")
	}
	forked := after[3] // the branch's input, pending
	if forked.ParentID != forkPoint.ID || forked.Metadata.Source != SourceFork {
		t.Fatalf("the branch starts with parent %s source %q, want parent %s source fork",
			forked.ParentID, forked.Metadata.Source, forkPoint.ID)
	}
	if _, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: tid, CheckpointID: newID()}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("forking from a missing checkpoint: %v, want ErrNotFound", err)
	}
}

func TestUpdateState(t *testing.T) {
	ctx := context.Background()
	saver := NewMemorySaver()
	c := mustCompile(t, plannerGraph(), saver)
	if _, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: tid, Input: tupdate{Want: "classify"}}); err != nil {
		t.Fatal(err)
	}
	latest, _ := saver.Latest(ctx, tid)
	tests := []struct {
		name     string
		asNode   string
		wantNext []string
	}{
		{"as a node with a fixed edge", "classify", []string{"callTools"}},
		{"as START routes like input", START, []string{"classify"}},
		{"as the last node ends", "callTools", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp, err := c.UpdateState(ctx, tid, latest.ID, tupdate{Log: []string{"edited"}}, tt.asNode)
			if err != nil {
				t.Fatal(err)
			}
			if cp.Metadata.Source != SourceUpdate || cp.ParentID != latest.ID || !slices.Equal(cp.Next, tt.wantNext) {
				t.Fatalf("checkpoint source %q parent %s next %v; want update, %s, %v",
					cp.Metadata.Source, cp.ParentID, cp.Next, latest.ID, tt.wantNext)
			}
			s, _, err := c.GetState(ctx, tid, cp.ID)
			if err != nil {
				t.Fatal(err)
			}
			if s.Log[len(s.Log)-1] != "edited" {
				t.Fatalf("updated state's log = %v", s.Log)
			}
		})
	}
	if _, err := c.UpdateState(ctx, tid, "", tupdate{}, "ghost"); err == nil || !strings.Contains(err.Error(), `unknown node "ghost"`) {
		t.Fatalf("UpdateState as an unknown node: %v", err)
	}
	// After an update, resuming runs the node it chose.
	cp, _ := c.UpdateState(ctx, tid, "", tupdate{Want: "extraction"}, START)
	s, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: tid, CheckpointID: cp.ID, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Log[len(s.Log)-2:]; !slices.Equal(got, []string{"extraction", "callTools"}) {
		t.Fatalf("resumed after update ran %v", got)
	}
}

// An input saved pending (UpdateState as INPUT, or a run stopped between
// its two input checkpoints) leaves the state as it was, with START due; a
// run resumed there applies it, routes and runs the nodes.
func TestPendingInput(t *testing.T) {
	ctx := context.Background()
	saver := NewMemorySaver()
	c := mustCompile(t, plannerGraph(), saver)
	thread := newID()
	cp, err := c.UpdateState(ctx, thread, "", tupdate{Log: []string{"in"}, Want: "extraction"}, INPUT)
	if err != nil {
		t.Fatal(err)
	}
	if cp.Step != -1 || cp.Metadata.Source != SourceInput || !slices.Equal(cp.Next, []string{START}) {
		t.Fatalf("pending input: step %d source %q next %v, want -1, input, [%s]", cp.Step, cp.Metadata.Source, cp.Next, START)
	}
	if s, _, _ := c.GetState(ctx, thread, cp.ID); len(s.Log) != 0 {
		t.Fatalf("a pending input changed the state: %v", s.Log)
	}
	s, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: thread, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"in", "extraction", "callTools"}; !slices.Equal(s.Log, want) {
		t.Fatalf("resumed at a pending input: log %v, want %v", s.Log, want)
	}
	list := history(t, saver, thread)
	if applied := list[len(list)-2]; applied.Step != 0 || applied.Metadata.Source != SourceLoop || !slices.Equal(applied.Next, []string{"extraction"}) {
		t.Fatalf("the input applied: step %d source %q next %v, want 0, loop, [extraction]", applied.Step, applied.Metadata.Source, applied.Next)
	}
}

func TestCancel(t *testing.T) {
	t.Run("between nodes", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		saver := NewMemorySaver()
		c := mustCompile(t, plannerGraph(), saver)
		var err error
		var ran []string
		for ev, e := range c.Run(ctx, RunConfig[tupdate]{ThreadID: tid, Input: tupdate{Want: "classify"}}) {
			if ev.Kind == NodeFinished {
				ran = append(ran, ev.Node)
				cancel()
			}
			err = e
		}
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), `run cancelled after node "classify"`) {
			t.Fatalf("error = %v, want a cancellation after classify", err)
		}
		if !slices.Equal(ran, []string{"classify"}) {
			t.Fatalf("nodes run = %v, want only classify", ran)
		}
		if latest := history(t, saver, tid)[0]; latest.Node != "classify" || !slices.Equal(latest.Next, []string{"callTools"}) {
			t.Fatalf("latest checkpoint is after %q with next %v, want classify's, with callTools next", latest.Node, latest.Next)
		}
	})
	// A node that ignores its context and is slow: Run waits for it, so its
	// side effect has happened when Run returns, and the history keeps its
	// update if it returned one.
	tests := []struct {
		name     string
		fail     bool // the node notices the cancellation and returns ctx.Err()
		wantKept bool
	}{
		{"a node that finishes is saved", false, true},
		{"a node that fails is not", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var booked atomic.Bool
			g := New(reduce)
			g.AddNode("book", func(nodeCtx context.Context, s tstate) (tupdate, error) {
				cancel()
				time.Sleep(50 * time.Millisecond) // slow, and deaf to nodeCtx
				booked.Store(true)
				if tt.fail {
					return tupdate{}, nodeCtx.Err()
				}
				return tupdate{Log: []string{"booked"}}, nil
			})
			g.AddEdge(START, "book").AddEdge("book", END)
			saver := NewMemorySaver()
			thread := newID()
			_, err := mustCompile(t, g, saver).Invoke(ctx, RunConfig[tupdate]{ThreadID: thread})
			if !booked.Load() {
				t.Fatal("Run returned before the node did")
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error = %v, want a cancellation", err)
			}
			latest := history(t, saver, thread)[0]
			if kept := latest.Node == "book"; kept != tt.wantKept {
				t.Fatalf("the node's update kept = %v, want %v (latest checkpoint after %q)", kept, tt.wantKept, latest.Node)
			}
		})
	}
	t.Run("consumer stops iterating", func(t *testing.T) {
		saver := NewMemorySaver()
		var sawCancel atomic.Bool
		g := New(reduce)
		g.AddNode("a", func(ctx context.Context, s tstate) (tupdate, error) {
			Emit(ctx, "progress", 1)
			<-ctx.Done()             // the consumer has gone
			Emit(ctx, "progress", 2) // dropped, and the node is not failed
			sawCancel.Store(true)
			return tupdate{Log: []string{"a"}}, nil
		})
		g.AddNode("b", logNode("b"))
		g.AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", END)
		c := mustCompile(t, g, saver)
		for ev := range c.Run(context.Background(), RunConfig[tupdate]{ThreadID: tid}) {
			if ev.Kind == Custom {
				break
			}
		}
		if !sawCancel.Load() {
			t.Fatal("Run returned before the node did")
		}
		list := history(t, saver, tid)
		if len(list) != 3 || list[0].Node != "a" {
			t.Fatalf("after stopping in node a the thread has %d checkpoints, the latest after %q; want 3, a's", len(list), list[0].Node)
		}
	})
}

func TestStepLimit(t *testing.T) {
	looping := func() *Graph[tstate, tupdate] {
		g := New(reduce)
		g.AddNode("again", logNode("again"))
		g.AddEdge(START, "again")
		g.AddConditionalEdges("again", func(s tstate) string {
			if len(s.Log) >= 100 {
				return END
			}
			return "again"
		}, "again", END)
		return g
	}
	tests := []struct {
		limit, want int
	}{{0, DefaultStepLimit}, {3, 3}}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.limit), func(t *testing.T) {
			s, err := mustCompile(t, looping(), nil).Invoke(context.Background(), RunConfig[tupdate]{ThreadID: tid, StepLimit: tt.limit})
			var sl *StepLimitError
			if !errors.As(err, &sl) || sl.Limit != tt.want || sl.Next != "again" {
				t.Fatalf("error = %v, want a StepLimitError of %d", err, tt.want)
			}
			_ = s
		})
	}
}

func TestPanicInNodeKeepsLastCheckpoint(t *testing.T) {
	ctx := context.Background()
	saver := NewMemorySaver()
	g := New(reduce)
	g.AddNode("ok", logNode("ok"))
	g.AddNode("boom", func(context.Context, tstate) (tupdate, error) { panic("nil map write") })
	g.AddEdge(START, "ok").AddEdge("ok", "boom").AddEdge("boom", END)
	c := mustCompile(t, g, saver)
	_, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: tid})
	var ne *NodeError
	var pe *PanicError
	if !errors.As(err, &ne) || ne.Node != "boom" || !errors.As(err, &pe) || len(pe.Stack) == 0 {
		t.Fatalf("error = %v, want a NodeError naming boom that wraps a PanicError with a stack", err)
	}
	latest, err := saver.Latest(ctx, tid)
	if err != nil {
		t.Fatal(err)
	}
	if latest.Node != "ok" || !slices.Equal(latest.Next, []string{"boom"}) {
		t.Fatalf("latest checkpoint is from %q with next %v; want ok's, with next [boom]", latest.Node, latest.Next)
	}
}

func TestPanicInReducerOrRouter(t *testing.T) {
	g := New(func(s tstate, u tupdate) tstate {
		if u.Tag == "bad" {
			panic("reducer bug")
		}
		return reduce(s, u)
	})
	g.AddNode("a", func(context.Context, tstate) (tupdate, error) { return tupdate{Tag: "bad"}, nil })
	g.AddNode("b", logNode("b"))
	g.AddConditionalEdges(START, func(s tstate) string {
		if s.Want == "panic" {
			panic("router bug")
		}
		return s.Want
	}, "a", "b")
	g.AddEdge("a", END).AddEdge("b", END)
	c := mustCompile(t, g, nil)
	for input, want := range map[string]string{"a": `reducing the update of "a"`, "panic": `routing after "__start__"`} {
		_, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: newID(), Input: tupdate{Want: input}})
		var pe *PanicError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), want) {
			t.Errorf("input %q: error = %v, want a panic error containing %q", input, err, want)
		}
	}
}

// Every state a run hands out must still encode to exactly what was
// checkpointed for it after all later steps ran. mutations runs a graph and
// returns how many steps broke that.
func mutations(t *testing.T, reducer func(tstate, tupdate) tstate) int {
	t.Helper()
	g := New(reducer)
	for _, n := range []string{"a", "b", "c", "d"} {
		g.AddNode(n, logNode(n))
	}
	g.AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", "c").AddEdge("c", "d").AddEdge("d", END)
	saver := NewMemorySaver()
	c := mustCompile(t, g, saver)
	type seen struct {
		state tstate
		saved []byte
	}
	var steps []seen
	for turn := range 3 {
		var last tstate
		for ev, err := range c.Run(context.Background(), RunConfig[tupdate]{ThreadID: tid, Input: tupdate{Log: []string{fmt.Sprint("turn", turn)}}}) {
			if err != nil {
				t.Fatal(err)
			}
			switch ev.Kind {
			case NodeFinished:
				last = ev.State
			case CheckpointSaved:
				if ev.Node != "" {
					steps = append(steps, seen{last, slices.Clone(ev.Checkpoint.State)})
				}
			}
		}
	}
	broken := 0
	for _, s := range steps {
		now, _ := json.Marshal(s.state)
		if !bytes.Equal(now, s.saved) {
			broken++
		}
	}
	return broken
}

func TestStatesAreImmutable(t *testing.T) {
	if n := mutations(t, reduce); n != 0 {
		t.Fatalf("%d checkpointed states changed after later steps", n)
	}
	// The check can fail: a reducer that appends into the slice it was given
	// (sharing its spare capacity) and writes into the given map is caught.
	aliasing := func(s tstate, u tupdate) tstate {
		s.Log = append(s.Log[:len(s.Log):cap(s.Log)], u.Log...)
		if s.Tags == nil {
			s.Tags = map[string]int{}
		}
		s.Tags[u.Tag]++
		return s
	}
	if n := mutations(t, aliasing); n == 0 {
		t.Fatal("a reducer that writes into its input went unnoticed")
	}
}

func TestConcurrentRunsOnOneCompiledGraph(t *testing.T) {
	c := mustCompile(t, plannerGraph(), nil)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			thread := threadIDs[i]
			_, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread, Input: tupdate{Want: "extraction"}})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// A consumer that stops at once leaves the thread as it was.
func TestStopBeforeAnything(t *testing.T) {
	saver := NewMemorySaver()
	c := mustCompile(t, plannerGraph(), saver)
	thread := newID()
	for range c.Run(context.Background(), RunConfig[tupdate]{ThreadID: thread, Input: tupdate{Want: "classify"}}) {
		break
	}
	if n := len(history(t, saver, thread)); n != 0 {
		t.Fatalf("a run stopped at its first event wrote %d checkpoints", n)
	}
}

// A head written by a process whose clock is ahead still gets children whose
// ids sort after it, in every durability mode.
func TestIDsSortAfterAHeadFromTheFuture(t *testing.T) {
	for _, mode := range []Durability{DurabilitySync, DurabilityAsync, DurabilityExit} {
		saver := NewMemorySaver()
		c := mustCompile(t, plannerGraph(), saver)
		thread := newID()
		future := "ffffffff-ffff-7fff-bfff-ffffffffff00" // the largest v7 ids, bar a few
		seed := Checkpoint{ThreadID: thread, ID: future, State: json.RawMessage(`{}`), Metadata: Metadata{Source: SourceInput}}
		if err := saver.Put(context.Background(), seed, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread, Durability: mode, Input: tupdate{Want: "classify"}}); err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		list := history(t, saver, thread)
		for i := 0; i+1 < len(list); i++ {
			if list[i].ID <= list[i+1].ID || list[i].ParentID != list[i+1].ID {
				t.Fatalf("%s: checkpoint %s does not follow %s", mode, list[i].ID, list[i+1].ID)
			}
		}
	}
}

// NodeStarted carries the state its node is given: the input's for the
// first node, then what the node before it left.
func TestNodeStartedCarriesTheNodesState(t *testing.T) {
	c := mustCompile(t, plannerGraph(), NewMemorySaver())
	want := []string{"hi"}
	started := 0
	for ev, err := range c.Run(context.Background(), RunConfig[tupdate]{ThreadID: tid, Input: tupdate{Log: []string{"hi"}, Want: "extraction"}}) {
		if err != nil {
			t.Fatal(err)
		}
		switch ev.Kind {
		case NodeStarted:
			started++
			if !slices.Equal(ev.State.Log, want) {
				t.Fatalf("node %s started with %v, want %v", ev.Node, ev.State.Log, want)
			}
		case NodeFinished:
			want = ev.State.Log
		}
	}
	if started != 2 {
		t.Fatalf("%d nodes started, want 2", started)
	}
}

// A run without input reports, as it starts, the checkpoint it continues
// from; a run with input reports none.
func TestRunStartedNamesWhereItContinues(t *testing.T) {
	ctx := context.Background()
	c := mustCompile(t, plannerGraph(), NewMemorySaver())
	thread := newID()
	first := func(cfg RunConfig[tupdate]) Event[tstate, tupdate] {
		for ev, err := range c.Run(ctx, cfg) {
			if err != nil {
				t.Fatal(err)
			}
			if ev.Kind == RunStarted {
				return ev
			}
		}
		t.Fatal("no RunStarted event")
		return Event[tstate, tupdate]{}
	}
	if ev := first(RunConfig[tupdate]{ThreadID: thread, Input: tupdate{Want: "classify"}}); ev.Checkpoint != nil {
		t.Fatalf("a run with input started from %+v, want none", ev.Checkpoint)
	}
	cp, err := c.UpdateState(ctx, thread, "", tupdate{Want: "extraction"}, START)
	if err != nil {
		t.Fatal(err)
	}
	if ev := first(RunConfig[tupdate]{ThreadID: thread, Resume: true}); ev.Checkpoint == nil || ev.Checkpoint.ID != cp.ID || ev.Step != cp.Step {
		t.Fatalf("a resumed run started from %+v, want checkpoint %s at step %d", ev.Checkpoint, cp.ID, cp.Step)
	}
}

// The input is the update of both of its checkpoints, the pending one and
// the one that applies it, whether applied at once or by a later run.
func TestInputIsTheUpdateOfItsTwoCheckpoints(t *testing.T) {
	ctx := context.Background()
	in := tupdate{Log: []string{"4 nights in Lisbon"}, Want: "extraction"}
	want, _ := json.Marshal(in)
	saver := NewMemorySaver()
	c := mustCompile(t, plannerGraph(), saver)
	byStep := func(thread string) map[int]Checkpoint {
		out := map[int]Checkpoint{}
		for _, cp := range history(t, saver, thread) {
			out[cp.Step] = cp
		}
		return out
	}
	now := newID()
	if _, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: now, Input: in}); err != nil {
		t.Fatal(err)
	}
	later := newID()
	if _, err := c.UpdateState(ctx, later, "", in, INPUT); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: later, Resume: true}); err != nil {
		t.Fatal(err)
	}
	for _, thread := range []string{now, later} {
		steps := byStep(thread)
		for _, step := range []int{-1, 0} {
			if got := steps[step].Update; !bytes.Equal(got, want) {
				t.Fatalf("step %d's update is %s, want the input %s", step, got, want)
			}
		}
	}
}

// Invoke, which has no consumer for what nodes emit, runs each node in
// the caller's goroutine: no goroutine's start, no channel per run. Run, whose
// consumer reads events while a node runs, starts one for the node.
func TestInvokeRunsNodesInItsGoroutine(t *testing.T) {
	var ran []int64
	g := New(reduce)
	g.AddNode("a", func(context.Context, tstate) (tupdate, error) {
		ran = append(ran, goroutineID())
		return tupdate{Log: []string{"a"}}, nil
	})
	g.AddEdge(START, "a").AddEdge("a", END)
	c := mustCompile(t, g, NewMemorySaver())
	if _, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: newID()}); err != nil {
		t.Fatal(err)
	}
	for _, err := range c.Run(context.Background(), RunConfig[tupdate]{ThreadID: newID()}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if own := goroutineID(); len(ran) != 2 || ran[0] != own || ran[1] == own {
		t.Fatalf("the node ran on goroutines %v; want Invoke's on the caller's (%d), Run's on another", ran, own)
	}
}

// goroutineID is the number runtime.Stack gives the calling goroutine.
func goroutineID() int64 {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id, _, _ := strings.Cut(strings.TrimPrefix(string(buf), "goroutine "), " ")
	n, _ := strconv.ParseInt(id, 10, 64)
	return n
}
