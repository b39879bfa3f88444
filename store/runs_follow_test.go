package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/testing/sqllog"
)

// guard bounds a test that waits on another process; it is a limit on a
// hang, not a timing assertion.
const guard = 60 * time.Second

// listening starts a store's run listener and waits until it listens, as
// it does in a process that has served a while.
func listening(t *testing.T, s *Store) {
	t.Helper()
	for _, ch := range hubChannels {
		select {
		case <-s.runHub().listening[ch]:
		case <-time.After(guard):
			t.Fatal("the run listener did not start")
		}
	}
}

func appendEvents(t *testing.T, s *Store, owner, runID string, from, to int) {
	t.Helper()
	for i := from; i <= to; i++ {
		appendEvent(t, s, runID, "values", fmt.Appendf(nil, `{"i":%d}`, i))
	}
}

// handOver appends the event {"i":i} under l and publishes it, as a
// worker does: its process's followers are handed it.
func handOver(t *testing.T, s *Store, l Lease, i int) {
	t.Helper()
	appended, err := s.AppendRunEvents(context.Background(), l, []NewRunEvent{{Event: "values", Data: fmt.Appendf(nil, `{"i":%d}`, i)}})
	if err != nil {
		t.Error(err)
	}
	s.PublishRunEvents(appended)
}

// follow collects what FollowRunEvents yields, calling each(e) after every
// event.
func follow(t *testing.T, s *Store, owner, runID string, after int64, each func(RunEvent)) ([]RunEvent, error) {
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	var got []RunEvent
	for e, err := range s.ForOwner(owner).FollowRunEvents(ctx, runID, after) {
		if err != nil {
			return got, err
		}
		got = append(got, e)
		if each != nil {
			each(e)
		}
	}
	return got, nil
}

func checkSequence(t *testing.T, got []RunEvent, from, to int) {
	t.Helper()
	if len(got) != to-from+1 {
		t.Fatalf("got %d events, want %d (%d..%d)", len(got), to-from+1, from, to)
	}
	for k, e := range got {
		if want := fmt.Sprintf(`{"i":%d}`, from+k); string(e.Data) != want || (k > 0 && e.Seq <= got[k-1].Seq) {
			t.Fatalf("event %d is %s (seq %d), want %s in rising seq order", k, e.Data, e.Seq, want)
		}
	}
}

