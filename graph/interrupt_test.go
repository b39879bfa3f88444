package graph

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// askGraph is START → ask → done → END; ask asks two questions and logs
// both answers, and counts how often it ran.
func askGraph(ran *int) *Graph[tstate, tupdate] {
	g := New(reduce)
	g.AddNode("ask", func(ctx context.Context, s tstate) (tupdate, error) {
		*ran++
		a1, err := Interrupt[string](ctx, "q1")
		if err != nil {
			return tupdate{}, err
		}
		a2, err := Interrupt[string](ctx, map[string]string{"question": "q2", "after": a1})
		if err != nil {
			return tupdate{}, err
		}
		return tupdate{Log: []string{a1, a2}}, nil
	})
	g.AddNode("done", logNode("done"))
	g.AddNode("other", logNode("other"))
	g.AddEdge(START, "ask").AddEdge("done", END)
	g.AddConditionalEdges("ask", func(s tstate) string {
		if s.Want == "other" {
			return "other"
		}
		return "done"
	}, "done", "other")
	g.AddEdge("other", END)
	return g
}

// runUntilEnd runs and returns the last event and its error.
func runUntilEnd(c *Compiled[tstate, tupdate], cfg RunConfig[tupdate]) (Event[tstate, tupdate], error) {
	var last Event[tstate, tupdate]
	var lastErr error
	for ev, err := range c.Run(context.Background(), cfg) {
		last, lastErr = ev, err
	}
	return last, lastErr
}

func pending(t *testing.T, c *Compiled[tstate, tupdate], thread string) []PendingInterrupt {
	t.Helper()
	_, cp, err := c.GetState(context.Background(), thread, "")
	if err != nil {
		t.Fatal(err)
	}
	return cp.Interrupts
}

func TestInterruptAndResume(t *testing.T) {
	ran := 0
	c := mustCompile(t, askGraph(&ran), nil)
	thread := newID()
	steps := []struct {
		name        string
		cfg         RunConfig[tupdate]
		wantKind    EventKind
		wantPayload string // of the pending interrupt
		wantAnswers []string
	}{
		{"the first question pauses the run", RunConfig[tupdate]{Input: tupdate{Log: []string{"hi"}}}, Interrupted, `"q1"`, nil},
		{"the first answer leads to the second question", RunConfig[tupdate]{Command: &Command[tupdate]{Resume: "a1"}},
			Interrupted, `{"after":"a1","question":"q2"}`, []string{`"a1"`}},
		{"the second answer finishes the run", RunConfig[tupdate]{Command: &Command[tupdate]{Resume: "a2"}}, RunFinished, "", nil},
	}
	for _, st := range steps {
		st.cfg.ThreadID = thread
		ev, err := runUntilEnd(c, st.cfg)
		if err != nil || ev.Kind != st.wantKind {
			t.Fatalf("%s: ended with %v (%v), want %v", st.name, ev.Kind, err, st.wantKind)
		}
		p := pending(t, c, thread)
		if st.wantPayload == "" {
			if len(p) != 0 {
				t.Fatalf("%s: %d interrupts still pending", st.name, len(p))
			}
			continue
		}
		if len(p) != 1 || string(p[0].Payload) != st.wantPayload || p[0].Node != "ask" || ev.Interrupt == nil || ev.Interrupt.ID != p[0].ID {
			t.Fatalf("%s: pending %+v (event %+v), want one of node ask with payload %s", st.name, p, ev.Interrupt, st.wantPayload)
		}
		var answers []string
		for _, a := range p[0].Answers {
			answers = append(answers, string(a))
		}
		if !slices.Equal(answers, st.wantAnswers) {
			t.Fatalf("%s: answers recorded %v, want %v", st.name, answers, st.wantAnswers)
		}
	}
	s, _, _ := c.GetState(context.Background(), thread, "")
	if want := []string{"hi", "a1", "a2", "done"}; !slices.Equal(s.Log, want) {
		t.Fatalf("final log = %v, want %v", s.Log, want)
	}
	if ran != 3 {
		t.Fatalf("ask ran %d times, want 3 (it starts again on each resume)", ran)
	}
}

