package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// expireLease makes a run's lease lapse, as it does when its worker's
// process dies and stops renewing it.
func expireLease(t *testing.T, s *Store, runID string) {
	t.Helper()
	if _, err := s.Pool.Exec(context.Background(),
		`UPDATE runs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, runID); err != nil {
		t.Fatal(err)
	}
}

func mustClaim(t *testing.T, s *Store, worker string) Run {
	t.Helper()
	r, ok, err := s.ClaimRun(context.Background(), worker, time.Hour)
	if err != nil || !ok {
		t.Fatalf("%s claiming a run: %v, %v", worker, ok, err)
	}
	return r.Run
}

// runningRun makes a store, a thread of user's with a run on it, and has
// worker claim the run; it returns the store, the owner and the run.
func runningRun(t *testing.T, user, worker string) (*Store, string, Run) {
	t.Helper()
	s := openQueueStores(t, 1)[0]
	owner, run := claimedRun(t, s, user, worker)
	return s, owner, run
}

// claimedRun makes a thread of user's in s with a run on it, and has
// worker claim the run through s; it returns the owner and the run.
func claimedRun(t *testing.T, s *Store, user, worker string) (string, Run) {
	t.Helper()
	owner, thread := newThread(t, s, user)
	mustCreate(t, s, owner, thread, "")
	return owner, mustClaim(t, s, worker)
}

func mustCreate(t *testing.T, s *Store, owner, thread, strategy string) Run {
	t.Helper()
	r, err := s.ForOwner(owner).CreateRun(context.Background(), thread, NewRun{MultitaskStrategy: strategy})
	if err != nil {
		t.Fatalf("creating a run (%s): %v", strategy, err)
	}
	return r
}

func runStatus(t *testing.T, s *Store, owner, runID string) Run {
	t.Helper()
	r, err := s.ForOwner(owner).Run(context.Background(), runID)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// runOrGone is runStatus, with an empty status for a run not there.
func runOrGone(t *testing.T, s *Store, owner, runID string) Run {
	t.Helper()
	r, err := s.ForOwner(owner).Run(context.Background(), runID)
	if errcode.Of(err) == errcode.NotFound {
		return Run{ID: runID}
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Workers in two processes claim runs at once: every run is claimed
// exactly once, and only the pending ones.
func TestClaimRunConcurrently(t *testing.T) {
	ctx := context.Background()
	stores := openQueueStores(t, 2)
	const runs, claimersPerStore = 40, 4
	// A thread with a running run and a queued one: neither is claimable.
	owner, thread := newThread(t, stores[0], "claim-queued")
	mustCreate(t, stores[0], owner, thread, "")
	queued := mustCreate(t, stores[0], owner, thread, MultitaskEnqueue)
	mustClaim(t, stores[0], "first")
	want := map[string]bool{}
	for i := range runs {
		owner, thread := newThread(t, stores[0], fmt.Sprintf("claim-%d", i))
		want[mustCreate(t, stores[0], owner, thread, "").ID] = true
	}

	var mu sync.Mutex
	claims := map[string][]Run{}
	var wg sync.WaitGroup
	for _, s := range stores {
		for c := range claimersPerStore {
			wg.Go(func() {
				for {
					r, ok, err := s.ClaimRun(ctx, fmt.Sprintf("w%p-%d", s, c), time.Hour)
					if err != nil {
						t.Error(err)
						return
					}
					if !ok {
						return
					}
					mu.Lock()
					claims[r.ID] = append(claims[r.ID], r.Run)
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	for id, got := range claims {
		if len(got) != 1 || got[0].Attempts != 1 {
			t.Errorf("run %s claimed %d times (attempts %d)", id, len(got), got[len(got)-1].Attempts)
		}
		if !want[id] {
			t.Errorf("claimed run %s, which was not pending", id)
		}
	}
	if len(claims) != len(want) {
		t.Errorf("%d runs claimed, want %d", len(claims), len(want))
	}
	if r := runStatus(t, stores[1], owner, queued.ID); r.Status != RunQueued {
		t.Errorf("the queued run is %s", r.Status)
	}
}

// A run whose worker stopped renewing its lease goes back to the queue,
// to be resumed by another worker, until it has been claimed maxAttempts
// times; then it ends in error. The workers that lost it can neither renew
// nor finish it.
func TestExpiredLeases(t *testing.T) {
	ctx := context.Background()
	stores := openQueueStores(t, 2)
	a, b := stores[0], stores[1]
	owner, thread := newThread(t, a, "leases")
	run := mustCreate(t, a, owner, thread, "")
	const maxAttempts = 3

	first := mustClaim(t, a, "worker-a")
	if got, err := b.ReclaimExpired(ctx, maxAttempts); err != nil || len(got) != 0 {
		t.Fatalf("reclaiming with the lease still valid: %v, %v", got, err)
	}
	renewed, err := a.RenewLease(ctx, first.Lease(), 2*time.Hour)
	if err != nil || !renewed.LeaseExpiresAt.After(*first.LeaseExpiresAt) {
		t.Fatalf("RenewLease = %v, %v; want a later expiry than %v", renewed.LeaseExpiresAt, err, first.LeaseExpiresAt)
	}

	leases := []Lease{first.Lease()}
	for attempt := 2; attempt <= maxAttempts; attempt++ {
		expireLease(t, a, run.ID)
		got, err := b.ReclaimExpired(ctx, maxAttempts)
		if err != nil || len(got) != 1 || got[0].ID != run.ID || got[0].Status != RunPending {
			t.Fatalf("attempt %d: ReclaimExpired = %+v, %v; want the run pending", attempt, got, err)
		}
		// The same worker id claims it again: only the new claim holds it.
		r := mustClaim(t, b, "worker-a")
		if r.ID != run.ID || r.Attempts != attempt {
			t.Fatalf("resumed run %s with attempts %d, want %s with %d", r.ID, r.Attempts, run.ID, attempt)
		}
		for _, stale := range leases {
			if _, err := a.RenewLease(ctx, stale, time.Hour); !errors.Is(err, ErrLeaseLost) || errcode.Of(err) != errcode.Conflict {
				t.Errorf("renewing stale lease %+v: %v, want ErrLeaseLost", stale, err)
			}
			if _, err := a.FinishRun(ctx, stale, RunSuccess, ""); !errors.Is(err, ErrLeaseLost) {
				t.Errorf("finishing with stale lease %+v: %v, want ErrLeaseLost", stale, err)
			}
		}
		leases = append(leases, r.Lease())
	}
	expireLease(t, a, run.ID)
	got, err := b.ReclaimExpired(ctx, maxAttempts)
	if err != nil || len(got) != 1 || got[0].Status != RunError || !strings.Contains(got[0].Error, "3 times") {
		t.Fatalf("after %d attempts ReclaimExpired = %+v, %v; want the run in error", maxAttempts, got, err)
	}
	if th, _ := a.ForOwner(owner).Thread(ctx, thread); th.Status != ThreadError {
		t.Errorf("thread of a run that failed for good is %s", th.Status)
	}
	if _, ok, _ := a.ClaimRun(ctx, "worker-c", time.Hour); ok {
		t.Error("a run that failed for good was claimed again")
	}
}

// A running run whose worker died after a cancel was asked ends cancelled,
// not resumed; the next queued run of its thread moves up.
func TestExpiredLeaseWithCancelRequest(t *testing.T) {
	ctx := context.Background()
	s := openQueueStores(t, 1)[0]
	owner, thread := newThread(t, s, "cancel-lease")
	run := mustCreate(t, s, owner, thread, "")
	mustClaim(t, s, "w")
	next := mustCreate(t, s, owner, thread, MultitaskEnqueue)
	if r, err := s.ForOwner(owner).CancelRun(ctx, run.ID); err != nil || r.Status != RunRunning || !r.CancelRequested {
		t.Fatalf("CancelRun on a running run = %+v, %v; want it running with a request", r, err)
	}
	expireLease(t, s, run.ID)
	got, err := s.ReclaimExpired(ctx, 5)
	if err != nil || len(got) != 1 || got[0].Status != RunCancelled {
		t.Fatalf("ReclaimExpired = %+v, %v; want the run cancelled", got, err)
	}
	if r := runStatus(t, s, owner, next.ID); r.Status != RunPending {
		t.Errorf("the queued run is %s after its predecessor ended, want pending", r.Status)
	}
}

// The multitask strategies, each from a thread whose active run is pending
// or running, with a run queued behind it.
func TestMultitaskStrategies(t *testing.T) {
	tests := []struct {
		strategy string
		claimed  bool // whether the active run is running (else pending)
		// wantNew is the new run's status; wantActive and wantQueued the
		// old active and queued runs' statuses right after.
		wantNew, wantActive, wantQueued string
		wantCancelRequest, wantReplaces bool
	}{
		{MultitaskEnqueue, true, RunQueued, RunRunning, RunQueued, false, false},
		{MultitaskEnqueue, false, RunQueued, RunPending, RunQueued, false, false},
		{MultitaskInterrupt, true, RunQueued, RunRunning, RunCancelled, true, true},
		{MultitaskInterrupt, false, RunPending, RunCancelled, RunCancelled, false, true},
		{MultitaskRollback, true, RunQueued, RunRunning, RunCancelled, true, true},
		{MultitaskRollback, false, RunPending, "", RunCancelled, false, false}, // a run that never started is deleted
	}
	s := openQueueStores(t, 1)[0]
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%s/claimed=%v", tt.strategy, tt.claimed), func(t *testing.T) {
			ctx := context.Background()
			owner, thread := newThread(t, s, fmt.Sprintf("multitask-%d", i))
			active := mustCreate(t, s, owner, thread, "")
			if tt.claimed {
				active = mustClaim(t, s, "w")
			}
			queued := mustCreate(t, s, owner, thread, MultitaskEnqueue)
			if _, err := s.ForOwner(owner).CreateRun(ctx, thread, NewRun{}); errcode.Of(err) != errcode.Conflict || !strings.Contains(err.Error(), active.ID) {
				t.Fatalf("a rejected run: %v, want a CONFLICT naming %s", err, active.ID)
			}
			created := mustCreate(t, s, owner, thread, tt.strategy)
			if created.Status != tt.wantNew || (created.Replaces == active.ID) != tt.wantReplaces {
				t.Errorf("new run is %s replacing %q", created.Status, created.Replaces)
			}
			a := runOrGone(t, s, owner, active.ID)
			if a.Status != tt.wantActive || a.CancelRequested != tt.wantCancelRequest {
				t.Errorf("active run is %s, cancel requested %v", a.Status, a.CancelRequested)
			}
			if q := runStatus(t, s, owner, queued.ID); q.Status != tt.wantQueued {
				t.Errorf("queued run is %s", q.Status)
			}
			// Run the thread dry: the runs come out in order, one at a time.
			var order []string
			for {
				r, err := s.ForOwner(owner).ActiveRun(ctx, thread)
				if errcode.Of(err) == errcode.NotFound {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if r.Status == RunPending {
					r = mustClaim(t, s, "w")
				}
				order = append(order, r.ID)
				if _, err := s.FinishRun(ctx, r.Lease(), RunSuccess, ""); err != nil {
					t.Fatal(err)
				}
			}
			var want []string
			for _, r := range []Run{active, queued, created} {
				if st := runOrGone(t, s, owner, r.ID).Status; st == RunSuccess {
					want = append(want, r.ID)
				}
			}
			if strings.Join(order, ",") != strings.Join(want, ",") || order[len(order)-1] != created.ID {
				t.Errorf("runs ran in order %v, want %v ending with the new run", order, want)
			}
		})
	}
}

// Runs enqueued while the active run ends are none of them lost: each
// waits behind one active run and all of them run.
func TestEnqueueRacesFinish(t *testing.T) {
	ctx := context.Background()
	stores := openQueueStores(t, 2)
	owner, thread := newThread(t, stores[0], "enqueue-race")
	mustCreate(t, stores[0], owner, thread, "")
	active := mustClaim(t, stores[0], "w")
	const n = 12
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if _, err := stores[i%2].ForOwner(owner).CreateRun(ctx, thread, NewRun{MultitaskStrategy: MultitaskEnqueue}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Go(func() {
		if _, err := stores[1].FinishRun(ctx, active.Lease(), RunSuccess, ""); err != nil {
			t.Error(err)
		}
	})
	wg.Wait()
	for i := range n {
		r, ok, err := stores[i%2].ClaimRun(ctx, "w", time.Hour)
		if err != nil || !ok {
			t.Fatalf("claim %d of %d: %v, %v", i+1, n, ok, err)
		}
		if _, err := stores[0].FinishRun(ctx, r.Lease(), RunSuccess, ""); err != nil {
			t.Fatal(err)
		}
	}
	if d, err := stores[0].RunQueueDepth(ctx); err != nil || d != (QueueDepth{}) {
		t.Errorf("queue after all ran: %+v, %v", d, err)
	}
}

// CancelRun ends a waiting run at once, asks a running one, and refuses an
// ended one. A queued run's end promotes none of those behind it.
func TestCancelRun(t *testing.T) {
	ctx := context.Background()
	s := openQueueStores(t, 1)[0]
	owner, thread := newThread(t, s, "canceller")
	pending := mustCreate(t, s, owner, thread, "")
	queued := mustCreate(t, s, owner, thread, MultitaskEnqueue)
	last := mustCreate(t, s, owner, thread, MultitaskEnqueue)
	behind := mustCreate(t, s, owner, thread, MultitaskEnqueue)

	tests := []struct {
		name, runID, want string
		code              errcode.Code
	}{
		{"queued behind another", behind.ID, RunCancelled, ""},
		{"queued", queued.ID, RunCancelled, ""},
		{"pending, which promotes the next", pending.ID, RunCancelled, ""},
		{"ended", pending.ID, "", errcode.Conflict},
		{"unknown", "00000000-0000-0000-0000-000000000000", "", errcode.NotFound},
		{"malformed", "nope", "", errcode.NotFound},
	}
	for _, tt := range tests {
		r, err := s.ForOwner(owner).CancelRun(ctx, tt.runID)
		if (err == nil) != (tt.code == "") || (err != nil && errcode.Of(err) != tt.code) || r.Status != tt.want {
			t.Errorf("cancelling the %s run: %+v, %v", tt.name, r.Status, err)
		}
	}
	if r := runStatus(t, s, owner, last.ID); r.Status != RunPending {
		t.Errorf("the last run is %s, want pending", r.Status)
	}
	if th, _ := s.ForOwner(owner).Thread(ctx, thread); th.Status != ThreadBusy {
		t.Errorf("thread is %s with a pending run, want busy", th.Status)
	}
}

// Queue depth and the count by status, over all owners.
func TestQueueDepthAndRunsByStatus(t *testing.T) {
	ctx := context.Background()
	s := openQueueStores(t, 1)[0]
	for i := range 3 {
		owner, thread := newThread(t, s, fmt.Sprintf("depth-%d", i))
		mustCreate(t, s, owner, thread, "")
		mustCreate(t, s, owner, thread, MultitaskEnqueue)
	}
	r := mustClaim(t, s, "w") // one running; its queued run stays queued
	d, err := s.RunQueueDepth(ctx)
	if err != nil || d != (QueueDepth{Pending: 2, Queued: 3}) {
		t.Errorf("RunQueueDepth = %+v, %v", d, err)
	}
	if _, err := s.FinishRun(ctx, r.Lease(), RunError, "x"); err != nil {
		t.Fatal(err)
	}
	got, err := s.RunsByStatus(ctx)
	want := map[string]int64{RunQueued: 2, RunPending: 3, RunRunning: 0, RunSuccess: 0, RunError: 1, RunInterrupted: 0, RunCancelled: 0}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("RunsByStatus = %v, %v; want %v", got, err, want)
	}
}

// A worker shutting down hands its run back: another worker resumes it;
// a run with a cancel request ends cancelled instead. Only the holder can.
func TestReleaseRun(t *testing.T) {
	ctx := context.Background()
	stores := openQueueStores(t, 2)
	a, b := stores[0], stores[1]
	owner, held := claimedRun(t, a, "release", "a")

	stranger := held.Lease()
	stranger.WorkerID = "b"
	if _, err := b.ReleaseRun(ctx, stranger); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("a worker releasing a run it does not hold: %v, want ErrLeaseLost", err)
	}
	r, err := a.ReleaseRun(ctx, held.Lease())
	if err != nil || r.Status != RunPending || r.LeaseExpiresAt != nil {
		t.Fatalf("ReleaseRun = %+v, %v; want it pending without a lease", r, err)
	}
	if _, err := a.FinishRun(ctx, held.Lease(), RunSuccess, ""); !errors.Is(err, ErrLeaseLost) {
		t.Errorf("finishing a released run: %v, want ErrLeaseLost", err)
	}
	resumed := mustClaim(t, b, "b")
	if resumed.ID != held.ID || resumed.Attempts != 2 {
		t.Fatalf("resumed %s with attempts %d, want %s with 2", resumed.ID, resumed.Attempts, held.ID)
	}
	if _, err := a.ForOwner(owner).CancelRun(ctx, resumed.ID); err != nil {
		t.Fatal(err)
	}
	if r, err := b.ReleaseRun(ctx, resumed.Lease()); err != nil || r.Status != RunCancelled {
		t.Errorf("releasing a run asked to cancel: %+v, %v; want it cancelled", r.Status, err)
	}
	// An owner id that is no user's, not even a UUID, reaches no run.
	if _, err := a.ForOwner("*").CancelRun(ctx, resumed.ID); errcode.Of(err) != errcode.NotFound {
		t.Errorf("cancelling as owner \"*\": %v, want NOT_FOUND", err)
	}
}

// Two processes reclaiming the same expired runs at once deal with each
// run once.
func TestReclaimExpiredConcurrently(t *testing.T) {
	ctx := context.Background()
	stores := openQueueStores(t, 2)
	const n = 12
	for i := range n {
		owner, thread := newThread(t, stores[0], fmt.Sprintf("reclaim-%d", i))
		mustCreate(t, stores[0], owner, thread, "")
		r := mustClaim(t, stores[0], "dead")
		expireLease(t, stores[0], r.ID)
	}
	var wg sync.WaitGroup
	got := make([][]Run, 2)
	for i, s := range stores {
		wg.Go(func() {
			var err error
			if got[i], err = s.ReclaimExpired(ctx, 5); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	seen := map[string]int{}
	for _, list := range got {
		for _, r := range list {
			seen[r.ID]++
			if r.Status != RunPending {
				t.Errorf("reclaimed run %s is %s, want pending", r.ID, r.Status)
			}
		}
	}
	for id, k := range seen {
		if k != 1 {
			t.Errorf("run %s reclaimed %d times", id, k)
		}
	}
	if len(seen) != n {
		t.Errorf("%d runs reclaimed, want %d", len(seen), n)
	}
}

// A worker whose lease was taken over appends nothing to the run's stream;
// the worker that holds the run now does.
func TestAppendIsFencedByTheLease(t *testing.T) {
	ctx := context.Background()
	s, owner, first := runningRun(t, "fenced-events", "w1")
	if _, err := s.AppendRunEvents(ctx, first.Lease(), []NewRunEvent{{Event: "values", Data: []byte(`{"by":"w1"}`)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pool.Exec(ctx, `UPDATE runs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReclaimExpired(ctx, 3); err != nil {
		t.Fatal(err)
	}
	second := mustClaim(t, s, "w2")
	if _, err := s.AppendRunEvents(ctx, first.Lease(), []NewRunEvent{{Event: "values", Data: []byte(`{"by":"w1, late"}`)}}); !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("the old worker's append: %v, want ErrLeaseLost", err)
	}
	if _, err := s.AppendRunEvents(ctx, second.Lease(), []NewRunEvent{{Event: "values", Data: []byte(`{"by":"w2"}`)}}); err != nil {
		t.Fatal(err)
	}
	events, err := s.ForOwner(owner).RunEvents(ctx, first.ID, 0, 0)
	if err != nil || len(events) != 2 || string(events[1].Data) != `{"by":"w2"}` {
		t.Fatalf("the run's stream: %+v, %v; want w1's then w2's", events, err)
	}
}

