package graph

import (
	"context"
	"sync"
	"sync/atomic"
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
// Watching the run's context takes a context.AfterFunc, a timer and a
// context.WithCancel, so it starts only when a saver asks for Done (a
// database driver does, to interrupt a query), or for Err once the run
// is cancelled: a run whose saver never waits on its context
// (MemorySaver) pays for none of it. A saver that only asks for Err, and
// first after the cancellation, gets saveTimeout from that moment.
//
// Done is the channel of that WithCancel, and Value answers from it once
// it is made, so that the context package knows it as the context's own:
// what watches the write context (a database driver registers a
// context.AfterFunc on every query) is registered with it rather than
// given a goroutine of its own to wait on a channel it does not know.
type writeContext struct {
	context.Context                 // the run's caller's, without its cancellation: for Value
	run             context.Context // nil for UpdateState, which writes with its own context
	// done is made by watch: a WithCancel of Context, which expire
	// cancels. Value reads it without the lock.
	done atomic.Pointer[cancelable]

	mu       sync.Mutex
	err      error       // context.Canceled once Done is closed
	stop     func() bool // stops watching run
	timer    *time.Timer // started when run is done
	released bool        // the run has ended
}

// cancelable is a context with its cancel function.
type cancelable struct {
	context.Context
	cancel context.CancelFunc
}

// start makes the context of a run's writes: caller is the context
// the run was given, run its own. The run ends with r.writes.release.
func (w *writeContext) start(caller, run context.Context) {
	w.Context, w.run = context.WithoutCancel(caller), run
}

// Done returns a channel closed saveTimeout after the run's context is done.
func (w *writeContext) Done() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.watch().Done()
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

// Value returns the caller's value for key; once Done was asked for, by
// way of the context that Done is the channel of, which holds the same
// values.
func (w *writeContext) Value(key any) any {
	if d := w.done.Load(); d != nil {
		return d.Value(key)
	}
	return w.Context.Value(key)
}

// watch starts watching the run's context, once, and returns the context
// whose channel is Done. Called with w.mu held.
func (w *writeContext) watch() *cancelable {
	if d := w.done.Load(); d != nil {
		return d
	}
	d := new(cancelable)
	d.Context, d.cancel = context.WithCancel(w.Context)
	w.done.Store(d)
	w.stop = context.AfterFunc(w.run, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if !w.released {
			w.timer = time.AfterFunc(saveTimeout, w.expire)
		}
	})
	return d
}

func (w *writeContext) expire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = context.Canceled
		w.done.Load().cancel()
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
