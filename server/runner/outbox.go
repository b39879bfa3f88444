package runner

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
)

// outbox makes a run's stream parts from the graph's events and writes
// them in batches: a part waits up to partLinger for others, and the parts
// made while one batch is being written go out together in the next, so
// that a burst of parts (a node's tokens and cards) costs one statement
// and one notification. A step that ends within the linger writes its
// parts with its checkpoint, and none on their own.
// When a step ends, what it made waits for the step's checkpoint and is
// written in the checkpoint's own transaction (the outbox is the
// run's store.StepOutput), so that a run taken over from that checkpoint
// has the step's output in its stream, for one commit instead of two; so
// are the parts of the checkpoint itself (the state it holds), which
// otherwise would follow in a commit of their own once it is saved.
// Each part carries its position in the run's output, so that a step run
// again after a takeover does not repeat what the stream already holds.
// The checkpoint that ends a run, with nothing of the run to write after
// it, ends the run in its transaction too (see endsRun): one commit
// instead of two.
type outbox struct {
	queue Queue
	lease store.Lease
	fail  func(error) // stops the run: its stream can no longer be written
	wake  chan struct{}
	done  chan struct{}
	// linger is how long a part waits for others or its step's checkpoint
	// (partLinger).
	linger time.Duration

	// making guards parts, which the run's events and its checkpoints'
	// writes (in the background, for an async run) both use; it is taken
	// before mu.
	making sync.Mutex
	parts  *wire.Parts

	mu      sync.Mutex
	idle    sync.Cond           // signalled when a write ends
	pending []store.NewRunEvent // put, not written yet
	since   time.Time           // when the first of pending was put
	urgent  bool                // pending holds a part not made by a node: it does not linger
	writing bool                // the writer is appending a batch
	held    bool                // pending waits for the step's checkpoint
	// first: the run's input checkpoints wait for its first node's
	// (graph.RunConfig.InputDurable), and so does everything the run
	// makes until then, which their parts come before.
	first  bool
	closed bool            // no more parts come
	err    error           // the first append error
	ranks  map[rankKey]int // events of each kind so far, in each step
	// nodeStep is the step of the node events seen last: a checkpoint of
	// an earlier step saved with that node's (the input's) comes before
	// the node's parts in the stream, as it would have had it been saved
	// on its own.
	nodeStep int
	// withCheckpoint are the checkpoints whose parts their own writes took:
	// their CheckpointSaved events make none.
	withCheckpoint map[string]bool
	// appended are the parts the step's checkpoint wrote, published to
	// this process's followers once the checkpoint is saved (release).
	appended []store.RunEvent
	// unpublished: parts were appended and not published (their
	// checkpoint failed), so nothing more is: followers take what they are
	// handed as all that came before it.
	unpublished bool
	// endsRun: the run's last checkpoint may end the run in its
	// transaction (store.StepOutput.Take's ends): it is saved as it is
	// made (sync durability), and the run's end makes no parts of its own
	// (wire.Parts.EndMakesParts), so that nothing of the run is left to
	// write after it.
	endsRun bool
	// announceEnd announces the run's end, written with the checkpoints
	// being saved, once they are (release); ended is set then: the run is
	// over, and its worker is not to end it again.
	announceEnd func()
	ended       bool
}

// rankKey counts a kind of event within one step.
type rankKey struct {
	step int
	kind graph.EventKind
}

// maxBatch is the most parts one append writes.
const maxBatch = 256

// partLinger is how long a part a node makes (a card, a token) waits for
// more, or for the step's checkpoint to take it, before it is written on
// its own; the run's other parts (its start, a checkpoint saved outside a
// step) do not wait. Most of the planner's steps end within it, so their
// cards and tokens cost no commit of their own; a part of a longer step (a
// model's reply streamed) reaches the stream this much later at most, well
// under what a reader notices.
const partLinger = 25 * time.Millisecond

// startOutbox starts writing the parts of the run's events, made by parts,
// to the stream of the run the lease holds. ctx bounds the appends; fail is
// called once, with the error, if one fails (and only the first).
func startOutbox(ctx context.Context, q Queue, l store.Lease, parts *wire.Parts, inputWaits, endsRun bool, fail func(error)) *outbox {
	o := &outbox{queue: q, lease: l, fail: fail, wake: make(chan struct{}, 1), linger: partLinger, parts: parts, first: inputWaits,
		done: make(chan struct{}), ranks: map[rankKey]int{}, withCheckpoint: map[string]bool{}, endsRun: endsRun && !parts.EndMakesParts()}
	o.idle.L = &o.mu
	go o.write(ctx)
	return o
}

