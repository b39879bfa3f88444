package graph

import (
	"context"
	"errors"
)

// EventKind says what an Event reports.
type EventKind uint8

// Within a run, events come in this order: RunStarted; then for each step
// NodeStarted, the node's Custom and Token events as it emits them,
// NodeFinished, CheckpointSaved; then RunFinished or RunFailed. A run's input
// checkpoint (when it has input) is saved right after RunStarted.
const (
	RunStarted EventKind = iota + 1
	NodeStarted
	Custom
	Token
	NodeFinished
	CheckpointSaved
	RunFinished
	RunFailed
)

var kindNames = [...]string{"", "run_started", "node_started", "custom", "token", "node_finished", "checkpoint_saved", "run_finished", "run_failed"}

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
	Node       string      // NodeStarted, Custom, Token, NodeFinished, CheckpointSaved
	Update     U           // NodeFinished: the node's update
	State      S           // NodeFinished and RunFinished: the state after the step
	Name       string      // Custom: the event's name, such as "ui"
	Payload    any         // Custom: what the node emitted
	Token      string      // Token: a piece of streamed text
	Checkpoint *Checkpoint // CheckpointSaved
	Err        error       // RunFailed
}

// ErrNotRunning is returned by Emit and EmitToken when ctx does not belong
// to a running node, or the node's step is over.
var ErrNotRunning = errors.New("graph: no running node to emit from")

// RunInfo identifies the step a node is running in.
type RunInfo struct {
	ThreadID string
	RunID    string
	Step     int
	Node     string
}

// emitted is what a node sends to the run while it works.
type emitted struct {
	kind    EventKind
	name    string
	payload any
	token   string
}

// emitter connects a running node to its run.
type emitter struct {
	info RunInfo
	ch   chan emitted
	stop chan struct{} // closed when the step is over
}

type emitterKey struct{}

// Emit sends a custom event, such as a UI component, from inside a running
// node. It reaches the run's stream in order, while the node still runs. It
// blocks while the consumer is behind, and fails once ctx is done.
func Emit(ctx context.Context, name string, payload any) error {
	return send(ctx, emitted{kind: Custom, name: name, payload: payload})
}

// EmitToken streams a piece of text, such as a model's token, from inside a
// running node.
func EmitToken(ctx context.Context, delta string) error {
	return send(ctx, emitted{kind: Token, token: delta})
}

// Info returns the thread, run, step and node that ctx's node runs in.
func Info(ctx context.Context) (RunInfo, bool) {
	em, ok := ctx.Value(emitterKey{}).(*emitter)
	if !ok {
		return RunInfo{}, false
	}
	return em.info, true
}

func send(ctx context.Context, e emitted) error {
	em, ok := ctx.Value(emitterKey{}).(*emitter)
	if !ok {
		return ErrNotRunning
	}
	select {
	case <-em.stop:
		return ErrNotRunning
	default:
	}
	select {
	case em.ch <- e:
		return nil
	case <-em.stop:
		return ErrNotRunning
	case <-ctx.Done():
		return ctx.Err()
	}
}
