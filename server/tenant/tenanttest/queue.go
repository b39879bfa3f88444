package tenanttest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/quota"
)

// The run queue as workers of every owner see it: claims, leases, ends,
// hand-backs, take-overs of lapsed leases, cancel watches, and the
// deletion of a finished run's thread.
var queueCases = []suiteCase{
	{"a run's life", testRunLife},
	{"a claim says whose run and whether more wait", testClaimSays},
	{"lapsed leases", testLapsedLeases},
	{"a lapsed lease with a cancel request", testLapsedCancel},
	{"hand-back", testRelease},
	{"a claim returned", testReturnClaim},
	{"enqueue races the end", testEnqueueRace},
	{"cancel watches", testWatchCancel},
	{"a finished run's thread deleted", testDeleteRunThread},
	{"users take turns", testUsersTakeTurns},
	{"a run created claimed", testClaimedAtOnce},
}

// A run is claimed once, gets its events, and ends with a final status that
// sets its thread's; a worker whose lease no longer holds it cannot end it.
func testRunLife(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	run, err := mine.CreateRun(ctx, thread, store.NewRun{MultitaskStrategy: store.MultitaskInterrupt})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != store.RunPending || run.StartedAt != nil || run.Attempts != 0 {
		t.Fatalf("a new run: %+v", run)
	}
	claimed := mustClaim(t, b, "w1")
	if claimed.ID != run.ID || claimed.Status != store.RunRunning || claimed.StartedAt == nil ||
		claimed.WorkerID != "w1" || claimed.Attempts != 1 || claimed.LeaseExpiresAt == nil {
		t.Fatalf("the claim: %+v", claimed.Run)
	}
	if th, _ := mine.Thread(ctx, thread); th.Status != store.ThreadBusy {
		t.Fatalf("the thread of a running run is %s, want busy", th.Status)
	}
	if again, ok, err := b.Queue.ClaimRun(ctx, "w2", time.Hour); ok || err != nil {
		t.Fatalf("claiming a running run: %+v, %v", again.Run, err)
	}
	if _, _, err := b.Queue.ClaimRun(ctx, "", time.Hour); errcode.Of(err) != errcode.BadRequest {
		t.Fatalf("a claim without a worker: %v, want BAD_REQUEST", err)
	}
	for i, c := range []struct{ status, threadStatus string }{
		{store.RunError, store.ThreadError},
		{store.RunInterrupted, store.ThreadInterrupted},
		{store.RunCancelled, store.ThreadIdle},
		{store.RunSuccess, store.ThreadIdle},
	} {
		if i > 0 {
			mustCreate(t, mine, thread, "")
			claimed = mustClaim(t, b, "w1")
		}
		if _, err := b.Queue.FinishRun(ctx, claimed.Lease(), store.RunRunning, ""); errcode.Of(err) != errcode.BadRequest {
			t.Errorf("ending as running: %v, want BAD_REQUEST", err)
		}
		done, err := b.Queue.FinishRun(ctx, claimed.Lease(), c.status, "boom")
		if err != nil || done.Status != c.status || done.FinishedAt == nil || done.Error != "boom" || done.LeaseExpiresAt != nil {
			t.Fatalf("FinishRun(%s) = %+v, %v", c.status, done, err)
		}
		if th, _ := mine.Thread(ctx, thread); th.Status != c.threadStatus {
			t.Errorf("after a run ended %s the thread is %s, want %s", c.status, th.Status, c.threadStatus)
		}
		if _, err := b.Queue.FinishRun(ctx, claimed.Lease(), store.RunSuccess, ""); !lost(err) {
			t.Errorf("ending a %s run again: %v, want a lost lease", c.status, err)
		}
	}
}

// A claim says whose run it is, and whether other runs were left pending.
func testClaimSays(t *testing.T, b Backend) {
	ctx := context.Background()
	owner := b.NewUser(t)
	mine := b.Records(owner)
	for range 2 {
		th, err := mine.CreateThread(ctx, store.NewThread{})
		if err != nil {
			t.Fatal(err)
		}
		mustCreate(t, mine, th.ID, "")
	}
	for i, want := range []bool{true, false} {
		c := mustClaim(t, b, "w")
		if c.More != want || c.Owner != owner {
			t.Errorf("claim %d: more %v, owner %q; want %v, %q", i+1, c.More, c.Owner, want, owner)
		}
	}
}

