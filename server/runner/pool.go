package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/internal/metrics"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/checkpoint"
	"github.com/tripgraph/tripgraph/telemetry"
)

// DefaultWorkers is how many runs a process executes at once when the
// configuration does not say: 24 per CPU the Go scheduler may use, between
// 32 and 96. A run mostly waits (on the database, MCP servers, a model),
// so a worker per CPU would leave runs queued behind idle CPUs; and with
// runs going on together rather than waiting for a worker, each run's
// first output comes after about half its time instead of most of it (at
// 50 clients on 2 CPUs, 48 workers against 16: bench/README.md). Workers
// share a much smaller database pool (config.DBPool): a worker holds a
// connection only while a statement runs.
func DefaultWorkers() int {
	return min(max(24*runtime.GOMAXPROCS(0), 32), 96)
}

// DefaultLease is how long a worker's claim on a run lasts, renewed as it
// goes, when the configuration does not say. A run whose process died is
// taken over by another once its lease has lapsed.
const DefaultLease = 30 * time.Second

// MinLease is the shortest lease allowed: it is renewed every third of its
// length, a round trip each time.
const MinLease = time.Second

// DefaultShutdownGrace is how long a stopping process lets its runs go on
// before it hands them back, when the configuration does not say.
const DefaultShutdownGrace = 20 * time.Second

// Queue is what the workers need of the run queue: claims and leases on
// the runs of every owner, from any process.
type Queue interface {
	ClaimRun(ctx context.Context, workerID string, lease time.Duration) (store.Claim, bool, error)
	RenewLease(ctx context.Context, l store.Lease, lease time.Duration) (store.Run, error)
	FinishRun(ctx context.Context, l store.Lease, status, runErr string) (store.Run, error)
	ReleaseRun(ctx context.Context, l store.Lease) (store.Run, error)
	ReturnClaim(ctx context.Context, l store.Lease) (store.Run, error)
	ReclaimExpired(ctx context.Context, maxAttempts int) ([]store.Run, error)
	WatchCancel(ctx context.Context, threadID, runID string) (watched context.Context, stop context.CancelFunc, err error)
	AppendRunEvents(ctx context.Context, l store.Lease, events []store.NewRunEvent) ([]store.RunEvent, error)
	AnnounceRunEvents(events []store.RunEvent)
	PublishRunEvents(events []store.RunEvent)
	WatchQueue(ctx context.Context) (pending <-chan struct{}, stop func(), err error)
	DeleteRunThread(ctx context.Context, threadID, runID string) error
}

// Config is what a Runner needs.
type Config struct {
	Queue   Queue
	Tenants tenant.Factory
	Metrics *metrics.Metrics
	Logger  *slog.Logger
	// Workers is how many runs this process executes at once, once Start
	// is called; DefaultWorkers() when 0.
	Workers int
	// Lease is how long a worker's claim on a run lasts; it is renewed
	// every third of it, and a run whose process died is taken over once
	// it lapses. DefaultLease when 0; at least MinLease.
	Lease time.Duration
	// Crons, when set, are fired by this process once Start is called:
	// each due time starts one run, whichever process fires it.
	Crons Crons
}

// Runner queues runs and executes them: its workers claim the pending runs
// of any owner, from any process sharing the database, and run the
// planner on each as its thread's owner.
type Runner struct {
	queue   Queue
	crons   Crons
	tenants tenant.Factory
	metrics *metrics.Metrics
	log     *slog.Logger
	id      string // this process's worker id prefix
	n       int
	timing  timing
	wake    chan struct{} // a run was created here: look now
	// watched is set while the queue's announcements reach this process
	// (watchQueue): a run made pending anywhere then wakes a worker by
	// itself, and whoever made it need not (created).
	watched atomic.Bool
	// claims ends when the workers are to stop claiming runs, and the
	// sweeper to stop; stopRuns stops the runs in progress, which go back
	// to the queue.
	claims               context.Context
	stopClaims, stopRuns context.CancelFunc
	wg                   sync.WaitGroup
	executing            atomic.Int64 // runs this process executes now
	idle                 idleWorkers  // workers a request may hand a run to
	turns                *graph.Turns // the turns on the cores its runs' nodes share (callTools takes one)
}

