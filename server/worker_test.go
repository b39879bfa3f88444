package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/model"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/store"
)

// lisbon is a turn that makes the offline planner show trip details and
// list accommodations.
const lisbon = "4 nights in Lisbon in May, 3 of us"

// toolGate lets a test hold the accommodations tool until it says so, and
// records the user each call acted for.
type toolGate struct {
	started chan string   // the user of each call, when it starts
	release chan struct{} // closed to let calls finish; nil means at once
	server  string        // when set, each call reports its end as the tool bridge does, from this server
}

func (g *toolGate) tools() nodes.FuncTools {
	return nodes.FuncTools{{Tool: nodes.Tool{Name: "list-accommodations", Description: "list accommodations"},
		Run: func(ctx context.Context, raw json.RawMessage) (any, error) {
			if g.started != nil {
				g.started <- mcpbridge.UserFrom(ctx)
			}
			if g.release != nil {
				select {
				case <-g.release:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			if g.server != "" {
				graph.Emit(ctx, mcpbridge.EventComplete, mcpbridge.Complete{Type: mcpbridge.EventComplete, Server: g.server, Tool: "list-accommodations"})
			}
			return map[string]any{"location": "Lisbon", "covered": true, "guests": 3,
				"accommodations": []map[string]any{{"id": "h1", "name": "Casa Azul", "nightlyPrice": 90, "totalPrice": 360, "capacity": 4}}}, nil
		}}}
}

// workerServer is a server whose pool runs with short timings, on tools
// from gate, not yet started.
func workerServer(t *testing.T, gate *toolGate) (*Server, *store.Store) {
	t.Helper()
	ctx := context.Background()
	st := migratedStore(t)
	m, err := model.Config{}.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cps := st.Checkpointer(store.CheckpointerOptions{})
	planner, err := nodes.Build(nodes.Deps{Model: m, Tools: gate.tools()}, cps)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Store: st, Planner: planner, Checkpoints: cps, Workers: 2,
		Logger: slog.New(slog.NewJSONHandler(&syncBuffer{}, nil))})
	if err != nil {
		t.Fatal(err)
	}
	srv.pool.timing = timing{lease: 3 * time.Second, poll: 20 * time.Millisecond, reclaim: 20 * time.Millisecond, maxAttempts: 3}
	t.Cleanup(func() { srv.Close() })
	return srv, st
}

// queueTurn creates a user, a thread and a run on it with the text as the
// person's message.
func queueTurn(t *testing.T, st *store.Store, text string) (owner string, run store.Run) {
	t.Helper()
	ctx := context.Background()
	u, _ := newUser(t, st)
	th, err := st.CreateThread(ctx, u.ID, store.NewThread{})
	if err != nil {
		t.Fatal(err)
	}
	return u.ID, createJob(t, st, u.ID, th.ID, job{Input: &nodes.Update{
		Messages: []nodes.Message{{ID: uuid.NewString(), Type: nodes.Human, Content: text}}}})
}

func createJob(t *testing.T, st *store.Store, owner, threadID string, j job) store.Run {
	t.Helper()
	raw, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.CreateRun(context.Background(), owner, threadID, store.NewRun{Input: raw})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// finish follows a run's events to its end and returns them with the run
// as it ended.
func finish(t *testing.T, st *store.Store, owner, runID string) ([]store.RunEvent, store.Run) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var events []store.RunEvent
	for e, err := range st.FollowRunEvents(ctx, owner, runID, 0) {
		if err != nil {
			t.Fatalf("following run %s: %v", runID, err)
		}
		events = append(events, e)
	}
	r, err := st.RunByID(ctx, owner, runID)
	if err != nil {
		t.Fatal(err)
	}
	return events, r
}