// A run whose lease lapsed goes back to pending and is resumed by the next
// claim, whose lease alone then holds it; after the most attempts it ends
// in error.
func testLapsedLeases(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	run := mustCreate(t, mine, thread, "")
	const maxAttempts = 3
	first := mustClaim(t, b, "w")
	if got, err := b.Queue.ReclaimExpired(ctx, maxAttempts); err != nil || len(got) != 0 {
		t.Fatalf("reclaiming with the lease still valid: %v, %v", got, err)
	}
	renewed, err := b.Queue.RenewLease(ctx, first.Lease(), 2*time.Hour)
	if err != nil || !renewed.LeaseExpiresAt.After(*first.LeaseExpiresAt) {
		t.Fatalf("RenewLease = %v, %v; want a later expiry than %v", renewed.LeaseExpiresAt, err, first.LeaseExpiresAt)
	}
	if _, err := b.Queue.RenewLease(ctx, first.Lease(), 0); errcode.Of(err) != errcode.BadRequest {
		t.Fatalf("a lease of nothing: %v, want BAD_REQUEST", err)
	}
	leases := []store.Lease{first.Lease()}
	lapse(t, b, first.Lease())
	for attempt := 2; attempt <= maxAttempts; attempt++ {
		got, err := b.Queue.ReclaimExpired(ctx, maxAttempts)
		if err != nil || len(got) != 1 || got[0].ID != run.ID || got[0].Status != store.RunPending {
			t.Fatalf("attempt %d: ReclaimExpired = %+v, %v; want the run pending", attempt, got, err)
		}
		c, ok, err := b.Queue.ClaimRun(ctx, "w", time.Millisecond) // the same worker id: only the new claim holds it
		if err != nil || !ok || c.ID != run.ID || c.Attempts != attempt {
			t.Fatalf("resumed %+v (%v, %v), want %s at attempt %d", c.Run, ok, err, run.ID, attempt)
		}
		for _, stale := range leases {
			if _, err := b.Queue.RenewLease(ctx, stale, time.Hour); !lost(err) {
				t.Errorf("renewing the stale lease %+v: %v, want a lost lease", stale, err)
			}
		}
		leases = append(leases, c.Lease())
		time.Sleep(5 * time.Millisecond) // past the lease
	}
	got, err := b.Queue.ReclaimExpired(ctx, maxAttempts)
	if err != nil || len(got) != 1 || got[0].Status != store.RunError || !strings.Contains(got[0].Error, "3 times") {
		t.Fatalf("after %d attempts ReclaimExpired = %+v, %v; want the run in error", maxAttempts, got, err)
	}
	if th, _ := mine.Thread(ctx, thread); th.Status != store.ThreadError {
		t.Errorf("the thread of a run that failed for good is %s", th.Status)
	}
	if c, ok, _ := b.Queue.ClaimRun(ctx, "w", time.Hour); ok {
		t.Errorf("a run that failed for good was claimed again: %+v", c.Run)
	}
}

// lapse lets lease l lapse: it is renewed for a moment, and waited out.
func lapse(t *testing.T, b Backend, l store.Lease) {
	t.Helper()
	if _, err := b.Queue.RenewLease(context.Background(), l, time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond)
}

// A running run whose worker died after a cancel was asked ends cancelled,
// not resumed; the next queued run of its thread moves up.
func testLapsedCancel(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	run := mustCreate(t, mine, thread, "")
	held := mustClaim(t, b, "w")
	next := mustCreate(t, mine, thread, store.MultitaskEnqueue)
	if _, err := mine.CancelRun(ctx, run.ID); err != nil {
		t.Fatal(err)
	}
	lapse(t, b, held.Lease())
	got, err := b.Queue.ReclaimExpired(ctx, 5)
	if err != nil || len(got) != 1 || got[0].Status != store.RunCancelled {
		t.Fatalf("ReclaimExpired = %+v, %v; want the run cancelled", got, err)
	}
	if r := runOf(t, mine, next.ID); r.Status != store.RunPending {
		t.Errorf("the queued run is %s after the run before it ended, want pending", r.Status)
	}
}

