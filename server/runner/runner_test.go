package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/internal/metrics"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/mcpservers"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "runner", &testURL)) }

var migrateOnce sync.Once

// migratedStore opens the package's database, migrated once per run.
func migratedStore(t testing.TB) *store.Store {
	t.Helper()
	pgtest.Skip(t)
	var merr error
	migrateOnce.Do(func() { merr = migrations.Up(context.Background(), testURL) })
	if merr != nil {
		t.Fatal(merr)
	}
	st, err := store.Open(context.Background(), testURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st
}

// testRunner is a runner with short timings, on tools from gate, not yet
// started.
func testRunner(t *testing.T, gate *plannertest.Gate) (*Runner, *store.Store) {
	t.Helper()
	st := migratedStore(t)
	return runnerOn(t, st, gate.Tools), st
}

// runnerOn is a runner of the planner on st and tools, paced for tests,
// drained when the test ends.
func runnerOn(t *testing.T, st *store.Store, tools func(mcpbridge.User) nodes.Tools) *Runner {
	t.Helper()
	tenants := tenant.Factory{Records: tenant.OnPostgres(st, mcpservers.Registry{Pool: st.Pool}), Planner: plannertest.Planner(t), Tools: tools}
	r, err := New(Config{Queue: st, Tenants: tenants,
		Metrics: metrics.New(st, slog.Default()), Workers: 2, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	r.timing = timing{lease: 3 * time.Second, poll: 20 * time.Millisecond, reclaim: 20 * time.Millisecond, maxAttempts: 3}
	t.Cleanup(func() { stopNow(r) })
	return r
}

// stopNow drains the runner with no grace: its runs go back to the queue.
func stopNow(r *Runner) {
	now, cancel := context.WithCancel(context.Background())
	cancel()
	r.Drain(now)
}

// newUser makes a user for a test.
func newUser(t *testing.T, st *store.Store) string {
	t.Helper()
	u, err := st.Accounts.EnsureUser(context.Background(), "runner-"+strings.ToLower(uuid.NewString()[:12]))
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// queueTurn creates a user, a thread and a run on it with the text as the
// person's message.
func queueTurn(t *testing.T, st *store.Store, text string) (owner string, run store.Run) {
	t.Helper()
	ctx := context.Background()
	uid := newUser(t, st)
	th, err := st.ForOwner(uid).CreateThread(ctx, store.NewThread{})
	if err != nil {
		t.Fatal(err)
	}
	return uid, createJob(t, st, uid, th.ID, Job{Input: &nodes.Update{
		Messages: []nodes.Message{{ID: uuid.NewString(), Type: nodes.Human, Content: text}}}})
}

func createJob(t *testing.T, st *store.Store, owner, threadID string, j Job) store.Run {
	t.Helper()
	raw, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.ForOwner(owner).CreateRun(context.Background(), threadID, store.NewRun{Input: raw})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// waitDone fails the test when done is not closed within a minute: what it
// waits for hangs.
func waitDone(t *testing.T, done <-chan struct{}, what string) {
	t.Helper()
	within(t, done, what)
}

// within receives from ch, and fails the test when nothing comes within a
// minute.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(time.Minute):
		t.Fatalf("%s did not come within a minute", what)
		panic("unreachable")
	}
}

func TestWorkerRunsATurn(t *testing.T) {
	gate := &plannertest.Gate{Started: make(chan string, 4)}
	r, st := testRunner(t, gate)
	r.Start()
	owner, run := queueTurn(t, st, plannertest.Lisbon)
	events, done := storetest.Finish(t, st, owner, run.ID)
	if done.Status != store.RunSuccess || done.Error != "" {
		t.Fatalf("run ended %s (%q), want success", done.Status, done.Error)
	}
	if user := <-gate.Started; user != owner {
		t.Fatalf("the tool acted for %q, want the thread's owner %q", user, owner)
	}
	seen := map[string]int{}
	var ui []string
	for _, e := range events {
		seen[e.Event]++
		if e.Event == "custom" {
			var m struct{ Type, Name string }
			if err := json.Unmarshal(e.Data, &m); err != nil || m.Type != "ui" {
				t.Fatalf("custom event %s: %v", e.Data, err)
			}
			ui = append(ui, m.Name)
		}
	}
	for _, mode := range []string{"values", "updates", "custom", "messages"} {
		if seen[mode] == 0 {
			t.Errorf("no %s event among %v", mode, seen)
		}
	}
	if len(ui) < 2 || ui[0] != card.TripDetails || ui[1] != card.Accommodations {
		t.Errorf("ui components %v, want trip details then accommodations", ui)
	}
	var last struct {
		Messages []nodes.Message `json:"messages"`
	}
	for _, e := range events {
		if e.Event == "values" {
			last.Messages = nil
			if err := json.Unmarshal(e.Data, &last); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := len(last.Messages); n < 2 || last.Messages[0].Content != plannertest.Lisbon || last.Messages[n-1].Type != nodes.AI {
		t.Fatalf("final values messages %+v", last.Messages)
	}
	th, err := st.ForOwner(owner).Thread(context.Background(), run.ThreadID)
	if err != nil || th.Status != store.ThreadIdle {
		t.Fatalf("thread after the run: %+v, %v", th, err)
	}
}

func TestWorkerCancelsARunningRun(t *testing.T) {
	gate := plannertest.Held()
	r, st := testRunner(t, gate)
	r.Start()
	owner, run := queueTurn(t, st, plannertest.Lisbon)
	<-gate.Started // the run is inside the tool call
	if _, err := st.ForOwner(owner).CancelRun(context.Background(), run.ID); err != nil {
		t.Fatal(err)
	}
	_, done := storetest.Finish(t, st, owner, run.ID)
	if done.Status != store.RunCancelled {
		t.Fatalf("cancelled run ended %s (%q)", done.Status, done.Error)
	}
}

// A run that fails ends in error with an error event that says what
// failed in words meant to be shown: here, a start from a checkpoint the
// thread does not have (which the API refuses before queueing, but a run
// queued all the same fails on).
func TestWorkerReportsAFailure(t *testing.T) {
	r, st := testRunner(t, &plannertest.Gate{})
	r.Start()
	ctx := context.Background()
	uid := newUser(t, st)
	th, err := st.ForOwner(uid).CreateThread(ctx, store.NewThread{})
	if err != nil {
		t.Fatal(err)
	}
	// A fork from a checkpoint the thread does not have fails in the graph.
	missing := uuid.NewString()
	run := createJob(t, st, uid, th.ID, Job{CheckpointID: missing, Input: &nodes.Update{
		Messages: []nodes.Message{{ID: uuid.NewString(), Type: nodes.Human, Content: "hello"}}}})
	events, done := storetest.Finish(t, st, uid, run.ID)
	said := fmt.Sprintf("no checkpoint %s in thread %s", missing, th.ID)
	if done.Status != store.RunError || done.Error != said {
		t.Fatalf("failed run ended %s (%q)", done.Status, done.Error)
	}
	if n := len(events); n == 0 || events[n-1].Event != "error" ||
		string(events[n-1].Data) != `{"error":"NOT_FOUND","message":"`+said+`"}` {
		t.Fatalf("events of a failed run: %+v", events)
	}
}

func TestWorkerTakesOverAnExpiredLease(t *testing.T) {
	r, st := testRunner(t, &plannertest.Gate{})
	owner, run := queueTurn(t, st, "hello")
	// A worker that claims the run and dies at once.
	if _, ok, err := st.ClaimRun(context.Background(), "dead-worker", time.Millisecond); err != nil || !ok {
		t.Fatalf("claim: %v, %v", ok, err)
	}
	r.Start()
	_, done := storetest.Finish(t, st, owner, run.ID)
	if done.Status != store.RunSuccess || done.Attempts != 2 {
		t.Fatalf("reclaimed run ended %s after %d attempts", done.Status, done.Attempts)
	}
}

func TestStoppingHandsRunsBack(t *testing.T) {
	gate := plannertest.Held()
	r, st := testRunner(t, gate)
	r.Start()
	owner, run := queueTurn(t, st, plannertest.Lisbon)
	leaveNoRun(t, st, owner, run.ID)
	<-gate.Started
	stopNow(r)
	after, err := st.ForOwner(owner).Run(context.Background(), run.ID)
	if err != nil || after.Status != store.RunPending || after.Attempts != 1 {
		t.Fatalf("run after the pool stopped: %s, attempts %d, %v; want pending", after.Status, after.Attempts, err)
	}
}

// leaveNoRun cancels the run when the test ends, however it ends, so that
// the pools of later tests on the same database do not claim it.
func leaveNoRun(t *testing.T, st *store.Store, owner, runID string) {
	t.Cleanup(func() {
		if _, err := st.ForOwner(owner).CancelRun(context.Background(), runID); err != nil && !strings.Contains(err.Error(), "cannot cancel") {
			t.Error(err)
		}
	})
}

// Shutdown stops claiming at once, lets the run in progress go on until
// the grace ends, and then hands it back; a run queued meanwhile is left
// for another process.
func TestShutdownGrace(t *testing.T) {
	for _, tc := range []struct {
		name       string
		graceEnds  bool   // the grace ends while the run is held
		wantStatus string // of the run in progress
	}{
		{"the run finishes within the grace", false, store.RunSuccess},
		{"the grace ends first: the run goes back to the queue", true, store.RunPending},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gate := plannertest.Held()
			r, st := testRunner(t, gate)
			r.Start()
			owner, run := queueTurn(t, st, plannertest.Lisbon)
			leaveNoRun(t, st, owner, run.ID)
			<-gate.Started
			grace, endGrace := context.WithCancel(context.Background())
			defer endGrace()
			stopped := make(chan struct{})
			go func() { r.Drain(grace); close(stopped) }()
			waitDone(t, r.claims.Done(), "the end of claims")
			laterOwner, later := queueTurn(t, st, plannertest.Lisbon)
			leaveNoRun(t, st, laterOwner, later.ID)
			r.nudge()
			if tc.graceEnds {
				endGrace()
			} else {
				close(gate.Release)
			}
			waitDone(t, stopped, "Shutdown's return")
			ctx := context.Background()
			got, err := st.ForOwner(owner).Run(ctx, run.ID)
			if err != nil || got.Status != tc.wantStatus || got.Attempts != 1 {
				t.Errorf("the run in progress is %s after %d claims (%v), want %s after 1", got.Status, got.Attempts, err, tc.wantStatus)
			}
			if tc.wantStatus == store.RunPending {
				// A released run has no lease: any worker may claim it now.
				var leased bool
				if err := st.Pool.QueryRow(ctx, `SELECT lease_expires_at IS NOT NULL FROM runs WHERE id = $1`, run.ID).Scan(&leased); err != nil || leased {
					t.Errorf("the handed-back run still has a lease (%v)", err)
				}
			}
			l, err := st.ForOwner(laterOwner).Run(ctx, later.ID)
			if err != nil || l.Status != store.RunPending {
				t.Errorf("a run queued after Shutdown began is %s (%v), want pending: no claim", l.Status, err)
			}
		})
	}
}

// Config.Lease is the length of the claims the workers take, and of
// their renewals.
func TestRunLeaseIsTheClaimsLength(t *testing.T) {
	gate := plannertest.Held()
	r, st := testRunner(t, gate)
	custom, err := New(Config{Queue: st, Tenants: r.tenants, Metrics: r.metrics, Workers: 1, Lease: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer stopNow(custom)
	custom.Start()
	owner, run := queueTurn(t, st, plannertest.Lisbon)
	within(t, gate.Started, "the run's tool call")
	seen := map[time.Time]bool{}
	for len(seen) < 2 { // the claim, then a renewal
		var expires time.Time
		var length time.Duration
		err := st.Pool.QueryRow(context.Background(),
			`SELECT lease_expires_at, lease_expires_at - updated_at FROM runs WHERE id = $1`, run.ID).Scan(&expires, &length)
		if err != nil || length != 1500*time.Millisecond {
			t.Fatalf("the run's lease is %s from its last change (%v), want 1.5s", length, err)
		}
		seen[expires] = true
		time.Sleep(20 * time.Millisecond)
	}
	close(gate.Release)
	if _, done := storetest.Finish(t, st, owner, run.ID); done.Status != store.RunSuccess {
		t.Fatalf("run ended %s", done.Status)
	}
}

// A running run's lease is renewed while it runs, so the sweeper never
// hands it to another worker.
func TestLeaseIsRenewed(t *testing.T) {
	gate := plannertest.Held()
	r, st := testRunner(t, gate)
	r.timing.lease = 2 * time.Second // long enough that a loaded machine does not let it lapse
	r.Start()
	owner, run := queueTurn(t, st, plannertest.Lisbon)
	<-gate.Started
	seen := map[time.Time]bool{}
	for len(seen) < 4 {
		got, err := st.ForOwner(owner).Run(context.Background(), run.ID)
		if err != nil || got.Status != store.RunRunning || got.Attempts != 1 {
			t.Fatalf("run while held: %s, attempts %d, %v", got.Status, got.Attempts, err)
		}
		seen[*got.LeaseExpiresAt] = true
		time.Sleep(10 * time.Millisecond)
	}
	close(gate.Release)
	if _, done := storetest.Finish(t, st, owner, run.ID); done.Status != store.RunSuccess || done.Attempts != 1 {
		t.Fatalf("run ended %s after %d attempts", done.Status, done.Attempts)
	}
}

// A worker that lost its run to another, before it noticed (its lease is
// long, so no renewal tells it), writes nothing more: neither the
// checkpoint nor the events of the step it was in, and it does not end the
// run the other worker now holds.
func TestWorkerThatLostItsLeaseWritesNothing(t *testing.T) {
	ctx := context.Background()
	gate := plannertest.Held()
	r, st := testRunner(t, gate)
	r.timing.lease = time.Hour // no renewal will tell the worker
	r.Start()
	owner, run := queueTurn(t, st, plannertest.Lisbon)
	within(t, gate.Started, "the run's tool call")
	before, err := st.Checkpoints.Latest(ctx, run.ThreadID)
	if err != nil {
		t.Fatal(err)
	}
	// Another worker takes the run over, as after the lease lapsed. What
	// the old worker appended before is in the stream by then: an append
	// holds the run's row until it commits.
	if _, err := st.Pool.Exec(ctx, `UPDATE runs SET worker_id = 'thief', attempts = attempts + 1 WHERE id = $1`, run.ID); err != nil {
		t.Fatal(err)
	}
	var seq int64
	if err := st.Pool.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM run_events WHERE run_id = $1`, run.ID).Scan(&seq); err != nil {
		t.Fatal(err)
	}
	close(gate.Release) // the old worker's step goes on and tries to write
	waitFor(t, "the old worker to give the run up", func() bool { return r.executing.Load() == 0 })
	if after, err := st.Checkpoints.Latest(ctx, run.ThreadID); err != nil || after.ID != before.ID {
		t.Errorf("the thread's head moved to %s (%v) after the worker lost the run; want %s", after.ID, err, before.ID)
	}
	var late int
	if err := st.Pool.QueryRow(ctx, `SELECT count(*) FROM run_events WHERE run_id = $1 AND seq > $2`, run.ID, seq).Scan(&late); err != nil || late != 0 {
		t.Errorf("the old worker appended %d events after losing the run (%v)", late, err)
	}
	got, err := st.ForOwner(owner).Run(ctx, run.ID)
	if err != nil || got.Status != store.RunRunning || got.WorkerID != "thief" {
		t.Errorf("the run is %s under %q (%v), want still running under the worker that took it", got.Status, got.WorkerID, err)
	}
	if _, err := st.Pool.Exec(ctx, `UPDATE runs SET status = 'cancelled', finished_at = now() WHERE id = $1`, run.ID); err != nil {
		t.Fatal(err)
	}
}

// waitFor polls cond until it holds; the minute is a bound on a hang, not a
// timing assertion.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: it did not happen within a minute", what)
		}
	}
}

// countingQueue counts the claims made through it.
type countingQueue struct {
	Queue
	claims atomic.Int32
}

func (q *countingQueue) ClaimRun(ctx context.Context, workerID string, lease time.Duration) (store.Claim, bool, error) {
	q.claims.Add(1)
	return q.Queue.ClaimRun(ctx, workerID, lease)
}

// A worker claims when it starts and when it is told of a run, not again
// at once after each run it ends: with the queue empty, that claim would
// find nothing, once per run.
func TestWorkersClaimWhenToldOfARun(t *testing.T) {
	gate := &plannertest.Gate{Started: make(chan string, 8)}
	r, st := testRunner(t, gate)
	q := &countingQueue{Queue: r.queue}
	r.queue, r.timing.poll = q, time.Hour // no claims but those asked for
	r.Start()
	const runs = 3
	for range runs {
		owner, run := queueTurn(t, st, plannertest.Lisbon)
		if _, done := storetest.Finish(t, st, owner, run.ID); done.Status != store.RunSuccess {
			t.Fatalf("run ended %s (%q)", done.Status, done.Error)
		}
	}
	// Each of the 2 workers claims once as it starts, one more when the
	// queue's listener first connects (announcements may have been missed
	// until then), then one per run it is told of.
	if got, most := q.claims.Load(), int32(2+1+runs); got > most {
		t.Errorf("%d claims for %d runs, want at most %d", got, runs, most)
	}
}

// finishCounting counts the runs ended through FinishRun.
type finishCounting struct {
	Queue
	finishes atomic.Int32
}

func (q *finishCounting) FinishRun(ctx context.Context, l store.Lease, status, runErr string) (store.Run, error) {
	q.finishes.Add(1)
	return q.Queue.FinishRun(ctx, l, status, runErr)
}

// A run that ends on its own is ended by its last checkpoint's write: its
// worker ends it no more (no FinishRun), and it is over, with success,
// its thread idle, and its stream whole. A run asked for the events mode,
// whose end makes a part of its own (on_chain_end) to write after that
// checkpoint, is ended by FinishRun as before.
func TestRunEndsWithItsLastCheckpoint(t *testing.T) {
	r, st := testRunner(t, &plannertest.Gate{})
	q := &finishCounting{Queue: st}
	r.queue = q
	r.Start()
	owner, run := queueTurn(t, st, plannertest.Lisbon)
	events, done := storetest.Finish(t, st, owner, run.ID)
	if done.Status != store.RunSuccess || done.FinishedAt == nil || len(events) == 0 || events[len(events)-1].Event != "values" {
		t.Fatalf("the run ended %s after %d events, want success after its last values", done.Status, len(events))
	}
	if n := q.finishes.Load(); n != 0 {
		t.Fatalf("the worker ended the run %d times itself, want none: its last checkpoint did", n)
	}
	if th, _ := st.ForOwner(owner).Thread(context.Background(), run.ThreadID); th.Status != store.ThreadIdle {
		t.Fatalf("the thread is %s after its run ended, want idle", th.Status)
	}

	withEvents := createJob(t, st, owner, run.ThreadID, Job{StreamModes: []string{"events"}, Input: &nodes.Update{
		Messages: []nodes.Message{{ID: uuid.NewString(), Type: nodes.Human, Content: "and restaurants?"}}}})
	events, done = storetest.Finish(t, st, owner, withEvents.ID)
	if done.Status != store.RunSuccess || len(events) == 0 || events[len(events)-1].Event != "events" ||
		!strings.Contains(string(events[len(events)-1].Data), "on_chain_end") {
		t.Fatalf("the events run ended %s after %d events, want success after its on_chain_end", done.Status, len(events))
	}
	waitFor(t, "the worker's FinishRun", func() bool { return q.finishes.Load() == 1 })
}
