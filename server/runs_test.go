package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/plannertest"
)

// runHarness is a server with its runner started, on tools from gate.
func runHarness(t *testing.T, gate *plannertest.Gate) *harness {
	t.Helper()
	return runHarnessLimited(t, gate, testLimits())
}

// runHarnessLimited is runHarness with limits.
func runHarnessLimited(t *testing.T, gate *plannertest.Gate, limits httpx.Limits) *harness {
	t.Helper()
	st := migratedStore(t)
	return runHarnessOn(t, st, gate.Tools, func(cfg *Config) { cfg.Limits = limits })
}

// runHarnessOn is a server on st with its runner started, running the
// planner on tools, configured as newServerOn does and then by tune.
func runHarnessOn(t *testing.T, st *store.Store, tools func(mcpbridge.User) nodes.Tools, tune func(*Config)) *harness {
	t.Helper()
	h := &harness{t: t, st: st, logs: &syncBuffer{}}
	// The database is shared by the package's tests: once this server has
	// stopped, the runs it leaves unfinished must not be taken up by the
	// next test's workers, so its users' threads go with it.
	t.Cleanup(func() {
		if _, err := st.Pool.Exec(context.Background(), `DELETE FROM threads WHERE owner_id = ANY($1::uuid[])`, []string{h.alice.ID, h.bob.ID}); err != nil {
			t.Errorf("deleting the test's threads: %v", err)
		}
	})
	planner := plannertest.Planner(t)
	h.srv, h.planner, h.tools = newServerTuned(t, st, planner, tools, h.logs, tune), planner, tools
	h.anyThread = planner.For(nodes.Traveller{Tools: nodes.FuncTools{}}, st.Checkpoints)
	h.srv.Start()
	ts := httptest.NewServer(h.srv.Handler())
	t.Cleanup(ts.Close)
	h.url = ts.URL
	h.alice, h.aliceKey = newUser(t, st)
	h.bob, h.bobKey = newUser(t, st)
	return h
}

// runBody is a run body with the person's message.
func runBody(text string) string {
	return fmt.Sprintf(`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":%q}]}}`, text)
}

type runJSON struct {
	RunID       string `json:"run_id"`
	ThreadID    string `json:"thread_id"`
	AssistantID string `json:"assistant_id"`
	Status      string `json:"status"`
}

func TestBackgroundRunJoinedAndListed(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	tid := h.thread(h.aliceKey, "")
	r := h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.aliceKey, runBody(plannertest.Lisbon))
	var run runJSON
	r.decode(t, &run)
	if run.ThreadID != tid || uuid.Validate(run.RunID) != nil {
		t.Fatalf("created run %s", r.body)
	}
	if loc := r.header.Get("Content-Location"); loc != "/threads/"+tid+"/runs/"+run.RunID {
		t.Fatalf("Content-Location %q", loc)
	}
	var values nodes.State
	h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID+"/join", h.aliceKey, "").decode(t, &values)
	if len(values.Messages) < 2 || values.Messages[0].Content != plannertest.Lisbon || values.TripDetails == nil ||
		values.TripDetails.Location != "Lisbon" {
		t.Fatalf("joined values %+v", values)
	}
	h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID, h.aliceKey, "").decode(t, &run)
	if run.Status != "success" {
		t.Fatalf("joined run is %s", run.Status)
	}
	var waited nodes.State
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.aliceKey, runBody("thanks")).decode(t, &waited)
	if len(waited.Messages) != len(values.Messages)+2 || waited.Messages[len(values.Messages)].Content != "thanks" {
		t.Fatalf("waited values have %d messages after %d", len(waited.Messages), len(values.Messages))
	}
	var list []runJSON
	h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs?limit=5", h.aliceKey, "").decode(t, &list)
	if len(list) != 2 || list[1].RunID != run.RunID {
		t.Fatalf("listed runs %+v", list)
	}
	h.must(http.StatusNotFound, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID, h.bobKey, "")
	h.must(http.StatusNotFound, http.MethodGet, "/threads/"+tid+"/runs", h.bobKey, "")
	other := h.thread(h.aliceKey, "")
	h.must(http.StatusNotFound, http.MethodGet, "/threads/"+other+"/runs/"+run.RunID, h.aliceKey, "")
}