// A worker shutting down hands its run back: another worker resumes it;
// a run with a cancel request ends cancelled instead. Only the holder can.
func testRelease(t *testing.T, b Backend) {
	testHandBack(t, b, "ReleaseRun", b.Queue.ReleaseRun, 1)
}

// A claim made as its worker's pool began to stop is returned before the
// run executes: as a hand-back, but its attempt is not counted, so the
// next claim is its first again.
func testReturnClaim(t *testing.T, b Backend) {
	testHandBack(t, b, "ReturnClaim", b.Queue.ReturnClaim, 0)
}

// testHandBack checks a way of handing a claimed run back, named name,
// after which the run has made attempts attempts.
func testHandBack(t *testing.T, b Backend, name string, back func(context.Context, store.Lease) (store.Run, error), attempts int) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	mustCreate(t, mine, thread, "")
	held := mustClaim(t, b, "a")
	stranger := held.Lease()
	stranger.WorkerID = "b"
	if _, err := back(ctx, stranger); !lost(err) {
		t.Fatalf("%s by a worker that does not hold the run: %v, want a lost lease", name, err)
	}
	r, err := back(ctx, held.Lease())
	if err != nil || r.Status != store.RunPending || r.LeaseExpiresAt != nil || r.Attempts != attempts {
		t.Fatalf("%s = %+v, %v; want it pending without a lease, at %d attempts", name, r, err, attempts)
	}
	if _, err := b.Queue.FinishRun(ctx, held.Lease(), store.RunSuccess, ""); !lost(err) {
		t.Errorf("ending a run handed back: %v, want a lost lease", err)
	}
	resumed := mustClaim(t, b, "b")
	if resumed.ID != held.ID || resumed.Attempts != attempts+1 {
		t.Fatalf("resumed %s at attempt %d, want %s at %d", resumed.ID, resumed.Attempts, held.ID, attempts+1)
	}
	if _, err := mine.CancelRun(ctx, resumed.ID); err != nil {
		t.Fatal(err)
	}
	if r, err := back(ctx, resumed.Lease()); err != nil || r.Status != store.RunCancelled {
		t.Errorf("%s of a run asked to cancel: %q, %v; want it cancelled", name, r.Status, err)
	}
}