// A run written through one process is followed through another: stored
// events first, then new ones, ending when the run has ended. Events
// appended between the replay and the wait for more (here, from the
// follower's own loop body, while it is yielding the last stored event) are
// not lost.
func TestFollowRunEventsAcrossProcesses(t *testing.T) {
	stores := openQueueStores(t, 2)
	writer, reader := stores[0], stores[1]
	owner, run := claimedRun(t, writer, "follower", "w")
	appendEvents(t, writer, owner, run.ID, 1, 3)
	// Listening only now, the reader gets no stray notification of the
	// stored events: only what comes after can wake the follower.
	listening(t, reader)

	// The event comes while the follower yields the last stored one; the
	// end of the run, while it yields that event. Each is announced once,
	// so a follower that was not subscribed then would wait for ever.
	var third int64
	got, err := follow(t, reader, owner, run.ID, 0, func(e RunEvent) {
		switch string(e.Data) {
		case `{"i":3}`:
			third = e.Seq
			appendEvents(t, writer, owner, run.ID, 4, 4)
		case `{"i":4}`:
			if _, err := writer.FinishRun(context.Background(), run.Lease(), RunSuccess, ""); err != nil {
				t.Error(err)
			}
		}
	})
	if err != nil {
		t.Fatalf("following: %v after %d events", err, len(got))
	}
	checkSequence(t, got, 1, 4)

	resumed, err := follow(t, reader, owner, run.ID, third, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSequence(t, resumed, 4, 4)

	other, _ := newThread(t, reader, "someone-else")
	if _, err := follow(t, reader, other, run.ID, 0, nil); errcode.Of(err) != errcode.NotFound {
		t.Errorf("another owner following: %v, want NOT_FOUND", err)
	}
}

// Many followers in one process, started while a run is being written in
// another, each get every event; they share one LISTEN connection.
func TestFollowersShareOneListener(t *testing.T) {
	ctx := context.Background()
	stores := openQueueStores(t, 2)
	writer, reader := stores[0], stores[1]
	const runs, followersPerRun, events = 3, 3, 150
	owner, _ := newThread(t, writer, "many")
	var ids []string
	var leases []Lease
	for range runs {
		th, err := writer.ForOwner(owner).CreateThread(ctx, NewThread{})
		if err != nil {
			t.Fatal(err)
		}
		mustCreate(t, writer, owner, th.ID, "")
		r := mustClaim(t, writer, "w")
		ids, leases = append(ids, r.ID), append(leases, r.Lease())
		appendEvents(t, writer, owner, r.ID, 1, 1)
	}

	var started, done sync.WaitGroup
	results := make([][]RunEvent, runs*followersPerRun)
	errs := make([]error, len(results))
	for k := range results {
		started.Add(1)
		done.Go(func() {
			first := true
			results[k], errs[k] = follow(t, reader, owner, ids[k%runs], 0, func(RunEvent) {
				if first {
					first = false
					started.Done()
				}
			})
		})
	}
	started.Wait() // every follower is subscribed and has read the stored event

	var listeners int
	if err := reader.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
		WHERE datname = current_database() AND query ILIKE 'listen%'`).Scan(&listeners); err != nil {
		t.Fatal(err)
	}
	if listeners != 1 {
		t.Errorf("%d followers use %d LISTEN connections, want 1", len(results), listeners)
	}

	var writers sync.WaitGroup
	for i, id := range ids {
		writers.Go(func() {
			appendEvents(t, writer, owner, id, 2, events)
			if _, err := writer.FinishRun(ctx, leases[i], RunSuccess, ""); err != nil {
				t.Error(err)
			}
		})
	}
	writers.Wait()
	done.Wait()
	for k, got := range results {
		if errs[k] != nil {
			t.Fatalf("follower %d: %v", k, errs[k])
		}
		checkSequence(t, got, 1, events)
	}
}

// A follower of a queued run that an interrupt cancels ends too.
func TestFollowEndsWhenQueuedRunIsCancelled(t *testing.T) {
	stores := openQueueStores(t, 2)
	owner, thread := newThread(t, stores[0], "queued-follow")
	mustCreate(t, stores[0], owner, thread, "")
	queued := mustCreate(t, stores[0], owner, thread, MultitaskEnqueue)
	appendEvents(t, stores[0], owner, queued.ID, 1, 1)
	listening(t, stores[1])
	got, err := follow(t, stores[1], owner, queued.ID, 0, func(RunEvent) {
		mustCreate(t, stores[0], owner, thread, MultitaskInterrupt)
	})
	if err != nil || len(got) != 1 {
		t.Fatalf("following a cancelled queued run: %d events, %v", len(got), err)
	}
	if r := runStatus(t, stores[1], owner, queued.ID); r.Status != RunCancelled {
		t.Fatalf("queued run is %s", r.Status)
	}
}

// A cancel asked through one process reaches the run's worker in another,
// whether it comes while the worker watches or before.
func TestWatchCancelAcrossProcesses(t *testing.T) {
	ctx := context.Background()
	stores := openQueueStores(t, 2)
	worker, api := stores[0], stores[1]
	listening(t, worker)
	var runs []Run
	for i := range 3 {
		owner, thread := newThread(t, worker, fmt.Sprintf("watched-%d", i))
		mustCreate(t, worker, owner, thread, "")
		runs = append(runs, mustClaim(t, worker, "w"))
	}
	owner := func(r Run) string {
		var id string
		if err := worker.Pool.QueryRow(ctx, `SELECT owner_id FROM threads WHERE id = $1`, r.ThreadID).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	waitDone := func(c context.Context) error {
		select {
		case <-c.Done():
			return context.Cause(c)
		case <-time.After(guard):
			return errors.New("not cancelled")
		}
	}

	watched, stop, err := worker.WatchCancel(ctx, runs[0].ThreadID, runs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if _, err := api.ForOwner(owner(runs[0])).CancelRun(ctx, runs[0].ID); err != nil {
		t.Fatal(err)
	}
	if cause := waitDone(watched); !errors.Is(cause, ErrRunCancelled) {
		t.Errorf("cancel while watching: cause %v, want ErrRunCancelled", cause)
	}
	if r, err := worker.FinishRun(ctx, runs[0].Lease(), RunCancelled, ""); err != nil || r.Status != RunCancelled {
		t.Errorf("the worker ending its cancelled run: %+v, %v", r, err)
	}

	if _, err := api.ForOwner(owner(runs[1])).CancelRun(ctx, runs[1].ID); err != nil {
		t.Fatal(err)
	}
	early, stopEarly, err := worker.WatchCancel(ctx, runs[1].ThreadID, runs[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	defer stopEarly()
	if !errors.Is(context.Cause(early), ErrRunCancelled) {
		t.Errorf("cancel before watching: cause %v, want ErrRunCancelled at once", context.Cause(early))
	}

	stopped, stopIt, err := worker.WatchCancel(ctx, runs[2].ThreadID, runs[2].ID)
	if err != nil {
		t.Fatal(err)
	}
	stopIt()
	if cause := waitDone(stopped); !errors.Is(cause, context.Canceled) || errors.Is(cause, ErrRunCancelled) {
		t.Errorf("stopped watch: cause %v, want context.Canceled", cause)
	}
}

// When the listener's connection drops, notifications sent until it is
// back are lost; on reconnecting it wakes every follower to read again, so
// none of them misses an event or the end of its run.
func TestFollowSurvivesListenerReconnect(t *testing.T) {
	ctx := context.Background()
	stores := openQueueStores(t, 2)
	writer, reader := stores[0], stores[1]
	owner, run := claimedRun(t, writer, "reconnect", "w")
	appendEvents(t, writer, owner, run.ID, 1, 1)

	// The reader's listener reconnects only when the test opens the gate.
	gate := make(chan struct{})
	var connects atomic.Int32
	cfg := reader.Pool.Config().ConnConfig
	reader.hubMu.Lock()
	reader.hub = startHub(func(ctx context.Context) (*pgx.Conn, error) {
		if connects.Add(1) > 1 {
			select {
			case <-gate:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return pgx.ConnectConfig(ctx, cfg.Copy())
	}, reader.ownNote)
	reader.hubMu.Unlock()
	listening(t, reader)

	got, err := follow(t, reader, owner, run.ID, 0, func(e RunEvent) {
		if string(e.Data) != `{"i":1}` {
			return
		}
		var pid int
		if err := writer.Pool.QueryRow(ctx, `SELECT pg_terminate_backend(pid)::int * pid FROM pg_stat_activity
			WHERE datname = current_database() AND query ILIKE 'listen%'`).Scan(&pid); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the listener to be gone and to try again", func() bool {
			var n int
			writer.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE pid = $1`, pid).Scan(&n)
			return n == 0 && connects.Load() > 1
		})
		appendEvents(t, writer, owner, run.ID, 2, 2)
		if _, err := writer.FinishRun(ctx, run.Lease(), RunSuccess, ""); err != nil {
			t.Error(err)
		}
		close(gate)
	})
	if err != nil {
		t.Fatalf("following: %v after %d events", err, len(got))
	}
	checkSequence(t, got, 1, 2)
}

