package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
)

// waitDone fails the test when done is not closed within a minute: what it
// waits for hangs.
func waitDone(t *testing.T, done <-chan struct{}, what string) {
	t.Helper()
	apptest.Within(t, done, what)
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

// Shutdown ends the open streams and waits with an UNAVAILABLE error that
// tells the client to join again, after handing their runs back.
func TestShutdownClosesStreams(t *testing.T) {
	gate := plannertest.Held()
	h := apptest.New(t, apptest.WithTools(gate.Tools), apptest.Started())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	tid := h.Thread(h.AliceKey, "")
	lg := h.OpenStream(ctx, http.MethodPost, "/threads/"+tid+"/runs/stream", apptest.StreamBody(plannertest.Lisbon, `["updates"]`, ""), nil)
	defer lg.Body.Close()
	frames := make(chan []apptest.Frame, 1)
	go func() { frames <- apptest.ReadFrames(t, lg.Body) }()

	chat := h.OpenStream(ctx, http.MethodPost, "/api/chat", `{"messages":[{"role":"user","content":`+apptest.JSONString(plannertest.Lisbon)+`}]}`, nil)
	defer chat.Body.Close()
	type chatResult struct {
		parts []map[string]any
		done  bool
	}
	chatDone := make(chan chatResult, 1)
	go func() { p, d := apptest.ChatParts(t, chat.Body); chatDone <- chatResult{p, d} }()

	waitTid := h.Thread(h.AliceKey, "")
	waited := make(chan apptest.Response, 1)
	go func() {
		waited <- h.Do(http.MethodPost, "/threads/"+waitTid+"/runs/wait", h.AliceKey, apptest.RunBody(plannertest.Lisbon))
	}()
	for { // until the waited-on run exists
		var runs []apptest.RunJSON
		h.Must(http.StatusOK, http.MethodGet, "/threads/"+waitTid+"/runs", h.AliceKey, "").Decode(t, &runs)
		if len(runs) == 1 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	apptest.Within(t, gate.Started, "a tool call") // a run is inside its tool call

	graceOver, end := context.WithCancel(context.Background())
	end()
	h.Srv.Shutdown(graceOver)

	got := apptest.Within(t, frames, "the end of the LangGraph stream")
	if n := len(got); n < 2 || got[0].Event != "metadata" || got[n-1].Event != "error" {
		t.Fatalf("the LangGraph stream after Shutdown: %v", got)
	}
	var e struct{ Error, Message string }
	if err := json.Unmarshal([]byte(got[len(got)-1].Data), &e); err != nil || e.Error != "UNAVAILABLE" || e.Message != httpx.ErrShuttingDown.Message {
		t.Errorf("its error frame: %s", got[len(got)-1].Data)
	}
	c := apptest.Within(t, chatDone, "the end of the chat stream")
	if n := len(c.parts); !c.done || n < 3 || c.parts[n-2]["type"] != "error" || c.parts[n-2]["errorText"] != httpx.ErrShuttingDown.Message ||
		c.parts[n-1]["type"] != "finish" {
		t.Errorf("the chat stream after Shutdown: %v, [DONE] %v", c.parts, c.done)
	}
	w := apptest.Within(t, waited, "the answer to the wait")
	if w.Status != http.StatusServiceUnavailable || w.ErrorCode(t) != "UNAVAILABLE" {
		t.Errorf("the wait after Shutdown: %d %s", w.Status, w.Body)
	}
	if strings.Contains(h.Logs.String(), "streaming a run") {
		t.Errorf("a shutdown was logged as a stream failure: %s", h.Logs.String())
	}

	var runs []apptest.RunJSON
	for _, th := range []string{tid, waitTid, strings.Split(chat.Header.Get("Content-Location"), "/")[2]} {
		var some []apptest.RunJSON
		h.Must(http.StatusOK, http.MethodGet, "/threads/"+th+"/runs", h.AliceKey, "").Decode(t, &some)
		runs = append(runs, some...)
	}
	for _, r := range runs {
		if r.Status != store.RunPending {
			t.Errorf("run %s is %s after Shutdown, want pending\n%s", r.RunID, r.Status, h.Logs.String())
		}
		if _, err := h.Tenant(h.Alice.ID).CancelRun(context.Background(), r.RunID); err != nil {
			t.Fatal(err)
		}
	}
	if len(runs) != 3 {
		t.Fatalf("%d runs, want 3", len(runs))
	}
}