func TestInvokeReportsAPause(t *testing.T) {
	ran := 0
	c := mustCompile(t, askGraph(&ran), nil)
	s, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: newID(), Input: tupdate{Log: []string{"hi"}}})
	if !errors.Is(err, ErrInterrupted) || !slices.Equal(s.Log, []string{"hi"}) {
		t.Fatalf("Invoke = %v, %v; want the state so far and ErrInterrupted", s.Log, err)
	}
}

func TestCommand(t *testing.T) {
	tests := []struct {
		name    string
		cmd     Command[tupdate]
		wantLog []string // after the command's run
		wantErr string
		pending bool // an interrupt is still pending afterwards
	}{
		{"goto another node drops the interrupt", Command[tupdate]{Goto: "other"}, []string{"hi", "other"}, "", false},
		{"goto END ends the thread", Command[tupdate]{Goto: END}, []string{"hi"}, "", false},
		{"update then resume", Command[tupdate]{Update: &tupdate{Log: []string{"edited"}}, Resume: "a1"},
			[]string{"hi", "edited"}, "", true},
		{"update alone keeps the interrupt pending and asks again", Command[tupdate]{Update: &tupdate{Log: []string{"edited"}}},
			[]string{"hi", "edited"}, "", true},
		{"goto an unknown node", Command[tupdate]{Goto: "ghost"}, nil, `unknown node "ghost"`, true},
		{"resume after goto elsewhere has nothing to answer", Command[tupdate]{Goto: "other", Resume: "x"}, nil, "no interrupt is pending", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran := 0
			c := mustCompile(t, askGraph(&ran), nil)
			thread := newID()
			if _, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread, Input: tupdate{Log: []string{"hi"}}}); !errors.Is(err, ErrInterrupted) {
				t.Fatal(err)
			}
			s, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread, Command: &tt.cmd})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
			} else if err != nil && !errors.Is(err, ErrInterrupted) {
				t.Fatal(err)
			} else if !slices.Equal(s.Log, tt.wantLog) {
				t.Fatalf("log = %v, want %v", s.Log, tt.wantLog)
			}
			if p := pending(t, c, thread); (len(p) > 0) != tt.pending {
				t.Fatalf("pending interrupts %+v, want pending %v", p, tt.pending)
			}
		})
	}
}

func TestResumeNeedsAPendingInterrupt(t *testing.T) {
	c := mustCompile(t, plannerGraph(), nil)
	thread := newID()
	if _, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread, Input: tupdate{Want: "classify"}}); err != nil {
		t.Fatal(err)
	}
	for _, th := range []string{thread, newID()} {
		_, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: th, Command: &Command[tupdate]{Resume: true}})
		if err == nil {
			t.Fatalf("resuming thread %s with nothing pending succeeded", th)
		}
	}
}

// A new input on a paused thread abandons the pending interrupt.
func TestNewInputAbandonsAPendingInterrupt(t *testing.T) {
	ran := 0
	c := mustCompile(t, askGraph(&ran), nil)
	thread := newID()
	c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread, Input: tupdate{Log: []string{"hi"}}})
	c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread, Input: tupdate{Log: []string{"again"}}})
	p := pending(t, c, thread)
	if len(p) != 1 || string(p[0].Payload) != `"q1"` || len(p[0].Answers) != 0 {
		t.Fatalf("pending = %+v, want a fresh first question", p)
	}
	if _, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread, Command: &Command[tupdate]{Goto: END}}); err != nil {
		t.Fatal(err)
	}
	s, _, _ := c.GetState(context.Background(), thread, "")
	if !slices.Equal(s.Log, []string{"hi", "again"}) {
		t.Fatalf("log = %v: a node's update leaked from a paused step", s.Log)
	}
}

// A node that swallows the pause still pauses the run, and its update is
// not kept.
func TestSwallowedInterruptStillPauses(t *testing.T) {
	g := New(reduce)
	g.AddNode("sly", func(ctx context.Context, s tstate) (tupdate, error) {
		Interrupt[bool](ctx, "ok?")
		return tupdate{Log: []string{"did it anyway"}}, nil
	})
	g.AddEdge(START, "sly").AddEdge("sly", END)
	c := mustCompile(t, g, nil)
	thread := newID()
	s, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread})
	if !errors.Is(err, ErrInterrupted) || len(s.Log) != 0 {
		t.Fatalf("Invoke = %v, %v; want a pause with nothing logged", s.Log, err)
	}
}