// see makes the parts of one graph event and queues them, but those of a
// saved checkpoint whose write took them already.
func (o *outbox) see(ev graph.Event[nodes.State, nodes.Update]) error {
	o.making.Lock()
	defer o.making.Unlock()
	if ev.Kind == graph.CheckpointSaved && ev.Checkpoint != nil {
		o.mu.Lock()
		taken := o.withCheckpoint[ev.Checkpoint.ID]
		delete(o.withCheckpoint, ev.Checkpoint.ID)
		o.mu.Unlock()
		if taken {
			return nil
		}
	}
	made, err := o.parts.Of(ev)
	if err != nil {
		return err
	}
	o.put(ev, made)
	return nil
}

// put queues the parts of one graph event.
func (o *outbox) put(ev graph.Event[nodes.State, nodes.Update], parts []wire.StreamPart) {
	o.mu.Lock()
	o.add(ev, parts)
	o.mu.Unlock()
	if len(parts) > 0 {
		o.nudge()
	}
}

// add adds the parts of one graph event to what is pending, each with its
// position: the event's step, its kind, its rank among the events of that
// kind in the step, and the part's index. A step run again makes the same
// events in the same order, so the same positions. The caller holds mu.
func (o *outbox) add(ev graph.Event[nodes.State, nodes.Update], parts []wire.StreamPart) {
	key := rankKey{ev.Step, ev.Kind}
	rank := o.ranks[key]
	o.ranks[key] = rank + 1
	if len(parts) > 0 && len(o.pending) == 0 {
		o.since, o.urgent = time.Now(), false
	}
	switch ev.Kind {
	case graph.NodeStarted, graph.Custom, graph.Token, graph.NodeFinished:
		o.nodeStep = ev.Step
	}
	if len(parts) > 0 && ev.Kind != graph.Custom && ev.Kind != graph.Token {
		o.urgent = true // not a node's: no step's checkpoint is about to take it
	}
	for i, p := range parts {
		o.pending = append(o.pending, store.NewRunEvent{Event: p.Event, Data: p.Data,
			Position: fmt.Sprintf("%d.%s.%d.%d", ev.Step, ev.Kind, rank, i)})
	}
}

// hold keeps what is put from now on, and what is not written yet, for the
// step's checkpoint, once the batch being written (if any) is in. The
// runner holds when a step's nodes have finished, before the step's
// checkpoint is saved.
func (o *outbox) hold() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.held = true
	for o.writing {
		o.idle.Wait()
	}
}

// release hands the parts the step's checkpoint wrote to this process's
// followers and announces them, then the run's end if the checkpoint ended
// it, and lets the writer write what the checkpoint did not take: the
// runner releases once the step's checkpoint is saved (a checkpoint that
// was not leaves its parts to be read from the table).
func (o *outbox) release() {
	o.mu.Lock()
	appended, announceEnd := o.appended, o.announceEnd
	o.appended, o.announceEnd = nil, nil
	o.mu.Unlock()
	o.publish(appended) // before what the writer appends next, and before the end
	if announceEnd != nil {
		announceEnd()
	}
	o.mu.Lock()
	o.held = false
	o.ended = o.ended || announceEnd != nil
	o.mu.Unlock()
	o.nudge()
}

// publish hands appended parts to this process's followers, unless some
// were left out before, and announces them to every process's.
func (o *outbox) publish(appended []store.RunEvent) {
	o.mu.Lock()
	skip := o.unpublished
	o.mu.Unlock()
	if skip {
		o.queue.AnnounceRunEvents(appended)
	} else {
		o.queue.PublishRunEvents(appended)
	}
}

