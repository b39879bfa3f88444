package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
)

// DefaultWorkers is how many runs a process executes at once when
// TRIPGRAPH_WORKERS is not set.
const DefaultWorkers = 4

// DefaultRunLease is how long a worker's claim on a run lasts, renewed as
// it goes, when TRIPGRAPH_RUN_LEASE is not set. A run whose process died
// is taken over by another once its lease has lapsed.
const DefaultRunLease = 30 * time.Second

// minRunLease is the shortest lease allowed: it is renewed every third of
// its length, a round trip each time.
const minRunLease = time.Second

// DefaultShutdownGrace is how long a stopping process lets its runs go on
// before it hands them back, when TRIPGRAPH_SHUTDOWN_GRACE is not set.
const DefaultShutdownGrace = 20 * time.Second

// timing is how the worker pool paces itself.
type timing struct {
	lease       time.Duration // a claim's length; renewed every third of it
	poll        time.Duration // how often an idle worker looks for a run
	reclaim     time.Duration // how often expired leases are dealt with
	maxAttempts int           // claims of one run before it ends in error
}

// timingFor is the pool's pacing for a lease length: expired leases are
// looked for twice per lease, so a dead worker's run waits at most one and
// a half leases before it is handed on.
func timingFor(lease time.Duration) timing {
	return timing{lease: lease, poll: time.Second, reclaim: lease / 2, maxAttempts: 3}
}

// errLeaseLost is the cause of a run's context when its worker lost the
// run to another.
var errLeaseLost = errors.New("the worker lost its lease on the run")

// pool executes the runs in the store: its workers claim pending runs of
// any owner, from any process, and run the planner on them.
type pool struct {
	s      *Server
	id     string // this process's worker id prefix
	n      int
	timing timing
	wake   chan struct{} // a run was created here: look now
	// claims ends when the workers are to stop claiming runs, and the
	// sweeper to stop; stopRuns stops the runs in progress, which go back
	// to the queue.
	claims               context.Context
	stopClaims, stopRuns context.CancelFunc
	wg                   sync.WaitGroup
}

func newPool(s *Server, n int, lease time.Duration) *pool {
	var b [6]byte
	rand.Read(b[:])
	host, _ := os.Hostname()
	return &pool{s: s, id: host + "-" + hex.EncodeToString(b[:]), n: n, timing: timingFor(lease),
		wake: make(chan struct{}, 1)}
}

// Start starts the worker pool: Config.Workers workers that execute the
// runs of every owner, and a sweeper of expired leases. Shutdown and Close
// stop them and hand the runs they held back to the queue.
func (s *Server) Start() {
	p := s.pool
	claims, stopClaims := context.WithCancel(context.Background())
	runs, stopRuns := context.WithCancel(context.Background())
	p.claims, p.stopClaims, p.stopRuns = claims, stopClaims, stopRuns
	p.wg.Add(p.n + 1)
	for i := range p.n {
		go p.work(claims, runs, fmt.Sprintf("%s-%d", p.id, i))
	}
	go p.sweep(claims)
}

// drain stops the workers claiming runs and lets the runs in progress go
// on until they end or ctx does; then it stops them, and each goes back to
// the queue (see execute). It returns once every worker has stopped.
func (p *pool) drain(ctx context.Context) {
	if p.stopClaims == nil {
		return // never started
	}
	p.stopClaims()
	done := make(chan struct{})
	go func() { p.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		p.stopRuns()
		<-done
	}
	p.stopRuns()
}

// nudge tells an idle worker that a run is waiting.
func (p *pool) nudge() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// work claims and executes runs, under runs, until claims ends.
func (p *pool) work(claims, runs context.Context, workerID string) {
	defer p.wg.Done()
	for claims.Err() == nil {
		// The claim itself runs under runs: a claim cut off halfway could
		// leave a run held by a worker that does not know it has it.
		r, ok, err := p.s.store.ClaimRun(runs, workerID, p.timing.lease)
		if err != nil && runs.Err() == nil {
			p.s.log.Error("claiming a run", "worker", workerID, "err", err)
		}
		if ok && claims.Err() != nil {
			p.handBack(runs, r) // claimed as the pool began to stop
			return
		}
		if ok {
			p.execute(runs, r)
			continue
		}
		select {
		case <-claims.Done():
		case <-p.wake:
		case <-time.After(p.timing.poll):
		}
	}
}

