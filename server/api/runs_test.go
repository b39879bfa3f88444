package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// runHarness is a server with its runner started, on tools from gate.
func runHarness(t *testing.T, gate *plannertest.Gate, opts ...apptest.Option) *apptest.Server {
	t.Helper()
	return apptest.New(t, append([]apptest.Option{apptest.WithTools(gate.Tools), apptest.Started()}, opts...)...)
}

// limited configures a server with limits.
func limited(limits httpx.Limits) apptest.Option {
	return apptest.Tune(func(c *server.Config) { c.Limits = limits })
}

func TestBackgroundRunJoinedAndListed(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	tid := h.Thread(h.AliceKey, "")
	r := h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey, apptest.RunBody(plannertest.Lisbon))
	var run apptest.RunJSON
	r.Decode(t, &run)
	if run.ThreadID != tid || uuid.Validate(run.RunID) != nil {
		t.Fatalf("created run %s", r.Body)
	}
	if loc := r.Header.Get("Content-Location"); loc != "/threads/"+tid+"/runs/"+run.RunID {
		t.Fatalf("Content-Location %q", loc)
	}
	var values nodes.State
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID+"/join", h.AliceKey, "").Decode(t, &values)
	if len(values.Messages) < 2 || values.Messages[0].Content != plannertest.Lisbon || values.TripDetails == nil ||
		values.TripDetails.Location != "Lisbon" {
		t.Fatalf("joined values %+v", values)
	}
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID, h.AliceKey, "").Decode(t, &run)
	if run.Status != "success" {
		t.Fatalf("joined run is %s", run.Status)
	}
	var waited nodes.State
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, apptest.RunBody("thanks")).Decode(t, &waited)
	if len(waited.Messages) != len(values.Messages)+2 || waited.Messages[len(values.Messages)].Content != "thanks" {
		t.Fatalf("waited values have %d messages after %d", len(waited.Messages), len(values.Messages))
	}
	var list []apptest.RunJSON
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs?limit=5", h.AliceKey, "").Decode(t, &list)
	if len(list) != 2 || list[1].RunID != run.RunID {
		t.Fatalf("listed runs %+v", list)
	}
	h.Must(http.StatusNotFound, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID, h.BobKey, "")
	h.Must(http.StatusNotFound, http.MethodGet, "/threads/"+tid+"/runs", h.BobKey, "")
	other := h.Thread(h.AliceKey, "")
	h.Must(http.StatusNotFound, http.MethodGet, "/threads/"+other+"/runs/"+run.RunID, h.AliceKey, "")
}