// The runs' nodes that take a turn on the cores (callTools, the step after
// the trip is shown) run half as many at once as Go has processors to run
// on (at least one), the rest of the cores left to the first steps, the
// HTTP side and the database. A turn held past
// turnLease is taken as a wait in the process (a slow statement, a tool
// that blocks) and stops counting. See graph.Turns, and docs/architecture.md
// "Taking turns on the cores".
const turnLease = 50 * time.Millisecond

func newTurns() *graph.Turns { return graph.NewTurns(runtime.GOMAXPROCS(0)/2, turnLease) }

// New builds a Runner; Start starts its workers.
func New(cfg Config) (*Runner, error) {
	if cfg.Queue == nil || cfg.Tenants.Records == nil || cfg.Tenants.Planner == nil || cfg.Metrics == nil {
		return nil, errors.New("building the runner: a queue, a tenant factory and metrics are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers()
	}
	if cfg.Lease == 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.Lease < MinLease {
		return nil, fmt.Errorf("building the runner: a run lease must be at least %s", MinLease)
	}
	var b [6]byte
	rand.Read(b[:])
	host, _ := os.Hostname()
	return &Runner{queue: cfg.Queue, crons: cfg.Crons, tenants: cfg.Tenants, metrics: cfg.Metrics, log: cfg.Logger,
		id: host + "-" + hex.EncodeToString(b[:]), n: cfg.Workers, timing: timingFor(cfg.Lease),
		wake: make(chan struct{}, 1), turns: newTurns()}, nil
}

// timing is how the worker pool paces itself.
type timing struct {
	lease       time.Duration // a claim's length; renewed every third of it
	poll        time.Duration // how often an idle worker looks for a run unasked
	reclaim     time.Duration // how often expired leases are dealt with
	maxAttempts int           // claims of one run before it ends in error
}

// timingFor is the pool's pacing for a lease length: expired leases are
// looked for twice per lease, so a dead worker's run waits at most one and
// a half leases before it is handed on.
func timingFor(lease time.Duration) timing {
	return timing{lease: lease, poll: 5 * time.Second, reclaim: lease / 2, maxAttempts: 3}
}

// errLeaseLost is the cause of a run's context when its worker lost the
// run to another.
var errLeaseLost = errors.New("the worker lost its lease on the run")

// Start starts the workers that execute the runs of every owner, a
// sweeper of expired leases and, with Crons, the scheduler that fires due
// crons. Drain stops them and hands the runs they held back to the queue.
func (r *Runner) Start() {
	claims, stopClaims := context.WithCancel(context.Background())
	runs, stopRuns := context.WithCancel(context.Background())
	r.claims, r.stopClaims, r.stopRuns = claims, stopClaims, stopRuns
	r.wg.Add(r.n + 2)
	for i := range r.n {
		go r.work(claims, runs, &worker{id: fmt.Sprintf("%s-%d", r.id, i), handed: make(chan handed, 1)})
	}
	go r.sweep(claims)
	go r.watchQueue(claims)
	r.nudge() // a worker looks for runs left pending before this process started
	if r.crons != nil {
		r.wg.Add(1)
		go r.schedule(claims)
	}
}

// watchQueue nudges a worker whenever a run becomes pending in any
// process, so that runs are claimed at once rather than at a worker's next
// look. Without the announcements (the listener cannot start) the workers
// still look every poll.
func (r *Runner) watchQueue(ctx context.Context) {
	defer r.wg.Done()
	pending, stop, err := r.queue.WatchQueue(ctx)
	if err != nil {
		if ctx.Err() == nil {
			r.log.Warn("watching the run queue; workers will only look for runs every "+r.timing.poll.String(), "err", err)
		}
		return
	}
	defer stop()
	r.watched.Store(true)
	defer r.watched.Store(false)
	for {
		select {
		case <-ctx.Done():
			return
		case <-pending:
			r.nudge()
		}
	}
}

// Drain stops the workers claiming runs and lets the runs in progress go
// on until they end or ctx does; then it stops them, and each goes back to
// the queue, pending, for a worker of any process to claim at once and
// resume from its last checkpoint. It returns once every worker has
// stopped.
func (r *Runner) Drain(ctx context.Context) {
	if r.stopClaims == nil {
		return // never started
	}
	r.stopClaims()
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		r.stopRuns()
		<-done
	}
	r.stopRuns()
}