func TestAnswerOfTheWrongType(t *testing.T) {
	ran := 0
	c := mustCompile(t, askGraph(&ran), nil)
	thread := newID()
	c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread})
	_, err := c.Invoke(context.Background(), RunConfig[tupdate]{ThreadID: thread, Command: &Command[tupdate]{Resume: json.RawMessage(`{"not":"a string"}`)}})
	var ne *NodeError
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), "decoding the answer to interrupt 1") {
		t.Fatalf("an object answering a string question: %v, want the node's decoding error", err)
	}
}

func TestInterruptOutsideANode(t *testing.T) {
	if _, err := Interrupt[string](context.Background(), "q"); err == nil || errors.Is(err, ErrInterrupted) {
		t.Fatalf("Interrupt outside a node = %v, want a plain error", err)
	}
}

// Breakpoints stop a run before or after a node; a run that continues
// (Resume or a Command) goes on from there without stopping again at the
// same place. A breakpoint after the last node, or at no node the run
// reaches, stops nothing.
func TestBreakpoints(t *testing.T) {
	tests := []struct {
		name          string
		before, after []string
		wantStop      string   // the node due when the run stopped; "" when it finished
		wantLog       []string // the log when it stopped or finished
	}{
		{"before callTools", []string{"callTools"}, nil, "callTools", []string{"hi", "extraction"}},
		{"before the first node", []string{"extraction"}, nil, "extraction", []string{"hi"}},
		{"after extraction", nil, []string{"extraction"}, "callTools", []string{"hi", "extraction"}},
		{"after the last node", nil, []string{"callTools"}, "", []string{"hi", "extraction", "callTools"}},
		{"at a node not reached", []string{"classify"}, []string{"classify"}, "", []string{"hi", "extraction", "callTools"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustCompile(t, plannerGraph(), NewMemorySaver())
			thread := newID()
			cfg := RunConfig[tupdate]{ThreadID: thread, Input: tupdate{Log: []string{"hi"}, Want: "extraction"},
				InterruptBefore: tt.before, InterruptAfter: tt.after}
			last, err := runUntilEnd(c, cfg)
			if err != nil {
				t.Fatal(err)
			}
			s, cp, err := c.GetState(context.Background(), thread, "")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(s.Log, tt.wantLog) {
				t.Fatalf("log %v, want %v", s.Log, tt.wantLog)
			}
			if tt.wantStop == "" {
				if last.Kind != RunFinished {
					t.Fatalf("the run ended with %s, want run_finished", last.Kind)
				}
				return
			}
			if last.Kind != Interrupted || last.Interrupt != nil || last.Node != tt.wantStop || last.Step != cp.Step {
				t.Fatalf("the run ended with %s at %q step %d (interrupt %v), want a stop before %q at step %d",
					last.Kind, last.Node, last.Step, last.Interrupt, tt.wantStop, cp.Step)
			}
			if !slices.Equal(cp.Next, []string{tt.wantStop}) || len(cp.Interrupts) != 0 {
				t.Fatalf("stopped at a checkpoint with next %v, interrupts %v", cp.Next, cp.Interrupts)
			}
			if _, err := c.Invoke(context.Background(), cfg); !errors.Is(err, ErrInterrupted) {
				t.Fatalf("Invoke of a run that stops: %v", err)
			}
			c = mustCompile(t, plannerGraph(), NewMemorySaver())
			runUntilEnd(c, cfg)
			cfg.Resume = true
			if last, err := runUntilEnd(c, cfg); err != nil || last.Kind != RunFinished {
				t.Fatalf("resumed run ended with %s, %v", last.Kind, err)
			}
			if s, _, _ := c.GetState(context.Background(), thread, ""); !slices.Equal(s.Log, []string{"hi", "extraction", "callTools"}) {
				t.Fatalf("log after resuming %v", s.Log)
			}
		})
	}
}