// Events with a position already in the run's stream (an earlier attempt
// appended them before its worker stopped) are not appended again; those
// without one always are, and a batch that adds nothing new is no error.
func TestEventPositionsAreAppendedOnce(t *testing.T) {
	ctx := context.Background()
	s, owner, first := runningRun(t, "positions", "w1")
	ev := func(name, position string) NewRunEvent {
		return NewRunEvent{Event: name, Data: []byte(`"` + name + `"`), Position: position}
	}
	names := func(events []RunEvent) []string {
		var out []string
		for _, e := range events {
			out = append(out, e.Event)
		}
		return out
	}
	got, err := s.AppendRunEvents(ctx, first.Lease(), []NewRunEvent{ev("a", "1.a"), ev("b", "1.b"), ev("c", ""), ev("b again", "1.b")})
	if err != nil || !slices.Equal(names(got), []string{"a", "b", "c"}) {
		t.Fatalf("first attempt appended %v, %v", names(got), err)
	}
	if _, err := s.Pool.Exec(ctx, `UPDATE runs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReclaimExpired(ctx, 3); err != nil {
		t.Fatal(err)
	}
	second := mustClaim(t, s, "w2")
	got, err = s.AppendRunEvents(ctx, second.Lease(), []NewRunEvent{ev("a2", "1.a"), ev("b2", "1.b")})
	if err != nil || len(got) != 0 {
		t.Fatalf("a batch already in the stream: appended %v, %v", names(got), err)
	}
	got, err = s.AppendRunEvents(ctx, second.Lease(), []NewRunEvent{ev("d", "2.a"), ev("e", "")})
	if err != nil || !slices.Equal(names(got), []string{"d", "e"}) || got[0].Seq >= got[1].Seq {
		t.Fatalf("second attempt appended %+v, %v", got, err)
	}
	stream, err := s.ForOwner(owner).RunEvents(ctx, first.ID, 0, 0)
	if err != nil || !slices.Equal(names(stream), []string{"a", "b", "c", "d", "e"}) {
		t.Fatalf("the run's stream: %v, %v", names(stream), err)
	}
	if string(stream[0].Data) != `"a"` {
		t.Errorf("the first attempt's event was replaced: %s", stream[0].Data)
	}
}

// A run that becomes pending in one process wakes the queue's watchers in
// another: when it is created, when it is handed back, and when it is
// promoted from behind its thread's run.
func TestWatchQueueHearsPendingRunsFromAnyProcess(t *testing.T) {
	ctx := context.Background()
	stores := openQueueStores(t, 2)
	a, b := stores[0], stores[1]
	pending, stop, err := b.WatchQueue(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	heard := func(what string) {
		t.Helper()
		select {
		case <-pending:
		case <-time.After(10 * time.Second): // a bound, so that the test fails rather than hangs
			t.Fatalf("no announcement of %s", what)
		}
	}
	select { // the listener's first connection may wake the watcher once
	case <-pending:
	default:
	}
	owner, thread := newThread(t, a, "queue-watch")
	mustCreate(t, a, owner, thread, "")
	heard("a new run")
	held := mustClaim(t, a, "a")
	if _, err := a.ReleaseRun(ctx, held.Lease()); err != nil {
		t.Fatal(err)
	}
	heard("a run handed back")
	held = mustClaim(t, a, "a")
	mustCreate(t, a, owner, thread, "enqueue") // queued: not announced until its turn
	if _, err := a.FinishRun(ctx, held.Lease(), RunSuccess, ""); err != nil {
		t.Fatal(err)
	}
	heard("a queued run whose turn came")
}

// A claim says whose run it is, and whether other runs were left pending,
// so that a pool wakes another worker only then.
func TestClaimSaysWhoseRunAndWhetherMoreWait(t *testing.T) {
	s := openQueueStores(t, 1)[0]
	owner, first := newThread(t, s, "claimer")
	_, second := newThread(t, s, "claimer")
	mustCreate(t, s, owner, first, "")
	mustCreate(t, s, owner, second, "")
	for i, want := range []bool{true, false} {
		c, ok, err := s.ClaimRun(context.Background(), "w", time.Hour)
		if err != nil || !ok {
			t.Fatalf("claim %d: %v, %v", i+1, ok, err)
		}
		if c.More != want {
			t.Errorf("claim %d says more are waiting: %v, want %v", i+1, c.More, want)
		}
		if c.Owner != owner {
			t.Errorf("claim %d says the run is %q's, want %q's", i+1, c.Owner, owner)
		}
	}
}

// A cancel that PostgreSQL picks to break a deadlock is run again: here a
// transaction takes the locks in the other order, the run's row (as a
// checkpoint's batch once did while it appended the step's events) and
// then the thread's, which the cancel holds while it waits for the run's.
func TestCancelOutlastsADeadlock(t *testing.T) {
	ctx := context.Background()
	s, owner, run := runningRun(t, "deadlocked", "w")
	tx, err := s.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	var txPID uint32
	if err := tx.QueryRow(ctx, `SELECT pg_backend_pid() FROM runs WHERE id = $1 FOR SHARE`, run.ID).Scan(&txPID); err != nil {
		t.Fatal(err)
	}
	cancelled := make(chan error, 1)
	go func() {
		_, err := s.ForOwner(owner).CancelRun(ctx, run.ID)
		cancelled <- err
	}()
	// The cancel holds the thread and waits for the run: it has waited
	// longer than this transaction will, so it is the deadlock's victim.
	pgtest.WaitUntilBlockedBy(t, s.Pool, txPID)
	if _, err := tx.Exec(ctx, `UPDATE threads SET updated_at = now() WHERE id = $1`, run.ThreadID); err != nil {
		t.Fatalf("the batch's side of the deadlock: %v", err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-cancelled:
		if err != nil {
			t.Fatalf("cancelling: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the cancel did not end")
	}
	if r := runStatus(t, s, owner, run.ID); !r.CancelRequested {
		t.Errorf("the run has no cancel request: %+v", r)
	}
}

// The claim and a new run's claim round are index probes however long the
// queue is: with 20,000 runs of 200 users pending, the claim takes the
// first entry of runs_claim_idx, and the round the first entry of it and
// the last of the owner's in runs_owner_active_idx.
func TestClaimUsesItsIndexes(t *testing.T) {
	ctx := context.Background()
	s := openQueueStores(t, 1)[0]
	var owner string
	err := s.Pool.QueryRow(ctx, `
		WITH u AS (INSERT INTO users (name) SELECT 'bulk-' || g FROM generate_series(1, 200) g RETURNING id),
		t AS (INSERT INTO threads (owner_id) SELECT u.id FROM u, generate_series(1, 100) RETURNING id, owner_id),
		r AS (INSERT INTO runs (thread_id, owner_id, status, claim_round)
			SELECT id, owner_id, 'pending', (random() * 100)::bigint FROM t RETURNING owner_id)
		SELECT owner_id::text FROM r LIMIT 1`).Scan(&owner)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pool.Exec(ctx, `ANALYZE runs; ANALYZE threads`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what, sql string
		args      []any
		indexes   []string
	}{
		{"the claim", claimSQL, []any{"w", time.Minute.Microseconds()}, []string{"Index Scan using runs_claim_idx"}},
		{"a claim round", `SELECT ` + claimRoundOf("$1::uuid", ""), []any{owner}, []string{"runs_claim_idx", "runs_owner_active_idx"}},
	} {
		plan := explain(t, s, c.sql, c.args...)
		for _, index := range c.indexes {
			if !strings.Contains(plan, index) {
				t.Errorf("%s does not use %s:\n%s", c.what, index, plan)
			}
		}
	}
}

// explain is PostgreSQL's plan of a statement, as text.
func explain(t *testing.T, s *Store, sql string, args ...any) string {
	t.Helper()
	return pgtest.Plan(t, s.Pool, `EXPLAIN `+sql, args...)
}