// sweep deals with runs whose worker stopped without finishing them.
func (p *pool) sweep(ctx context.Context) {
	defer p.wg.Done()
	t := time.NewTicker(p.timing.reclaim)
	defer t.Stop()
	for {
		changed, err := p.s.store.ReclaimExpired(ctx, p.timing.maxAttempts)
		if err != nil && ctx.Err() == nil {
			p.s.log.Error("reclaiming runs with expired leases", "err", err)
		}
		for _, r := range changed {
			p.s.log.Warn("run reclaimed from a stopped worker", "run_id", r.ID, "status", r.Status, "attempts", r.Attempts)
		}
		if len(changed) > 0 {
			p.nudge()
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
func (p *pool) execute(ctx context.Context, r store.Run) {
	log := p.s.log.With("run_id", r.ID, "thread_id", r.ThreadID, "worker", r.WorkerID)
	l := r.Lease()
	status, msg := p.runOn(ctx, r, log)
	after, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	switch {
	case status == "":
		return // the lease was lost: the run is someone else's now
	case status == released:
		p.handBack(ctx, r)
		return
	}
	if _, err := p.s.store.FinishRun(after, l, status, msg); err != nil {
		log.Error("ending a run", "status", status, "err", err)
	}
}

// handBack puts a run this pool holds back in the queue, pending.
func (p *pool) handBack(ctx context.Context, r store.Run) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if _, err := p.s.store.ReleaseRun(ctx, r.Lease()); err != nil {
		p.s.log.Error("handing a run back to the queue", "run_id", r.ID, "worker", r.WorkerID, "err", err)
	}
}

// runOn executes r under its lease and a cancel watch, as its thread's
// owner, and returns its final status and error message: "" when the lease
// was lost, released when the pool is stopping.
func (p *pool) runOn(ctx context.Context, r store.Run, log *slog.Logger) (status, msg string) {
	owner, err := p.s.store.RunOwner(ctx, r.ID)
	if err != nil {
		log.Error("reading a run's owner", "err", err)
		return store.RunError, runFailed
	}
	watched, stopWatch, err := p.s.store.WatchCancel(ctx, r.ID)
	if err != nil {
		log.Error("watching a run for cancellation", "err", err)
		return store.RunError, runFailed
	}
	defer stopWatch()
	runCtx, cancel := context.WithCancelCause(watched)
	defer cancel(nil)
	stopRenew := p.renew(runCtx, r.Lease(), cancel, log)
	defer stopRenew()
	status, err = p.s.runGraph(mcpbridge.WithUser(runCtx, owner), owner, r)
	switch cause := context.Cause(runCtx); {
	case errors.Is(cause, errLeaseLost):
		return "", ""
	case errors.Is(cause, store.ErrRunCancelled):
		return store.RunCancelled, ""
	case ctx.Err() != nil:
		return released, ""
	case err != nil:
		log.Error("a run failed", "err", err)
		p.s.appendError(context.WithoutCancel(ctx), owner, r.ID)
		return store.RunError, runFailed
	}
	return status, ""
}

// released is runOn's status for a run the pool stopped before its end:
// it goes back to the queue.
const released = "released"

// runFailed is the message a failed run shows: what went wrong is logged,
// not shown.
const runFailed = "the run failed"

// renew renews the run's lease every third of its length until stopped;
// a lost lease or a cancel request cancels the run.
func (p *pool) renew(ctx context.Context, l store.Lease, cancel context.CancelCauseFunc, log *slog.Logger) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(p.timing.lease / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			r, err := p.s.store.RenewLease(ctx, l, p.timing.lease)
			switch {
			case errors.Is(err, store.ErrLeaseLost):
				cancel(errLeaseLost)
			case err != nil:
				log.Error("renewing a run's lease", "err", err)
			case r.CancelRequested:
				cancel(store.ErrRunCancelled)
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// runGraph runs the planner for r and appends its events to the run's
// stream. It returns the run's final status when the graph ended on its
// own, or the graph's error.
func (s *Server) runGraph(ctx context.Context, owner string, r store.Run) (string, error) {
	j, err := decodeJob(r.Input)
	if err != nil {
		return "", err
	}
	resumed := false
	if r.Attempts > 1 {
		head, err := s.head(ctx, r.ThreadID)
		if err != nil {
			return "", err
		}
		resumed = head != nil && head.Metadata.RunID == r.ID
	}
	if r.MultitaskStrategy == store.MultitaskRollback && r.Replaces != "" && j.CheckpointID == "" {
		if j.CheckpointID, err = s.before(ctx, r.ThreadID, r.Replaces); err != nil {
			return "", err
		}
	}
	appendCtx := context.WithoutCancel(ctx)
	status := store.RunSuccess
	timer := s.metrics.nodeTimer()
	for ev, err := range s.planner.Run(ctx, j.config(r.ThreadID, r.ID, resumed)) {
		if err != nil {
			return "", err
		}
		timer.see(ev.Kind, ev.Node, ev.Name, ev.Payload)
		parts, err := j.parts().Of(ev)
		if err != nil {
			return "", err
		}
		for _, part := range parts {
			if _, err := s.store.AppendRunEvent(appendCtx, owner, r.ID, part.Event, part.Data); err != nil {
				return "", err
			}
		}
		if ev.Kind == graph.Interrupted { // a node asked a person, or a breakpoint stopped the run
			status = store.RunInterrupted
		}
	}
	return status, nil
}

// appendError adds an error event to a run's stream.
func (s *Server) appendError(ctx context.Context, owner, runID string) {
	data, _ := json.Marshal(wire.StreamError{Error: string(errcode.Internal), Message: runFailed})
	if _, err := s.store.AppendRunEvent(ctx, owner, runID, wire.EventError, data); err != nil {
		s.log.Error("recording a run's failure", "run_id", runID, "err", err)
	}
}

// errStartedThread: a run that wrote a thread's first checkpoint has no
// state before it to roll back to.
var errStartedThread = errors.New("it started the thread")

// before is the checkpoint a rollback forks from: the parent of the oldest
// checkpoint the replaced run wrote on the thread, or "" when it wrote
// none. A run that started the thread has nothing before it:
// that rollback fails.
func (s *Server) before(ctx context.Context, threadID, replaced string) (string, error) {
	oldest, cursor := "", ""
	for {
		page, err := s.cps.List(ctx, threadID, graph.ListOptions{Limit: 100, Before: cursor})
		if err != nil {
			return "", fmt.Errorf("finding the checkpoints of run %s: %w", replaced, err)
		}
		for _, cp := range page {
			if cp.Metadata.RunID == replaced {
				oldest = cp.ParentID
				if oldest == "" {
					return "", fmt.Errorf("rolling back run %s: %w", replaced, errStartedThread)
				}
			}
		}
		if len(page) < 100 {
			return oldest, nil
		}
		cursor = page[len(page)-1].ID
	}
}
