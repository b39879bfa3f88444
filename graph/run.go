package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"runtime/debug"
	"slices"
	"time"

	"github.com/google/uuid"
)

// Compiled is a checked graph, ready to run. It is safe for concurrent use.
type Compiled[S, U any] struct {
	g  *Graph[S, U]
	cp Checkpointer
}

// RunConfig says what a run works on.
type RunConfig[U any] struct {
	ThreadID string // required
	// Input is applied to the starting state as an "input" update, and the
	// run then routes from START.
	Input U
	// Resume ignores Input and continues with the starting checkpoint's next
	// nodes: for a run that stopped part-way.
	Resume bool
	// CheckpointID starts from that checkpoint instead of the thread's
	// latest: the run forks a new branch, and the old one stays intact.
	CheckpointID string
	StepLimit    int    // nodes the run may execute; DefaultStepLimit when 0
	RunID        string // a new UUIDv7 when empty
}

// Run executes the graph on a thread and yields its events. The error is
// non-nil only with the final RunFailed event. Stopping the iteration early
// cancels the run.
func (c *Compiled[S, U]) Run(ctx context.Context, cfg RunConfig[U]) iter.Seq2[Event[S, U], error] {
	return func(yield func(Event[S, U], error) bool) {
		r := &run[S, U]{c: c, cfg: cfg, yield: yield}
		if r.cfg.RunID == "" {
			r.cfg.RunID = newID()
		}
		if r.cfg.StepLimit <= 0 {
			r.cfg.StepLimit = DefaultStepLimit
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		if !r.emit(Event[S, U]{Kind: RunStarted}) {
			return
		}
		state, err := r.execute(ctx)
		if errors.Is(err, errStopped) {
			return
		}
		if err != nil {
			r.yield(r.stamp(Event[S, U]{Kind: RunFailed, Err: err}), err)
			return
		}
		r.emit(Event[S, U]{Kind: RunFinished, State: state})
	}
}

// Invoke runs the graph to the end and returns the final state.
func (c *Compiled[S, U]) Invoke(ctx context.Context, cfg RunConfig[U]) (S, error) {
	var final S
	for ev, err := range c.Run(ctx, cfg) {
		if err != nil {
			return final, err
		}
		if ev.Kind == RunFinished {
			final = ev.State
		}
	}
	return final, nil
}

// GetState returns a thread's state at a checkpoint ("" for the latest).
func (c *Compiled[S, U]) GetState(ctx context.Context, threadID, checkpointID string) (S, Checkpoint, error) {
	var s S
	cp, err := c.load(ctx, threadID, checkpointID)
	if err != nil {
		return s, cp, err
	}
	s, err = decode[S](cp.State)
	return s, cp, err
}

// UpdateState applies update to a thread's state at a checkpoint ("" for the
// latest) as if node asNode had returned it, and saves the result as a new
// checkpoint with source "update". Its next nodes are what asNode's edge
// chooses. Use START as asNode to route the way a new input would.
func (c *Compiled[S, U]) UpdateState(ctx context.Context, threadID, checkpointID string, update U, asNode string) (Checkpoint, error) {
	if asNode != START && c.g.nodes[asNode] == nil {
		return Checkpoint{}, fmt.Errorf("updating state of thread %q: unknown node %q", threadID, asNode)
	}
	base, state, head, err := c.start(ctx, threadID, checkpointID)
	if err != nil {
		return Checkpoint{}, err
	}
	r := &run[S, U]{c: c, cfg: RunConfig[U]{ThreadID: threadID, RunID: newID()}, head: head}
	if state, err = r.reduce(asNode, state, update); err != nil {
		return Checkpoint{}, err
	}
	return r.step(ctx, base, asNode, SourceUpdate, state, update)
}

// start loads the checkpoint a run or update begins from and decodes its
// state, and returns the thread's head, which the first write must still
// find there. A thread with no checkpoint starts from S's zero value.
func (c *Compiled[S, U]) start(ctx context.Context, threadID, checkpointID string) (Checkpoint, S, string, error) {
	var zero S
	base, err := c.load(ctx, threadID, checkpointID)
	if errors.Is(err, ErrNotFound) && checkpointID == "" {
		return Checkpoint{ThreadID: threadID, Step: -1}, zero, "", nil
	}
	if err != nil {
		return base, zero, "", err
	}
	head := base.ID
	if checkpointID != "" {
		latest, err := c.load(ctx, threadID, "")
		if err != nil {
			return base, zero, "", err
		}
		head = latest.ID
	}
	state, err := decode[S](base.State)
	return base, state, head, err
}

func (c *Compiled[S, U]) load(ctx context.Context, threadID, checkpointID string) (Checkpoint, error) {
	if threadID == "" {
		return Checkpoint{}, errors.New("a thread id is required")
	}
	var cp Checkpoint
	var err error
	if checkpointID == "" {
		cp, err = c.cp.Latest(ctx, threadID)
	} else {
		cp, err = c.cp.Get(ctx, threadID, checkpointID)
	}
	if err != nil {
		return cp, fmt.Errorf("loading checkpoint %q of thread %q: %w", checkpointID, threadID, err)
	}
	return cp, nil
}

// errStopped means the consumer stopped iterating.
var errStopped = errors.New("graph: consumer stopped")

// run is the state of one execution.
type run[S, U any] struct {
	c     *Compiled[S, U]
	cfg   RunConfig[U]
	yield func(Event[S, U], error) bool
	steps int    // nodes executed so far
	head  string // the thread's head: what the next checkpoint must replace
}

func (r *run[S, U]) execute(ctx context.Context) (S, error) {
	base, state, head, err := r.c.start(ctx, r.cfg.ThreadID, r.cfg.CheckpointID)
	if err != nil {
		return state, err
	}
	r.head = head
	if !r.cfg.Resume {
		source := SourceInput
		if r.cfg.CheckpointID != "" {
			source = SourceFork
		}
		if state, err = r.reduce(START, state, r.cfg.Input); err != nil {
			return state, err
		}
		if base, err = r.step(ctx, base, START, source, state, r.cfg.Input); err != nil {
			return state, err
		}
	} else if base.ID == "" {
		return state, fmt.Errorf("resuming thread %q: it has no checkpoint", r.cfg.ThreadID)
	}
	for len(base.Next) > 0 {
		node := base.Next[0]
		if r.steps == r.cfg.StepLimit {
			return state, &StepLimitError{Limit: r.cfg.StepLimit, Next: node}
		}
		if err := ctx.Err(); err != nil {
			return state, fmt.Errorf("run cancelled before node %q: %w", node, err)
		}
		r.steps++
		update, err := r.runNode(ctx, base.Step+1, node, state)
		if err != nil {
			return state, err
		}
		next, err := r.reduce(node, state, update)
		if err != nil {
			return state, err
		}
		if base, err = r.step(ctx, base, node, SourceLoop, next, update); err != nil {
			return state, err
		}
		state = next
	}
	return state, nil
}

// step records that update, from node, produced state: it routes from node,
// saves the checkpoint as a child of parent and reports it.
func (r *run[S, U]) step(ctx context.Context, parent Checkpoint, node, source string, state S, update U) (Checkpoint, error) {
	to, err := r.route(node, state)
	if err != nil {
		return parent, err
	}
	cp := Checkpoint{
		ThreadID:  r.cfg.ThreadID,
		ID:        newID(),
		ParentID:  parent.ID,
		Step:      parent.Step + 1,
		Metadata:  Metadata{Source: source, RunID: r.cfg.RunID},
		CreatedAt: time.Now().UTC(),
	}
	if node != START {
		cp.Node = node
	}
	if to != END {
		cp.Next = []string{to}
	}
	if cp.State, err = json.Marshal(state); err != nil {
		return parent, fmt.Errorf("encoding the state after %q: %w", node, err)
	}
	if cp.Update, err = json.Marshal(update); err != nil {
		return parent, fmt.Errorf("encoding the update of %q: %w", node, err)
	}
	if err := r.c.cp.Put(ctx, cp, r.head); err != nil {
		return parent, fmt.Errorf("saving the checkpoint after %q: %w", node, err)
	}
	r.head = cp.ID
	if source == SourceLoop {
		if !r.emit(Event[S, U]{Kind: NodeFinished, Step: cp.Step, Node: node, Update: update, State: state}) {
			return parent, errStopped
		}
	}
	if r.yield != nil && !r.emit(Event[S, U]{Kind: CheckpointSaved, Step: cp.Step, Node: cp.Node, Checkpoint: &cp}) {
		return parent, errStopped
	}
	return cp, nil
}

// reduce applies the reducer, turning a panic into an error.
func (r *run[S, U]) reduce(node string, state S, update U) (next S, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("reducing the update of %q: %w", node, &PanicError{Value: v, Stack: debug.Stack()})
		}
	}()
	return r.c.g.reduce(state, update), nil
}

