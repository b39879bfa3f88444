package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/replica"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// replicaWait is how long the store under test lets a read wait for the
// replica to catch up: long enough for a busy machine's replay, so that
// the reads this test expects of the replica are the replica's.
const replicaWait = 3 * time.Second

// With a streaming replica, the API's reads (history, state, searches of
// threads, runs and store items, a finished run's stream) are served by
// it; a read right after a write sees the write, from the primary while
// the replica has not replayed it, or from the replica once it has; and
// with the replica stopped every read is answered by the primary, with no
// error, until the replica is back.
func TestReadReplica(t *testing.T) {
	ctx := context.Background()
	base, dbURL := storetest.OpenURL(t, "replica")
	base.Close()
	rep := pgtest.NewReplica(t, "server")
	replicaURL := rep.URL(pgtest.DatabaseName(t, dbURL))
	st, err := store.OpenWith(ctx, dbURL, store.Options{ReplicaURL: replicaURL,
		Replica: replica.Options{MaxWait: replicaWait, DownFor: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	h := apptest.New(t, apptest.OnPostgres(st), apptest.WithTools((&plannertest.Gate{}).Tools), apptest.Started())
	standby := connect(t, replicaURL)
	reads := readCounter{t: t, r: st.Reads()}

	// Writes, each on the primary.
	tid := h.Thread(h.AliceKey, `{"metadata":{"trip":"lisbon"}}`)
	var run struct {
		RunID string `json:"run_id"`
	}
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey, apptest.RunBody(plannertest.Lisbon)).Decode(t, &run)
	if _, r := h.Finish(h.Alice.ID, run.RunID); r.Status != store.RunSuccess {
		t.Fatalf("the run ended %s", r.Status)
	}
	h.Must(http.StatusNoContent, http.MethodPut, "/store/items", h.AliceKey,
		`{"namespace":["notes"],"key":"k1","value":{"text":"pastel de nata"}}`)

	t.Run("the replica serves the reads", func(t *testing.T) {
		scansBefore := tableScans(t, standby)
		for _, read := range []struct{ method, path, body, want string }{
			{http.MethodPost, "/threads/search", `{"metadata":{"trip":"lisbon"}}`, tid},
			{http.MethodPost, "/threads/count", `{"metadata":{"trip":"lisbon"}}`, "1"},
			{http.MethodGet, "/threads/" + tid + "/history", "", `"checkpoint_id"`},
			{http.MethodGet, "/threads/" + tid + "/state", "", "Lisbon"},
			{http.MethodGet, "/threads/" + tid + "/runs", "", run.RunID},
			{http.MethodPost, "/store/items/search", `{"namespace_prefix":["notes"],"query":"nata"}`, "pastel"},
			{http.MethodGet, "/threads/" + tid + "/runs/" + run.RunID + "/stream", "", "event: values"},
		} {
			before, start := reads.now(), time.Now()
			body := h.Must(http.StatusOK, read.method, read.path, h.AliceKey, read.body).Body
			t.Logf("%s %s: %v", read.method, read.path, time.Since(start))
			if !strings.Contains(string(body), read.want) {
				t.Errorf("%s %s = %.300s, want it to hold %s", read.method, read.path, body, read.want)
			}
			reads.servedBy(before, replica.ByReplica, read.method+" "+read.path)
		}
		// The replica's own statistics count the scans of its tables that
		// the reads made: independent of the router's counts.
		waitUntil(t, "the replica's statistics count the reads' scans", func() bool {
			return tableScans(t, standby) > scansBefore
		})
		if !strings.Contains(string(h.Must(http.StatusOK, http.MethodGet, "/metrics", "", "").Body),
			`tripgraph_db_reads_total{served_by="replica"}`) {
			t.Error("/metrics does not count the reads the replica served")
		}
	})

	t.Run("a read after a write sees it, from the primary while the replica lags", func(t *testing.T) {
		if _, err := standby.Exec(ctx, `SELECT pg_wal_replay_pause()`); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { standby.Exec(ctx, `SELECT pg_wal_replay_resume()`) })
		h.Must(http.StatusOK, http.MethodPatch, "/threads/"+tid, h.AliceKey, `{"metadata":{"step":"paused"}}`)
		before := reads.now()
		found := h.Must(http.StatusOK, http.MethodPost, "/threads/search", h.AliceKey, `{"metadata":{"step":"paused"}}`).Body
		if !strings.Contains(string(found), tid) {
			t.Fatalf("the search right after the write missed it: %s", found)
		}
		reads.servedBy(before, replica.ByPrimary, "the search while the replica's replay is paused")
	})

	t.Run("a read after a write waits for the replica to replay it", func(t *testing.T) {
		// The replica, behind a moment ago, is left alone for a while.
		waitUntil(t, "the replica serves reads again", func() bool {
			before := reads.now()
			h.Must(http.StatusOK, http.MethodPost, "/threads/count", h.AliceKey, `{}`)
			return reads.now()[replica.ByReplica] > before[replica.ByReplica]
		})
		if _, err := standby.Exec(ctx, `SELECT pg_wal_replay_pause()`); err != nil {
			t.Fatal(err)
		}
		// A write whose request reads nothing the replica may serve.
		h.Must(http.StatusNoContent, http.MethodPut, "/store/items", h.AliceKey,
			`{"namespace":["notes"],"key":"k2","value":{"text":"bacalhau"}}`)
		const pause = 300 * time.Millisecond
		resumed := make(chan error, 1)
		go func() {
			time.Sleep(pause)
			_, err := standby.Exec(ctx, `SELECT pg_wal_replay_resume()`)
			resumed <- err
		}()
		before, start := reads.now(), time.Now()
		found := h.Must(http.StatusOK, http.MethodPost, "/store/items/search", h.AliceKey, `{"namespace_prefix":["notes"],"query":"bacalhau"}`).Body
		took := time.Since(start)
		if err := <-resumed; err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(found), "k2") {
			t.Fatalf("the search right after the write missed it: %s", found)
		}
		reads.servedBy(before, replica.ByReplica, "the search once the replica replayed the write")
		if took < pause {
			t.Errorf("the search took %v: it cannot have waited for the replay, resumed after %v", took, pause)
		}
	})

	t.Run("with the replica stopped the primary answers, and the replica is tried again later", func(t *testing.T) {
		standby.Close(ctx)
		if err := rep.Stop(ctx); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			before := reads.now()
			found := h.Must(http.StatusOK, http.MethodPost, "/threads/search", h.AliceKey, `{"metadata":{"trip":"lisbon"}}`).Body
			if !strings.Contains(string(found), tid) {
				t.Fatalf("the search with the replica stopped: %s", found)
			}
			h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/history", h.AliceKey, "")
			reads.servedBy(before, replica.ByPrimary, "the reads with the replica stopped")
		}
		if err := rep.Start(ctx); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, "the replica serves reads again", func() bool {
			before := reads.now()
			h.Must(http.StatusOK, http.MethodPost, "/threads/search", h.AliceKey, `{"metadata":{"trip":"lisbon"}}`)
			return reads.now()[replica.ByReplica] > before[replica.ByReplica]
		})
	})
}