func TestRunBodiesAreChecked(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	tid := h.Thread(h.AliceKey, "")
	fresh := uuid.NewString()
	tests := []struct {
		name, path, body string
		key              string
		status           int
	}{
		{"unknown field", tid, `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hi"}]},"colour":1}`, h.AliceKey, 422},
		{"no assistant", tid, `{"input":{"messages":[{"role":"user","content":"hi"}]}}`, h.AliceKey, 422},
		{"unknown assistant", tid, `{"assistant_id":"other","input":{"messages":[{"role":"user","content":"hi"}]}}`, h.AliceKey, 404},
		{"no input on an empty thread", tid, `{"assistant_id":"trip-planner"}`, h.AliceKey, 422},
		{"input and command", tid, `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hi"}]},"command":{"resume":true}}`, h.AliceKey, 422},
		{"ai message as input", tid, `{"assistant_id":"trip-planner","input":{"messages":[{"role":"ai","content":"hi"}]}}`, h.AliceKey, 422},
		{"no messages nor booking", tid, `{"assistant_id":"trip-planner","input":{"messages":[]}}`, h.AliceKey, 422},
		{"booking request without dates", tid, `{"assistant_id":"trip-planner","input":{"bookingRequest":{"id":"h1","guests":2}}}`, h.AliceKey, 422},
		{"booking request for too many", tid, `{"assistant_id":"trip-planner","input":{"bookingRequest":{"id":"h1","startDate":"2027-05-03","endDate":"2027-05-07","guests":21}}}`, h.AliceKey, 422},
		{"empty message", tid, `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"  "}]}}`, h.AliceKey, 400},
		{"an answer with nothing waiting for it", tid, `{"assistant_id":"trip-planner","command":{"resume":{"confirmed":true,"key":"1.x"}}}`, h.AliceKey, 409},
		{"an answer on another user's thread", tid, `{"assistant_id":"trip-planner","command":{"resume":{"confirmed":true,"key":"1.x"}}}`, h.BobKey, 404},
		{"an answer on a missing thread", fresh, `{"assistant_id":"trip-planner","command":{"resume":{"confirmed":true,"key":"1.x"}},"if_not_exists":"create"}`, h.AliceKey, 404},
		{"goto an unknown node", tid, `{"assistant_id":"trip-planner","command":{"goto":"nowhere"}}`, h.AliceKey, 422},
		{"unknown stream mode", tid, `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hi"}]},"stream_mode":"thoughts"}`, h.AliceKey, 422},
		{"a start from a checkpoint the thread has not", tid, fmt.Sprintf(`{"assistant_id":"trip-planner","checkpoint_id":%q,"input":{"messages":[{"role":"user","content":"hi"}]}}`, uuid.NewString()), h.AliceKey, 404},
		{"a goto on a thread with no state", tid, `{"assistant_id":"trip-planner","command":{"goto":"extraction"}}`, h.AliceKey, 400},
		{"content blocks that are not text", tid, `{"assistant_id":"trip-planner","input":{"messages":[{"type":"human","content":[{"type":"image_url","image_url":"x"}]}]}}`, h.AliceKey, 422},
		{"recursion limit out of range", tid, `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hi"}]},"config":{"recursion_limit":0.5}}`, h.AliceKey, 422},
		{"another user's thread", tid, apptest.RunBody("hi"), h.BobKey, 404},
		{"missing thread", fresh, apptest.RunBody("hi"), h.AliceKey, 404},
		{"missing thread created", fresh, `{"assistant_id":"trip-planner","input":{"messages":[{"type":"human","content":"hi"}]},"if_not_exists":"create"}`, h.AliceKey, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.With(t).Must(tt.status, http.MethodPost, "/threads/"+tt.path+"/runs/wait", tt.key, tt.body)
		})
	}
}

func TestCancelAndRejectWhileRunning(t *testing.T) {
	gate := plannertest.Held()
	h := apptest.New(t, apptest.WithTools(gate.Tools), apptest.Started())
	tid := h.Thread(h.AliceKey, "")
	var run apptest.RunJSON
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey, apptest.RunBody(plannertest.Lisbon)).Decode(t, &run)
	<-gate.Started
	r := h.Must(http.StatusConflict, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey, apptest.RunBody("again"))
	if r.ErrorCode(t) != "CONFLICT" {
		t.Fatalf("second run: %s", r.Body)
	}
	var queued apptest.RunJSON
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey,
		`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"later"}]},"multitask_strategy":"enqueue"}`).Decode(t, &queued)
	if queued.Status != "pending" {
		t.Fatalf("enqueued run is %s", queued.Status)
	}
	h.Must(http.StatusNotFound, http.MethodPost, "/threads/"+tid+"/runs/"+run.RunID+"/cancel", h.BobKey, "")
	for _, action := range []string{"delete"} {
		r := h.Must(http.StatusUnprocessableEntity, http.MethodPost, "/threads/"+tid+"/runs/"+run.RunID+"/cancel?action="+action, h.AliceKey, "")
		if !strings.Contains(string(r.Body), `"field":"action"`) {
			t.Fatalf("cancel with action %s: %s", action, r.Body)
		}
	}
	h.Must(http.StatusNoContent, http.MethodPost, "/threads/"+tid+"/runs/"+run.RunID+"/cancel?wait=1&action=interrupt", h.AliceKey, "")
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID, h.AliceKey, "").Decode(t, &run)
	if run.Status != "interrupted" {
		t.Fatalf("cancelled run is %s", run.Status)
	}
	close(gate.Release)
	var values nodes.State
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+queued.RunID+"/join", h.AliceKey, "").Decode(t, &values)
	if n := len(values.Messages); n < 2 || values.Messages[n-2].Content != "later" {
		t.Fatalf("the queued run did not run after the cancelled one: %+v", values.Messages)
	}
}

