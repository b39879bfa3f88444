package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/server"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/faultproxy"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// outageHarness is a server whose every database connection passes
// through a proxy the test can cut, with runs leased for an hour: a run
// that waited for its lease to lapse would not end within the test.
func outageHarness(t *testing.T, gate *plannertest.Gate) (*apptest.Server, *faultproxy.Proxy) {
	t.Helper()
	_, dbURL := storetest.OpenURL(t, "outage") // migrated
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy, err := faultproxy.Start(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proxy.Close() })
	through, err := proxy.Through(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), through)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	h := apptest.New(t, apptest.OnPostgres(st), apptest.WithTools(gate.Tools), apptest.Started(),
		apptest.Tune(func(c *server.Config) { c.RunLease = time.Hour }))
	t.Cleanup(proxy.Restore) // so that the harness can clean up
	return h, proxy
}

// While the database cannot be reached, requests are answered 503
// UNAVAILABLE, with a Retry-After and a message that says to try again,
// never 500; once it is back, they succeed again.
func TestDatabaseOutageIsUnavailable(t *testing.T) {
	h, proxy := outageHarness(t, &plannertest.Gate{})
	tid := h.Thread(h.AliceKey, "")
	proxy.Cut()
	for _, req := range []struct{ method, path, body string }{
		{http.MethodPost, "/threads", ""},
		{http.MethodGet, "/threads/" + tid, ""},
		{http.MethodPost, "/threads/" + tid + "/runs", apptest.RunBody(plannertest.Lisbon)},
		{http.MethodGet, "/threads/" + tid + "/runs", ""},
	} {
		r := h.Do(req.method, req.path, h.AliceKey, req.body)
		var e struct{ Error, Message string }
		r.Decode(t, &e)
		if r.Status != http.StatusServiceUnavailable || e.Error != "UNAVAILABLE" || e.Message != httpx.ErrDatabaseUnreachable.Message || r.Header.Get("Retry-After") == "" {
			t.Errorf("%s %s during the outage = %d %s (Retry-After %q)", req.method, req.path, r.Status, r.Body, r.Header.Get("Retry-After"))
		}
	}
	proxy.Restore()
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid, h.AliceKey, "")
}

// A run the database failed part-way is handed back to the queue at once
// and taken up again when the database is back, not left for its lease
// to lapse; a client streaming it meanwhile sees its output once, and no
// error.
func TestRunOutlivesADatabaseBlip(t *testing.T) {
	gate := plannertest.Held()
	h, proxy := outageHarness(t, gate)
	tid := h.Thread(h.AliceKey, "")
	resp := h.OpenStream(context.Background(), http.MethodPost, "/threads/"+tid+"/runs/stream",
		apptest.StreamBody(plannertest.Lisbon, `["updates","custom"]`, ""), nil)
	defer resp.Body.Close()
	apptest.Within(t, gate.Started, "the run's tool call")
	proxy.Cut()
	close(gate.Release) // the run goes on, and its next write fails
	time.Sleep(time.Second)
	proxy.Restore()

	frames := apptest.ReadFrames(t, resp.Body)
	var runID string
	cards := map[string]int{}
	for _, f := range frames {
		switch f.Event {
		case "metadata":
			var m struct {
				RunID string `json:"run_id"`
			}
			json.Unmarshal([]byte(f.Data), &m)
			runID = m.RunID
		case "error":
			t.Errorf("the stream told of an error: %s", f.Data)
		case "custom":
			var ui struct{ Type, ID string }
			if json.Unmarshal([]byte(f.Data), &ui) == nil && ui.Type == "ui" {
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
	_, done := h.Finish(h.Alice.ID, runID)
	if done.Status != store.RunSuccess || done.Attempts < 2 {
		t.Errorf("the run ended %s after %d attempts, want success after being handed back", done.Status, done.Attempts)
	}
	if logs := h.Logs.String(); !strings.Contains(logs, "handing it back") {
		t.Errorf("the hand-back was not logged:\n%s", logs)
	}
}
