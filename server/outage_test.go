package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/faultproxy"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// outageHarness is a server whose every database connection passes
// through a proxy the test can cut, with runs leased for an hour: a run
// that waited for its lease to lapse would not end within the test.
func outageHarness(t *testing.T, gate *plannertest.Gate) (*harness, *faultproxy.Proxy) {
	t.Helper()
	migratedStore(t) // migrates
	u, err := url.Parse(testURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy, err := faultproxy.Start(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proxy.Close() })
	through, err := proxy.Through(testURL)
	if err != nil {
		t.Fatal(err)
	}
	st := openStore(t, through)
	h := runHarnessOn(t, st, gate.Tools, func(cfg *Config) { cfg.RunLease = time.Hour })
	t.Cleanup(proxy.Restore) // so that the harness can clean up
	return h, proxy
}

// While the database cannot be reached, requests are answered 503
// UNAVAILABLE, with a Retry-After and a message that says to try again,
// never 500; once it is back, they succeed again.
func TestDatabaseOutageIsUnavailable(t *testing.T) {
	h, proxy := outageHarness(t, &plannertest.Gate{})
	tid := h.thread(h.aliceKey, "")
	proxy.Cut()
	for _, req := range []struct{ method, path, body string }{
		{http.MethodPost, "/threads", ""},
		{http.MethodGet, "/threads/" + tid, ""},
		{http.MethodPost, "/threads/" + tid + "/runs", runBody(plannertest.Lisbon)},
		{http.MethodGet, "/threads/" + tid + "/runs", ""},
	} {
		r := h.do(req.method, req.path, h.aliceKey, req.body)
		var e struct{ Error, Message string }
		r.decode(t, &e)
		if r.status != http.StatusServiceUnavailable || e.Error != "UNAVAILABLE" || e.Message != httpx.ErrDatabaseUnreachable.Message || r.header.Get("Retry-After") == "" {
			t.Errorf("%s %s during the outage = %d %s (Retry-After %q)", req.method, req.path, r.status, r.body, r.header.Get("Retry-After"))
		}
	}
	proxy.Restore()
	h.must(http.StatusOK, http.MethodGet, "/threads/"+tid, h.aliceKey, "")
}

// A run the database failed part-way is handed back to the queue at once
// and taken up again when the database is back, not left for its lease
// to lapse; a client streaming it meanwhile sees its output once, and no
// error.
func TestRunOutlivesADatabaseBlip(t *testing.T) {
	gate := &plannertest.Gate{Started: make(chan string, 4), Release: make(chan struct{})}
	h, proxy := outageHarness(t, gate)
	tid := h.thread(h.aliceKey, "")
	resp := h.openStream(context.Background(), http.MethodPost, "/threads/"+tid+"/runs/stream",
		streamBody(plannertest.Lisbon, `["updates","custom"]`, ""), nil)
	defer resp.Body.Close()
	within(t, gate.Started, "the run's tool call")
	proxy.Cut()
	close(gate.Release) // the run goes on, and its next write fails
	time.Sleep(time.Second)
	proxy.Restore()

	frames := readFrames(t, resp.Body)
	var runID string
	cards := map[string]int{}
	for _, f := range frames {
		switch f.event {
		case "metadata":
			var m struct {
				RunID string `json:"run_id"`
			}
			json.Unmarshal([]byte(f.data), &m)
			runID = m.RunID
		case "error":
			t.Errorf("the stream told of an error: %s", f.data)
		case "custom":
			var ui struct{ Type, ID string }
			if json.Unmarshal([]byte(f.data), &ui) == nil && ui.Type == "ui" {
				cards[ui.ID]++
			}
		}
	}
	if runID == "" || len(cards) == 0 { // the stream ends as the run does, with no frame of its own
		t.Fatalf("the stream ended without the run's output: %+v", frames)
	}
	for id, n := range cards {
		if n != 1 {
			t.Errorf("card %s sent %d times", id, n)
		}
	}
	_, done := storetest.Finish(t, h.st, h.alice.ID, runID)
	if done.Status != store.RunSuccess || done.Attempts < 2 {
		t.Errorf("the run ended %s after %d attempts, want success after being handed back", done.Status, done.Attempts)
	}
	if logs := h.logs.String(); !strings.Contains(logs, "handing it back") {
		t.Errorf("the hand-back was not logged:\n%s", logs)
	}
}