func TestBreakpointAtAnUnknownNode(t *testing.T) {
	c := mustCompile(t, plannerGraph(), NewMemorySaver())
	last, err := runUntilEnd(c, RunConfig[tupdate]{ThreadID: newID(), Input: tupdate{Log: []string{"hi"}}, InterruptAfter: []string{"nowhere"}})
	if err == nil || last.Kind != RunFailed {
		t.Fatalf("a breakpoint at an unknown node: %s, %v", last.Kind, err)
	}
}

// A recovered run (its worker died after it wrote the thread's latest
// checkpoint) stops again where it had stopped, reporting the same stop,
// and otherwise goes on from there without running a node twice.
func TestRecover(t *testing.T) {
	ctx := context.Background()
	t.Run("paused: the same interrupt, the node not run again", func(t *testing.T) {
		ran := 0
		c := mustCompile(t, askGraph(&ran), nil)
		cfg := RunConfig[tupdate]{ThreadID: newID(), RunID: newID(), Input: tupdate{Log: []string{"hi"}}}
		first, _ := runUntilEnd(c, cfg)
		recovered, err := runUntilEnd(c, RunConfig[tupdate]{ThreadID: cfg.ThreadID, RunID: cfg.RunID, Recover: true})
		if err != nil || recovered.Kind != Interrupted || recovered.Interrupt == nil {
			t.Fatalf("recovered run ended with %v %v, want Interrupted", recovered.Kind, err)
		}
		if recovered.Interrupt.ID != first.Interrupt.ID || recovered.Step != first.Step || recovered.Node != first.Node {
			t.Errorf("recovered stop %+v, want %+v", recovered, first)
		}
		if ran != 1 {
			t.Errorf("the paused node ran %d times, want 1", ran)
		}
		if p := pending(t, c, cfg.ThreadID); len(p) != 1 || p[0].ID != first.Interrupt.ID {
			t.Errorf("pending interrupts %+v", p)
		}
	})
	for _, tc := range []struct {
		name          string
		before, after []string // the run's breakpoints
		cutAfter      string   // where the first attempt stopped, if not at a breakpoint
		wantKind      EventKind
		wantLog       []string
	}{
		{name: "at a breakpoint after a node", after: []string{"a"}, wantKind: Interrupted, wantLog: []string{"a"}},
		{name: "at a breakpoint before a node", before: []string{"b"}, wantKind: Interrupted, wantLog: []string{"a"}},
		{name: "cut off between nodes", cutAfter: "a", wantKind: RunFinished, wantLog: []string{"a", "b", "c"}},
		{name: "cut off, a breakpoint further on", cutAfter: "a", after: []string{"b"}, wantKind: Interrupted, wantLog: []string{"a", "b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustCompile(t, chainGraph(), nil)
			cfg := RunConfig[tupdate]{ThreadID: newID(), RunID: newID(), InterruptBefore: tc.before, InterruptAfter: tc.after}
			first := cfg
			if tc.cutAfter != "" { // the first attempt stops there, as if its process died
				first.InterruptAfter = []string{tc.cutAfter}
			}
			stop, _ := runUntilEnd(c, first)
			cfg.Recover = true
			ev, err := runUntilEnd(c, cfg)
			if err != nil || ev.Kind != tc.wantKind {
				t.Fatalf("recovered run ended with %v %v, want %v", ev.Kind, err, tc.wantKind)
			}
			if tc.cutAfter == "" && (ev.Step != stop.Step || ev.Node != stop.Node) {
				t.Errorf("recovered stop at step %d before %q, want step %d before %q", ev.Step, ev.Node, stop.Step, stop.Node)
			}
			state, _, err := c.GetState(ctx, cfg.ThreadID, "")
			if err != nil || !slices.Equal(state.Log, tc.wantLog) {
				t.Errorf("log %v (%v), want %v", state.Log, err, tc.wantLog)
			}
		})
	}
	t.Run("a thread with no checkpoint", func(t *testing.T) {
		c := mustCompile(t, chainGraph(), nil)
		if _, err := runUntilEnd(c, RunConfig[tupdate]{ThreadID: newID(), RunID: newID(), Recover: true}); err == nil {
			t.Error("recovering on an empty thread did not fail")
		}
	})
}