// waitFor polls cond until it holds, failing the test after guard.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: gave up", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A run with more events than one read returns is followed to its end.
func TestFollowPagesThroughManyEvents(t *testing.T) {
	ctx := context.Background()
	s, owner, run := runningRun(t, "pages", "w")
	const n = runEventsPage*2 + 7
	if _, err := s.Pool.Exec(ctx, `INSERT INTO run_events (run_id, event, data)
		SELECT $1, 'values', convert_to(format('{"i":%s}', i), 'UTF8') FROM generate_series(1, $2) i ORDER BY i`,
		run.ID, n); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FinishRun(ctx, run.Lease(), RunSuccess, ""); err != nil {
		t.Fatal(err)
	}
	got, err := follow(t, s, owner, run.ID, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkSequence(t, got, 1, n)
}

// A follower takes the events its own process hands over instead of
// reading them back: here the appended rows are deleted in the same
// transaction, so only the hand-over can yield them. Events appended and
// not handed over (a worker that stopped publishing) are read from the
// table when their notification announces a seq the follower was not
// handed, and the run's end is read too: every event once, in order.
func TestFollowerTakesWhatItsProcessHandsOver(t *testing.T) {
	ctx := context.Background()
	s, owner, run := runningRun(t, "handed", "w")
	listening(t, s)
	appendOne := func(i int) {
		if _, err := s.AppendRunEvents(ctx, run.Lease(), []NewRunEvent{{Event: "values", Data: fmt.Appendf(nil, `{"i":%d}`, i)}}); err != nil {
			t.Error(err)
		}
	}

	appendOne(1)
	got, err := follow(t, s, owner, run.ID, 0, func(e RunEvent) {
		switch string(e.Data) {
		case `{"i":1}`: // 2 and 3: appended, handed over, and not in the table
			b := &pgx.Batch{}
			read := QueueRunEvents(b, run.Lease(), []NewRunEvent{
				{Event: "values", Data: []byte(`{"i":2}`)}, {Event: "values", Data: []byte(`{"i":3}`)}})
			b.Queue(`DELETE FROM run_events WHERE run_id = $1 AND data <> '{"i":1}'::bytea`, run.ID)
			res := s.Pool.SendBatch(ctx, b)
			handed, err := read(res)
			if cerr := res.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				t.Error(err)
				return
			}
			s.PublishRunEvents(handed)
		case `{"i":3}`: // 4: appended, not handed over
			appendEvent(t, s, run.ID, "values", []byte(`{"i":4}`))
		case `{"i":4}`: // then the end
			if _, err := s.FinishRun(ctx, run.Lease(), RunSuccess, ""); err != nil {
				t.Error(err)
			}
		}
	})
	if err != nil {
		t.Fatalf("following: %v after %d events", err, len(got))
	}
	checkSequence(t, got, 1, 4)
}

