package server

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/testing/plannertest"
)

func TestAuthentication(t *testing.T) {
	h := newHarness(t, testLimits())
	cases := []struct {
		name   string
		header [2]string
		want   int
		code   string
	}{
		{"no key", [2]string{}, http.StatusUnauthorized, "UNAUTHENTICATED"},
		{"unknown key", [2]string{"X-Api-Key", "tg_nope"}, http.StatusUnauthorized, "UNAUTHENTICATED"},
		{"x-api-key", [2]string{"X-Api-Key", h.aliceKey}, http.StatusOK, ""},
		{"bearer", [2]string{"Authorization", "Bearer " + h.aliceKey}, http.StatusOK, ""},
		{"bearer, any case", [2]string{"Authorization", "bearer " + h.aliceKey}, http.StatusOK, ""},
		{"basic is not a key", [2]string{"Authorization", "Basic " + h.aliceKey}, http.StatusUnauthorized, "UNAUTHENTICATED"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := h.with(t)
			req, _ := http.NewRequest(http.MethodPost, h.url+"/threads/search", nil)
			if c.header[0] != "" {
				req.Header.Set(c.header[0], c.header[1])
			}
			r := h.send(req)
			if r.status != c.want {
				t.Fatalf("status %d %s, want %d", r.status, r.body, c.want)
			}
			if c.code != "" {
				if got := r.errorCode(t); got != c.code {
					t.Errorf("error %q, want %q", got, c.code)
				}
				if r.header.Get("WWW-Authenticate") == "" {
					t.Error("a 401 without WWW-Authenticate")
				}
			}
		})
	}
	t.Run("revoked key", func(t *testing.T) {
		h := h.with(t)
		_, key := newUser(t, h.st)
		h.must(http.StatusOK, http.MethodPost, "/threads/search", key, "")
		u, _ := h.st.Accounts.UserByAPIKey(t.Context(), key)
		if err := h.st.Accounts.RevokeAPIKey(t.Context(), u.ID, key); err != nil {
			t.Fatal(err)
		}
		h.must(http.StatusUnauthorized, http.MethodPost, "/threads/search", key, "")
	})
	t.Run("public routes need no key", func(t *testing.T) {
		h := h.with(t)
		for _, p := range []string{"/healthz", "/readyz", "/metrics", "/openapi.json"} {
			h.must(http.StatusOK, http.MethodGet, p, "", "")
		}
	})
}

func TestRateLimit(t *testing.T) {
	limits := testLimits()
	limits.RatePerSec, limits.RateBurst = 1.0/3600, 2 // one token an hour: the test cannot refill it
	h := newHarness(t, limits)
	for i := range 2 {
		h.must(http.StatusOK, http.MethodGet, "/assistants/trip-planner", h.aliceKey, "")
		_ = i
	}
	r := h.must(http.StatusTooManyRequests, http.MethodGet, "/assistants/trip-planner", h.aliceKey, "")
	if code := r.errorCode(t); code != "TOO_MANY_REQUESTS" {
		t.Errorf("error %q, want TOO_MANY_REQUESTS", code)
	}
	secs, err := strconv.Atoi(r.header.Get("Retry-After"))
	if err != nil || secs < 1 || time.Duration(secs)*time.Second > time.Hour+time.Second {
		t.Errorf("Retry-After %q, want the seconds until a token is back", r.header.Get("Retry-After"))
	}
	// Another key has its own bucket.
	h.must(http.StatusOK, http.MethodGet, "/assistants/trip-planner", h.bobKey, "")
}

// A key may hold MaxStreams streams and waits open at once in a process;
// one more is refused with 429 until one ends. Other keys have their own.
func TestOpenStreamsArePerKeyAndCapped(t *testing.T) {
	limits := testLimits()
	limits.MaxStreams = 2
	gate := &plannertest.Gate{Started: make(chan string, 8), Release: make(chan struct{})}
	h := runHarnessLimited(t, gate, limits)
	release := sync.OnceFunc(func() { close(gate.Release) })
	defer release() // also when the test fails, so that its runs end
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream := func(ctx context.Context) *http.Response {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, h.url+"/threads/"+h.thread(h.aliceKey, "")+"/runs/stream",
			strings.NewReader(streamBody(plannertest.Lisbon, `"values"`, "")))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Api-Key", h.aliceKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	first := stream(ctx)
	waited := make(chan response, 1)
	go func() {
		waited <- h.do(http.MethodPost, "/threads/"+h.thread(h.aliceKey, "")+"/runs/wait", h.aliceKey, runBody(plannertest.Lisbon))
	}()
	within(t, gate.Started, "the streamed run's tool call")
	within(t, gate.Started, "the waited run's tool call")

	// Without a cap the third stream would wait on the gate: bound it, so
	// that the test fails rather than hangs.
	bounded, stop := context.WithTimeout(ctx, 30*time.Second)
	defer stop()
	third := stream(bounded)
	body, _ := io.ReadAll(io.LimitReader(third.Body, 1<<10))
	third.Body.Close()
	if third.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), "TOO_MANY_REQUESTS") || third.Header.Get("Retry-After") == "" {
		t.Fatalf("a third open request = %d %s, want 429 with Retry-After", third.StatusCode, body)
	}
	tid := h.thread(h.aliceKey, "") // short requests are not counted
	bobs := h.thread(h.bobKey, "")
	req, _ := http.NewRequest(http.MethodGet, h.url+"/threads/"+bobs+"/runs", nil)
	req.Header.Set("X-Api-Key", h.bobKey)
	if got := h.send(req); got.status != http.StatusOK {
		t.Errorf("another key's request = %d", got.status)
	}
	release()
	streamClosed(t, first)
	within(t, waited, "the wait's answer")
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.aliceKey, runBody(plannertest.Lisbon))
}
