package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/store"
)

// waitDone fails the test when done is not closed within a minute: what it
// waits for hangs.
func waitDone(t *testing.T, done <-chan struct{}, what string) {
	t.Helper()
	within(t, done, what)
}

// within receives from ch, and fails the test when nothing comes within a
// minute.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(time.Minute):
		t.Fatalf("%s did not come within a minute", what)
		panic("unreachable")
	}
}

// Shutdown stops claiming at once, lets the run in progress go on until
// the grace ends, and then hands it back; a run queued meanwhile is left
// for another process.
func TestShutdownGrace(t *testing.T) {
	for _, tc := range []struct {
		name       string
		graceEnds  bool   // the grace ends while the run is held
		wantStatus string // of the run in progress
	}{
		{"the run finishes within the grace", false, store.RunSuccess},
		{"the grace ends first: the run goes back to the queue", true, store.RunPending},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gate := &toolGate{started: make(chan string, 4), release: make(chan struct{})}
			srv, st := workerServer(t, gate)
			srv.Start()
			owner, run := queueTurn(t, st, lisbon)
			<-gate.started
			grace, endGrace := context.WithCancel(context.Background())
			defer endGrace()
			stopped := make(chan struct{})
			go func() { srv.Shutdown(grace); close(stopped) }()
			waitDone(t, srv.pool.claims.Done(), "the end of claims")
			laterOwner, later := queueTurn(t, st, lisbon)
			srv.pool.nudge()
			if tc.graceEnds {
				endGrace()
			} else {
				close(gate.release)
			}
			waitDone(t, stopped, "Shutdown's return")
			ctx := context.Background()
			r, err := st.RunByID(ctx, owner, run.ID)
			if err != nil || r.Status != tc.wantStatus || r.Attempts != 1 {
				t.Errorf("the run in progress is %s after %d claims (%v), want %s after 1", r.Status, r.Attempts, err, tc.wantStatus)
			}
			if tc.wantStatus == store.RunPending {
				// A released run has no lease: any worker may claim it now.
				var leased bool
				if err := st.Pool.QueryRow(ctx, `SELECT lease_expires_at IS NOT NULL FROM runs WHERE id = $1`, run.ID).Scan(&leased); err != nil || leased {
					t.Errorf("the handed-back run still has a lease (%v)", err)
				}
			}
			l, err := st.RunByID(ctx, laterOwner, later.ID)
			if err != nil || l.Status != store.RunPending {
				t.Errorf("a run queued after Shutdown began is %s (%v), want pending: no claim", l.Status, err)
			}
			// Leave no pending run for the pools of later tests.
			for _, left := range []struct{ owner, id string }{{owner, run.ID}, {laterOwner, later.ID}} {
				if _, err := st.CancelRun(ctx, left.owner, left.id); err != nil && !strings.Contains(err.Error(), "cannot cancel") {
					t.Fatal(err)
				}
			}
		})
	}
}