// A run's end names its last event, so a follower that was handed every
// event ends without reading the table again. Here a read at the end
// would fail, as the thread has passed to another owner by then.
func TestFollowerEndsWithoutReadingWhenItHasEveryEvent(t *testing.T) {
	ctx := context.Background()
	s, owner, run := runningRun(t, "ender", "w")
	listening(t, s)
	other, _ := newThread(t, s, "someone-else")
	handOver(t, s, run.Lease(), 1)
	got, err := follow(t, s, owner, run.ID, 0, func(e RunEvent) {
		switch string(e.Data) {
		case `{"i":1}`:
			handOver(t, s, run.Lease(), 2)
		case `{"i":2}`:
			if _, err := s.Pool.Exec(ctx, `UPDATE threads SET owner_id = $2 WHERE id = $1`, run.ThreadID, other); err != nil {
				t.Error(err)
			}
			if _, err := s.FinishRun(ctx, run.Lease(), RunSuccess, ""); err != nil {
				t.Error(err)
			}
		}
	})
	if err != nil {
		t.Fatalf("following: %v after %d events", err, len(got))
	}
	checkSequence(t, got, 1, 2)
}

// A values event holds a whole state: kilobytes that compress to more
// than PostgreSQL's default TOAST target but well under a page. It stays
// in its row, so that appending it writes no TOAST row and reading it
// takes no TOAST lookup: the TOAST table of the run's partition of
// run_events stays empty.
func TestValuesEventsStayInTheirRows(t *testing.T) {
	ctx := context.Background()
	s, owner, run := runningRun(t, "inline", "w")
	r := rand.New(rand.NewPCG(9, 10))
	var state []byte
	state = append(state, `{"ui":[`...)
	for range 120 {
		state = fmt.Appendf(state, `{"id":"hotel-%d","price":%d,"rating":%.1f},`, r.IntN(1e6), r.IntN(900), 3+2*r.Float64())
	}
	state = append(state[:len(state)-1], "]}"...)
	if _, err := s.AppendRunEvents(ctx, run.Lease(), []NewRunEvent{{Event: "values", Data: state}}); err != nil {
		t.Fatal(err)
	}
	var stored, toast int64
	err := s.Pool.QueryRow(ctx, `SELECT pg_column_size(e.data), pg_relation_size(c.reltoastrelid)
		FROM run_events e JOIN pg_class c ON c.oid = e.tableoid WHERE e.run_id = $1`, run.ID).Scan(&stored, &toast)
	if err != nil {
		t.Fatal(err)
	}
	if stored < 2100 {
		t.Fatalf("the %d-byte state is stored in %d bytes: under the default TOAST target, the test proves nothing", len(state), stored)
	}
	if toast != 0 {
		t.Errorf("a %d-byte values event (%d stored) went to the TOAST table (%d bytes)", len(state), stored, toast)
	}
	if _, err := s.FinishRun(ctx, run.Lease(), RunSuccess, ""); err != nil {
		t.Fatal(err)
	}
	got, err := follow(t, s, owner, run.ID, 0, nil)
	if err != nil || len(got) != 1 || !bytes.Equal(got[0].Data, state) {
		t.Fatalf("read back %d events (%v)", len(got), err)
	}
}