// A failed run's wait answers its error object, named as LangGraph names
// it, which the clients raise; the thread is then in error.
func TestJoinedFailureIsAnErrorObject(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	tid := h.Thread(h.AliceKey, "")
	body := `{"assistant_id":"trip-planner","config":{"recursion_limit":1},"input":{"messages":[{"role":"user","content":"hi"}]}}`
	r := h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, body)
	var out map[string]json.RawMessage
	r.Decode(t, &out)
	if string(out["__error__"]) != `{"error":"GraphRecursionError","message":"Recursion limit of 1 reached without hitting a stop condition. You can increase the limit by setting the \"recursion_limit\" config key."}` {
		t.Fatalf("failed run answered %s", r.Body)
	}
	var th struct{ Status string }
	if h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid, h.AliceKey, "").Decode(t, &th); th.Status != "error" {
		t.Fatalf("thread after a failed run is %s, want error", th.Status)
	}
}

func TestCommandRun(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	tid := h.Thread(h.AliceKey, "")
	var before nodes.State
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, apptest.RunBody(plannertest.Lisbon)).Decode(t, &before)
	body := `{"assistant_id":"trip-planner","command":{"update":{"tripDetails":{"location":"Porto","startDate":"2027-06-01","endDate":"2027-06-03","numberOfGuests":2}},"goto":"__end__"}}`
	var after nodes.State
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, body).Decode(t, &after)
	if after.TripDetails == nil || after.TripDetails.Location != "Porto" || len(after.Messages) != len(before.Messages) {
		t.Fatalf("after the command: %+v, %d messages (before %d)", after.TripDetails, len(after.Messages), len(before.Messages))
	}
	bad := `{"assistant_id":"trip-planner","command":{"update":{"mood":"happy"}}}`
	r := h.Must(http.StatusUnprocessableEntity, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, bad)
	var e struct {
		Fields []struct{ Field string } `json:"fields"`
	}
	r.Decode(t, &e)
	if len(e.Fields) != 1 || e.Fields[0].Field != "command.update.mood" {
		t.Fatalf("refused command: %s", r.Body)
	}
}

// multitask_strategy interrupt cancels the running run, keeps what it
// saved, and runs the new one after it has stopped.
func TestInterruptStrategy(t *testing.T) {
	gate := plannertest.Held()
	h := apptest.New(t, apptest.WithTools(gate.Tools), apptest.Started())
	tid := h.Thread(h.AliceKey, "")
	var first apptest.RunJSON
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey, apptest.RunBody(plannertest.Lisbon)).Decode(t, &first)
	<-gate.Started
	var values nodes.State
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey,
		`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hello"}]},"multitask_strategy":"interrupt"}`).Decode(t, &values)
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+first.RunID, h.AliceKey, "").Decode(t, &first)
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