// Shutdown ends the open streams and waits with an UNAVAILABLE error that
// tells the client to join again, after handing their runs back.
func TestShutdownClosesStreams(t *testing.T) {
	gate := &toolGate{started: make(chan string, 4), release: make(chan struct{})}
	h := runHarness(t, gate)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	tid := h.thread(h.aliceKey, "")
	lg := h.openStream(ctx, http.MethodPost, "/threads/"+tid+"/runs/stream", streamBody(lisbon, `["updates"]`, ""), nil)
	defer lg.Body.Close()
	frames := make(chan []frame, 1)
	go func() { frames <- readFrames(t, lg.Body) }()

	chat := h.openStream(ctx, http.MethodPost, "/api/chat", `{"messages":[{"role":"user","content":`+jsonString(lisbon)+`}]}`, nil)
	defer chat.Body.Close()
	type chatResult struct {
		parts []map[string]any
		done  bool
	}
	chatDone := make(chan chatResult, 1)
	go func() { p, d := chatParts(t, chat.Body); chatDone <- chatResult{p, d} }()

	waitTid := h.thread(h.aliceKey, "")
	waited := make(chan response, 1)
	go func() { waited <- h.do(http.MethodPost, "/threads/"+waitTid+"/runs/wait", h.aliceKey, runBody(lisbon)) }()
	for { // until the waited-on run exists
		var runs []runJSON
		h.must(http.StatusOK, http.MethodGet, "/threads/"+waitTid+"/runs", h.aliceKey, "").decode(t, &runs)
		if len(runs) == 1 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	within(t, gate.started, "a tool call") // a run is inside its tool call

	graceOver, end := context.WithCancel(context.Background())
	end()
	h.srv.Shutdown(graceOver)

	got := within(t, frames, "the end of the LangGraph stream")
	if n := len(got); n < 3 || got[0].event != "metadata" || got[n-2].event != "error" || got[n-1].event != "end" {
		t.Fatalf("the LangGraph stream after Shutdown: %v", got)
	}
	var e struct{ Error, Message string }
	if err := json.Unmarshal([]byte(got[len(got)-2].data), &e); err != nil || e.Error != "UNAVAILABLE" || e.Message != errShuttingDown.Message {
		t.Errorf("its error frame: %s", got[len(got)-2].data)
	}
	c := within(t, chatDone, "the end of the chat stream")
	if n := len(c.parts); !c.done || n < 3 || c.parts[n-2]["type"] != "error" || c.parts[n-2]["errorText"] != errShuttingDown.Message ||
		c.parts[n-1]["type"] != "finish" {
		t.Errorf("the chat stream after Shutdown: %v, [DONE] %v", c.parts, c.done)
	}
	w := within(t, waited, "the answer to the wait")
	if w.status != http.StatusServiceUnavailable || w.errorCode(t) != "UNAVAILABLE" {
		t.Errorf("the wait after Shutdown: %d %s", w.status, w.body)
	}
	if strings.Contains(h.logs.String(), "streaming a run") {
		t.Errorf("a shutdown was logged as a stream failure: %s", h.logs.String())
	}

	var runs []runJSON
	for _, th := range []string{tid, waitTid, strings.Split(chat.Header.Get("Content-Location"), "/")[2]} {
		var some []runJSON
		h.must(http.StatusOK, http.MethodGet, "/threads/"+th+"/runs", h.aliceKey, "").decode(t, &some)
		runs = append(runs, some...)
	}
	for _, r := range runs {
		if r.Status != store.RunPending {
			t.Errorf("run %s is %s after Shutdown, want pending", r.RunID, r.Status)
		}
		if _, err := h.st.CancelRun(context.Background(), h.alice.ID, r.RunID); err != nil {
			t.Fatal(err)
		}
	}
	if len(runs) != 3 {
		t.Fatalf("%d runs, want 3", len(runs))
	}
}

// Config.RunLease is the length of the claims the workers take, and of
// their renewals.
func TestRunLeaseIsTheClaimsLength(t *testing.T) {
	gate := &toolGate{started: make(chan string, 4), release: make(chan struct{})}
	srv, st := workerServer(t, gate)
	custom, err := New(Config{Store: st, Planner: srv.planner, Checkpoints: srv.cps, Workers: 1, RunLease: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer custom.Close()
	custom.Start()
	owner, run := queueTurn(t, st, lisbon)
	within(t, gate.started, "the run's tool call")
	seen := map[time.Time]bool{}
	for len(seen) < 2 { // the claim, then a renewal
		var expires time.Time
		var length time.Duration
		err := st.Pool.QueryRow(context.Background(),
			`SELECT lease_expires_at, lease_expires_at - updated_at FROM runs WHERE id = $1`, run.ID).Scan(&expires, &length)
		if err != nil || length != 1500*time.Millisecond {
			t.Fatalf("the run's lease is %s from its last change (%v), want 1.5s", length, err)
		}
		seen[expires] = true
		time.Sleep(20 * time.Millisecond)
	}
	close(gate.release)
	if _, done := finish(t, st, owner, run.ID); done.Status != store.RunSuccess {
		t.Fatalf("run ended %s", done.Status)
	}
}