// Runs enqueued while the active run ends are none of them lost: each
// waits behind one active run, and all of them run.
func testEnqueueRace(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	mustCreate(t, mine, thread, "")
	active := mustClaim(t, b, "w")
	const n = 12
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if _, err := mine.CreateRun(ctx, thread, store.NewRun{MultitaskStrategy: store.MultitaskEnqueue}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Go(func() {
		if _, err := b.Queue.FinishRun(ctx, active.Lease(), store.RunSuccess, ""); err != nil {
			t.Error(err)
		}
	})
	wg.Wait()
	for i := range n {
		c, ok, err := b.Queue.ClaimRun(ctx, "w", time.Hour)
		if err != nil || !ok {
			t.Fatalf("claim %d of %d: %v, %v", i+1, n, ok, err)
		}
		if _, ok, _ := b.Queue.ClaimRun(ctx, "w", time.Hour); ok {
			t.Fatal("two runs of one thread were running at once")
		}
		if _, err := b.Queue.FinishRun(ctx, c.Lease(), store.RunSuccess, ""); err != nil {
			t.Fatal(err)
		}
	}
}

// A cancel reaches the run's worker whether it comes while the worker
// watches or before; a watch stopped ends with context.Canceled.
func testWatchCancel(t *testing.T, b Backend) {
	ctx := context.Background()
	var runs []store.Claim
	var owners []string
	for range 3 {
		owner := b.NewUser(t)
		th, err := b.Records(owner).CreateThread(ctx, store.NewThread{})
		if err != nil {
			t.Fatal(err)
		}
		mustCreate(t, b.Records(owner), th.ID, "")
		runs, owners = append(runs, mustClaim(t, b, "w")), append(owners, owner)
	}
	cancelled := func(c context.Context) error {
		select {
		case <-c.Done():
			return context.Cause(c)
		case <-time.After(20 * time.Second): // a bound on a hang
			return errors.New("not cancelled")
		}
	}
	watched, stop, err := b.Queue.WatchCancel(ctx, runs[0].ThreadID, runs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if _, err := b.Records(owners[0]).CancelRun(ctx, runs[0].ID); err != nil {
		t.Fatal(err)
	}
	if cause := cancelled(watched); !errors.Is(cause, store.ErrRunCancelled) {
		t.Errorf("a cancel while watching: cause %v, want ErrRunCancelled", cause)
	}
	if r, err := b.Queue.FinishRun(ctx, runs[0].Lease(), store.RunCancelled, ""); err != nil || r.Status != store.RunCancelled {
		t.Errorf("the worker ending its cancelled run: %+v, %v", r, err)
	}
	if _, err := b.Records(owners[1]).CancelRun(ctx, runs[1].ID); err != nil {
		t.Fatal(err)
	}
	early, stopEarly, err := b.Queue.WatchCancel(ctx, runs[1].ThreadID, runs[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	defer stopEarly()
	if !errors.Is(context.Cause(early), store.ErrRunCancelled) {
		t.Errorf("a cancel before watching: cause %v, want ErrRunCancelled at once", context.Cause(early))
	}
	stopped, stopIt, err := b.Queue.WatchCancel(ctx, runs[2].ThreadID, runs[2].ID)
	if err != nil {
		t.Fatal(err)
	}
	stopIt()
	if cause := cancelled(stopped); !errors.Is(cause, context.Canceled) || errors.Is(cause, store.ErrRunCancelled) {
		t.Errorf("a stopped watch: cause %v, want context.Canceled", cause)
	}
}

// The thread of a run that asked for it is deleted once the run has
// ended, with all on it, unless another run of the thread is active.
func testDeleteRunThread(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	mustCreate(t, mine, thread, "")
	first := mustClaim(t, b, "w")
	if err := b.Queue.DeleteRunThread(ctx, first.ThreadID, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := mine.Thread(ctx, thread); err != nil {
		t.Fatalf("the thread of a running run was deleted: %v", err)
	}
	next := mustCreate(t, mine, thread, store.MultitaskEnqueue)
	if _, err := b.Queue.FinishRun(ctx, first.Lease(), store.RunSuccess, ""); err != nil {
		t.Fatal(err)
	}
	if err := b.Queue.DeleteRunThread(ctx, first.ThreadID, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := mine.Thread(ctx, thread); err != nil {
		t.Fatalf("the thread was deleted with a run still waiting on it: %v", err)
	}
	if _, err := mine.CancelRun(ctx, next.ID); err != nil {
		t.Fatal(err)
	}
	if err := b.Queue.DeleteRunThread(ctx, first.ThreadID, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := mine.Thread(ctx, thread); errcode.Of(err) != errcode.NotFound {
		t.Fatalf("the thread after its runs ended: %v, want NOT_FOUND", err)
	}
	if _, err := mine.Run(ctx, first.ID); errcode.Of(err) != errcode.NotFound {
		t.Fatalf("a run of the deleted thread: %v, want NOT_FOUND", err)
	}
}

// Workers take turns between the users with runs waiting, one run each a
// round, each user's oldest first: one user's backlog does not hold up
// another's run, which is claimed second however many the first queued
// before it. A user with nothing waiting joins the round under way.
func testUsersTakeTurns(t *testing.T, b Backend) {
	ctx := context.Background()
	b = b.WithLimits(t, quota.Limits{ActiveRuns: 100})
	ann, bob, cy := b.Records(b.NewUser(t)), b.Records(b.NewUser(t)), b.Records(b.NewUser(t))
	queue := func(r tenant.Records) string {
		t.Helper()
		run, err := r.CreateRunOnNewThread(ctx, store.NewThread{}, store.NewRun{})
		if err != nil {
			t.Fatal(err)
		}
		return run.ID
	}
	var anns []string
	for range 12 {
		anns = append(anns, queue(ann))
	}
	bobs := []string{queue(bob)}
	want := []string{anns[0], bobs[0]}
	for i, got := range claimIDs(t, b, 2) {
		if got != want[i] {
			t.Fatalf("claim %d is run %s, want %s: Bob's run waits for Ann's backlog", i+1, got, want[i])
		}
	}
	cys := []string{queue(cy), queue(cy)}
	bobs = append(bobs, queue(bob), queue(bob))
	want = append([]string{anns[1], cys[0], bobs[1], anns[2], cys[1], bobs[2]}, anns[3:]...)
	if got := claimIDs(t, b, len(want)); !slices.Equal(got, want) {
		t.Errorf("claimed\n%v\nwant, a round each\n%v", got, want)
	}
}

// claimIDs claims n runs and returns their ids, in the order claimed.
func claimIDs(t *testing.T, b Backend, n int) []string {
	t.Helper()
	var ids []string
	for range n {
		ids = append(ids, mustClaim(t, b, "w").ID)
	}
	return ids
}

// A run created for a worker (NewRun.ClaimFor) is created claimed by it,
// as ClaimRun would leave it, on an idle thread or a new one; but pending
// when another run waits to be claimed (it takes no other's turn), when it
// is delayed, and queued behind its thread's active run.
func testClaimedAtOnce(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, thread := newThread(t, b)
	w1 := store.Worker{ID: "w1", Lease: time.Hour}
	run, err := mine.CreateRun(ctx, thread, store.NewRun{ClaimFor: w1})
	if err != nil || run.Status != store.RunRunning || run.WorkerID != "w1" || run.Attempts != 1 ||
		run.StartedAt == nil || run.LeaseExpiresAt == nil || run.LeaseExpiresAt.Sub(run.CreatedAt) < 59*time.Minute {
		t.Fatalf("a run created for an idle worker: %+v, %v", run, err)
	}
	if th, _ := mine.Thread(ctx, thread); th.Status != store.ThreadBusy {
		t.Errorf("its thread is %s, want busy", th.Status)
	}
	if c, ok, err := b.Queue.ClaimRun(ctx, "w2", time.Hour); ok || err != nil {
		t.Fatalf("a run created claimed was claimed again: %+v, %v", c.Run, err)
	}
	queued, err := mine.CreateRun(ctx, thread, store.NewRun{MultitaskStrategy: store.MultitaskEnqueue, ClaimFor: w1})
	if err != nil || queued.Status != store.RunQueued || queued.WorkerID != "" {
		t.Fatalf("a run behind the thread's active one: %+v, %v", queued, err)
	}
	if _, err := b.Queue.FinishRun(ctx, run.Lease(), store.RunSuccess, ""); err != nil {
		t.Fatalf("the lease a run was created under does not end it: %v", err)
	}
	next := mustClaim(t, b, "w2") // the queued run, promoted
	if next.ID != queued.ID {
		t.Fatalf("claimed %s, want the queued run %s", next.ID, queued.ID)
	}

	other := newThreadOf(t, mine)
	onNew, err := mine.CreateRunOnNewThread(ctx, store.NewThread{}, store.NewRun{ClaimFor: store.Worker{ID: "w3", Lease: time.Hour}})
	if err != nil || onNew.Status != store.RunRunning || onNew.WorkerID != "w3" || onNew.Attempts != 1 {
		t.Fatalf("a run on a new thread created for an idle worker: %+v, %v", onNew, err)
	}
	if th, _ := mine.Thread(ctx, onNew.ThreadID); th.Status != store.ThreadBusy {
		t.Errorf("the new thread is %s, want busy", th.Status)
	}

	delayed, err := mine.CreateRun(ctx, other, store.NewRun{Delay: time.Hour, ClaimFor: w1})
	if err != nil || delayed.Status != store.RunPending {
		t.Fatalf("a delayed run created for an idle worker: %+v, %v", delayed, err)
	}
	waiting := mustCreate(t, mine, newThreadOf(t, mine), "")
	behind, err := mine.CreateRun(ctx, newThreadOf(t, mine), store.NewRun{ClaimFor: w1})
	if err != nil || behind.Status != store.RunPending || behind.WorkerID != "" {
		t.Fatalf("a run created for an idle worker while another waits: %+v, %v", behind, err)
	}
	behindNew, err := mine.CreateRunOnNewThread(ctx, store.NewThread{}, store.NewRun{ClaimFor: w1})
	if err != nil || behindNew.Status != store.RunPending {
		t.Fatalf("a run on a new thread created for an idle worker while another waits: %+v, %v", behindNew, err)
	}
	if c := mustClaim(t, b, "w4"); c.ID != waiting.ID {
		t.Errorf("claimed %s first, want %s, which waited longest", c.ID, waiting.ID)
	}
}
