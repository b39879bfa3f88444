package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/server"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/mcpservers"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// The wiring on PostgreSQL, end to end: what the in-memory twin cannot
// show (readiness and migrations, several processes on one database, the
// queue's crons). The handlers' own behaviour is tested beside them, in
// server/api and server/web, on the twin.

// readyz is 503 until the database has every migration, then 200.
func TestReadiness(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Database(t, "server_ready")
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(server.Config{Data: server.OnPostgres(st, mcpservers.Registry{Pool: st.Pool}), Planner: plannertest.Planner(t), Tools: apptest.NoTools})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	get := func(path string) (int, wire.Health) {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var h wire.Health
		json.NewDecoder(resp.Body).Decode(&h)
		return resp.StatusCode, h
	}
	if status, h := get("/readyz"); status != http.StatusServiceUnavailable || h.Reason != "migrations pending" {
		t.Fatalf("readyz on an empty database = %d %+v", status, h)
	}
	if status, _ := get("/healthz"); status != http.StatusOK {
		t.Fatalf("healthz = %d: the process is alive and reaches its database", status)
	}
	if err := migrations.Up(ctx, url); err != nil {
		t.Fatal(err)
	}
	if status, h := get("/readyz"); status != http.StatusOK || h.Status != "ok" {
		t.Fatalf("readyz after migrating = %d %+v", status, h)
	}
	st.Close()
	if status, h := get("/readyz"); status != http.StatusServiceUnavailable || h.Reason != "database unreachable" {
		t.Fatalf("readyz with the pool closed = %d %+v", status, h)
	}
	if status, _ := get("/healthz"); status != http.StatusServiceUnavailable {
		t.Fatalf("healthz with the pool closed = %d", status)
	}
}

// A run created and streamed through a process without workers is
// executed by another process's pool, and its events reach the first
// process through the database.
func TestStreamAcrossProcesses(t *testing.T) {
	st, dbURL := storetest.OpenURL(t, "across")
	h := apptest.New(t, apptest.OnPostgres(st), apptest.WithTools((&plannertest.Gate{}).Tools), apptest.Started()) // the process with workers
	idleStore, err := store.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(idleStore.Close)
	idle := apptest.New(t, apptest.OnPostgres(idleStore)) // a process that never starts its pool
	front := *idle
	front.AliceKey = h.AliceKey
	tid := front.Thread(h.AliceKey, "")
	resp := front.OpenStream(context.Background(), http.MethodPost, "/threads/"+tid+"/runs/stream",
		apptest.StreamBody(plannertest.Lisbon, `["custom","values"]`, ""), nil)
	frames := apptest.ReadFrames(t, resp.Body)
	resp.Body.Close()
	var ui []string
	for _, f := range frames {
		if f.Event == "custom" {
			var m struct{ Name string }
			json.Unmarshal([]byte(f.Data), &m)
			ui = append(ui, m.Name)
		}
	}
	if frames[len(frames)-1].Event != "values" || len(ui) < 2 {
		t.Fatalf("frames through the idle process: %+v", frames)
	}
}

// A due cron starts one run on its thread, with the cron's input as a new
// turn, and the runner executes it; a cron without a thread runs on a new
// thread, deleted after the run.
func TestDueCronsRun(t *testing.T) {
	st := storetest.Open(t, "crons")
	h := apptest.New(t, apptest.OnPostgres(st), apptest.WithTools((&plannertest.Gate{}).Tools), apptest.Started())
	ctx := context.Background()
	tid := h.Thread(h.AliceKey, "")
	var onThread, stateless wire.Cron
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/crons", h.AliceKey,
		`{"assistant_id":"trip-planner","schedule":"@daily","input":{"messages":[{"role":"user","content":"`+plannertest.Lisbon+`"}]}}`).Decode(t, &onThread)
	h.Must(http.StatusOK, http.MethodPost, "/runs/crons", h.AliceKey,
		`{"assistant_id":"trip-planner","schedule":"@daily","input":{"messages":[{"role":"user","content":"`+plannertest.Lisbon+`"}]}}`).Decode(t, &stateless)
	if _, err := st.Pool.Exec(ctx, `UPDATE crons SET next_run_at = now() WHERE id = ANY($1::uuid[])`,
		[]string{onThread.CronID, stateless.CronID}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		var runs []struct {
			Status   string          `json:"status"`
			Metadata json.RawMessage `json:"metadata"`
		}
		h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs", h.AliceKey, "").Decode(t, &runs)
		var threads int
		if err := st.Pool.QueryRow(ctx, `SELECT count(*) FROM threads WHERE metadata->>'cron_id' = $1`, stateless.CronID).Scan(&threads); err != nil {
			t.Fatal(err)
		}
		var statelessRuns int
		if err := st.Pool.QueryRow(ctx, `SELECT count(*) FROM runs WHERE metadata->>'cron_id' = $1`, stateless.CronID).Scan(&statelessRuns); err != nil {
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
	var state struct {
		Values struct {
			Messages []struct {
				Type string `json:"type"`
			} `json:"messages"`
		} `json:"values"`
	}
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/state", h.AliceKey, "").Decode(t, &state)
	if len(state.Values.Messages) < 2 || state.Values.Messages[0].Type != "human" {
		t.Errorf("the thread after the cron's run: %+v", state.Values.Messages)
	}
	after, err := h.Tenant(h.Alice.ID).Crons.Get(ctx, onThread.CronID)
	if err != nil || after.NextRunAt == nil || !after.NextRunAt.After(time.Now()) {
		t.Errorf("the cron's next run after firing: %+v (%v)", after.NextRunAt, err)
	}
}