func TestWorkerRunsATurn(t *testing.T) {
	gate := &toolGate{started: make(chan string, 4)}
	srv, st := workerServer(t, gate)
	srv.Start()
	owner, run := queueTurn(t, st, lisbon)
	events, done := finish(t, st, owner, run.ID)
	if done.Status != store.RunSuccess || done.Error != "" {
		t.Fatalf("run ended %s (%q), want success", done.Status, done.Error)
	}
	if user := <-gate.started; user != owner {
		t.Fatalf("the tool acted for %q, want the thread's owner %q", user, owner)
	}
	seen := map[string]int{}
	var ui []string
	for _, e := range events {
		seen[e.Event]++
		if e.Event == "custom" {
			var m struct{ Type, Name string }
			if err := json.Unmarshal(e.Data, &m); err != nil || m.Type != "ui" {
				t.Fatalf("custom event %s: %v", e.Data, err)
			}
			ui = append(ui, m.Name)
		}
	}
	for _, mode := range []string{"values", "updates", "custom", "messages"} {
		if seen[mode] == 0 {
			t.Errorf("no %s event among %v", mode, seen)
		}
	}
	if len(ui) < 2 || ui[0] != nodes.ComponentTripDetails || ui[1] != nodes.ComponentAccommodations {
		t.Errorf("ui components %v, want trip details then accommodations", ui)
	}
	var last struct {
		Messages []nodes.Message `json:"messages"`
	}
	for _, e := range events {
		if e.Event == "values" {
			last.Messages = nil
			if err := json.Unmarshal(e.Data, &last); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := len(last.Messages); n < 2 || last.Messages[0].Content != lisbon || last.Messages[n-1].Type != nodes.AI {
		t.Fatalf("final values messages %+v", last.Messages)
	}
	th, err := st.ThreadByID(context.Background(), owner, run.ThreadID)
	if err != nil || th.Status != store.ThreadIdle {
		t.Fatalf("thread after the run: %+v, %v", th, err)
	}
}

func TestWorkerCancelsARunningRun(t *testing.T) {
	gate := &toolGate{started: make(chan string, 4), release: make(chan struct{})}
	srv, st := workerServer(t, gate)
	srv.Start()
	owner, run := queueTurn(t, st, lisbon)
	<-gate.started // the run is inside the tool call
	if _, err := st.CancelRun(context.Background(), owner, run.ID); err != nil {
		t.Fatal(err)
	}
	_, done := finish(t, st, owner, run.ID)
	if done.Status != store.RunCancelled {
		t.Fatalf("cancelled run ended %s (%q)", done.Status, done.Error)
	}
}

func TestWorkerReportsAFailureGenerically(t *testing.T) {
	srv, st := workerServer(t, &toolGate{})
	srv.Start()
	ctx := context.Background()
	u, _ := newUser(t, st)
	th, err := st.CreateThread(ctx, u.ID, store.NewThread{})
	if err != nil {
		t.Fatal(err)
	}
	// A fork from a checkpoint the thread does not have fails in the graph.
	run := createJob(t, st, u.ID, th.ID, job{CheckpointID: uuid.NewString(), Input: &nodes.Update{
		Messages: []nodes.Message{{ID: uuid.NewString(), Type: nodes.Human, Content: "hello"}}}})
	events, done := finish(t, st, u.ID, run.ID)
	if done.Status != store.RunError || done.Error != runFailed {
		t.Fatalf("failed run ended %s (%q)", done.Status, done.Error)
	}
	if n := len(events); n == 0 || events[n-1].Event != "error" ||
		string(events[n-1].Data) != `{"error":"INTERNAL","message":"the run failed"}` {
		t.Fatalf("events of a failed run: %+v", events)
	}
}

func TestWorkerTakesOverAnExpiredLease(t *testing.T) {
	srv, st := workerServer(t, &toolGate{})
	owner, run := queueTurn(t, st, "hello")
	// A worker that claims the run and dies at once.
	if _, ok, err := st.ClaimRun(context.Background(), "dead-worker", time.Millisecond); err != nil || !ok {
		t.Fatalf("claim: %v, %v", ok, err)
	}
	srv.Start()
	_, done := finish(t, st, owner, run.ID)
	if done.Status != store.RunSuccess || done.Attempts != 2 {
		t.Fatalf("reclaimed run ended %s after %d attempts", done.Status, done.Attempts)
	}
}

func TestCloseHandsRunsBack(t *testing.T) {
	gate := &toolGate{started: make(chan string, 4), release: make(chan struct{})}
	srv, st := workerServer(t, gate)
	srv.Start()
	owner, run := queueTurn(t, st, lisbon)
	<-gate.started
	srv.Close()
	r, err := st.RunByID(context.Background(), owner, run.ID)
	if err != nil || r.Status != store.RunPending || r.Attempts != 1 {
		t.Fatalf("run after the pool stopped: %s, attempts %d, %v; want pending", r.Status, r.Attempts, err)
	}
	// Leave no pending run for the pools of later tests.
	if _, err := st.CancelRun(context.Background(), owner, run.ID); err != nil {
		t.Fatal(err)
	}
}