func TestRunBodiesAreChecked(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	tid := h.thread(h.aliceKey, "")
	fresh := uuid.NewString()
	tests := []struct {
		name, path, body string
		key              string
		status           int
	}{
		{"unknown field", tid, `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hi"}]},"colour":1}`, h.aliceKey, 422},
		{"no assistant", tid, `{"input":{"messages":[{"role":"user","content":"hi"}]}}`, h.aliceKey, 422},
		{"unknown assistant", tid, `{"assistant_id":"other","input":{"messages":[{"role":"user","content":"hi"}]}}`, h.aliceKey, 404},
		{"no input on an empty thread", tid, `{"assistant_id":"trip-planner"}`, h.aliceKey, 422},
		{"input and command", tid, `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hi"}]},"command":{"resume":true}}`, h.aliceKey, 422},
		{"ai message as input", tid, `{"assistant_id":"trip-planner","input":{"messages":[{"role":"ai","content":"hi"}]}}`, h.aliceKey, 422},
		{"no messages nor booking", tid, `{"assistant_id":"trip-planner","input":{"messages":[]}}`, h.aliceKey, 422},
		{"booking request without dates", tid, `{"assistant_id":"trip-planner","input":{"bookingRequest":{"id":"h1","guests":2}}}`, h.aliceKey, 422},
		{"booking request for too many", tid, `{"assistant_id":"trip-planner","input":{"bookingRequest":{"id":"h1","startDate":"2027-05-03","endDate":"2027-05-07","guests":21}}}`, h.aliceKey, 422},
		{"empty message", tid, `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"  "}]}}`, h.aliceKey, 400},
		{"an answer with nothing waiting for it", tid, `{"assistant_id":"trip-planner","command":{"resume":{"confirmed":true,"key":"1.x"}}}`, h.aliceKey, 409},
		{"an answer on another user's thread", tid, `{"assistant_id":"trip-planner","command":{"resume":{"confirmed":true,"key":"1.x"}}}`, h.bobKey, 404},
		{"an answer on a missing thread", fresh, `{"assistant_id":"trip-planner","command":{"resume":{"confirmed":true,"key":"1.x"}},"if_not_exists":"create"}`, h.aliceKey, 404},
		{"goto an unknown node", tid, `{"assistant_id":"trip-planner","command":{"goto":"nowhere"}}`, h.aliceKey, 422},
		{"unknown stream mode", tid, `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hi"}]},"stream_mode":"thoughts"}`, h.aliceKey, 422},
		{"a start from a checkpoint the thread has not", tid, fmt.Sprintf(`{"assistant_id":"trip-planner","checkpoint_id":%q,"input":{"messages":[{"role":"user","content":"hi"}]}}`, uuid.NewString()), h.aliceKey, 404},
		{"a goto on a thread with no state", tid, `{"assistant_id":"trip-planner","command":{"goto":"extraction"}}`, h.aliceKey, 400},
		{"content blocks that are not text", tid, `{"assistant_id":"trip-planner","input":{"messages":[{"type":"human","content":[{"type":"image_url","image_url":"x"}]}]}}`, h.aliceKey, 422},
		{"recursion limit out of range", tid, `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hi"}]},"config":{"recursion_limit":0.5}}`, h.aliceKey, 422},
		{"another user's thread", tid, runBody("hi"), h.bobKey, 404},
		{"missing thread", fresh, runBody("hi"), h.aliceKey, 404},
		{"missing thread created", fresh, `{"assistant_id":"trip-planner","input":{"messages":[{"type":"human","content":"hi"}]},"if_not_exists":"create"}`, h.aliceKey, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.with(t).must(tt.status, http.MethodPost, "/threads/"+tt.path+"/runs/wait", tt.key, tt.body)
		})
	}
}