// Take is the outbox as the run's store.StepOutput: while held, it takes
// the parts not written yet, then those of the checkpoints being saved,
// to be appended in their transaction; and it says whether the last of
// them ends the run (see endsRun): it has no node due and no pause
// pending.
func (o *outbox) Take(saving []graph.Checkpoint) (events []store.NewRunEvent, ends bool) {
	o.making.Lock()
	defer o.making.Unlock()
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.held || o.err != nil {
		return nil, false
	}
	if n := len(saving); o.endsRun && n > 0 {
		last := saving[n-1]
		ends = len(last.Next) == 0 && len(last.Interrupts) == 0
	}
	made := o.pending // the step's own parts
	o.pending, o.first = nil, false
	var before []store.NewRunEvent
	for _, cp := range saving {
		ev := savedEvent(o.lease.RunID, cp)
		parts, err := o.parts.Of(ev)
		if err != nil {
			break // its event makes them again, and fails the run
		}
		o.add(ev, parts)
		o.withCheckpoint[cp.ID] = true
		if cp.Step < o.nodeStep { // an input's checkpoint, saved with the step after it (graph.RunConfig.InputDurable)
			before, o.pending = append(before, o.pending...), nil
		}
	}
	batch := append(append(before, made...), o.pending...)
	o.pending = nil
	return batch, ends
}

// Appended keeps what the checkpoints' transaction appended of Take's
// parts, for release to publish once the checkpoint is saved; a failure
// stops the run.
func (o *outbox) Appended(appended []store.RunEvent, err error) error {
	if err != nil {
		o.failed(err)
		return err
	}
	o.mu.Lock()
	o.appended = append(o.appended, appended...)
	o.mu.Unlock()
	return nil
}

// Ended keeps the announcement of the run's end, which the checkpoints'
// transaction wrote, for release to make once the checkpoints are saved.
func (o *outbox) Ended(_ store.Run, announce func()) {
	o.mu.Lock()
	o.announceEnd = announce
	o.mu.Unlock()
}

// endedRun reports whether the run's end was saved with its last
// checkpoint: the run is over.
func (o *outbox) endedRun() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.ended
}

// savedEvent is the event that reports cp, a checkpoint of run runID,
// saved.
func savedEvent(runID string, cp graph.Checkpoint) graph.Event[nodes.State, nodes.Update] {
	return graph.Event[nodes.State, nodes.Update]{Kind: graph.CheckpointSaved, RunID: runID, ThreadID: cp.ThreadID,
		Step: cp.Step, Node: cp.Node, Checkpoint: &cp}
}

// close waits until every part put is written, or writing failed, and
// returns the error that stopped it.
func (o *outbox) close() error {
	o.mu.Lock()
	o.closed, o.held = true, false
	if len(o.appended) > 0 { // their checkpoint was not saved
		o.appended, o.unpublished = nil, true
	}
	o.announceEnd = nil // nor was the end written with it
	o.mu.Unlock()
	o.nudge()
	<-o.done
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// nudge wakes the writer.
func (o *outbox) nudge() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// write appends what is pending, in batches, until the outbox is closed
// and all is written. After a failure it drops what is put.
func (o *outbox) write(ctx context.Context) {
	defer close(o.done)
	for {
		batch, last, wait := o.take()
		if wait > 0 {
			select {
			case <-o.wake:
			case <-time.After(wait):
			}
			continue
		}
		if len(batch) > 0 {
			if appended, err := o.queue.AppendRunEvents(ctx, o.lease, batch); err != nil {
				o.failed(err)
			} else {
				o.publish(appended)
			}
			o.mu.Lock()
			o.writing = false
			o.idle.Broadcast()
			o.mu.Unlock()
			continue
		}
		if last {
			return
		}
		<-o.wake
	}
}

// take returns up to maxBatch pending parts for the writer to append,
// marking it writing, or none while held (or after a failure); last is
// true once the outbox is closed and nothing is left to write. While the
// first pending part has lingered less than o.linger, it returns none and
// how long the writer is to wait for more.
func (o *outbox) take() (batch []store.NewRunEvent, last bool, wait time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		o.pending, o.unpublished = nil, true
	}
	if o.held || o.first && !o.closed || len(o.pending) == 0 {
		return nil, o.closed && len(o.pending) == 0, 0
	}
	if waited := time.Since(o.since); !o.closed && !o.urgent && waited < o.linger {
		return nil, false, o.linger - waited
	}
	n := min(len(o.pending), maxBatch)
	batch = o.pending[:n:n]
	o.pending = o.pending[n:]
	o.writing = true
	return batch, false, 0
}

// failed records the first append error and stops the run.
func (o *outbox) failed(err error) {
	o.mu.Lock()
	first := o.err == nil
	if first {
		o.err = err
	}
	o.unpublished = true // the run stops: its followers read the rest
	o.mu.Unlock()
	if first {
		o.fail(err)
	}
}
