package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// EventKind says what an Event reports.
type EventKind uint8

// Within a run, events come in this order: RunStarted; then for each step
// NodeStarted, the node's Custom and Token events as it emits them,
// NodeFinished, CheckpointSaved; then one of RunFinished, RunFailed or
// Interrupted. A run with input saves two checkpoints right after
// RunStarted: the input pending, then applied (no node runs for it); with
// RunConfig.InputDurable they are saved, and reported, with the first
// node's checkpoint, after its NodeFinished. CheckpointSaved reports a
// checkpoint once it is stored:
// with DurabilityAsync that may be some steps later, and with DurabilityExit
// only the last checkpoint is reported, just before the final event.
const (
	RunStarted EventKind = iota + 1
	NodeStarted
	Custom
	Token
	NodeFinished
	CheckpointSaved
	RunFinished
	RunFailed
	Interrupted // the run paused: a node called Interrupt, or a breakpoint stopped it (no Interrupt then)
)

var kindNames = [...]string{"", "run_started", "node_started", "custom", "token", "node_finished",
	"checkpoint_saved", "run_finished", "run_failed", "interrupted"}

func (k EventKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Event is one thing that happened in a run. Which fields are set depends on
// Kind.
type Event[S, U any] struct {
	Kind       EventKind
	RunID      string
	ThreadID   string
	Step       int
	Node       string            // NodeStarted, Custom, Token, NodeFinished, CheckpointSaved, Interrupted
	Update     U                 // NodeFinished: the node's update
	State      S                 // NodeStarted: the state the node is given; NodeFinished, RunFinished and Interrupted: the state after the step
	Name       string            // Custom: the event's name, such as "ui"
	Payload    any               // Custom: what the node emitted
	Token      string            // Token: a piece of streamed text
	MessageID  string            // Token: the id of the message the text belongs to
	Checkpoint *Checkpoint       // CheckpointSaved; RunStarted: the checkpoint a run without input continues from, nil for a run with input
	Interrupt  *PendingInterrupt // Interrupted: the pending interrupt; nil when a breakpoint stopped the run
	Err        error             // RunFailed
}

// RunInfo identifies the step a node is running in.
type RunInfo struct {
	ThreadID string
	RunID    string
	Step     int
	Node     string
}

// emitted is what a node sends to the run while it works, and last that
// it returned (kind 0, from call).
type emitted struct {
	from      *emitter // the node's that sent it
	kind      EventKind
	name      string
	payload   any
	token     string
	messageID string
}

// emitter connects a running node to its run. It is the node's context:
// the run's (or what WithNodeContext made of it), which holds the emitter
// as a value without another context around it.
type emitter struct {
	context.Context
	info  RunInfo
	ch    chan emitted
	quiet bool // the run has no consumer: what the node emits is dropped

	mu      sync.Mutex
	stop    chan struct{}     // made by the node's first send, closed when the step is over
	over    bool              // the step is over
	answers []json.RawMessage // resume values for the node's Interrupt calls, in order
	asked   int               // Interrupt calls so far
	pause   *PendingInterrupt // set by the first Interrupt call that had no answer

	turns *Turns    // the run's (RunConfig.Turns); nil without
	turn  *nodeTurn // the turn the node took (TakeTurn); guarded by mu
}

// Value returns the emitter itself for emitterKey, else the value the
// run's context holds.
func (em *emitter) Value(key any) any {
	if key == (emitterKey{}) {
		return em
	}
	return em.Context.Value(key)
}

// stopping returns a channel closed when the node's step is over, or nil
// when it is over already. A node that sends nothing makes none.
func (em *emitter) stopping() <-chan struct{} {
	em.mu.Lock()
	defer em.mu.Unlock()
	if em.over {
		return nil
	}
	if em.stop == nil {
		em.stop = make(chan struct{})
	}
	return em.stop
}

// end ends the node's step: what it sends later is dropped.
func (em *emitter) end() {
	em.mu.Lock()
	defer em.mu.Unlock()
	em.over = true
	if em.stop != nil {
		close(em.stop)
	}
}

type emitterKey struct{}

// Emit sends a custom event, such as a UI component, from inside a running
// node. It reaches the run's stream in order, while the node still runs, and
// blocks while the consumer is behind.
//
// Events are best-effort: Emit never fails the node. Once the consumer has
// stopped reading, outside a running node, or after the node's step is over,
// the event is dropped. What must not be lost belongs in the node's update.
func Emit(ctx context.Context, name string, payload any) {
	send(ctx, emitted{kind: Custom, name: name, payload: payload})
}

// EmitToken streams a piece of text, such as a model's token, from inside a
// running node. messageID is the id of the message the text belongs to.
// Like Emit, it is best-effort.
func EmitToken(ctx context.Context, messageID, delta string) {
	send(ctx, emitted{kind: Token, token: delta, messageID: messageID})
}

// Info returns the thread, run, step and node that ctx's node runs in.
func Info(ctx context.Context) (RunInfo, bool) {
	em, ok := ctx.Value(emitterKey{}).(*emitter)
	if !ok {
		return RunInfo{}, false
	}
	return em.info, true
}

func send(ctx context.Context, e emitted) {
	em, ok := ctx.Value(emitterKey{}).(*emitter)
	if !ok || em.quiet {
		return
	}
	stop := em.stopping()
	if stop == nil {
		return
	}
	e.from = em
	select { // the run reads until the node returns, so this cannot hang
	case em.ch <- e:
	case <-stop:
	}
}

// ErrInterrupted is matched (with errors.Is) by the error Interrupt returns
// when the run must pause, and by the error Invoke returns for a run that
// paused.
var ErrInterrupted = errors.New("run interrupted")

// Interrupt pauses the run to ask a person: payload (encoded as JSON) is
// what they are shown. The first time, Interrupt returns an error matching
// ErrInterrupted, which the node should return at once: the run saves a
// checkpoint recording the pending interrupt and ends with an Interrupted
// event. A later run with a Command whose Resume is the person's answer runs
// the node again from its start, and this time Interrupt returns the answer
// decoded into T.
//
// A node may call Interrupt more than once: answers are matched to calls by
// their order within the node, so the node must make its Interrupt calls in
// the same order each time it runs. The run pauses even if the node ignores
// the error; its update is then discarded.
func Interrupt[T any](ctx context.Context, payload any) (T, error) {
	var answer T
	em, ok := ctx.Value(emitterKey{}).(*emitter)
	if !ok {
		return answer, errors.New("graph.Interrupt called outside a running node")
	}
	em.mu.Lock()
	defer em.mu.Unlock()
	n := em.asked
	em.asked++
	if em.pause != nil {
		return answer, fmt.Errorf("node %q asked again after pausing: %w", em.info.Node, ErrInterrupted)
	}
	if n < len(em.answers) {
		if err := json.Unmarshal(em.answers[n], &answer); err != nil {
			return answer, fmt.Errorf("decoding the answer to interrupt %d of node %q: %w", n+1, em.info.Node, err)
		}
		return answer, nil
	}
	data, err := json.Marshal(payload)
	if err != nil {
		return answer, fmt.Errorf("encoding the payload of an interrupt of node %q: %w", em.info.Node, err)
	}
	em.pause = &PendingInterrupt{ID: newID(), Node: em.info.Node, Payload: data, Answers: em.answers[:n:n]}
	return answer, fmt.Errorf("node %q waits for an answer: %w", em.info.Node, ErrInterrupted)
}
