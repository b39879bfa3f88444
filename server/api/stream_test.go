package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
)

func TestStreamRunInEveryMode(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	tid := h.Thread(h.AliceKey, "")
	resp := h.OpenStream(context.Background(), http.MethodPost, "/threads/"+tid+"/runs/stream",
		apptest.StreamBody(plannertest.Lisbon, `["values","updates","custom","messages-tuple"]`, ""), nil)
	frames := apptest.ReadFrames(t, resp.Body)
	resp.Body.Close()
	if len(frames) < 3 || frames[0].Event != "metadata" || frames[len(frames)-1].Event != "values" {
		t.Fatalf("frames %+v, want metadata first and the final values last, as LangGraph.js ends a stream", frames)
	}
	var meta struct {
		RunID string `json:"run_id"`
	}
	if err := json.Unmarshal([]byte(frames[0].Data), &meta); err != nil || uuid.Validate(meta.RunID) != nil {
		t.Fatalf("metadata %s", frames[0].Data)
	}
	if loc := resp.Header.Get("Content-Location"); loc != "/threads/"+tid+"/runs/"+meta.RunID {
		t.Fatalf("Content-Location %q", loc)
	}
	seen := map[string]int{}
	var ui []string
	var last int64
	var values nodes.State
	for _, f := range frames[1:] {
		seen[f.Event]++
		id, err := strconv.ParseInt(f.ID, 10, 64)
		if err != nil || id <= last {
			t.Fatalf("frame %+v: id not after %d", f, last)
		}
		last = id
		switch f.Event {
		case "custom":
			var m struct{ Type, Name string }
			json.Unmarshal([]byte(f.Data), &m)
			ui = append(ui, m.Name)
		case "values":
			values = nodes.State{}
			json.Unmarshal([]byte(f.Data), &values)
		case "messages":
			var tuple []json.RawMessage
			var chunk struct{ ID, Content string }
			if json.Unmarshal([]byte(f.Data), &tuple) != nil || len(tuple) != 2 || json.Unmarshal(tuple[0], &chunk) != nil || chunk.ID == "" {
				t.Fatalf("messages frame %s", f.Data)
			}
		}
	}
	for _, ev := range []string{"values", "updates", "custom", "messages"} {
		if seen[ev] == 0 {
			t.Errorf("no %s frame among %v", ev, seen)
		}
	}
	if len(ui) < 2 || ui[0] != card.TripDetails || ui[1] != card.Accommodations {
		t.Errorf("ui components %v", ui)
	}
	if len(values.Messages) < 2 || values.TripDetails == nil {
		t.Errorf("final values %+v", values)
	}

	// Joining again replays from after the event named by Last-Event-ID,
	// only in the modes asked.
	mid := frames[2].ID
	resp = h.OpenStream(context.Background(), http.MethodGet,
		"/threads/"+tid+"/runs/"+meta.RunID+"/stream?stream_mode=custom&stream_mode=%5B%22values%22%5D", "",
		http.Header{"Last-Event-Id": {mid}})
	again := apptest.ReadFrames(t, resp.Body)
	resp.Body.Close()
	var want []apptest.Frame
	for _, f := range frames[3:] {
		if f.Event == "custom" || f.Event == "values" {
			want = append(want, f)
		}
	}
	if len(again) != len(want)+1 || again[0].Event != "metadata" {
		t.Fatalf("resumed stream has %d frames, want %d", len(again), len(want)+1)
	}
	for i, f := range want {
		if again[i+1] != f {
			t.Fatalf("resumed frame %d = %+v, want %+v", i, again[i+1], f)
		}
	}
}

func TestStreamModesAreChecked(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	tid := h.Thread(h.AliceKey, "")
	for _, modes := range []string{`"thoughts"`, `["values","tools"]`, `3`} {
		h.Must(http.StatusUnprocessableEntity, http.MethodPost, "/threads/"+tid+"/runs/stream", h.AliceKey, apptest.StreamBody("hi", modes, ""))
	}
	resp := h.OpenStream(context.Background(), http.MethodPost, "/threads/"+tid+"/runs/stream", apptest.StreamBody("hi", `"updates"`, ""), nil)
	frames := apptest.ReadFrames(t, resp.Body)
	resp.Body.Close()
	for _, f := range frames[1:] {
		if f.Event != "updates" {
			t.Fatalf("a %s frame in an updates stream", f.Event)
		}
	}
}

