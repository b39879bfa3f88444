package graph

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// A small state shaped like the trip planner's: an append-only log, a map
// and a routing hint.
type tstate struct {
	Log  []string       `json:"log,omitempty"`
	Tags map[string]int `json:"tags,omitempty"`
	Want string         `json:"want,omitempty"` // which branch the router picks
}

type tupdate struct {
	Log  []string `json:"log,omitempty"`
	Tag  string   `json:"tag,omitempty"`
	Want string   `json:"want,omitempty"`
}

// reduce is pure: it copies what it changes.
func reduce(s tstate, u tupdate) tstate {
	out := tstate{Log: slices.Concat(s.Log, u.Log), Tags: maps.Clone(s.Tags), Want: s.Want}
	if u.Tag != "" {
		if out.Tags == nil {
			out.Tags = map[string]int{}
		}
		out.Tags[u.Tag]++
	}
	if u.Want != "" {
		out.Want = u.Want
	}
	return out
}

// logNode returns a node that appends its own name to the log.
func logNode(name string) NodeFunc[tstate, tupdate] {
	return func(ctx context.Context, s tstate) (tupdate, error) {
		return tupdate{Log: []string{name}, Tag: name}, nil
	}
}

func routeWant(s tstate) string { return s.Want }

// plannerGraph is shaped like the trip planner: START routes to one of two
// nodes, both lead to a tool node, which ends.
func plannerGraph() *Graph[tstate, tupdate] {
	g := New(reduce)
	g.AddNode("classify", logNode("classify"))
	g.AddNode("extraction", logNode("extraction"))
	g.AddNode("callTools", logNode("callTools"))
	g.AddConditionalEdges(START, routeWant, "classify", "extraction")
	g.AddEdge("classify", "callTools")
	g.AddConditionalEdges("extraction", func(s tstate) string {
		if s.Tags["stop"] > 0 {
			return END
		}
		return "callTools"
	}, "callTools", END)
	g.AddEdge("callTools", END)
	return g
}

func mustCompile(t testing.TB, g *Graph[tstate, tupdate], cp Checkpointer) *Compiled[tstate, tupdate] {
	t.Helper()
	c, err := g.Compile(cp)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCompileErrors(t *testing.T) {
	noop := logNode("x")
	tests := []struct {
		name  string
		build func(g *Graph[tstate, tupdate])
		want  string
	}{
		{"edge to unknown node", func(g *Graph[tstate, tupdate]) {
			g.AddNode("a", noop).AddEdge(START, "a").AddEdge("a", "ghost")
		}, `edge from "a" to unknown node "ghost"`},
		{"edge from unknown node", func(g *Graph[tstate, tupdate]) {
			g.AddNode("a", noop).AddEdge(START, "a").AddEdge("a", END).AddEdge("ghost", "a")
		}, `edge from unknown node "ghost"`},
		{"duplicate node name", func(g *Graph[tstate, tupdate]) {
			g.AddNode("a", noop).AddNode("a", noop).AddEdge(START, "a").AddEdge("a", END)
		}, `duplicate node name "a"`},
		{"reserved node name", func(g *Graph[tstate, tupdate]) {
			g.AddNode(END, noop).AddNode("a", noop).AddEdge(START, "a").AddEdge("a", END)
		}, `node name "__end__" is reserved`},
		{"undeclared router target", func(g *Graph[tstate, tupdate]) {
			g.AddNode("a", noop).AddConditionalEdges(START, routeWant, "a", "nowhere").AddEdge("a", END)
		}, `router of "__start__" declares target "nowhere", which is not a node`},
		{"unreachable node", func(g *Graph[tstate, tupdate]) {
			g.AddNode("a", noop).AddNode("island", noop).AddEdge(START, "a").AddEdge("a", END).AddEdge("island", END)
		}, `node "island" cannot be reached from START`},
		{"no path to END", func(g *Graph[tstate, tupdate]) {
			g.AddNode("a", noop).AddNode("loop", noop).AddEdge(START, "a").
				AddConditionalEdges("a", routeWant, "loop", END).AddEdge("loop", "loop")
		}, `node "loop" has no path to END`},
		{"dead end counts as no path to END", func(g *Graph[tstate, tupdate]) {
			g.AddNode("a", noop).AddEdge(START, "a")
		}, `node "a" has no path to END`},
		{"no entry point", func(g *Graph[tstate, tupdate]) {
			g.AddNode("a", noop).AddEdge("a", END)
		}, "no entry point"},
		{"two edges from one node", func(g *Graph[tstate, tupdate]) {
			g.AddNode("a", noop).AddNode("b", noop).AddEdge(START, "a").AddEdge("a", "b").AddEdge("a", END).AddEdge("b", END)
		}, `node "a" already has an outgoing edge`},
		{"router without targets", func(g *Graph[tstate, tupdate]) {
			g.AddNode("a", noop).AddEdge(START, "a").AddConditionalEdges("a", routeWant)
		}, `conditional edges from "a" need a router and at least one target`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := New(reduce)
			tt.build(g)
			_, err := g.Compile(nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Compile() error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	if _, err := plannerGraph().Compile(nil); err != nil {
		t.Fatalf("a valid graph failed to compile: %v", err)
	}
}

func TestRoutingPaths(t *testing.T) {
	tests := []struct {
		name  string
		input tupdate
		want  []string
	}{
		{"classify branch", tupdate{Want: "classify"}, []string{"classify", "callTools"}},
		{"extraction branch", tupdate{Want: "extraction"}, []string{"extraction", "callTools"}},
		{"extraction ends the run", tupdate{Want: "extraction", Tag: "stop"}, []string{"extraction"}},
	}
	c := mustCompile(t, plannerGraph(), nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: newID(), Input: tt.input})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(s.Log, tt.want) {
				t.Fatalf("visited %v, want %v", s.Log, tt.want)
			}
		})
	}
}

