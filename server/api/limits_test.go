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