// A run that fails ends its stream with an error frame in LangGraph's
// words: GraphRecursionError for a run past its recursion limit.
func TestStreamEndsWithAnErrorFrame(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	tid := h.Thread(h.AliceKey, "")
	resp := h.OpenStream(context.Background(), http.MethodPost, "/threads/"+tid+"/runs/stream",
		apptest.StreamBody("hi", `"values"`, `,"config":{"recursion_limit":1}`), nil)
	frames := apptest.ReadFrames(t, resp.Body)
	resp.Body.Close()
	n := len(frames)
	want := `{"error":"GraphRecursionError","message":"Recursion limit of 1 reached without hitting a stop condition. You can increase the limit by setting the \"recursion_limit\" config key."}`
	if n < 2 || frames[n-1].Event != "error" || frames[n-1].Data != want {
		t.Fatalf("frames of a failed run %+v", frames)
	}
}

func TestStreamDisconnect(t *testing.T) {
	for _, tt := range []struct {
		name, extra string
		want        string
	}{
		{"cancel", `,"on_disconnect":"cancel"`, store.RunCancelled},
		{"continue by default", ``, store.RunSuccess},
	} {
		t.Run(tt.name, func(t *testing.T) {
			gate := plannertest.Held()
			h := apptest.New(t, apptest.WithTools(gate.Tools), apptest.Started())
			tid := h.Thread(h.AliceKey, "")
			ctx, cancel := context.WithCancel(context.Background())
			resp := h.OpenStream(ctx, http.MethodPost, "/threads/"+tid+"/runs/stream", apptest.StreamBody(plannertest.Lisbon, `"values"`, tt.extra), nil)
			runID := strings.TrimPrefix(resp.Header.Get("Content-Location"), "/threads/"+tid+"/runs/")
			<-gate.Started
			cancel()
			resp.Body.Close()
			if tt.want == store.RunSuccess {
				close(gate.Release)
			}
			_, done := h.Finish(h.Alice.ID, runID)
			if done.Status != tt.want {
				t.Fatalf("run after the client left: %s, want %s", done.Status, tt.want)
			}
		})
	}
}

// A stream outlives the write timeout of ordinary answers.
func TestStreamHasNoWriteDeadline(t *testing.T) {
	gate := plannertest.Held()
	limits := apptest.Limits()
	limits.WriteTimeout = time.Millisecond
	h := runHarness(t, gate, limited(limits))
	tid := h.Thread(h.AliceKey, "")
	resp := h.OpenStream(context.Background(), http.MethodPost, "/threads/"+tid+"/runs/stream", apptest.StreamBody(plannertest.Lisbon, `"values"`, ""), nil)
	<-gate.Started
	time.Sleep(50 * time.Millisecond) // well past the write deadline it must not have
	close(gate.Release)
	frames := apptest.ReadFrames(t, resp.Body)
	resp.Body.Close()
	if len(frames) < 3 || frames[len(frames)-1].Event != "values" {
		t.Fatalf("frames %+v", frames)
	}
}

func TestStreamKeepAlive(t *testing.T) {
	gate := plannertest.Held()
	h := apptest.New(t, apptest.WithTools(gate.Tools), apptest.Started())
	old := httpx.KeepAlive
	httpx.KeepAlive = 5 * time.Millisecond
	t.Cleanup(func() { httpx.KeepAlive = old })
	tid := h.Thread(h.AliceKey, "")
	resp := h.OpenStream(context.Background(), http.MethodPost, "/threads/"+tid+"/runs/stream", apptest.StreamBody(plannertest.Lisbon, `"values"`, ""), nil)
	defer resp.Body.Close()
	<-gate.Started
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && sc.Text() != ": keep-alive" {
	}
	if sc.Err() != nil {
		t.Fatal(sc.Err())
	}
	close(gate.Release)
	if frames := apptest.ReadFrames(t, resp.Body); len(frames) == 0 || frames[len(frames)-1].Event != "values" {
		t.Fatalf("frames after the keep-alive %+v", frames)
	}
}

