package server

import (
	"net/http"
	"strconv"
	"testing"
	"time"
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
	if code := r.errorCode(t); code != "UNAVAILABLE" {
		t.Errorf("error %q, want UNAVAILABLE", code)
	}
	secs, err := strconv.Atoi(r.header.Get("Retry-After"))
	if err != nil || secs < 1 || time.Duration(secs)*time.Second > time.Hour+time.Second {
		t.Errorf("Retry-After %q, want the seconds until a token is back", r.header.Get("Retry-After"))
	}
	// Another key has its own bucket.
	h.must(http.StatusOK, http.MethodGet, "/assistants/trip-planner", h.bobKey, "")
}