// A follower in the process that takes a run over reads the table before
// it takes the new attempt's events as all that came before them: the
// attempt before may have appended an event whose announcement died with
// its process.
func TestFollowerReadsWhatAnAttemptBeforeLeftUnannounced(t *testing.T) {
	ctx := context.Background()
	stores := openQueueStores(t, 2)
	dying, taker := stores[0], stores[1]
	owner, thread := newThread(t, dying, "taken-over")
	mustCreate(t, dying, owner, thread, "")
	first, ok, err := dying.ClaimRun(ctx, "dying", 50*time.Millisecond)
	if err != nil || !ok {
		t.Fatalf("claiming: %v, %v", ok, err)
	}
	appendEvents(t, dying, owner, first.ID, 1, 1)
	listening(t, taker)
	got, err := follow(t, taker, owner, first.ID, 0, func(e RunEvent) {
		if string(e.Data) != `{"i":1}` {
			return
		}
		// Appended, and its process stops before it announces it.
		if _, err := dying.AppendRunEvents(ctx, first.Lease(), []NewRunEvent{{Event: "values", Data: []byte(`{"i":2}`)}}); err != nil {
			t.Error(err)
		}
		time.Sleep(60 * time.Millisecond) // the lease lapses
		if _, err := taker.ReclaimExpired(ctx, 3); err != nil {
			t.Error(err)
		}
		again, ok, err := taker.ClaimRun(ctx, "taker", time.Hour)
		if err != nil || !ok || again.Attempts != 2 {
			t.Errorf("taking the run over: %v, %v, attempt %d", ok, err, again.Attempts)
			return
		}
		handOver(t, taker, again.Lease(), 3)
		if _, err := taker.FinishRun(ctx, again.Lease(), RunSuccess, ""); err != nil {
			t.Error(err)
		}
	})
	if err != nil {
		t.Fatalf("following: %v after %d events", err, len(got))
	}
	checkSequence(t, got, 1, 3)
}