// readCounter reads how many reads each database served.
type readCounter struct {
	t testing.TB
	r *replica.Router
}

func (c readCounter) now() [2]uint64 {
	return [2]uint64{c.r.Served(replica.ByPrimary), c.r.Served(replica.ByReplica)}
}

// servedBy fails the test unless every read since before was served by
// want, and at least one was.
func (c readCounter) servedBy(before [2]uint64, want replica.Served, what string) {
	c.t.Helper()
	after := c.now()
	other := 1 - want
	if after[want] == before[want] || after[other] != before[other] {
		c.t.Errorf("%s: %d reads by the primary and %d by the replica, want them all by the %s",
			what, after[replica.ByPrimary]-before[replica.ByPrimary], after[replica.ByReplica]-before[replica.ByReplica], want)
	}
}

// tableScans is how many scans the server of conn counts of its
// database's tables.
func tableScans(t testing.TB, conn *pgx.Conn) int64 {
	t.Helper()
	var n int64
	if err := conn.QueryRow(context.Background(),
		`SELECT coalesce(sum(seq_scan + coalesce(idx_scan, 0)), 0)::bigint FROM pg_stat_user_tables`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func connect(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// waitUntil polls ok for up to 15 s, and fails the test if it never holds.
func waitUntil(t testing.TB, what string, ok func() bool) {
	t.Helper()
	for range 150 {
		if ok() {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("after 15 s: not yet %s", what)
}
