package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/testing/apptest"
)

// The cron routes as LangGraph's clients call them.
func TestCronRoutes(t *testing.T) {
	h := apptest.New(t)
	key := h.AliceKey
	tid := h.Thread(key, "")
	var onThread, stateless wire.Cron
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/crons", key,
		`{"assistant_id":"trip-planner","schedule":"0 9 * * *","timezone":"Europe/Lisbon","input":{"messages":[{"role":"user","content":"4 nights in Lisbon in May"}]},"metadata":{"watch":"lisbon"},"multitask_strategy":"enqueue"}`).Decode(t, &onThread)
	if onThread.ThreadID == nil || *onThread.ThreadID != tid || onThread.NextRunDate == nil || !onThread.Enabled ||
		onThread.Timezone != "Europe/Lisbon" || !strings.Contains(string(onThread.Payload), "4 nights in Lisbon") ||
		onThread.UserID != h.Alice.ID || !strings.Contains(string(onThread.Metadata), "lisbon") {
		t.Fatalf("created %+v", onThread)
	}
	if hour := onThread.NextRunDate.In(mustZone(t, "Europe/Lisbon")).Hour(); hour != 9 {
		t.Errorf("next run at %v: not 9 in Lisbon", onThread.NextRunDate)
	}
	end := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	h.Must(http.StatusOK, http.MethodPost, "/runs/crons", key,
		`{"assistant_id":"trip-planner","schedule":"@hourly","end_time":"`+end+`","enabled":false,"on_run_completed":"keep","input":{"messages":[{"role":"user","content":"Porto"}]}}`).Decode(t, &stateless)
	if stateless.ThreadID != nil || stateless.Enabled || stateless.OnRunCompleted != "keep" || stateless.EndTime == nil {
		t.Fatalf("created %+v", stateless)
	}

	var list []wire.Cron
	h.Must(http.StatusOK, http.MethodPost, "/runs/crons/search", key, `{"thread_id":"`+tid+`"}`).Decode(t, &list)
	if len(list) != 1 || list[0].CronID != onThread.CronID {
		t.Fatalf("search by thread: %+v", list)
	}
	h.Must(http.StatusOK, http.MethodPost, "/runs/crons/search", key, `{"assistant_id":"trip-planner","sort_by":"next_run_date","sort_order":"asc","limit":10,"offset":0}`).Decode(t, &list)
	if len(list) != 2 {
		t.Fatalf("search: %d crons", len(list))
	}
	if r := h.Must(http.StatusOK, http.MethodPost, "/runs/crons/count", key, `{}`); strings.TrimSpace(string(r.Body)) != "2" {
		t.Errorf("count: %s", r.Body)
	}

	var patched wire.Cron
	h.Must(http.StatusOK, http.MethodPatch, "/runs/crons/"+onThread.CronID, key,
		`{"schedule":"30 8 * * 1","enabled":false,"input":{"messages":[{"role":"user","content":"Lisbon under 100 a night"}]},"metadata":{"more":true}}`).Decode(t, &patched)
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
		if r := h.Do(c.method, c.path, key, c.body); r.Status != c.want {
			t.Errorf("%s: %d %s, want %d", c.name, r.Status, r.Body, c.want)
		}
	}

	h.Must(http.StatusNoContent, http.MethodDelete, "/runs/crons/"+stateless.CronID, key, "")
	h.Must(http.StatusNotFound, http.MethodDelete, "/runs/crons/"+stateless.CronID, key, "")
}

// Every cron route acts on the key's user's crons and threads only.
func TestCronRoutesKeepUsersApart(t *testing.T) {
	h := apptest.New(t)
	tid := h.Thread(h.AliceKey, "")
	var c wire.Cron
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/crons", h.AliceKey,
		`{"assistant_id":"trip-planner","schedule":"@daily","input":{"messages":[{"role":"user","content":"Lisbon"}]}}`).Decode(t, &c)
	body := `{"assistant_id":"trip-planner","schedule":"@daily","input":{"messages":[{"role":"user","content":"Lisbon"}]}}`
	h.Must(http.StatusNotFound, http.MethodPost, "/threads/"+tid+"/runs/crons", h.BobKey, body)
	h.Must(http.StatusNotFound, http.MethodPatch, "/runs/crons/"+c.CronID, h.BobKey, `{"enabled":false}`)
	h.Must(http.StatusNotFound, http.MethodDelete, "/runs/crons/"+c.CronID, h.BobKey, "")
	var list []wire.Cron
	h.Must(http.StatusOK, http.MethodPost, "/runs/crons/search", h.BobKey, `{}`).Decode(t, &list)
	if len(list) != 0 {
		t.Errorf("bob finds %d crons", len(list))
	}
	h.Must(http.StatusOK, http.MethodPost, "/runs/crons/search", h.BobKey, `{"thread_id":"`+tid+`"}`).Decode(t, &list)
	if len(list) != 0 {
		t.Errorf("bob finds %d crons of alice's thread", len(list))
	}
	if r := h.Must(http.StatusOK, http.MethodPost, "/runs/crons/count", h.BobKey, `{}`); strings.TrimSpace(string(r.Body)) != "0" {
		t.Errorf("bob counts %s", r.Body)
	}
	var still wire.Cron
	if err := tenantCron(h, h.Alice.ID, c.CronID, &still); err != nil || !still.Enabled {
		t.Errorf("alice's cron after bob's calls: %+v %v", still, err)
	}
}

// tenantCron reads a cron through its owner's tenant.
func tenantCron(h *apptest.Server, userID, id string, out *wire.Cron) error {
	c, err := h.Tenant(userID).Crons.Get(context.Background(), id)
	*out = wire.FromCron(c)
	return err
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}