// multitask_strategy rollback cancels the running run and deletes it with
// what it saved, as LangGraph does: the run is gone (404), and the new run
// starts from the state before it.
func TestRollbackStrategy(t *testing.T) {
	gate := plannertest.Held()
	h := apptest.New(t, apptest.WithTools(gate.Tools), apptest.Started())
	tid := h.Thread(h.AliceKey, "")
	var before nodes.State
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, apptest.RunBody("hello there")).Decode(t, &before)
	var first apptest.RunJSON
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey, apptest.RunBody(plannertest.Lisbon)).Decode(t, &first)
	<-gate.Started
	var values nodes.State
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey,
		`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"hello again"}]},"multitask_strategy":"rollback"}`).Decode(t, &values)
	h.Must(http.StatusNotFound, http.MethodGet, "/threads/"+tid+"/runs/"+first.RunID, h.AliceKey, "")
	h.Must(http.StatusNotFound, http.MethodGet, "/threads/"+tid+"/runs/"+first.RunID+"/join", h.AliceKey, "")
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
	tid := h.Thread(h.AliceKey, "")
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
				r := h.With(t).Must(http.StatusUnprocessableEntity, http.MethodPost, route, h.AliceKey, body(tt.extra))
				var e struct {
					Fields []struct{ Field, Message string } `json:"fields"`
				}
				r.Decode(t, &e)
				if len(e.Fields) != 1 || e.Fields[0].Field != tt.field || e.Fields[0].Message == "" {
					t.Fatalf("%s: %s", route, r.Body)
				}
			}
		})
	}
	var threads []json.RawMessage
	h.Must(http.StatusOK, http.MethodPost, "/threads/search", h.AliceKey, `{}`).Decode(t, &threads)
	h.Must(http.StatusUnprocessableEntity, http.MethodPost, "/runs/wait", h.AliceKey, `{"assistant_id":"trip-planner"}`)
	var after []json.RawMessage
	if h.Must(http.StatusOK, http.MethodPost, "/threads/search", h.AliceKey, `{}`).Decode(t, &after); len(after) != len(threads) {
		t.Fatalf("a stateless run refused for want of input left a thread: %d threads, were %d", len(after), len(threads))
	}
	for _, extra := range []string{`,"durability":"async","stream_subgraphs":true,"stream_resumable":true`,
		`,"checkpoint_during":true,"context":{},"interrupt_before":[],"interrupt_after":null,"webhook":"","feedback_keys":[],"after_seconds":0`,
		// what the official clients send: the Python client's raise_error, RemoteGraph's config
		`,"raise_error":true,"config":{"tags":["t"],"metadata":{"from":"config"},"configurable":{"user_id":"1"},"recursion_limit":25,"run_name":"x","run_id":"` + uuid.NewString() + `","max_concurrency":2}`} {
		h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, body(extra))
	}
}

// durability says when a run's checkpoints are written: every step with
// sync (the default) and async, only the last with exit.
func TestRunDurability(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	written := func(durability string) int {
		tid := h.Thread(h.AliceKey, "")
		extra := ""
		if durability != "" {
			extra = fmt.Sprintf(`,"durability":%q`, durability)
		}
		var values nodes.State
		h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey,
			`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"`+plannertest.Lisbon+`"}]}`+extra+`}`).Decode(t, &values)
		if values.TripDetails == nil || values.TripDetails.Location != "Lisbon" {
			t.Fatalf("durability %q: values %+v", durability, values)
		}
		var history []json.RawMessage
		h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/history?limit=100", h.AliceKey, "").Decode(t, &history)
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
			tid := h.Thread(h.AliceKey, "")
			var run apptest.RunJSON
			h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey,
				`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"`+plannertest.Lisbon+`"}]},`+tt.breakpoint+`}`).Decode(t, &run)
			h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID+"/join", h.AliceKey, "")
			h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID, h.AliceKey, "").Decode(t, &run)
			var thread struct{ Status string }
			h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid, h.AliceKey, "").Decode(t, &thread)
			var state struct {
				Next  []string `json:"next"`
				Tasks []struct {
					Interrupts []any `json:"interrupts"`
				} `json:"tasks"`
			}
			h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/state", h.AliceKey, "").Decode(t, &state)
			if run.Status != "interrupted" || thread.Status != "interrupted" || len(state.Next) != 1 ||
				(tt.wantNext != "" && state.Next[0] != tt.wantNext) || len(state.Tasks[0].Interrupts) != 0 {
				t.Fatalf("stopped run %s, thread %s, state %+v", run.Status, thread.Status, state)
			}
			var values nodes.State
			h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, `{"assistant_id":"trip-planner"}`).Decode(t, &values)
			h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/state", h.AliceKey, "").Decode(t, &state)
			h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid, h.AliceKey, "").Decode(t, &thread)
			if len(state.Next) != 0 || thread.Status != "idle" || values.TripDetails == nil || len(values.Messages) != 2 {
				t.Fatalf("after going on: next %v, thread %s, values %+v", state.Next, thread.Status, values)
			}
		})
	}
}