func TestCancelAndRejectWhileRunning(t *testing.T) {
	gate := &plannertest.Gate{Started: make(chan string, 4), Release: make(chan struct{})}
	h := runHarness(t, gate)
	tid := h.thread(h.aliceKey, "")
	var run runJSON
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.aliceKey, runBody(plannertest.Lisbon)).decode(t, &run)
	<-gate.Started
	r := h.must(http.StatusConflict, http.MethodPost, "/threads/"+tid+"/runs", h.aliceKey, runBody("again"))
	if r.errorCode(t) != "CONFLICT" {
		t.Fatalf("second run: %s", r.body)
	}
	var queued runJSON
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.aliceKey,
		`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"later"}]},"multitask_strategy":"enqueue"}`).decode(t, &queued)
	if queued.Status != "pending" {
		t.Fatalf("enqueued run is %s", queued.Status)
	}
	h.must(http.StatusNotFound, http.MethodPost, "/threads/"+tid+"/runs/"+run.RunID+"/cancel", h.bobKey, "")
	for _, action := range []string{"delete"} {
		r := h.must(http.StatusUnprocessableEntity, http.MethodPost, "/threads/"+tid+"/runs/"+run.RunID+"/cancel?action="+action, h.aliceKey, "")
		if !strings.Contains(string(r.body), `"field":"action"`) {
			t.Fatalf("cancel with action %s: %s", action, r.body)
		}
	}
	h.must(http.StatusNoContent, http.MethodPost, "/threads/"+tid+"/runs/"+run.RunID+"/cancel?wait=1&action=interrupt", h.aliceKey, "")
	h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID, h.aliceKey, "").decode(t, &run)
	if run.Status != "interrupted" {
		t.Fatalf("cancelled run is %s", run.Status)
	}
	close(gate.Release)
	var values nodes.State
	h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+queued.RunID+"/join", h.aliceKey, "").decode(t, &values)
	if n := len(values.Messages); n < 2 || values.Messages[n-2].Content != "later" {
		t.Fatalf("the queued run did not run after the cancelled one: %+v", values.Messages)
	}
}

// A failed run's wait answers its error object, named as LangGraph names
// it, which the clients raise; the thread is then in error.
func TestJoinedFailureIsAnErrorObject(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	tid := h.thread(h.aliceKey, "")
	body := `{"assistant_id":"trip-planner","config":{"recursion_limit":1},"input":{"messages":[{"role":"user","content":"hi"}]}}`
	r := h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.aliceKey, body)
	var out map[string]json.RawMessage
	r.decode(t, &out)
	if string(out["__error__"]) != `{"error":"GraphRecursionError","message":"Recursion limit of 1 reached without hitting a stop condition. You can increase the limit by setting the \"recursion_limit\" config key."}` {
		t.Fatalf("failed run answered %s", r.body)
	}
	var th struct{ Status string }
	if h.must(http.StatusOK, http.MethodGet, "/threads/"+tid, h.aliceKey, "").decode(t, &th); th.Status != "error" {
		t.Fatalf("thread after a failed run is %s, want error", th.Status)
	}
}

func TestCommandRun(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	tid := h.thread(h.aliceKey, "")
	var before nodes.State
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.aliceKey, runBody(plannertest.Lisbon)).decode(t, &before)
	body := `{"assistant_id":"trip-planner","command":{"update":{"tripDetails":{"location":"Porto","startDate":"2027-06-01","endDate":"2027-06-03","numberOfGuests":2}},"goto":"__end__"}}`
	var after nodes.State
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.aliceKey, body).decode(t, &after)
	if after.TripDetails == nil || after.TripDetails.Location != "Porto" || len(after.Messages) != len(before.Messages) {
		t.Fatalf("after the command: %+v, %d messages (before %d)", after.TripDetails, len(after.Messages), len(before.Messages))
	}
	bad := `{"assistant_id":"trip-planner","command":{"update":{"mood":"happy"}}}`
	r := h.must(http.StatusUnprocessableEntity, http.MethodPost, "/threads/"+tid+"/runs/wait", h.aliceKey, bad)
	var e struct {
		Fields []struct{ Field string } `json:"fields"`
	}
	r.decode(t, &e)
	if len(e.Fields) != 1 || e.Fields[0].Field != "command.update.mood" {
		t.Fatalf("refused command: %s", r.body)
	}
}

