package web_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/server"
	"github.com/tripgraph/tripgraph/server/web"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
)

// A user's browser live streams and API streams count toward one cap,
// TRIPGRAPH_MAX_STREAMS: with one of each open, a session opening one
// stream more gets 429, and so does the API; another user has their own.
func TestLiveStreamsShareTheUsersCap(t *testing.T) {
	limits := apptest.Limits()
	limits.MaxStreams = 2
	gate := plannertest.Held()
	h := apptest.New(t, apptest.WithTools(gate.Tools), apptest.Started(),
		apptest.Tune(func(c *server.Config) { c.Limits = limits }))
	release := sync.OnceFunc(func() { close(gate.Release) })
	defer release() // also when the test fails, so that the runs end
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	tid := h.Thread(h.AliceKey, "")
	var run apptest.RunJSON
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey, apptest.RunBody(plannertest.Lisbon)).Decode(t, &run)
	apptest.Within(t, gate.Started, "the run's tool call") // it holds there: its streams stay open
	alice := newBrowser(h).login(h.AliceKey)
	live := web.LiveURL(tid, run.RunID, "", "")
	first := alice.do(http.MethodGet, live, nil)
	defer first.Body.Close()
	if first.StatusCode != http.StatusOK {
		t.Fatalf("the first live stream = %d", first.StatusCode)
	}
	joined := h.OpenStream(ctx, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID+"/stream", "", nil)
	defer joined.Body.Close()

	// Without a cap the third stream would wait for the run: bound it, so
	// that the test fails rather than hangs.
	third := make(chan apptest.Response, 1)
	go func() { third <- alice.get(live) }()
	select {
	case r := <-third:
		if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
			t.Errorf("a live stream past the user's cap = %d %s, want 429 with Retry-After", r.Status, r.Body)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a live stream past the user's cap was not refused")
	}
	r := h.Do(http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID+"/stream", h.AliceKey, "")
	if r.Status != http.StatusTooManyRequests || r.ErrorCode(t) != "TOO_MANY_REQUESTS" ||
		!strings.Contains(string(r.Body), "stream limit reached: a user may hold 2 streams open at once") {
		t.Errorf("an API stream past the user's cap = %d %s, want 429 naming the limit", r.Status, r.Body)
	}

	bobs := h.Thread(h.BobKey, "")
	var bobRun apptest.RunJSON
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+bobs+"/runs", h.BobKey, apptest.RunBody(plannertest.Lisbon)).Decode(t, &bobRun)
	bob := newBrowser(h).login(h.BobKey)
	theirs := bob.do(http.MethodGet, web.LiveURL(bobs, bobRun.RunID, "", ""), nil)
	defer theirs.Body.Close()
	if theirs.StatusCode != http.StatusOK {
		t.Errorf("another user's live stream = %d", theirs.StatusCode)
	}
	release()
	apptest.Drain(t, first)
	apptest.Drain(t, joined)
	if frames := alice.live(live, 0); len(frames) == 0 {
		t.Error("once the streams ended, a live stream was refused still")
	}
}
