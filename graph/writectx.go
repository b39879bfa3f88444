package graph

import (
	"context"
	"sync"
	"time"
)

// saveTimeout bounds the checkpoint writes made after a run's context was
// cancelled: a node that finished is saved all the same. A variable for
// the tests.
var saveTimeout = 10 * time.Second

// writeContext is the context of a run's checkpoint writes. It carries the
// values of the context the run was given, but neither its deadline nor
// its cancellation, so that what a node returned is saved after the run
// was cancelled; and it is done saveTimeout after the run's context is, so
// that a saver that hangs cannot hold a cancelled run for long.
//
// Its Done is the channel of a context.WithCancel that it carries as its
// own context, so that what watches it (a database driver registers a
// context.AfterFunc on every query, to interrupt it) is registered with
// that context rather than given a goroutine of its own to wait on a
// channel it does not know. That costs a run one cancelCtx.
//
// Watching the run's context takes a context.AfterFunc and a timer, so it
// starts only when a saver asks for Done (a database driver
// does, to interrupt a query), or for Err once the run is cancelled: a run
// whose saver never waits on its context (MemorySaver) pays for none of
// it. A saver that only asks for Err, and first after the cancellation,
// gets saveTimeout from that moment.
type writeContext struct {
	// Context is the run's caller's without its cancellation (for Value),
	// under a cancellation of its own that expire calls: its Done is
	// writeContext's.
	context.Context
	cancel context.CancelFunc
	run    context.Context // nil for UpdateState, which writes with its own context

	mu       sync.Mutex
	watching bool        // watch has run
	err      error       // context.Canceled once Done is closed
	stop     func() bool // stops watching run
	timer    *time.Timer // started when run is done
	released bool        // the run has ended
}

// start makes the context of a run's writes: caller is the context
// the run was given, run its own. The run ends with r.writes.release.
func (w *writeContext) start(caller, run context.Context) {
	w.Context, w.cancel = context.WithCancel(context.WithoutCancel(caller))
	w.run = run
}

// Done returns a channel closed saveTimeout after the run's context is done.
func (w *writeContext) Done() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.watch()
	return w.Context.Done()
}

// Err returns context.Canceled once Done is closed.
func (w *writeContext) Err() error {
	if w.run.Err() == nil {
		return nil // the run goes on, and so may its writes
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.watch()
	return w.err
}

// watch starts watching the run's context, once. Called with w.mu held.
func (w *writeContext) watch() {
	if w.watching {
		return
	}
	w.watching = true
	w.stop = context.AfterFunc(w.run, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if !w.released {
			w.timer = time.AfterFunc(saveTimeout, w.expire)
		}
	})
}

func (w *writeContext) expire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = context.Canceled
		w.cancel()
	}
}

// release stops watching the run's context: the run has ended, and so
// have its writes.
func (w *writeContext) release() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.released = true
	if w.stop != nil {
		w.stop()
	}
	if w.timer != nil {
		w.timer.Stop()
	}
}
