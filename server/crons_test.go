package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/testing/plannertest"
)

// The cron routes as LangGraph's clients call them.
func TestCronRoutes(t *testing.T) {
	h := newHarness(t, testLimits())
	key := h.aliceKey
	tid := h.thread(key, "")
	var onThread, stateless wire.Cron
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/crons", key,
		`{"assistant_id":"trip-planner","schedule":"0 9 * * *","timezone":"Europe/Lisbon","input":{"messages":[{"role":"user","content":"4 nights in Lisbon in May"}]},"metadata":{"watch":"lisbon"},"multitask_strategy":"enqueue"}`).decode(t, &onThread)
	if onThread.ThreadID == nil || *onThread.ThreadID != tid || onThread.NextRunDate == nil || !onThread.Enabled ||
		onThread.Timezone != "Europe/Lisbon" || !strings.Contains(string(onThread.Payload), "4 nights in Lisbon") ||
		onThread.UserID != h.alice.ID || !strings.Contains(string(onThread.Metadata), "lisbon") {
		t.Fatalf("created %+v", onThread)
	}
	if hour := onThread.NextRunDate.In(mustZone(t, "Europe/Lisbon")).Hour(); hour != 9 {
		t.Errorf("next run at %v: not 9 in Lisbon", onThread.NextRunDate)
	}
	end := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	h.must(http.StatusOK, http.MethodPost, "/runs/crons", key,
		`{"assistant_id":"trip-planner","schedule":"@hourly","end_time":"`+end+`","enabled":false,"on_run_completed":"keep","input":{"messages":[{"role":"user","content":"Porto"}]}}`).decode(t, &stateless)
	if stateless.ThreadID != nil || stateless.Enabled || stateless.OnRunCompleted != "keep" || stateless.EndTime == nil {
		t.Fatalf("created %+v", stateless)
	}

	var list []wire.Cron
	h.must(http.StatusOK, http.MethodPost, "/runs/crons/search", key, `{"thread_id":"`+tid+`"}`).decode(t, &list)
	if len(list) != 1 || list[0].CronID != onThread.CronID {
		t.Fatalf("search by thread: %+v", list)
	}
	h.must(http.StatusOK, http.MethodPost, "/runs/crons/search", key, `{"assistant_id":"trip-planner","sort_by":"next_run_date","sort_order":"asc","limit":10,"offset":0}`).decode(t, &list)
	if len(list) != 2 {
		t.Fatalf("search: %d crons", len(list))
	}
	if r := h.must(http.StatusOK, http.MethodPost, "/runs/crons/count", key, `{}`); strings.TrimSpace(string(r.body)) != "2" {
		t.Errorf("count: %s", r.body)
	}

	var patched wire.Cron
	h.must(http.StatusOK, http.MethodPatch, "/runs/crons/"+onThread.CronID, key,
		`{"schedule":"30 8 * * 1","enabled":false,"input":{"messages":[{"role":"user","content":"Lisbon under 100 a night"}]},"metadata":{"more":true}}`).decode(t, &patched)
	if patched.Schedule != "30 8 * * 1" || patched.Enabled || !strings.Contains(string(patched.Payload), "under 100") ||
		!strings.Contains(string(patched.Payload), "enqueue") || !strings.Contains(string(patched.Metadata), "more") {
		t.Fatalf("patched %+v (%s)", patched, patched.Payload)
	}

	for _, c := range []struct {
		name, method, path, body string
		want                     int
	}{
		{"no schedule", http.MethodPost, "/runs/crons", `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"x"}]}}`, http.StatusUnprocessableEntity},
		{"bad schedule", http.MethodPost, "/runs/crons", `{"assistant_id":"trip-planner","schedule":"now","input":{"messages":[{"role":"user","content":"x"}]}}`, http.StatusBadRequest},
		{"bad zone", http.MethodPost, "/runs/crons", `{"assistant_id":"trip-planner","schedule":"@daily","timezone":"Nowhere/Here","input":{"messages":[{"role":"user","content":"x"}]}}`, http.StatusBadRequest},
		{"no input", http.MethodPost, "/runs/crons", `{"assistant_id":"trip-planner","schedule":"@daily"}`, http.StatusUnprocessableEntity},
		{"unknown assistant", http.MethodPost, "/runs/crons", `{"assistant_id":"weather","schedule":"@daily","input":{"messages":[{"role":"user","content":"x"}]}}`, http.StatusNotFound},
		{"unknown member", http.MethodPost, "/runs/crons", `{"assistant_id":"trip-planner","schedule":"@daily","cadence":"daily","input":{"messages":[{"role":"user","content":"x"}]}}`, http.StatusUnprocessableEntity},
		{"unknown thread", http.MethodPost, "/threads/00000000-0000-4000-8000-000000000000/runs/crons", `{"assistant_id":"trip-planner","schedule":"@daily","input":{"messages":[{"role":"user","content":"x"}]}}`, http.StatusNotFound},
		{"unknown cron", http.MethodPatch, "/runs/crons/00000000-0000-4000-8000-000000000000", `{"enabled":true}`, http.StatusNotFound},
		{"bad sort", http.MethodPost, "/runs/crons/search", `{"sort_by":"schedule"}`, http.StatusUnprocessableEntity},
	} {
		if r := h.do(c.method, c.path, key, c.body); r.status != c.want {
			t.Errorf("%s: %d %s, want %d", c.name, r.status, r.body, c.want)
		}
	}

	h.must(http.StatusNoContent, http.MethodDelete, "/runs/crons/"+stateless.CronID, key, "")
	h.must(http.StatusNotFound, http.MethodDelete, "/runs/crons/"+stateless.CronID, key, "")
}

