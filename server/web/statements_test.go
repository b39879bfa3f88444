package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/server"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/sqllog"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// The round trips to PostgreSQL and the commits of one turn of the trip
// planner (trip details, stays and restaurants), from the request that
// starts it to the run's end, for each way a client starts one. A
// statement added to a run's path fails this test: if it is needed, the
// count goes up here and in bench/README.md ("Statements per run"), whose
// table the test logs (go test -v).
func TestStatementsPerRun(t *testing.T) {
	// The round trips of each function of ours, per run. Two vary with
	// timing, and are held to at most: the events a run appends between
	// its checkpoints (its tool calls' status, its reply's tokens) are
	// coalesced while a write is in flight, in at most eight here; and the notifier sends, on
	// its own connection, as many notes as have gathered (store/notify.go),
	// so at most one statement per commit that announced something. The
	// cron scheduler's look for due crons, every few seconds, is no run's.
	const auth, create, head, save, items, run, del, session, thread = "store/accounts.(*Store).UserByAPIKey", "store.sendCreationBatch",
		"store/checkpoint.(*saver).readOne",
		"store/checkpoint.(*saver).sendAll", "store/items.Owned.GetEach",
		"store.oneRun", "store.Owner.DeleteThread",
		"store/accounts.(*Store).SessionByToken", "store.Owner.Thread"
	const events, notify = "store.(*Store).AppendRunEvents", "store.(*notifier).send"
	const appends = 8
	const announcing = 3 + appends // a run's checkpoints (its end with the last), events (created claimed, it is not announced)
	atMost := map[string]int{events: appends, notify: announcing}
	want := map[string]map[string]int{
		"POST /runs/wait":                 {auth: 1, create: 1, head: 2, save: 2, items: 1, run: 1, del: 1},
		"POST /threads/{id}/runs/stream":  {auth: 1, head: 2, create: 1, save: 2, items: 1},
		"POST /runs/stream":               {auth: 1, create: 1, head: 1, save: 2, items: 1, del: 1},
		"the browser's POST of a message": {session: 2, create: 1, head: 1, save: 2, items: 1, run: 1, thread: 1},
	}
	rec := &sqllog.Recorder{}
	st, dbURL := storetest.OpenWith(t, "web_stmts", store.Options{Tracer: rec})
	h := liveOn(t, st)
	b := newBrowser(h).login(h.AliceKey)
	check, err := pgx.Connect(t.Context(), dbURL) // unrecorded: waits for the runs' ends
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close(context.Background())

	ways := []struct {
		name string
		run  func() // starts a run and reads its answer to the end
	}{
		{"POST /runs/wait", func() {
			h.Must(http.StatusOK, http.MethodPost, "/runs/wait", h.AliceKey, apptest.RunBody(plannertest.Lisbon))
		}},
		{"POST /threads/{id}/runs/stream", func() {
			tid := h.Thread(h.AliceKey, "")
			rec.Start() // the thread's creation is not the run's
			resp := h.OpenStream(t.Context(), http.MethodPost, "/threads/"+tid+"/runs/stream", apptest.StreamBody(plannertest.Lisbon, `["values","updates","messages-tuple","custom"]`, ""), nil)
			defer resp.Body.Close()
			io.Copy(io.Discard, resp.Body)
		}},
		{"POST /runs/stream", func() {
			resp := h.OpenStream(t.Context(), http.MethodPost, "/runs/stream", apptest.StreamBody(plannertest.Lisbon, `["values","updates","messages-tuple","custom"]`, ""), nil)
			defer resp.Body.Close()
			io.Copy(io.Discard, resp.Body)
		}},
		{"the browser's POST of a message", func() {
			b.run("/app/messages", url.Values{"message": {plannertest.Lisbon}})
		}},
	}
	// One run first, unrecorded: every way is then measured as a process
	// that has run one before runs the next (its caches warm, its workers
	// waiting).
	ways[0].run()
	settled(t, check, rec)
	for _, w := range ways {
		rec.Start()
		w.run()
		settled(t, check, rec)
		trips := rec.Stop()
		got, commits := map[string]int{}, 0
		trips = slices.DeleteFunc(trips, func(tr sqllog.Trip) bool { return strings.HasPrefix(tr.Caller, "store/crons.") })
		for _, tr := range trips {
			got[tr.Caller]++
			if tr.Commit() {
				commits++
			}
		}
		t.Logf("%s: %d round trips, %d commits\n%s", w.name, len(trips), commits, table(trips))
		for caller, n := range got {
			if limit, ok := atMost[caller]; ok {
				if n > limit {
					t.Errorf("%s: %d round trips from %s, want at most %d", w.name, n, caller, limit)
				}
			} else if want[w.name][caller] != n {
				t.Errorf("%s: %d round trips from %s, want %d", w.name, n, caller, want[w.name][caller])
			}
		}
		for caller, n := range want[w.name] {
			if got[caller] == 0 {
				t.Errorf("%s: no round trip from %s, want %d", w.name, caller, n)
			}
		}
	}
}

// liveOn is liveHarness on PostgreSQL, with one worker and a lease long
// enough that no renewal or sweep falls inside a run.
func liveOn(t *testing.T, st *store.Store) *apptest.Server {
	t.Helper()
	return apptest.New(t, apptest.OnPostgres(st), apptest.WithTools(liveTools(t)), apptest.Started(),
		apptest.Tune(func(c *server.Config) { c.Workers, c.RunLease = 1, time.Hour }))
}

// settled waits until no run is pending or running and no round trip was
// made for a moment: the worker has recorded the run's end.
func settled(t *testing.T, check *pgx.Conn, rec *sqllog.Recorder) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		var active int
		if err := check.QueryRow(t.Context(), `SELECT count(*) FROM runs WHERE status IN ('pending', 'running')`).Scan(&active); err != nil {
			t.Fatal(err)
		}
		if n := rec.Len(); active == 0 {
			time.Sleep(200 * time.Millisecond)
			if rec.Len() == n {
				return
			}
		}
		if time.Now().After(deadline) { // a bound on a hang, not a timing assertion
			t.Fatal("the run did not end within a minute")
		}
	}
}

// table is the trips as the rows of bench/README.md's table.
func table(trips []sqllog.Trip) string {
	var b strings.Builder
	for i, tr := range trips {
		sql := tr.SQL
		if len(sql) > 110 {
			sql = sql[:110] + "…"
		}
		commit := ""
		if tr.Commit() {
			commit = "commits"
		}
		fmt.Fprintf(&b, "| %d | `%s` | %s | %d | %v | %s |\n", i+1, tr.Caller, sql, tr.Statements, tr.InTx, commit)
	}
	return b.String()
}