// nudge tells an idle worker that a run may be waiting. A worker that
// claims one while others wait nudges another in turn, so a burst of runs
// wakes as many workers as it needs, one after another, and no more.
func (r *Runner) nudge() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// created wakes a worker for runs this process made pending, unless the
// queue's announcement of them will: one wake per run, not two, so that
// idle workers do not claim nothing.
func (r *Runner) created() {
	if !r.watched.Load() {
		r.nudge()
	}
}

// work executes runs, under runs, until claims ends. A worker waits until
// it is told of a run (then it claims one) or handed one a request of this
// process created for it (handOver). Start wakes one worker to look for
// runs left pending before the process started, and a claim that leaves
// others pending wakes the next.
func (r *Runner) work(claims, runs context.Context, w *worker) {
	defer r.wg.Done()
	for claims.Err() == nil {
		if !r.wait(claims, runs, w) || claims.Err() != nil {
			continue
		}
		// The claim is not cut off when the pool stops: one cut off
		// halfway could leave a run held by a worker that does not know it
		// has it, until its lease lapsed.
		claimCtx, cancel := context.WithTimeout(context.WithoutCancel(runs), r.timing.lease)
		claim, ok, err := r.queue.ClaimRun(claimCtx, w.id, r.timing.lease)
		cancel()
		if err != nil && runs.Err() == nil {
			r.log.Error("claiming a run", "worker", w.id, "err", err)
		}
		if ok && claims.Err() != nil {
			r.handBack(runs, claim.Run, r.queue.ReturnClaim) // claimed as the pool began to stop
			return
		}
		if ok {
			if claim.More {
				r.nudge() // another idle worker claims the next
			}
			r.execute(runs, claim)
		}
	}
}