func TestRouterReturnsUndeclaredTarget(t *testing.T) {
	c := mustCompile(t, plannerGraph(), nil)
	_, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: tid, Input: tupdate{Want: "callTools"}})
	var re *RouteError
	if !errors.As(err, &re) || re.From != START || re.Target != "callTools" {
		t.Fatalf("error = %v, want a RouteError from START to callTools", err)
	}
	if !strings.Contains(err.Error(), `router of "__start__" returned "callTools"`) {
		t.Fatalf("message %q does not name the node and the target", err)
	}
}

func TestEventOrder(t *testing.T) {
	g := New(reduce)
	g.AddNode("talk", func(ctx context.Context, s tstate) (tupdate, error) {
		Emit(ctx, "ui", "card")
		for _, tok := range []string{"hel", "lo"} {
			EmitToken(ctx, "m1", tok)
		}
		return tupdate{Log: []string{"hello"}}, nil
	})
	g.AddEdge(START, "talk").AddEdge("talk", END)
	c := mustCompile(t, g, nil)
	var got []string
	for ev, err := range c.Run(context.Background(), RunConfig[tupdate]{ThreadID: tid}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev.Kind.String()+":"+ev.Node+ev.Name+ev.Token+ev.MessageID)
	}
	want := []string{"run_started:", "checkpoint_saved:", "checkpoint_saved:", "node_started:talk", "custom:talkui",
		"token:talkhelm1", "token:talklom1", "node_finished:talk", "checkpoint_saved:talk", "run_finished:"}
	if !slices.Equal(got, want) {
		t.Fatalf("events\n got %v\nwant %v", got, want)
	}
}

// A custom event reaches the consumer while its node still runs: the node
// waits until the consumer has seen the event.
func TestCustomEventsStreamWhileNodeRuns(t *testing.T) {
	seen := make(chan struct{})
	g := New(reduce)
	g.AddNode("slow", func(ctx context.Context, s tstate) (tupdate, error) {
		Emit(ctx, "progress", 1)
		select {
		case <-seen:
			return tupdate{Log: []string{"done"}}, nil
		case <-ctx.Done():
			return tupdate{}, errors.New("the consumer never saw the event while the node ran")
		}
	})
	g.AddEdge(START, "slow").AddEdge("slow", END)
	c := mustCompile(t, g, nil)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for ev, err := range c.Run(ctx, RunConfig[tupdate]{ThreadID: tid}) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == Custom {
			close(seen)
		}
	}
}

func TestEmitOutsideANode(t *testing.T) {
	Emit(context.Background(), "x", nil) // dropped, and does not block
	EmitToken(context.Background(), "m", "x")
	if _, ok := Info(context.Background()); ok {
		t.Fatal("Info outside a node reported a run")
	}
}