func TestStatelessRuns(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	threadOf := func(header http.Header) string {
		loc := strings.TrimPrefix(header.Get("Content-Location"), "/threads/")
		tid, _, _ := strings.Cut(loc, "/")
		return tid
	}
	for _, tt := range []struct {
		onCompletion string
		want         int
	}{{"", http.StatusNotFound}, {"keep", http.StatusOK}} {
		extra := ""
		if tt.onCompletion != "" {
			extra = fmt.Sprintf(`,"on_completion":%q`, tt.onCompletion)
		}
		r := h.Must(http.StatusOK, http.MethodPost, "/runs/wait", h.AliceKey, apptest.StreamBody(plannertest.Lisbon, `"values"`, extra))
		var values nodes.State
		r.Decode(t, &values)
		if len(values.Messages) < 2 || values.Messages[0].Content != plannertest.Lisbon {
			t.Fatalf("stateless wait values %+v", values)
		}
		h.Must(tt.want, http.MethodGet, "/threads/"+threadOf(r.Header), h.AliceKey, "")

		resp := h.OpenStream(context.Background(), http.MethodPost, "/runs/stream", apptest.StreamBody(plannertest.Lisbon, `"values"`, extra), nil)
		frames := apptest.ReadFrames(t, resp.Body)
		resp.Body.Close()
		if len(frames) < 3 || frames[0].Event != "metadata" || frames[len(frames)-1].Event != "values" {
			t.Fatalf("stateless stream frames %+v", frames)
		}
		// The thread goes once the stream is over; wait for it.
		for h.Do(http.MethodGet, "/threads/"+threadOf(resp.Header), h.AliceKey, "").Status != tt.want {
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// debugFrame is the data of a debug frame.
type debugFrame struct {
	Type    string `json:"type"`
	Step    int    `json:"step"`
	Payload struct {
		ID         string                     `json:"id"`
		Name       string                     `json:"name"`
		Values     json.RawMessage            `json:"values"`
		Result     map[string]json.RawMessage `json:"result"`
		Interrupts []any                      `json:"interrupts"`
		Config     struct {
			Configurable struct {
				CheckpointID string `json:"checkpoint_id"`
			} `json:"configurable"`
		} `json:"config"`
	} `json:"payload"`
}

// eventsFrame is the data of an events frame.
type eventsFrame struct {
	Event     string          `json:"event"`
	Name      string          `json:"name"`
	RunID     string          `json:"run_id"`
	ParentIDs []string        `json:"parent_ids"`
	Data      json.RawMessage `json:"data"`
}

// A run asked for debug and events streams them, and stores them once:
// a join names the modes it wants of what the run stored, and a run that
// was not asked for them stores none.
func TestStreamDebugAndEvents(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	tid := h.Thread(h.AliceKey, "")
	resp := h.OpenStream(context.Background(), http.MethodPost, "/threads/"+tid+"/runs/stream",
		apptest.StreamBody(plannertest.Lisbon, `["debug","events"]`, ""), nil)
	frames := apptest.ReadFrames(t, resp.Body)
	resp.Body.Close()
	runID := strings.TrimPrefix(resp.Header.Get("Content-Location"), "/threads/"+tid+"/runs/")
	var debug []debugFrame
	var events []eventsFrame
	for _, f := range frames[1:] {
		switch f.Event {
		case "debug":
			var d debugFrame
			if err := json.Unmarshal([]byte(f.Data), &d); err != nil {
				t.Fatalf("debug frame %s: %v", f.Data, err)
			}
			debug = append(debug, d)
		case "events":
			var e eventsFrame
			if err := json.Unmarshal([]byte(f.Data), &e); err != nil {
				t.Fatalf("events frame %s: %v", f.Data, err)
			}
			events = append(events, e)
		default:
			t.Fatalf("a %s frame in a debug and events stream", f.Event)
		}
	}

	// debug: every task has its result, with the same id and step; the last
	// checkpoint is the thread's head, with the trip.
	tasks := map[string]int{}
	var lastCheckpoint debugFrame
	for _, d := range debug {
		switch d.Type {
		case "task":
			tasks[d.Payload.ID] = d.Step
		case "task_result":
			if step, ok := tasks[d.Payload.ID]; !ok || step != d.Step {
				t.Fatalf("task_result %s of step %d follows no task of that step", d.Payload.Name, d.Step)
			}
			delete(tasks, d.Payload.ID)
		case "checkpoint":
			lastCheckpoint = d
		default:
			t.Fatalf("debug frame of type %q", d.Type)
		}
	}
	if len(tasks) != 0 || len(debug) < 6 {
		t.Fatalf("%d debug frames, tasks without results: %v", len(debug), tasks)
	}
	var state struct {
		Checkpoint struct {
			CheckpointID string `json:"checkpoint_id"`
		} `json:"checkpoint"`
	}
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/state", h.AliceKey, "").Decode(t, &state)
	var values nodes.State
	json.Unmarshal(lastCheckpoint.Payload.Values, &values)
	if lastCheckpoint.Payload.Config.Configurable.CheckpointID != state.Checkpoint.CheckpointID || values.TripDetails == nil {
		t.Fatalf("last debug checkpoint %s (%+v), thread head %s", lastCheckpoint.Payload.Config.Configurable.CheckpointID, values.TripDetails, state.Checkpoint.CheckpointID)
	}

	// events: the run is a chain named after the graph, around its nodes'
	// chains, with tokens and UI components from inside them.
	n := len(events)
	if n < 4 || events[0].Event != "on_chain_start" || events[0].Name != "trip-planner" || events[0].RunID != runID ||
		events[n-1].Event != "on_chain_end" || events[n-1].Name != "trip-planner" {
		t.Fatalf("events do not open and close the run's chain: %+v ... %+v", events[0], events[n-1])
	}
	kinds := map[string]int{}
	for _, e := range events[1 : n-1] {
		kinds[e.Event]++
		if len(e.ParentIDs) == 0 || e.ParentIDs[0] != runID {
			t.Fatalf("%s %s is not inside the run: parents %v", e.Event, e.Name, e.ParentIDs)
		}
	}
	for _, k := range []string{"on_chain_start", "on_chain_end", "on_chat_model_stream", "on_custom_event"} {
		if kinds[k] == 0 {
			t.Errorf("no %s event among %v", k, kinds)
		}
	}

	// A join that names no mode gets the modes the run was created with,
	// as LangGraph's does; one naming values gets them too, which every
	// run stores.
	resp = h.OpenStream(context.Background(), http.MethodGet, "/threads/"+tid+"/runs/"+runID+"/stream", "", nil)
	all := apptest.ReadFrames(t, resp.Body)
	resp.Body.Close()
	resp = h.OpenStream(context.Background(), http.MethodGet, "/threads/"+tid+"/runs/"+runID+"/stream?stream_mode=values", "", nil)
	all = append(all, apptest.ReadFrames(t, resp.Body)...)
	resp.Body.Close()
	count := func(fs []apptest.Frame, event string) int {
		n := 0
		for _, f := range fs {
			if f.Event == event {
				n++
			}
		}
		return n
	}
	if count(all, "values") == 0 || count(all, "debug") != len(debug) || count(all, "events") != len(events) {
		t.Fatalf("joined every mode: %d values, %d debug (want %d), %d events (want %d)",
			count(all, "values"), count(all, "debug"), len(debug), count(all, "events"), len(events))
	}

	// A run not asked for debug or events stores none of them.
	plain := h.OpenStream(context.Background(), http.MethodPost, "/threads/"+tid+"/runs/stream", apptest.StreamBody("thank you", `"values"`, ""), nil)
	apptest.ReadFrames(t, plain.Body)
	plain.Body.Close()
	plainID := strings.TrimPrefix(plain.Header.Get("Content-Location"), "/threads/"+tid+"/runs/")
	stored, err := h.Tenant(h.Alice.ID).RunEvents(context.Background(), plainID, 0, 0)
	if err != nil || len(stored) == 0 {
		t.Fatalf("stored events %d, %v", len(stored), err)
	}
	for _, e := range stored {
		if e.Event == "debug" || e.Event == "events" {
			t.Fatalf("a run streamed in values mode stored a %s event", e.Event)
		}
	}
}

// With messages and values asked for together, each message is complete
// after the values that hold it, as LangGraph's server orders them: the
// run's last frame is the reply, complete.
func TestStreamMessagesAfterValues(t *testing.T) {
	h := apptest.New(t, apptest.Started())
	tid := h.Thread(h.AliceKey, "")
	r := h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/stream", h.AliceKey,
		apptest.StreamBody("4 nights in Lisbon in May, 3 of us", `["messages","values"]`, ""))
	frames := apptest.ReadFrames(t, bytes.NewReader(r.Body))
	last := frames[len(frames)-1]
	if last.Event != "messages/complete" || !strings.Contains(string(last.Data), `"type":"ai"`) {
		t.Fatalf("the last frame is %s %s, want the reply complete", last.Event, last.Data)
	}
	for i, f := range frames {
		if f.Event != "messages/complete" || !strings.Contains(string(f.Data), `"type":"ai"`) {
			continue
		}
		var id []struct{ ID string }
		json.Unmarshal([]byte(f.Data), &id)
		if i == 0 || frames[i-1].Event != "values" || !strings.Contains(string(frames[i-1].Data), id[0].ID) {
			t.Errorf("message %s is complete before the values that hold it", id[0].ID)
		}
	}
}
