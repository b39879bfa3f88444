package store

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/store/replica"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// replicaWait is how long the stores of these tests let a read wait for
// the replica: long, so that a read the replica should serve is served
// by it on a busy machine, and a read that wrongly waits is seen waiting.
const replicaWait = 3 * time.Second

// What a run reads and writes is the primary's, and so is what follows a
// run that is going on; the owner's reads and the replay of a run that
// has ended go through the replica; and the primary is asked for its
// position by one query at a time, however many reads wait for it.
func TestReplicaServesOwnersReadsOnly(t *testing.T) {
	ctx := context.Background()
	url := migratedDatabase(t)
	rep := pgtest.NewReplica(t, "store")
	positions := &positionQueries{}
	st, err := OpenWith(ctx, url, Options{ReplicaURL: rep.URL(pgtest.DatabaseName(t, url)), Tracer: positions,
		Replica: replica.Options{MaxWait: replicaWait, DownFor: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	writer, err := Open(ctx, url) // another process, the run's worker
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(writer.Close)
	standby, err := pgx.Connect(ctx, rep.URL(pgtest.DatabaseName(t, url)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { standby.Close(context.Background()) })
	replay := func(on bool) {
		t.Helper()
		sql := `SELECT pg_wal_replay_pause()`
		if on {
			sql = `SELECT pg_wal_replay_resume()`
		}
		if _, err := standby.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { standby.Exec(context.Background(), `SELECT pg_wal_replay_resume()`) })
	served := func() [2]uint64 {
		return [2]uint64{st.Reads().Served(replica.ByPrimary), st.Reads().Served(replica.ByReplica)}
	}

	owner, run := claimedRun(t, writer, "replica-reader", "w")
	o := st.ForOwner(owner)
	first := graph.Checkpoint{ThreadID: run.ThreadID, ID: newID(), State: []byte(`{"n":1}`), Metadata: graph.Metadata{Source: graph.SourceInput}}
	if err := o.RunCheckpoints(run.Lease(), nil).Put(ctx, first, ""); err != nil {
		t.Fatal(err)
	}

	t.Run("a run's reads are the primary's", func(t *testing.T) {
		replay(false)
		defer replay(true)
		cp := o.RunCheckpoints(run.Lease(), nil)
		second := graph.Checkpoint{ThreadID: run.ThreadID, ID: newID(), ParentID: first.ID, Step: 1, State: []byte(`{"n":2}`),
			Metadata: graph.Metadata{Source: graph.SourceLoop}}
		if err := cp.Put(ctx, second, first.ID); err != nil {
			t.Fatal(err)
		}
		before, start := served(), time.Now()
		latest, err := cp.Latest(ctx, run.ThreadID)
		if err != nil || latest.ID != second.ID {
			t.Fatalf("the run's checkpointer read %s (%v), want its own write %s", latest.ID, err, second.ID)
		}
		if list, err := cp.List(ctx, run.ThreadID, graph.ListOptions{}); err != nil || len(list) != 2 {
			t.Fatalf("the run's checkpointer listed %d (%v), want 2", len(list), err)
		}
		if after := served(); after != before || time.Since(start) > replicaWait/2 {
			t.Errorf("the run's reads went through the replica's router (%v, then %v) or waited for it (%v)", before, after, time.Since(start))
		}
		// The owner's reads see the write too: the replica cannot, paused,
		// so the primary serves them, after waiting for the replica.
		latest, err = o.Checkpoints().Latest(ctx, run.ThreadID)
		if err != nil || latest.ID != second.ID {
			t.Fatalf("the owner's state read %s (%v), want %s", latest.ID, err, second.ID)
		}
		if after := served(); after[replica.ByPrimary] == before[replica.ByPrimary] {
			t.Errorf("the owner's read with the replica's replay paused was not the primary's: %v, then %v", before, after)
		}
	})

	t.Run("following a run going on reads the primary", func(t *testing.T) {
		appendEvents(t, writer, owner, run.ID, 1, 1)
		waitForReplica(t, st, o)
		before := served()
		got, err := follow(t, st, owner, run.ID, 0, func(e RunEvent) {
			switch string(e.Data) {
			case `{"i":1}`:
				// The replica would not see this event: a follower that
				// read it there would wait, then ask the primary.
				replay(false)
				appendEvents(t, writer, owner, run.ID, 2, 2)
			case `{"i":2}`:
				if _, err := writer.FinishRun(context.Background(), run.Lease(), RunSuccess, ""); err != nil {
					t.Error(err)
				}
			}
		})
		replay(true)
		if err != nil {
			t.Fatal(err)
		}
		checkSequence(t, got, 1, 2)
		if after := served(); after[replica.ByReplica]-before[replica.ByReplica] != 1 || after[replica.ByPrimary] != before[replica.ByPrimary] {
			t.Errorf("following a run going on: %v, then %v; want its first read through the replica and no other", before, after)
		}
	})

	t.Run("the replay of a run that ended is the replica's", func(t *testing.T) {
		waitForReplica(t, st, o)
		before := served()
		got, err := follow(t, st, owner, run.ID, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkSequence(t, got, 1, 2)
		if after := served(); after[replica.ByReplica] == before[replica.ByReplica] || after[replica.ByPrimary] != before[replica.ByPrimary] {
			t.Errorf("replaying an ended run: %v, then %v; want it served by the replica", before, after)
		}
	})

	t.Run("one position query at a time", func(t *testing.T) {
		waitForReplica(t, st, o)
		positions.reset()
		const readers = 40
		var wg sync.WaitGroup
		for range readers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := o.SearchThreads(ctx, ThreadQuery{}); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		asked, most := positions.asked.Load(), positions.most.Load()
		t.Logf("%d reads at once asked the primary's position %d times", readers, asked)
		if most != 1 || asked == 0 || asked > readers {
			t.Errorf("%d reads at once: %d position queries, at most %d at a time; want at most one at a time", readers, asked, most)
		}
	})
}

// waitForReplica waits until the replica serves the owner's reads again
// (after a test left it behind, and so alone for a while).
func waitForReplica(t testing.TB, st *Store, o Owner) {
	t.Helper()
	for range 150 {
		before := st.Reads().Served(replica.ByReplica)
		if _, err := o.SearchThreads(context.Background(), ThreadQuery{}); err != nil {
			t.Fatal(err)
		}
		if st.Reads().Served(replica.ByReplica) > before {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the replica serves no read after 15 s")
}

// positionQueries counts the queries of the primary's WAL position and
// the most that ran at once.
type positionQueries struct {
	now, most, asked atomic.Int64
}

type positionQuery struct{}

func (p *positionQueries) reset() { p.now.Store(0); p.most.Store(0); p.asked.Store(0) }

// TraceQueryStart implements pgx.QueryTracer.
func (p *positionQueries) TraceQueryStart(ctx context.Context, _ *pgx.Conn, q pgx.TraceQueryStartData) context.Context {
	if !strings.Contains(q.SQL, "pg_current_wal_flush_lsn") {
		return ctx
	}
	p.asked.Add(1)
	n := p.now.Add(1)
	for m := p.most.Load(); n > m && !p.most.CompareAndSwap(m, n); m = p.most.Load() {
	}
	return context.WithValue(ctx, positionQuery{}, true)
}

// TraceQueryEnd implements pgx.QueryTracer.
func (p *positionQueries) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryEndData) {
	if ctx.Value(positionQuery{}) != nil {
		p.now.Add(-1)
	}
}