func TestInfoInsideANode(t *testing.T) {
	var got RunInfo
	g := New(reduce)
	g.AddNode("a", func(ctx context.Context, s tstate) (tupdate, error) {
		got, _ = Info(ctx)
		return tupdate{}, nil
	})
	g.AddEdge(START, "a").AddEdge("a", END)
	c := mustCompile(t, g, nil)
	if _, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: tid, RunID: runID}); err != nil {
		t.Fatal(err)
	}
	if want := (RunInfo{ThreadID: tid, RunID: runID, Step: 1, Node: "a"}); got != want {
		t.Fatalf("Info = %+v, want %+v", got, want)
	}
}

func TestMermaid(t *testing.T) {
	got := mustCompile(t, plannerGraph(), nil).Mermaid()
	want := `graph TD
	__start__([START])
	classify(classify)
	extraction(extraction)
	callTools(callTools)
	__end__([END])
	__start__ -.->|classify| classify
	__start__ -.->|extraction| extraction
	classify --> callTools
	extraction -.->|callTools| callTools
	extraction -.->|__end__| __end__
	callTools --> __end__
`
	if got != want {
		t.Fatalf("Mermaid()\n%s\nwant\n%s", got, want)
	}
}

// Changing a Graph after Compile changes nothing in the compiled graph, and
// does not race with its runs (run with -race).
func TestCompiledIsASnapshot(t *testing.T) {
	g := plannerGraph()
	c := mustCompile(t, g, nil)
	before := c.Mermaid()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if _, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: newID(), Input: tupdate{Want: "classify"}}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for i := range 50 {
		name := fmt.Sprint("late", i)
		g.AddNode(name, logNode(name))
		g.AddEdge(name, END)
	}
	g.AddNode("classify2", logNode("x")).AddEdge(START, "classify2")
	wg.Wait()
	if after := c.Mermaid(); after != before {
		t.Fatalf("the compiled graph changed after Compile:\n%s", after)
	}
}

// A graph bound to another checkpointer saves there, and the original
// keeps its own.
func TestWithCheckpointer(t *testing.T) {
	first, second := NewMemorySaver(), NewMemorySaver()
	g := New(func(s int, u int) int { return s + u })
	g.AddNode("add", func(context.Context, int) (int, error) { return 1, nil })
	g.AddEdge(START, "add").AddEdge("add", END)
	c, err := g.Compile(first)
	if err != nil {
		t.Fatal(err)
	}
	thread := "01938a5e-0000-7000-8000-000000000001"
	if _, err := c.WithCheckpointer(second).Invoke(context.Background(), RunConfig[int]{ThreadID: thread}); err != nil {
		t.Fatal(err)
	}
	if _, err := second.Latest(context.Background(), thread); err != nil {
		t.Errorf("the bound graph did not save to its checkpointer: %v", err)
	}
	if _, err := first.Latest(context.Background(), thread); !errors.Is(err, ErrNotFound) {
		t.Errorf("the original checkpointer got a checkpoint: %v", err)
	}
}

// What a node's goroutines emit once its step is over is dropped, during
// the next node and after the run, and does not block them, whether or not
// the node emitted anything itself.
func TestLateEventsAreDropped(t *testing.T) {
	const senders = 20 // more than the run's buffer of events
	var fromA, fromB sync.WaitGroup
	sendLate := func(ctx context.Context, sent *sync.WaitGroup, gate chan struct{}) {
		for range senders {
			sent.Go(func() {
				<-gate
				for i := range 3 {
					Emit(ctx, "late", i)
				}
			})
		}
	}
	nextNode, runOver := make(chan struct{}), make(chan struct{})
	g := New(reduce)
	g.AddNode("a", func(ctx context.Context, s tstate) (tupdate, error) {
		Emit(ctx, "early", "a")
		sendLate(ctx, &fromA, nextNode)
		return tupdate{}, nil
	})
	g.AddNode("b", func(ctx context.Context, s tstate) (tupdate, error) {
		close(nextNode)
		fromA.Wait() // a's goroutines emit while b runs
		sendLate(ctx, &fromB, runOver)
		return tupdate{}, nil
	})
	g.AddEdge(START, "a").AddEdge("a", "b").AddEdge("b", END)
	var got []string
	for ev, err := range mustCompile(t, g, nil).Run(context.Background(), RunConfig[tupdate]{ThreadID: newID()}) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == Custom {
			got = append(got, ev.Node+":"+ev.Name)
		}
	}
	close(runOver) // b's goroutines emit after the run
	finished := make(chan struct{})
	go func() { fromB.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(timeout):
		t.Fatal("a goroutine emitting after its node's step is blocked")
	}
	if want := []string{"a:early"}; !slices.Equal(got, want) {
		t.Fatalf("custom events %v, want %v", got, want)
	}
}