// sweep deals with runs whose worker stopped without finishing them.
func (r *Runner) sweep(ctx context.Context) {
	defer r.wg.Done()
	t := time.NewTicker(r.timing.reclaim)
	defer t.Stop()
	for {
		changed, err := r.queue.ReclaimExpired(ctx, r.timing.maxAttempts)
		if err != nil && ctx.Err() == nil {
			r.log.Error("reclaiming runs with expired leases", "err", err)
		}
		for _, run := range changed {
			r.log.Warn("run reclaimed from a stopped worker", "run_id", run.ID, "status", run.Status, "attempts", run.Attempts)
		}
		if len(changed) > 0 {
			r.created()
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// execute runs one claimed run to its end and records how it ended. When
// ctx ends first (the pool is stopping), the run goes back to the queue,
// pending, for a worker of any process to claim at once and resume from
// its thread's last checkpoint.
func (r *Runner) execute(ctx context.Context, claim store.Claim) {
	r.executing.Add(1)
	defer r.executing.Add(-1)
	run := claim.Run
	ctx, span := r.startSpan(ctx, run)
	log := r.log.With(append([]any{"run_id", run.ID, "thread_id", run.ThreadID, "worker", run.WorkerID}, telemetry.LogAttrs(ctx)...)...)
	l := run.Lease()
	status, msg := r.runOn(ctx, run, claim.Owner, log)
	ended := status == endedWithCheckpoint
	if ended {
		status = store.RunSuccess
	}
	defer telemetry.EndRun(span, spanStatus(status), status == store.RunError, msg)
	switch {
	case status == "":
		return // the lease was lost: the run is someone else's now
	case status == released:
		r.handBack(ctx, run, r.queue.ReleaseRun)
		return
	}
	if !ended {
		if err := r.settle(ctx, func(ctx context.Context) error {
			_, err := r.queue.FinishRun(ctx, l, status, msg)
			return err
		}); err != nil {
			log.Error("ending a run", "status", status, "err", err)
			return
		}
	}
	if j, err := DecodeJob(run.Input); err == nil && j.DeleteThread {
		if err := r.settle(ctx, func(ctx context.Context) error { return r.queue.DeleteRunThread(ctx, run.ThreadID, run.ID) }); err != nil {
			log.Error("deleting the thread of a cron's run", "err", err)
		}
	}
}

// startSpan starts the span of a run this worker claimed: it continues the
// trace of the request that queued it (Job.TraceParent), whichever process
// took that request.
func (r *Runner) startSpan(ctx context.Context, run store.Run) (context.Context, trace.Span) {
	if !telemetry.Enabled() {
		return ctx, noop.Span{}
	}
	j, _ := DecodeJob(run.Input) // a job that cannot be read fails the run in runGraph
	return telemetry.StartRun(ctx, telemetry.Run{ID: run.ID, ThreadID: run.ThreadID, Attempt: run.Attempts, CreatedBy: j.TraceParent})
}

// spanStatus is how a run's span names the end runOn reported.
func spanStatus(status string) string {
	if status == "" {
		return "lease_lost"
	}
	return status
}

// handBack puts a run this pool holds back in the queue, pending, with
// back: the queue's ReleaseRun for a run that executed, whose claim counts
// as an attempt, or its ReturnClaim for one claimed as the pool began to
// stop, which did not run.
func (r *Runner) handBack(ctx context.Context, run store.Run, back func(context.Context, store.Lease) (store.Run, error)) {
	if err := r.settle(ctx, func(ctx context.Context) error {
		_, err := back(ctx, run.Lease())
		return err
	}); err != nil {
		r.log.Error("handing a run back to the queue", "run_id", run.ID, "worker", run.WorkerID, "err", err)
	}
}

// settle records how a run ended, or hands it back, with record; while the
// database cannot be reached it tries again, for up to a lease, since a
// run recorded late is better than one left to wait for its lease to
// lapse. It goes on when ctx ends (the pool stopping) but not past that.
func (r *Runner) settle(ctx context.Context, record func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.timing.lease)
	defer cancel()
	pause := settlePause
	for {
		err := record(ctx)
		if err == nil || !store.Unreachable(err) {
			return err
		}
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return err
		}
		pause = min(2*pause, maxSettlePause)
	}
}

// settlePause and maxSettlePause space settle's tries.
const (
	settlePause    = 100 * time.Millisecond
	maxSettlePause = 2 * time.Second
)

// runOn executes run under its lease and a cancel watch, as owner, the
// owner of its thread, and returns its final status and error message: ""
// when the lease was lost, released when the pool is stopping,
// endedWithCheckpoint when its last checkpoint ended it (whatever came
// after: a cancel or a stop asked once it was over changes nothing).
func (r *Runner) runOn(ctx context.Context, run store.Run, owner string, log *slog.Logger) (status, msg string) {
	t := r.tenants.For(owner)
	watched, stopWatch, err := r.queue.WatchCancel(ctx, run.ThreadID, run.ID)
	if err != nil {
		return r.failedBy(ctx, run, log, fmt.Errorf("watching the run for cancellation: %w", err))
	}
	defer stopWatch()
	runCtx, cancel := context.WithCancelCause(watched)
	defer cancel(nil)
	stopRenew := r.renew(runCtx, run.Lease(), cancel, log)
	defer stopRenew()
	status, err = r.runGraph(runCtx, t, run)
	if status == endedWithCheckpoint {
		return status, ""
	}
	switch cause := context.Cause(runCtx); {
	case errors.Is(cause, errLeaseLost), errors.Is(err, store.ErrLeaseLost), errors.Is(err, checkpoint.ErrFenced):
		return "", "" // another worker holds the run: this one wrote nothing since it lost it
	case errors.Is(cause, store.ErrRunCancelled):
		return store.RunCancelled, ""
	case ctx.Err() != nil:
		return released, ""
	case err != nil:
		return r.failedBy(ctx, run, log, err)
	}
	return status, ""
}

// failedBy is how a run that err stopped ends. When the database could not
// be reached, the run is handed back at once (released): its worker is
// fine, and the run goes on from its last checkpoint once the database is
// back, rather than waiting for its lease to lapse; so is a run the pool
// stopped (ctx ended). Otherwise it ends in error, with an error event in
// its stream that says what a client may know of the failure.
func (r *Runner) failedBy(ctx context.Context, run store.Run, log *slog.Logger, err error) (status, msg string) {
	if ctx.Err() != nil {
		return released, "" // the pool is stopping: err is what that cut short
	}
	if store.Unreachable(err) {
		log.Warn("the database failed a run: handing it back to the queue", "err", err)
		return released, ""
	}
	log.Error("a run failed", "err", err)
	failure := wire.FailureOf(err)
	r.appendError(context.WithoutCancel(ctx), run, failure)
	return store.RunError, failure.Message
}

// released is runOn's status for a run that goes back to the queue: the
// pool stopped before its end, or the database failed it.
const released = "released"

// endedWithCheckpoint is runOn's status for a run its last checkpoint's
// transaction ended, with success (store.StepOutput): its worker has
// nothing left to record.
const endedWithCheckpoint = "ended with its checkpoint"

// renew renews the run's lease every third of its length until stopped;
// a lost lease or a cancel request cancels the run.
func (r *Runner) renew(ctx context.Context, l store.Lease, cancel context.CancelCauseFunc, log *slog.Logger) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(r.timing.lease / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			run, err := r.queue.RenewLease(ctx, l, r.timing.lease)
			switch {
			case errors.Is(err, store.ErrLeaseLost):
				cancel(errLeaseLost)
			case err != nil:
				log.Error("renewing a run's lease", "err", err)
			case run.CancelRequested:
				cancel(store.ErrRunCancelled)
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// runGraph runs the planner for run and appends its events to the run's
// stream. It returns the run's final status when the graph ended on its
// own, or the graph's error.
func (r *Runner) runGraph(ctx context.Context, t tenant.Tenant, run store.Run) (string, error) {
	j, err := DecodeJob(run.Input)
	if err != nil {
		return "", err
	}
	recovered := false
	if run.Attempts > 1 {
		head, err := Head(ctx, t, run.ThreadID)
		if err != nil {
			return "", err
		}
		recovered = head != nil && head.Metadata.RunID == run.ID
	}
	if run.MultitaskStrategy == store.MultitaskRollback && run.Replaces != "" {
		if err := RollBack(ctx, t, run.Replaces); err != nil {
			return "", err
		}
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	cfg := j.config(run.ThreadID, run.ID, recovered)
	cfg.Turns = r.turns
	out := startOutbox(context.WithoutCancel(ctx), r.queue, run.Lease(), j.parts(), inputWaits(cfg), savesAtOnce(cfg), stop)
	status, err := r.runEvents(ctx, t, cfg, run, recovered, out)
	werr := out.close()
	switch {
	case out.endedRun():
		return endedWithCheckpoint, nil
	case werr != nil:
		return "", werr
	}
	return status, err
}

// runEvents runs the graph and puts the parts of its events in out. It
// returns the run's final status when the graph ended on its own, or the
// graph's error.
func (r *Runner) runEvents(ctx context.Context, t tenant.Tenant, cfg graph.RunConfig[nodes.Update], run store.Run, recovered bool, out *outbox) (string, error) {
	status := store.RunSuccess
	timer := r.metrics.NodeTimer(ctx)
	if recovered {
		if err := resendSaved(ctx, t, run, out); err != nil {
			return "", err
		}
	}
	cp := t.RunCheckpoints(run.Lease(), out)
	if telemetry.Enabled() {
		cp = telemetry.Checkpoints(cp)
	}
	planner := t.RunPlanner(cp)
	for ev, err := range planner.Run(ctx, cfg) {
		if err != nil {
			return "", err
		}
		timer.See(ev.Kind, ev.Node, ev.Name, ev.Payload)
		if err := out.see(ev); err != nil {
			return "", err
		}
		switch {
		case ev.Kind == graph.NodeFinished, ev.Kind == graph.RunStarted && savesInputAtOnce(cfg):
			// The step's checkpoint, or the input's, is saved once this
			// returns: what the step made, and the checkpoint's own state,
			// are written in the checkpoint's transaction, so a takeover
			// from that checkpoint loses none of it.
			out.hold()
		case ev.Kind == graph.CheckpointSaved:
			out.release()
		}
		if ev.Kind == graph.Interrupted { // a node asked a person, or a breakpoint stopped the run
			status = store.RunInterrupted
		}
	}
	return status, nil
}

// savesInputAtOnce reports whether a run saves its input's checkpoints
// right after it starts, before any node runs: at sync durability, when
// they do not wait for the first node's (inputWaits).
func savesInputAtOnce(cfg graph.RunConfig[nodes.Update]) bool {
	return savesInput(cfg) && !cfg.InputDurable
}

// inputWaits reports whether a run's input checkpoints wait for its first
// node's, to be saved with them (graph.RunConfig.InputDurable at sync
// durability).
func inputWaits(cfg graph.RunConfig[nodes.Update]) bool {
	return savesInput(cfg) && cfg.InputDurable
}

// savesInput reports whether a run saves its input's checkpoints as it
// goes: at sync durability, a run with an input.
func savesInput(cfg graph.RunConfig[nodes.Update]) bool {
	return savesAtOnce(cfg) && !cfg.Recover && !cfg.Resume && cfg.Command == nil
}

// savesAtOnce reports whether a run saves each checkpoint as it makes it,
// before it goes on: at sync durability.
func savesAtOnce(cfg graph.RunConfig[nodes.Update]) bool {
	return cfg.Durability.Sync()
}

// appendError adds an error event to a run's stream.
func (r *Runner) appendError(ctx context.Context, run store.Run, failure wire.StreamError) {
	data, _ := json.Marshal(failure)
	appended, err := r.queue.AppendRunEvents(ctx, run.Lease(), []store.NewRunEvent{{Event: wire.EventError, Data: data}})
	if err != nil {
		r.log.Error("recording a run's failure", "run_id", run.ID, "err", err)
	}
	r.queue.AnnounceRunEvents(appended)
}

// resendSaved puts in out the state of each step the run's earlier
// attempts saved: an attempt that ended between saving a step's
// checkpoint and writing that state to the stream would otherwise leave
// it out, since the run goes on after the checkpoint. Each part carries
// the position it had then, so what the stream holds already is not
// written again.
func resendSaved(ctx context.Context, t tenant.Tenant, run store.Run, out *outbox) error {
	list, err := t.Checkpoints.List(ctx, run.ThreadID, graph.ListOptions{Limit: maxResent})
	if err != nil {
		return fmt.Errorf("reading the checkpoints run %s saved: %w", run.ID, err)
	}
	n := 0
	for n < len(list) && list[n].Metadata.RunID == run.ID {
		n++
	}
	for i := n - 1; i >= 0; i-- { // oldest first
		if err := out.see(savedEvent(run.ID, list[i])); err != nil {
			return err
		}
	}
	return nil
}

// maxResent is the most saved steps resendSaved looks back at: more than
// a run of the planner takes.
const maxResent = 64