// Cancelling with action=rollback deletes the run with what it wrote,
// as LangGraph does: the state is again what it was before the run (none,
// for a run that started its thread), the history keeps nothing of it,
// and the run is gone.
func TestCancelWithRollback(t *testing.T) {
	gate := plannertest.Held()
	h := apptest.New(t, apptest.WithTools(gate.Tools), apptest.Started())
	defer close(gate.Release)

	first := h.Thread(h.AliceKey, "")
	var run apptest.RunJSON
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+first+"/runs", h.AliceKey, apptest.RunBody(plannertest.Lisbon)).Decode(t, &run)
	<-gate.Started
	h.Must(http.StatusNoContent, http.MethodPost, "/threads/"+first+"/runs/"+run.RunID+"/cancel?action=rollback", h.AliceKey, "")
	var empty struct {
		Values map[string]any `json:"values"`
	}
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+first+"/state", h.AliceKey, "").Decode(t, &empty)
	if len(empty.Values) != 0 {
		t.Fatalf("rolling back a thread's first run left %v", empty.Values)
	}

	tid := h.Thread(h.AliceKey, "")
	var before nodes.State
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, apptest.RunBody("hello there")).Decode(t, &before)
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey, apptest.RunBody(plannertest.Lisbon)).Decode(t, &run)
	<-gate.Started
	h.Must(http.StatusNotFound, http.MethodPost, "/threads/"+tid+"/runs/"+run.RunID+"/cancel?action=rollback", h.BobKey, "")
	h.Must(http.StatusNoContent, http.MethodPost, "/threads/"+tid+"/runs/"+run.RunID+"/cancel?action=rollback", h.AliceKey, "")
	var state struct {
		Values nodes.State `json:"values"`
	}
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/state", h.AliceKey, "").Decode(t, &state)
	if len(state.Values.Messages) != len(before.Messages) || state.Values.TripDetails != nil {
		t.Fatalf("after the rollback the thread has %d messages (want %d), trip %+v",
			len(state.Values.Messages), len(before.Messages), state.Values.TripDetails)
	}
	history := h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/history?limit=100", h.AliceKey, "")
	if strings.Contains(string(history.Body), plannertest.Lisbon) || strings.Contains(string(history.Body), run.RunID) {
		t.Fatal("the rolled back run's checkpoints are still in the history")
	}
	h.Must(http.StatusNotFound, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID, h.AliceKey, "")
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, apptest.RunBody("and now?"))
}

// A run enqueued behind a held one and cancelled before it starts never
// writes: its input never reaches the thread's state or history, and no
// checkpoint names it. The first run is held until the cancel is done, so
// the order is certain.
func TestCancelledQueuedRunNeverWrites(t *testing.T) {
	t.Run("in memory", func(t *testing.T) { cancelledQueuedRunNeverWrites(t) })
	t.Run("on PostgreSQL", func(t *testing.T) {
		cancelledQueuedRunNeverWrites(t, apptest.OnPostgres(storetest.Open(t, "queuedcancel")))
	})
}

func cancelledQueuedRunNeverWrites(t *testing.T, opts ...apptest.Option) {
	gate := plannertest.Held()
	h := apptest.New(t, append(opts, apptest.WithTools(gate.Tools), apptest.Started())...)
	tid := h.Thread(h.AliceKey, "")
	var first, queued apptest.RunJSON
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey, apptest.RunBody(plannertest.Lisbon)).Decode(t, &first)
	<-gate.Started
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey,
		`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"never to be read"}]},"multitask_strategy":"enqueue"}`).Decode(t, &queued)
	h.Must(http.StatusNoContent, http.MethodPost, "/threads/"+tid+"/runs/"+queued.RunID+"/cancel?wait=1", h.AliceKey, "")
	close(gate.Release)
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+first.RunID+"/join", h.AliceKey, "")
	// A run enqueued now ends after anything the queue would still run on
	// the thread, so the checks below also see a cancelled run the queue
	// took up after all.
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey,
		`{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"and the weather?"}]},"multitask_strategy":"enqueue"}`)

	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+queued.RunID, h.AliceKey, "").Decode(t, &queued)
	if queued.Status != "interrupted" {
		t.Errorf("the cancelled queued run is %s", queued.Status)
	}
	history := h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/history", h.AliceKey, `{"limit":1000}`)
	state := h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/state", h.AliceKey, "")
	for what, body := range map[string][]byte{"history": history.Body, "state": state.Body} {
		if strings.Contains(string(body), "never to be read") || strings.Contains(string(body), queued.RunID) {
			t.Errorf("the thread's %s holds the cancelled run's input or id", what)
		}
	}
}