// route picks what follows node, checking a router's choice.
func (r *run[S, U]) route(node string, state S) (to string, err error) {
	e, ok := r.c.g.out[node]
	if !ok {
		return END, nil
	}
	if e.route == nil {
		return e.to, nil
	}
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("routing after %q: %w", node, &PanicError{Value: v, Stack: debug.Stack()})
		}
	}()
	to = e.route(state)
	if !slices.Contains(e.targets, to) {
		return "", &RouteError{From: node, Target: to, Targets: e.targets}
	}
	return to, nil
}

// emit stamps and yields an event; false means the consumer stopped.
func (r *run[S, U]) emit(ev Event[S, U]) bool {
	return r.yield(r.stamp(ev), nil)
}

func (r *run[S, U]) stamp(ev Event[S, U]) Event[S, U] {
	ev.RunID, ev.ThreadID = r.cfg.RunID, r.cfg.ThreadID
	return ev
}

// nodeResult is what a node's goroutine hands back.
type nodeResult[U any] struct {
	update U
	err    error
}

// runNode runs one node in its own goroutine, forwarding what it emits while
// it runs, so that cancellation stops the run even inside a node that is
// slow to notice.
func (r *run[S, U]) runNode(ctx context.Context, step int, node string, state S) (U, error) {
	var zero U
	if !r.emit(Event[S, U]{Kind: NodeStarted, Step: step, Node: node}) {
		return zero, errStopped
	}
	em := &emitter{
		info: RunInfo{ThreadID: r.cfg.ThreadID, RunID: r.cfg.RunID, Step: step, Node: node},
		ch:   make(chan emitted, 16),
		stop: make(chan struct{}),
	}
	defer close(em.stop)
	done := make(chan nodeResult[U], 1)
	go call(context.WithValue(ctx, emitterKey{}, em), r.c.g.nodes[node], state, done)
	for {
		select {
		case e := <-em.ch:
			if !r.forward(step, node, e) {
				return zero, errStopped
			}
		case res := <-done:
			if err := ctx.Err(); err != nil {
				return zero, fmt.Errorf("run cancelled inside node %q: %w", node, err)
			}
			for len(em.ch) > 0 { // what the node emitted before it returned
				if !r.forward(step, node, <-em.ch) {
					return zero, errStopped
				}
			}
			if res.err != nil {
				return zero, &NodeError{Node: node, Err: res.err}
			}
			return res.update, nil
		case <-ctx.Done():
			return zero, fmt.Errorf("run cancelled inside node %q: %w", node, ctx.Err())
		}
	}
}

func (r *run[S, U]) forward(step int, node string, e emitted) bool {
	return r.emit(Event[S, U]{Kind: e.kind, Step: step, Node: node, Name: e.name, Payload: e.payload, Token: e.token})
}

// call runs a node function, turning a panic into an error.
func call[S, U any](ctx context.Context, fn NodeFunc[S, U], state S, done chan<- nodeResult[U]) {
	defer func() {
		if v := recover(); v != nil {
			done <- nodeResult[U]{err: &PanicError{Value: v, Stack: debug.Stack()}}
		}
	}()
	u, err := fn(ctx, state)
	done <- nodeResult[U]{update: u, err: err}
}

func decode[S any](data json.RawMessage) (S, error) {
	var s S
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("decoding a checkpointed state: %w", err)
	}
	return s, nil
}

// newID returns a UUIDv7: unique, and ordered by creation time.
func newID() string { return uuid.Must(uuid.NewV7()).String() }
