package graph

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// startWriter prepares the run's writes in its durability mode, starting
// from the thread's head.
func (r *run[S, U]) startWriter(ctx context.Context, head string) error {
	r.head = head
	switch r.cfg.Durability {
	case "", DurabilitySync, DurabilityExit:
		return nil
	case DurabilityAsync:
		r.writer = &asyncWriter{queue: make(chan Checkpoint, maxAsyncBatch), done: make(chan struct{})}
		go r.writer.loop(r.saveCtx(ctx), r.c.cp, head)
		return nil
	}
	return fmt.Errorf("running on thread %q: unknown durability %q", r.cfg.ThreadID, r.cfg.Durability)
}

// holdsInput reports whether the run keeps its input's checkpoints (in
// held) to be saved in one batch with its next checkpoint, or when it
// ends: when the caller keeps the input durable itself
// (RunConfig.InputDurable) and each checkpoint is otherwise stored at once
// (sync).
//
// Nothing is lost: until that batch commits, the thread is as it was
// before the run, and a run cut off meanwhile is started again from the
// caller's copy of the input. Nothing of the first node is visible before
// the input: one transaction stores the input and the node's step, in
// order, or none of them.
func (r *run[S, U]) holdsInput() bool {
	return r.cfg.InputDurable && r.writer == nil && r.cfg.Durability != DurabilityExit
}

// save hands new checkpoints, each following the one before it, to the
// run's writes: stored at once (sync, together where the checkpointer
// writes batches, after those held back, see hold), queued (async) or
// kept, the newest, for the end (exit).
func (r *run[S, U]) save(ctx context.Context, cps ...Checkpoint) error {
	switch {
	case r.writer != nil:
		for _, cp := range cps {
			r.writer.queue <- cp
		}
		r.report()
		return r.writer.failure()
	case r.cfg.Durability == DurabilityExit:
		for _, cp := range cps {
			if r.last == nil {
				r.parent = cp.ParentID
			}
			r.last = &cp
		}
		return nil
	case r.held != nil:
		cps, r.held = append(r.held, cps...), nil
	}
	return r.put(ctx, cps...)
}

// flush stores what the run has not stored yet, and reports it. Every run
// ends with it.
func (r *run[S, U]) flush(ctx context.Context) error {
	switch {
	case r.writer != nil:
		close(r.writer.queue)
		<-r.writer.done
		r.report()
		return r.writer.failure()
	case r.last != nil:
		cp := *r.last
		cp.ParentID, r.last = r.parent, nil
		return r.put(ctx, cp)
	case r.held != nil: // the run ended before it saved another checkpoint
		held := r.held
		r.held = nil
		return r.put(ctx, held...)
	}
	return nil
}

// writeErr returns the error of a failed background write.
func (r *run[S, U]) writeErr() error {
	if r.writer == nil {
		return nil
	}
	r.report()
	return r.writer.failure()
}

// put stores checkpoints over the run's head, each over the one before it,
// and reports those stored.
func (r *run[S, U]) put(ctx context.Context, cps ...Checkpoint) error {
	ctx = r.saveCtx(ctx)
	var n int
	var err error
	if _, batches := r.c.cp.(BatchPutter); batches && len(cps) > 1 {
		// A copy: the batch escapes into the saver, and cps stays on the
		// stack of the run's own steps.
		n, err = PutAll(ctx, r.c.cp, slices.Clone(cps), r.head)
	} else {
		n, err = putEach(ctx, r.saver(), cps, r.head)
	}
	for i := range cps[:n] {
		r.head, r.stored = cps[i].ID, cps[i].ID
		r.saved(cps[i])
	}
	return err
}

// saver is what the run stores its checkpoints with, one at a time. A
// MemorySaver copies what it is given, so that no caller shares what it
// keeps; a run that hands its checkpoints to no one (Invoke's) gives them
// to it to keep as they are (owning): the run never changes a checkpoint
// it made.
func (r *run[S, U]) saver() Checkpointer {
	if m, ok := r.c.cp.(*MemorySaver); ok && !r.handsOut {
		return owning{m}
	}
	return r.c.cp
}

// report emits CheckpointSaved for what the background writer has stored.
func (r *run[S, U]) report() {
	for _, cp := range r.writer.takeStored() {
		r.stored = cp.ID
		r.saved(cp)
	}
}

// saved emits CheckpointSaved for a stored checkpoint. The event points to
// a copy of it, made only when there is a consumer to give it to.
func (r *run[S, U]) saved(cp Checkpoint) {
	if r.yield == nil || r.stopped {
		return
	}
	kept := cp
	r.emit(Event[S, U]{Kind: CheckpointSaved, Step: kept.Step, Node: kept.Node, Checkpoint: &kept})
}

// saveCtx is the context of the run's writes (see writeContext), or ctx
// for UpdateState.
func (r *run[S, U]) saveCtx(ctx context.Context) context.Context {
	if r.writes.run == nil {
		return ctx
	}
	return &r.writes
}

func putCheckpoint(ctx context.Context, saver Checkpointer, cp Checkpoint, head string) error {
	if err := saver.Put(ctx, cp, head); err != nil {
		return fmt.Errorf("saving the checkpoint of step %d of thread %q: %w", cp.Step, cp.ThreadID, err)
	}
	return nil
}

// maxAsyncBatch bounds the checkpoints an async run writes at once.
const maxAsyncBatch = 16

// asyncWriter stores a run's checkpoints in order, in the background, each
// over the one before it; those that queue up while a write is under way
// are written together (see PutAll).
type asyncWriter struct {
	queue chan Checkpoint
	done  chan struct{} // closed when the queue is drained

	mu     sync.Mutex
	stored []Checkpoint // stored, not reported yet
	err    error        // the first failed write; later ones are skipped
}

func (w *asyncWriter) loop(ctx context.Context, saver Checkpointer, head string) {
	defer close(w.done)
	var batch []Checkpoint
	for cp := range w.queue {
		batch = w.gather(append(batch[:0], cp))
		if w.failure() != nil {
			continue
		}
		n, err := PutAll(ctx, saver, batch, head)
		w.mu.Lock()
		if n > 0 {
			head = batch[n-1].ID
			w.stored = append(w.stored, batch[:n]...)
		}
		if err != nil {
			w.err = err
		}
		w.mu.Unlock()
	}
}

// gather adds to batch the checkpoints queued meanwhile, up to
// maxAsyncBatch: those made while the last write was under way are written
// together.
func (w *asyncWriter) gather(batch []Checkpoint) []Checkpoint {
	for len(batch) < maxAsyncBatch {
		select {
		case cp, ok := <-w.queue:
			if !ok {
				return batch
			}
			batch = append(batch, cp)
		default:
			return batch
		}
	}
	return batch
}

func (w *asyncWriter) failure() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

func (w *asyncWriter) takeStored() []Checkpoint {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.stored
	w.stored = nil
	return out
}

// keepDecoded remembers the state of the run's newest checkpoint once it is
// stored, for the next run on the thread.
func (r *run[S, U]) keepDecoded() {
	if r.made != "" && r.made == r.stored {
		r.c.decoded.keep(r.cfg.ThreadID, r.made, r.madeAs, r.madeLen)
	}
}