// A run created claimed by a worker of this process is subscribed to as
// it is created, before its worker has it, so its first follower here
// starts from what that subscription gathered instead of reading the
// table: here a read would fail, as the thread has passed to another
// owner before the follower starts, and the follower still yields every
// event the worker handed over, through the run's end. A second follower
// reads as any does (and so finds the run no more its owner's), and a run
// created pending is not kept for anyone.
func TestFirstFollowerOfARunCreatedClaimedDoesNotRead(t *testing.T) {
	ctx := context.Background()
	s := openQueueStores(t, 1)[0]
	listening(t, s)
	owner, thread := newThread(t, s, "kept")
	other, _ := newThread(t, s, "not-kept")
	run, err := s.ForOwner(owner).CreateRun(ctx, thread, NewRun{ClaimFor: Worker{ID: "w", Lease: time.Minute}})
	if err != nil || run.Status != RunRunning {
		t.Fatalf("creating a run claimed: %+v, %v", run, err)
	}
	if _, err := follow(t, s, other, run.ID, 0, nil); errcode.Of(err) != errcode.NotFound {
		t.Fatalf("another owner following the run: %v, want NOT_FOUND", err)
	}
	handOver(t, s, run.Lease(), 1)
	handOver(t, s, run.Lease(), 2)
	if _, err := s.Pool.Exec(ctx, `UPDATE threads SET owner_id = $2 WHERE id = $1`, run.ThreadID, other); err != nil {
		t.Fatal(err)
	}
	got, err := follow(t, s, owner, run.ID, 0, func(e RunEvent) {
		if string(e.Data) == `{"i":2}` {
			if _, err := s.FinishRun(ctx, run.Lease(), RunSuccess, ""); err != nil {
				t.Error(err)
			}
		}
	})
	if err != nil {
		t.Fatalf("following: %v after %d events", err, len(got))
	}
	checkSequence(t, got, 1, 2)
	if _, err := follow(t, s, owner, run.ID, 0, nil); errcode.Of(err) != errcode.NotFound {
		t.Fatalf("a second follower: %v, want NOT_FOUND from its read", err)
	}

	if _, err := s.Pool.Exec(ctx, `UPDATE threads SET owner_id = $2 WHERE id = $1`, run.ThreadID, owner); err != nil {
		t.Fatal(err)
	}
	pending := mustCreate(t, s, owner, thread, "")
	if pending.Status != RunPending {
		t.Fatalf("a run created without a worker is %s, want pending", pending.Status)
	}
	if _, _, kept := s.runHub().adopt(RunEventsChannel, owner, pending.ID); kept {
		t.Fatal("a run created pending was kept for its follower")
	}
}

// The cancel watch of a run created claimed by a worker of this process
// uses the subscription made before the run existed: it reads nothing at
// its start, and still hears a cancel that another process requested
// between the run's creation and the watch. A run created pending is
// watched as any: subscribed, then read.
func TestCancelWatchOfARunCreatedClaimed(t *testing.T) {
	ctx := context.Background()
	rec := &sqllog.Recorder{}
	worker := openQueueStoresWith(t, 1, Options{Tracer: rec})[0]
	api, err := OpenWith(ctx, worker.Pool.Config().ConnString(), Options{}) // another process
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(api.Close)
	listening(t, worker)
	listening(t, api)
	owner, thread := newThread(t, worker, "claimed-watch")
	run, err := worker.ForOwner(owner).CreateRun(ctx, thread, NewRun{ClaimFor: Worker{ID: "w", Lease: time.Minute}})
	if err != nil || run.Status != RunRunning {
		t.Fatalf("creating a run claimed: %+v, %v", run, err)
	}
	if _, err := api.ForOwner(owner).CancelRun(ctx, run.ID); err != nil {
		t.Fatal(err)
	}
	rec.Start()
	watched, stop, err := worker.WatchCancel(ctx, run.ThreadID, run.ID)
	trips := rec.Stop()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if len(trips) != 0 {
		t.Errorf("the watch of a run created claimed read %d times as it started, want none", len(trips))
	}
	select {
	case <-watched.Done():
		if !errors.Is(context.Cause(watched), ErrRunCancelled) {
			t.Fatalf("the watch ended with %v, want ErrRunCancelled", context.Cause(watched))
		}
	case <-time.After(guard):
		t.Fatal("a cancel requested before the watch of a run created claimed was not heard")
	}
	if _, err := worker.FinishRun(ctx, run.Lease(), RunCancelled, ""); err != nil {
		t.Fatal(err)
	}

	mustCreate(t, worker, owner, thread, "")
	pending := mustClaim(t, worker, "w")
	rec.Start()
	_, stopPending, err := worker.WatchCancel(ctx, pending.ThreadID, pending.ID)
	trips = rec.Stop()
	if err != nil {
		t.Fatal(err)
	}
	stopPending()
	if len(trips) != 1 || trips[0].Caller != "store.(*Store).cancelRequested" {
		t.Errorf("the watch of a run claimed from the queue made %d round trips, want its read", len(trips))
	}
}
