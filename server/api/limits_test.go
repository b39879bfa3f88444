package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/store/quota"
	"github.com/tripgraph/tripgraph/testing/apptest"
)

// The limits each user is held to, as a client meets them: the last one
// allowed goes through, the next is refused with its status, its code and
// a message that names the limit.

// wantRefused fails the test unless r is an error with this status and
// code whose message says words.
func wantRefused(t *testing.T, what string, r apptest.Response, status int, code, words string) {
	t.Helper()
	var e struct{ Error, Message string }
	if err := json.Unmarshal(r.Body, &e); err != nil || r.Status != status || e.Error != code || !strings.Contains(e.Message, words) {
		t.Errorf("%s: %d %s, want %d %s saying %q", what, r.Status, r.Body, status, code, words)
	}
	if status == http.StatusTooManyRequests && r.Header.Get("Retry-After") == "" {
		t.Errorf("%s: a 429 without Retry-After", what)
	}
}

// cronBody creates a cron on a schedule.
func cronBody(schedule string) string {
	return `{"assistant_id":"trip-planner","schedule":"` + schedule + `","input":{"messages":[{"role":"user","content":"Lisbon in May"}]}}`
}

// A user keeps at most TRIPGRAPH_MAX_CRONS crons; one more is 422. Another
// user has their own.
func TestCronLimit(t *testing.T) {
	h := apptest.New(t, apptest.Quota(quota.Limits{Crons: 2}))
	for range 2 {
		h.Must(http.StatusOK, http.MethodPost, "/runs/crons", h.AliceKey, cronBody("@daily"))
	}
	tid := h.Thread(h.AliceKey, "")
	wantRefused(t, "a third cron", h.Do(http.MethodPost, "/threads/"+tid+"/runs/crons", h.AliceKey, cronBody("@daily")),
		http.StatusUnprocessableEntity, "LIMIT_EXCEEDED", "cron limit reached: a user may keep 2 crons")
	h.Must(http.StatusOK, http.MethodPost, "/runs/crons", h.BobKey, cronBody("@daily"))
}

// A schedule that may be due more often than once a minute is 422, when a
// cron is created or changed; once a minute is taken.
func TestCronIntervalLimit(t *testing.T) {
	h := apptest.New(t)
	var c struct {
		CronID string `json:"cron_id"`
	}
	h.Must(http.StatusOK, http.MethodPost, "/runs/crons", h.AliceKey, cronBody("@every 1m")).Decode(t, &c)
	h.Must(http.StatusOK, http.MethodPost, "/runs/crons", h.AliceKey, cronBody("* * * * *"))
	for _, often := range []string{"@every 59s", "@every 1ms"} {
		wantRefused(t, often, h.Do(http.MethodPost, "/runs/crons", h.AliceKey, cronBody(often)),
			http.StatusUnprocessableEntity, "LIMIT_EXCEEDED", "a cron may be due at most once every 1m")
	}
	wantRefused(t, "a change to every second", h.Do(http.MethodPatch, "/runs/crons/"+c.CronID, h.AliceKey, `{"schedule":"@every 1s"}`),
		http.StatusUnprocessableEntity, "LIMIT_EXCEEDED", "cron interval limit")
}

// A user's long-term store holds at most TRIPGRAPH_MAX_STORE_ITEMS items
// and TRIPGRAPH_MAX_STORE_BYTES bytes: a put past either is 422; replacing
// an item counts the difference, and deleting one frees its room.
func TestStoreLimits(t *testing.T) {
	h := apptest.New(t, apptest.Quota(quota.Limits{Items: 2, ItemBytes: 200}))
	put := func(key string, filler int) apptest.Response {
		return h.Do(http.MethodPut, "/store/items", h.AliceKey,
			`{"namespace":["notes"],"key":"`+key+`","value":{"text":"`+strings.Repeat("x", filler)+`"}}`)
	}
	// An item counts its compact value ({"text":"…"}, 11 bytes and the
	// filler), its key and its labels ("notes").
	for _, key := range []string{"a", "b"} {
		if r := put(key, 83); r.Status != http.StatusNoContent { // 100 bytes each: 200, the limit
			t.Fatalf("putting %s: %d %s", key, r.Status, r.Body)
		}
	}
	wantRefused(t, "a third item", put("c", 1), http.StatusUnprocessableEntity, "LIMIT_EXCEEDED",
		"store item limit reached: a user's store may hold 2 items")
	wantRefused(t, "a larger replacement", put("a", 84), http.StatusUnprocessableEntity, "LIMIT_EXCEEDED",
		"store size limit reached: a user's store may hold 200 bytes, and this put would make it 201 bytes")
	h.Must(http.StatusNoContent, http.MethodPut, "/store/items", h.AliceKey, `{"namespace":["notes"],"key":"a","value":{}}`)
	h.Must(http.StatusNoContent, http.MethodDelete, "/store/items", h.AliceKey, `{"namespace":["notes"],"key":"b"}`)
	if r := put("c", 83); r.Status != http.StatusNoContent {
		t.Errorf("an item a deletion made room for: %d %s", r.Status, r.Body)
	}
	h.Must(http.StatusNoContent, http.MethodPut, "/store/items", h.BobKey, `{"namespace":["notes"],"key":"c","value":{}}`)
}

// A user has at most TRIPGRAPH_MAX_ACTIVE_RUNS runs queued and running
// over all their threads; one more is 429, on a thread or stateless.
// Another user has their own.
func TestActiveRunLimit(t *testing.T) {
	h := apptest.New(t, apptest.Quota(quota.Limits{ActiveRuns: 2})) // no workers: the runs stay pending
	body := apptest.RunBody("4 nights in Lisbon in May")
	for range 2 {
		h.Must(http.StatusOK, http.MethodPost, "/threads/"+h.Thread(h.AliceKey, "")+"/runs", h.AliceKey, body)
	}
	wantRefused(t, "a third run", h.Do(http.MethodPost, "/threads/"+h.Thread(h.AliceKey, "")+"/runs", h.AliceKey, body),
		http.StatusTooManyRequests, "TOO_MANY_REQUESTS", "run limit reached: a user may have 2 runs queued or running at once")
	wantRefused(t, "a stateless run", h.Do(http.MethodPost, "/runs/wait", h.AliceKey, body),
		http.StatusTooManyRequests, "TOO_MANY_REQUESTS", "run limit reached")
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+h.Thread(h.BobKey, "")+"/runs", h.BobKey, body)
}
