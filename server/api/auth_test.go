package api_test

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
)

func TestAuthentication(t *testing.T) {
	h := apptest.New(t)
	cases := []struct {
		name   string
		header [2]string
		want   int
		code   string
	}{
		{"no key", [2]string{}, http.StatusUnauthorized, "UNAUTHENTICATED"},
		{"unknown key", [2]string{"X-Api-Key", "tg_nope"}, http.StatusUnauthorized, "UNAUTHENTICATED"},
		{"x-api-key", [2]string{"X-Api-Key", h.AliceKey}, http.StatusOK, ""},
		{"bearer", [2]string{"Authorization", "Bearer " + h.AliceKey}, http.StatusOK, ""},
		{"bearer, any case", [2]string{"Authorization", "bearer " + h.AliceKey}, http.StatusOK, ""},
		{"basic is not a key", [2]string{"Authorization", "Basic " + h.AliceKey}, http.StatusUnauthorized, "UNAUTHENTICATED"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := h.With(t)
			req, _ := http.NewRequest(http.MethodPost, h.URL+"/threads/search", nil)
			if c.header[0] != "" {
				req.Header.Set(c.header[0], c.header[1])
			}
			r := h.Send(req)
			if r.Status != c.want {
				t.Fatalf("status %d %s, want %d", r.Status, r.Body, c.want)
			}
			if c.code != "" {
				if got := r.ErrorCode(t); got != c.code {
					t.Errorf("error %q, want %q", got, c.code)
				}
				if r.Header.Get("WWW-Authenticate") == "" {
					t.Error("a 401 without WWW-Authenticate")
				}
			}
		})
	}
	t.Run("revoked key", func(t *testing.T) {
		h := h.With(t)
		_, key := h.NewUser()
		h.Must(http.StatusOK, http.MethodPost, "/threads/search", key, "")
		u, k, _ := h.Accounts.UserByAPIKey(t.Context(), key)
		if _, err := h.Accounts.RevokeAPIKey(t.Context(), u.ID, k.ID); err != nil {
			t.Fatal(err)
		}
		h.Must(http.StatusUnauthorized, http.MethodPost, "/threads/search", key, "")
	})
	t.Run("public routes need no key", func(t *testing.T) {
		h := h.With(t)
		for _, p := range []string{"/healthz", "/readyz", "/metrics", "/openapi.json"} {
			h.Must(http.StatusOK, http.MethodGet, p, "", "")
		}
	})
}

func TestRateLimit(t *testing.T) {
	limits := apptest.Limits()
	limits.RatePerSec, limits.RateBurst = 1.0/3600, 2 // one token an hour: the test cannot refill it
	h := apptest.New(t, limited(limits))
	for i := range 2 {
		h.Must(http.StatusOK, http.MethodGet, "/assistants/trip-planner", h.AliceKey, "")
		_ = i
	}
	r := h.Must(http.StatusTooManyRequests, http.MethodGet, "/assistants/trip-planner", h.AliceKey, "")
	if code := r.ErrorCode(t); code != "TOO_MANY_REQUESTS" {
		t.Errorf("error %q, want TOO_MANY_REQUESTS", code)
	}
	secs, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || secs < 1 || time.Duration(secs)*time.Second > time.Hour+time.Second {
		t.Errorf("Retry-After %q, want the seconds until a token is back", r.Header.Get("Retry-After"))
	}
	// Another key has its own bucket.
	h.Must(http.StatusOK, http.MethodGet, "/assistants/trip-planner", h.BobKey, "")
}

// A user may hold MaxStreams streams and waits open at once in a process,
// over all their keys; one more is refused with 429 until one ends. Other
// users have their own.
func TestOpenStreamsArePerUserAndCapped(t *testing.T) {
	limits := apptest.Limits()
	limits.MaxStreams = 2
	gate := &plannertest.Gate{Started: make(chan string, 8), Release: make(chan struct{})}
	h := runHarness(t, gate, limited(limits))
	release := sync.OnceFunc(func() { close(gate.Release) })
	defer release() // also when the test fails, so that its runs end
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	secondKey, _, err := h.Accounts.CreateAPIKey(ctx, accounts.NewKey{UserID: h.Alice.ID, Label: "second"})
	if err != nil {
		t.Fatal(err)
	}
	stream := func(ctx context.Context, key string) *http.Response {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, h.URL+"/threads/"+h.Thread(key, "")+"/runs/stream",
			strings.NewReader(apptest.StreamBody(plannertest.Lisbon, `"values"`, "")))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Api-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	first := stream(ctx, h.AliceKey)
	waited := make(chan apptest.Response, 1)
	go func() {
		waited <- h.Do(http.MethodPost, "/threads/"+h.Thread(h.AliceKey, "")+"/runs/wait", h.AliceKey, apptest.RunBody(plannertest.Lisbon))
	}()
	apptest.Within(t, gate.Started, "the streamed run's tool call")
	apptest.Within(t, gate.Started, "the waited run's tool call")

	// Without a cap the third stream would wait on the gate: bound it, so
	// that the test fails rather than hangs.
	bounded, stop := context.WithTimeout(ctx, 30*time.Second)
	defer stop()
	third := stream(bounded, secondKey) // the user's other key: the same cap
	body, _ := io.ReadAll(io.LimitReader(third.Body, 1<<10))
	third.Body.Close()
	if third.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), "TOO_MANY_REQUESTS") ||
		!strings.Contains(string(body), "stream limit") || third.Header.Get("Retry-After") == "" {
		t.Fatalf("a third open request = %d %s, want 429 with Retry-After", third.StatusCode, body)
	}
	tid := h.Thread(h.AliceKey, "") // short requests are not counted
	bobs := h.Thread(h.BobKey, "")
	req, _ := http.NewRequest(http.MethodGet, h.URL+"/threads/"+bobs+"/runs", nil)
	req.Header.Set("X-Api-Key", h.BobKey)
	if got := h.Send(req); got.Status != http.StatusOK {
		t.Errorf("another key's request = %d", got.Status)
	}
	release()
	apptest.Drain(t, first)
	apptest.Within(t, waited, "the wait's answer")
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, apptest.RunBody(plannertest.Lisbon))
}