// multitask_strategy interrupt cancels the running run, keeps what it
// saved, and runs the new one after it has stopped.
func TestInterruptStrategy(t *testing.T) {
	gate := &plannertest.Gate{Started: make(chan string, 4), Release: make(chan struct{})}
	h := runHarness(t, gate)
	tid := h.thread(h.aliceKey, "")
	var first runJSON
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.aliceKey, runBody(plannertest.Lisbon)).decode(t, &first)
	<-gate.Started
	var values nodes.State
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.aliceKey,
		`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hello"}]},"multitask_strategy":"interrupt"}`).decode(t, &values)
	h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+first.RunID, h.aliceKey, "").decode(t, &first)
	if first.Status != "interrupted" {
		t.Fatalf("interrupted run is %s", first.Status)
	}
	if len(values.Messages) < 3 || values.Messages[0].Content != plannertest.Lisbon || values.TripDetails == nil {
		t.Fatalf("values after the interrupting run: %+v", values)
	}
	if n := len(values.Messages); values.Messages[n-2].Content != "hello" {
		t.Fatalf("the new run's message is not last: %+v", values.Messages)
	}
}

// multitask_strategy rollback cancels the running run and forks from the
// checkpoint before it: what it saved is no longer in the thread's state.
func TestRollbackStrategy(t *testing.T) {
	gate := &plannertest.Gate{Started: make(chan string, 4), Release: make(chan struct{})}
	h := runHarness(t, gate)
	tid := h.thread(h.aliceKey, "")
	var before nodes.State
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.aliceKey, runBody("hello there")).decode(t, &before)
	var first runJSON
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.aliceKey, runBody(plannertest.Lisbon)).decode(t, &first)
	<-gate.Started
	var values nodes.State
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.aliceKey,
		`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hello again"}]},"multitask_strategy":"rollback"}`).decode(t, &values)
	h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+first.RunID, h.aliceKey, "").decode(t, &first)
	if first.Status != "interrupted" {
		t.Fatalf("rolled back run is %s", first.Status)
	}
	for _, m := range values.Messages {
		if m.Content == plannertest.Lisbon {
			t.Fatalf("the rolled back run's message is still there: %+v", values.Messages)
		}
	}
	if values.TripDetails != nil || len(values.Messages) != len(before.Messages)+2 || values.Messages[len(before.Messages)].Content != "hello again" {
		t.Fatalf("values after the rollback: %+v", values)
	}
}

