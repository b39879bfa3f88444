package runner

import (
	"context"
	"fmt"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
)

// outbox writes a run's stream parts as the graph makes them, in batches:
// the parts made while one batch is being written go out together in the
// next, so that a burst of parts (a node's tokens and cards) costs one
// statement and one notification, while a lone part goes out at once.
// Each part carries its position in the run's output, so that a step run
// again after a takeover does not repeat what the stream already holds.
type outbox struct {
	queue Queue
	lease store.Lease
	fail  func(error) // stops the run: its stream can no longer be written
	in    chan outboxItem
	done  chan struct{}
	err   error // the first append error; read after done is closed

	ranks map[rankKey]int // events of each kind so far, in each step
}

// outboxItem is what put and flush send the writer: parts to write, or a
// channel to close once everything sent before it is written.
type outboxItem struct {
	parts   []store.NewRunEvent
	flushed chan struct{}
}

// rankKey counts a kind of event within one step.
type rankKey struct {
	step int
	kind graph.EventKind
}

// maxBatch is the most parts one append writes.
const maxBatch = 256

// startOutbox starts writing the parts put in the outbox to the stream of
// the run the lease holds. ctx bounds the appends; fail is called once, with
// the error, if one fails (and only the first).
func startOutbox(ctx context.Context, q Queue, l store.Lease, fail func(error)) *outbox {
	o := &outbox{queue: q, lease: l, fail: fail, in: make(chan outboxItem, maxBatch),
		done: make(chan struct{}), ranks: map[rankKey]int{}}
	go o.write(ctx)
	return o
}

// put queues the parts of one graph event, each with its position: the
// event's step, its kind, its rank among the events of that kind in the
// step, and the part's index. A step run again makes the same events in
// the same order, so the same positions.
func (o *outbox) put(ev graph.Event[nodes.State, nodes.Update], parts []wire.StreamPart) {
	key := rankKey{ev.Step, ev.Kind}
	rank := o.ranks[key]
	o.ranks[key] = rank + 1
	if len(parts) == 0 {
		return
	}
	batch := make([]store.NewRunEvent, len(parts))
	for i, p := range parts {
		batch[i] = store.NewRunEvent{Event: p.Event, Data: p.Data, Position: fmt.Sprintf("%d.%s.%d.%d", ev.Step, ev.Kind, rank, i)}
	}
	o.in <- outboxItem{parts: batch}
}

// flush waits until every part put so far is written, or writing failed.
// The runner flushes before a step's checkpoint is saved, so that a run
// taken over from that checkpoint on has its steps' output in its stream.
func (o *outbox) flush() {
	flushed := make(chan struct{})
	o.in <- outboxItem{flushed: flushed}
	<-flushed
}

// close waits until every part put is written, or writing failed, and
// returns the error that stopped it.
func (o *outbox) close() error {
	close(o.in)
	<-o.done
	return o.err
}

// write appends what is queued, in batches, until the outbox is closed.
// After a failure it only drains what is put, so that put never blocks.
func (o *outbox) write(ctx context.Context) {
	defer close(o.done)
	for first := range o.in {
		batch, flushed := o.gather(first)
		if o.err == nil && len(batch) > 0 {
			if _, err := o.queue.AppendRunEvents(ctx, o.lease, batch); err != nil {
				o.err = err
				o.fail(err)
			}
		}
		for _, f := range flushed {
			close(f)
		}
	}
}

// gather adds to first's parts what else is already queued, up to
// maxBatch parts, and returns them with the flushes waiting on them.
func (o *outbox) gather(first outboxItem) (batch []store.NewRunEvent, flushed []chan struct{}) {
	take := func(it outboxItem) {
		batch = append(batch, it.parts...)
		if it.flushed != nil {
			flushed = append(flushed, it.flushed)
		}
	}
	take(first)
	for len(batch) < maxBatch {
		select {
		case more, ok := <-o.in:
			if !ok {
				return batch, flushed
			}
			take(more)
		default:
			return batch, flushed
		}
	}
	return batch, flushed
}