// Every cron route acts on the key's user's crons and threads only.
func TestCronRoutesKeepUsersApart(t *testing.T) {
	h := newHarness(t, testLimits())
	tid := h.thread(h.aliceKey, "")
	var c wire.Cron
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/crons", h.aliceKey,
		`{"assistant_id":"trip-planner","schedule":"@daily","input":{"messages":[{"role":"user","content":"Lisbon"}]}}`).decode(t, &c)
	body := `{"assistant_id":"trip-planner","schedule":"@daily","input":{"messages":[{"role":"user","content":"Lisbon"}]}}`
	h.must(http.StatusNotFound, http.MethodPost, "/threads/"+tid+"/runs/crons", h.bobKey, body)
	h.must(http.StatusNotFound, http.MethodPatch, "/runs/crons/"+c.CronID, h.bobKey, `{"enabled":false}`)
	h.must(http.StatusNotFound, http.MethodDelete, "/runs/crons/"+c.CronID, h.bobKey, "")
	var list []wire.Cron
	h.must(http.StatusOK, http.MethodPost, "/runs/crons/search", h.bobKey, `{}`).decode(t, &list)
	if len(list) != 0 {
		t.Errorf("bob finds %d crons", len(list))
	}
	h.must(http.StatusOK, http.MethodPost, "/runs/crons/search", h.bobKey, `{"thread_id":"`+tid+`"}`).decode(t, &list)
	if len(list) != 0 {
		t.Errorf("bob finds %d crons of alice's thread", len(list))
	}
	if r := h.must(http.StatusOK, http.MethodPost, "/runs/crons/count", h.bobKey, `{}`); strings.TrimSpace(string(r.body)) != "0" {
		t.Errorf("bob counts %s", r.body)
	}
	var still wire.Cron
	if err := h.tenantCron(h.alice.ID, c.CronID, &still); err != nil || !still.Enabled {
		t.Errorf("alice's cron after bob's calls: %+v %v", still, err)
	}
}

// tenantCron reads a cron through its owner's tenant.
func (h *harness) tenantCron(userID, id string, out *wire.Cron) error {
	c, err := h.tenant(userID).Crons.Get(context.Background(), id)
	*out = wire.FromCron(c)
	return err
}

// A due cron starts one run on its thread, with the cron's input as a new
// turn, and the runner executes it; a cron without a thread runs on a new
// thread, deleted after the run.
func TestDueCronsRun(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	ctx := context.Background()
	tid := h.thread(h.aliceKey, "")
	var onThread, stateless wire.Cron
	h.must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/crons", h.aliceKey,
		`{"assistant_id":"trip-planner","schedule":"@daily","input":{"messages":[{"role":"user","content":"`+plannertest.Lisbon+`"}]}}`).decode(t, &onThread)
	h.must(http.StatusOK, http.MethodPost, "/runs/crons", h.aliceKey,
		`{"assistant_id":"trip-planner","schedule":"@daily","input":{"messages":[{"role":"user","content":"`+plannertest.Lisbon+`"}]}}`).decode(t, &stateless)
	if _, err := h.st.Pool.Exec(ctx, `UPDATE crons SET next_run_at = now() WHERE id = ANY($1::uuid[])`,
		[]string{onThread.CronID, stateless.CronID}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		var runs []struct {
			Status   string          `json:"status"`
			Metadata json.RawMessage `json:"metadata"`
		}
		h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs", h.aliceKey, "").decode(t, &runs)
		var threads int
		if err := h.st.Pool.QueryRow(ctx, `SELECT count(*) FROM threads WHERE metadata->>'cron_id' = $1`, stateless.CronID).Scan(&threads); err != nil {
			t.Fatal(err)
		}
		var statelessRuns int
		if err := h.st.Pool.QueryRow(ctx, `SELECT count(*) FROM runs WHERE metadata->>'cron_id' = $1`, stateless.CronID).Scan(&statelessRuns); err != nil {
			t.Fatal(err)
		}
		if len(runs) == 1 && runs[0].Status == "success" && threads == 0 && statelessRuns == 0 {
			if !strings.Contains(string(runs[0].Metadata), onThread.CronID) {
				t.Errorf("the run's metadata %s does not name the cron", runs[0].Metadata)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a minute: %d runs on the thread %+v; %d threads of the stateless cron", len(runs), runs, threads)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var st struct {
		Values struct {
			Messages []struct {
				Type string `json:"type"`
			} `json:"messages"`
		} `json:"values"`
	}
	h.must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/state", h.aliceKey, "").decode(t, &st)
	if len(st.Values.Messages) < 2 || st.Values.Messages[0].Type != "human" {
		t.Errorf("the thread after the cron's run: %+v", st.Values.Messages)
	}
	var after wire.Cron
	if err := h.tenantCron(h.alice.ID, onThread.CronID, &after); err != nil || after.NextRunDate == nil || !after.NextRunDate.After(time.Now()) {
		t.Errorf("the cron's next run after firing: %+v (%v)", after.NextRunDate, err)
	}
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}