// Members of the run body that would change what a run does and that the
// server does not do are refused, each by name; the others are taken.
func TestRunOptionsRefusedOrTaken(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	tid := h.thread(h.aliceKey, "")
	body := func(extra string) string {
		return `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hi"}]}` + extra + `}`
	}
	refused := []struct{ extra, field string }{
		{`,"interrupt_before":["nowhere"]`, "interrupt_before"},
		{`,"interrupt_after":3`, "interrupt_after"},
		{`,"context":{"user":"x"}`, "context"},
		{`,"webhook":"https://example.com/hook"`, "webhook"},
		{`,"feedback_keys":["stars"]`, "feedback_keys"},
		{`,"after_seconds":-1`, "after_seconds"},
		{`,"durability":"never"`, "durability"},
		{`,"durability":"sync","checkpoint_during":false`, "checkpoint_during"},
		{`,"stream_mode":"thoughts"`, "stream_mode"},
		{`,"config":{"callbacks":[{"x":1}]}`, "config.callbacks"},
	}
	for _, tt := range refused {
		t.Run("refused "+tt.field, func(t *testing.T) {
			for _, route := range []string{"/threads/" + tid + "/runs/stream", "/runs/wait"} { // within the key's rate limit
				r := h.with(t).must(http.StatusUnprocessableEntity, http.MethodPost, route, h.aliceKey, body(tt.extra))
				var e struct {
					Fields []struct{ Field, Message string } `json:"fields"`
				}
				r.decode(t, &e)
				if len(e.Fields) != 1 || e.Fields[0].Field != tt.field || e.Fields[0].Message == "" {
					t.Fatalf("%s: %s", route, r.body)
				}
			}
		})
	}
	var threads []json.RawMessage
	h.must(http.StatusOK, http.MethodPost, "/threads/search", h.aliceKey, `{}`).decode(t, &threads)
	h.must(http.StatusUnprocessableEntity, http.MethodPost, "/runs/wait", h.aliceKey, `{"assistant_id":"trip-planner"}`)
	var after []json.RawMessage
	if h.must(http.StatusOK, http.MethodPost, "/threads/search", h.aliceKey, `{}`).decode(t, &after); len(after) != len(threads) {
		t.Fatalf("a stateless run refused for want of input left a thread: %d threads, were %d", len(after), len(threads))
	}
	for _, extra := range []string{`,"durability":"async","stream_subgraphs":true,"stream_resumable":true`,
		`,"checkpoint_during":true,"context":{},"interrupt_before":[],"interrupt_after":null,"webhook":"","feedback_keys":[],"after_seconds":0`,
		// what the official clients send: the Python client's raise_error, RemoteGraph's config
		`,"raise_error":true,"config":{"tags":["t"],"metadata":{"from":"config"},"configurable":{"user_id":"1"},"recursion_limit":25,"run_name":"x","run_id":"` + uuid.NewString() + `","max_concurrency":2}`} {
		h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.aliceKey, body(extra))
	}
}

// durability says when a run's checkpoints are written: every step with
// sync (the default) and async, only the last with exit.
func TestRunDurability(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	written := func(durability string) int {
		tid := h.thread(h.aliceKey, "")
		extra := ""
		if durability != "" {
			extra = fmt.Sprintf(`,"durability":%q`, durability)
		}
		var values nodes.State
		h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.aliceKey,
			`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"`+plannertest.Lisbon+`"}]}`+extra+`}`).decode(t, &values)
		if values.TripDetails == nil || values.TripDetails.Location != "Lisbon" {
			t.Fatalf("durability %q: values %+v", durability, values)
		}
		var history []json.RawMessage
		h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/history?limit=100", h.aliceKey, "").decode(t, &history)
		return len(history)
	}
	sync := written("")
	if sync < 3 {
		t.Fatalf("a sync run wrote %d checkpoints", sync)
	}
	for durability, want := range map[string]int{"sync": sync, "async": sync, "exit": 1} {
		if got := written(durability); got != want {
			t.Errorf("a run with durability %s wrote %d checkpoints, want %d", durability, got, want)
		}
	}
}

