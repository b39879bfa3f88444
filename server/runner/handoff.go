package runner

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
)

// A request that creates a run in this process may hand it straight to
// one of the process's idle workers: it reserves the worker, asks the
// store to create the run claimed by it (store.NewRun.ClaimFor), and
// hands over the claim. The run then starts without a claim's round trip
// and commit and without the queue's announcement. The store creates it
// pending instead when other runs wait to be claimed, so handing over
// never jumps the queue; the reserved worker then goes back to waiting.

// worker is one of the pool's workers, as a request sees it.
type worker struct {
	id     string
	handed chan handed // what the request that reserved the worker hands it
}

// handed is what a request hands the worker it reserved: the run it
// created claimed by the worker, or nothing (ok false).
type handed struct {
	claim store.Claim
	ok    bool
}

// idleWorkers are the workers waiting for a run, the latest to wait last.
type idleWorkers struct {
	mu      sync.Mutex
	waiting []*worker
}

// add records that w waits for a run.
func (iw *idleWorkers) add(w *worker) {
	iw.mu.Lock()
	iw.waiting = append(iw.waiting, w)
	iw.mu.Unlock()
}

// remove records that w stopped waiting. It reports false when a request
// reserved w meanwhile: w must then wait for what the request hands it.
func (iw *idleWorkers) remove(w *worker) bool {
	iw.mu.Lock()
	defer iw.mu.Unlock()
	i := slices.Index(iw.waiting, w)
	if i < 0 {
		return false
	}
	iw.waiting = slices.Delete(iw.waiting, i, i+1)
	return true
}

// reserve takes the worker that began waiting last, whose stack and caches
// are the warmest, or nil when none waits.
func (iw *idleWorkers) reserve() *worker {
	iw.mu.Lock()
	defer iw.mu.Unlock()
	n := len(iw.waiting)
	if n == 0 {
		return nil
	}
	w := iw.waiting[n-1]
	iw.waiting = iw.waiting[:n-1]
	return w
}

// claimFor reserves an idle worker for a run a request is about to create,
// and returns it with what the run's creation needs to be claimed by it.
// The worker is nil, and the claim empty, when none is idle. The request
// must call handOver once the run's creation is over, whatever its outcome.
func (r *Runner) claimFor() (*worker, store.Worker) {
	w := r.idle.reserve()
	if w == nil {
		return nil, store.Worker{}
	}
	return w, store.Worker{ID: w.id, Lease: r.timing.lease}
}

// handOver ends a request's reservation of w (nil for none) once it
// created run for t, or failed (err): a run created claimed by w goes to
// w; otherwise w goes back to waiting, and a run created pending wakes a
// worker as any does.
func (r *Runner) handOver(w *worker, t tenant.Tenant, run store.Run, err error) {
	claimed := err == nil && w != nil && run.Status == store.RunRunning && run.WorkerID == w.id
	if w != nil {
		h := handed{}
		if claimed {
			h = handed{claim: store.Claim{Run: run, Owner: t.ID}, ok: true}
		}
		w.handed <- h
	}
	if err == nil && !claimed {
		r.created()
	}
}

// wait idles w until it is told of a run, is handed one, or the poll's
// time has passed, and reports whether w should claim a run now. A run it
// is handed, it runs; then, as when handed nothing, it waits again rather
// than claim: a run that became pending meanwhile was announced, and left
// a wake if no worker was idle.
func (r *Runner) wait(claims, runs context.Context, w *worker) (claim bool) {
	r.idle.add(w)
	select {
	case <-claims.Done():
	case <-r.wake:
	case <-time.After(r.timing.poll):
	case h := <-w.handed:
		r.take(claims, runs, h)
		return false
	}
	if r.idle.remove(w) {
		return true
	}
	r.take(claims, runs, <-w.handed) // reserved as it stopped waiting
	return false
}

// take runs what a worker was handed, if anything, or hands it back when
// the pool is stopping.
func (r *Runner) take(claims, runs context.Context, h handed) {
	switch {
	case !h.ok:
	case claims.Err() != nil:
		r.handBack(runs, h.claim.Run, r.queue.ReturnClaim)
	default:
		r.execute(runs, h.claim)
	}
}