// interrupt_before and interrupt_after stop a run at a node: the run and
// its thread are interrupted, the state names the node due, and a run
// with no input goes on from there.
func TestBreakpointRuns(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	for _, tt := range []struct{ breakpoint, wantNext string }{
		{`"interrupt_before":["callTools"]`, "callTools"},
		{`"interrupt_after":"*"`, ""}, // after whichever node runs first
	} {
		t.Run(tt.breakpoint, func(t *testing.T) {
			tid := h.thread(h.aliceKey, "")
			var run runJSON
			h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.aliceKey,
				`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"`+plannertest.Lisbon+`"}]},`+tt.breakpoint+`}`).decode(t, &run)
			h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID+"/join", h.aliceKey, "")
			h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID, h.aliceKey, "").decode(t, &run)
			var thread struct{ Status string }
			h.must(http.StatusOK, http.MethodGet, "/threads/"+tid, h.aliceKey, "").decode(t, &thread)
			var state struct {
				Next  []string `json:"next"`
				Tasks []struct {
					Interrupts []any `json:"interrupts"`
				} `json:"tasks"`
			}
			h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/state", h.aliceKey, "").decode(t, &state)
			if run.Status != "interrupted" || thread.Status != "interrupted" || len(state.Next) != 1 ||
				(tt.wantNext != "" && state.Next[0] != tt.wantNext) || len(state.Tasks[0].Interrupts) != 0 {
				t.Fatalf("stopped run %s, thread %s, state %+v", run.Status, thread.Status, state)
			}
			var values nodes.State
			h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.aliceKey, `{"assistant_id":"trip-planner"}`).decode(t, &values)
			h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/state", h.aliceKey, "").decode(t, &state)
			h.must(http.StatusOK, http.MethodGet, "/threads/"+tid, h.aliceKey, "").decode(t, &thread)
			if len(state.Next) != 0 || thread.Status != "idle" || values.TripDetails == nil || len(values.Messages) != 2 {
				t.Fatalf("after going on: next %v, thread %s, values %+v", state.Next, thread.Status, values)
			}
		})
	}
}

// Cancelling with action=rollback puts the state before the run back as
// the thread's newest; the run's checkpoints stay in the history. A run
// that started its thread has nothing to roll back to.
func TestCancelWithRollback(t *testing.T) {
	gate := &plannertest.Gate{Started: make(chan string, 4), Release: make(chan struct{})}
	h := runHarness(t, gate)
	defer close(gate.Release)

	first := h.thread(h.aliceKey, "")
	var run runJSON
	h.must(http.StatusOK, http.MethodPost, "/threads/"+first+"/runs", h.aliceKey, runBody(plannertest.Lisbon)).decode(t, &run)
	<-gate.Started
	r := h.must(http.StatusConflict, http.MethodPost, "/threads/"+first+"/runs/"+run.RunID+"/cancel?action=rollback", h.aliceKey, "")
	if r.errorCode(t) != "CONFLICT" || !strings.Contains(string(r.body), "started the thread") {
		t.Fatalf("rolling back a thread's first run: %s", r.body)
	}

	tid := h.thread(h.aliceKey, "")
	var before nodes.State
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.aliceKey, runBody("hello there")).decode(t, &before)
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.aliceKey, runBody(plannertest.Lisbon)).decode(t, &run)
	<-gate.Started
	h.must(http.StatusNotFound, http.MethodPost, "/threads/"+tid+"/runs/"+run.RunID+"/cancel?action=rollback", h.bobKey, "")
	h.must(http.StatusNoContent, http.MethodPost, "/threads/"+tid+"/runs/"+run.RunID+"/cancel?action=rollback", h.aliceKey, "")
	var state struct {
		Values   nodes.State `json:"values"`
		Metadata struct {
			Source string `json:"source"`
		} `json:"metadata"`
	}
	h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/state", h.aliceKey, "").decode(t, &state)
	if len(state.Values.Messages) != len(before.Messages) || state.Values.TripDetails != nil || state.Metadata.Source != "update" {
		t.Fatalf("after the rollback the thread has %d messages (want %d), trip %+v, source %q",
			len(state.Values.Messages), len(before.Messages), state.Values.TripDetails, state.Metadata.Source)
	}
	var history []struct {
		Values nodes.State `json:"values"`
	}
	h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/history?limit=100", h.aliceKey, "").decode(t, &history)
	kept := false
	for _, st := range history {
		kept = kept || len(st.Values.Messages) > 0 && st.Values.Messages[len(st.Values.Messages)-1].Content == plannertest.Lisbon
	}
	if !kept {
		t.Fatal("the rolled back run's checkpoints are gone from the history")
	}
	h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID, h.aliceKey, "").decode(t, &run)
	if run.Status != "interrupted" {
		t.Fatalf("the rolled back run is %s", run.Status)
	}
}
