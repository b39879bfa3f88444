package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"reflect"
	"runtime/debug"
	"slices"
	"time"
)

// Compiled is a checked graph, ready to run. It holds its own copy of the
// graph's shape, so changing the Graph after Compile changes nothing here,
// and it is safe for concurrent use.
type Compiled[S, U any] struct {
	g       *Graph[S, U]
	cp      Checkpointer
	decoded decodedStates[S] // shared by the copies WithCheckpointer makes
	// bind makes the context each node runs in (WithNodeContext); nil
	// when the nodes run in the run's own.
	bind func(context.Context) context.Context
	// next holds, for START and each node, a checkpoint's Next naming it,
	// shared by every checkpoint that has it (a checkpoint never changes).
	next   map[string][]string
	encode codec[S, U]
}

// RunConfig says what a run works on.
type RunConfig[U any] struct {
	ThreadID string // required; a UUID, as Checkpointer says
	// Input is applied to the starting state as an "input" update, and the
	// run then routes from START.
	Input U
	// Resume ignores Input and continues with the starting checkpoint's next
	// nodes: for a run that stopped part-way.
	Resume bool
	// Recover continues this same run (RunID) from the thread's latest
	// checkpoint, which it wrote itself before it was cut off (its process
	// died): unlike Resume, the run stops again where it had stopped. A
	// checkpoint that it paused at ends it at once with the same
	// Interrupted event; one at a breakpoint it had reached, likewise; and
	// its breakpoints hold for the nodes that follow. Nothing it did is
	// done twice.
	Recover bool
	// Command ignores Input and continues from the starting checkpoint: it
	// answers a pending interrupt, and may update the state or choose the
	// next node first.
	Command *Command[U]
	// CheckpointID starts from that checkpoint instead of the thread's
	// latest: the run forks a new branch, and the old one stays intact.
	CheckpointID string
	StepLimit    int        // nodes the run may execute; DefaultStepLimit when 0
	RunID        string     // a new UUIDv7 when empty
	Durability   Durability // when checkpoints are written; DurabilitySync when empty
	// InterruptBefore and InterruptAfter are breakpoints: nodes the run stops
	// before it runs them, or after they ran and their checkpoint was saved
	// (unless the run ends there). A stopped run ends with an Interrupted
	// event without Interrupt, naming the node due next; the thread's newest
	// checkpoint names it in Next, and a later run with Resume or a Command
	// continues with it, without stopping before it again.
	InterruptBefore []string
	InterruptAfter  []string
	// InputDurable says that the caller keeps Input durable elsewhere and
	// applies it again should the run be cut off before its first node's
	// step is saved (the server keeps it in the run's row, and a take-over
	// runs it again). At sync durability, the input's two checkpoints are
	// then saved in one batch with the checkpoint the run saves next (its
	// first node's), rather than in a batch of their own before that node
	// runs: one commit fewer before the first output. Their CheckpointSaved
	// events come with that checkpoint's, after the node's own events. It
	// changes nothing in the other durability modes, nor for a run
	// without an input (Resume, Recover, Command). Such a run reads the
	// thread's head to start, even from a HeadKnower: a head that moved
	// would refuse its input only after the first node ran and emitted.
	InputDurable bool

	// Turns, when set, are the turns on the cores this run's nodes take
	// (TakeTurn), shared with the other runs given the same Turns.
	Turns *Turns
}

// Command continues a thread, as a person's answer or a button would.
type Command[U any] struct {
	// Resume answers the pending interrupt: its node runs again, and its
	// Interrupt call returns this value (through JSON).
	Resume any
	// Update, when not nil, is folded into the state first and saved as an
	// input checkpoint; the pending interrupt stays pending.
	Update *U
	// Goto, when not empty, is the node to run next instead of the starting
	// checkpoint's next nodes (END ends the run). A pending interrupt of
	// another node is dropped.
	Goto string
}

// Durability says when a run's checkpoints are written.
type Durability string

// The durability modes.
const (
	// DurabilitySync stores each checkpoint before the next step starts.
	DurabilitySync Durability = "sync"
	// DurabilityAsync stores checkpoints, in order, while the next steps
	// run; all are stored before the run ends. Those made while a write is
	// under way are written together, in one transaction when the
	// Checkpointer is a BatchPutter.
	DurabilityAsync Durability = "async"
	// DurabilityExit stores only the run's last checkpoint, when the run
	// ends, whether it finished, failed, paused or was cancelled.
	DurabilityExit Durability = "exit"
)

// Sync reports whether d stores each checkpoint before the next step
// starts: DurabilitySync, or none given.
func (d Durability) Sync() bool { return d == "" || d == DurabilitySync }

// emptyStep is the step of a thread with no checkpoint: its first run's
// input checkpoint is step -1 and the input applied step 0, as LangGraph
// numbers them.
const emptyStep = -2

// Run executes the graph on a thread and yields its events. The error is
// non-nil only with the final RunFailed event. Cancelling ctx, or stopping
// the iteration early, cancels the run: the running node's context is
// cancelled, and Run returns only after the node has returned and, if it
// returned an update, that update has been checkpointed.
func (c *Compiled[S, U]) Run(ctx context.Context, cfg RunConfig[U]) iter.Seq2[Event[S, U], error] {
	return func(yield func(Event[S, U], error) bool) {
		r, state, err := c.execute(ctx, cfg, yield)
		if r.stopped {
			return
		}
		if ev := r.outcome(state, err); err != nil {
			r.yield(r.stamp(ev), err)
		} else {
			r.emit(ev)
		}
	}
}

// Invoke runs the graph to the end and returns the final state. For a run
// that paused, it returns the state so far and an error matching
// ErrInterrupted. It makes no events: a run builds them only for Run's
// consumer.
func (c *Compiled[S, U]) Invoke(ctx context.Context, cfg RunConfig[U]) (S, error) {
	r, state, err := c.execute(ctx, cfg, nil)
	switch ev := r.outcome(state, err); ev.Kind {
	case RunFailed:
		var zero S
		return zero, err
	case Interrupted:
		return state, fmt.Errorf("run on thread %q paused in node %q: %w", r.cfg.ThreadID, ev.Node, ErrInterrupted)
	}
	return state, nil
}

// execute runs the graph on a thread, yielding its events to yield (none
// when nil), and returns the run, the state it ended with and why it
// ended, once every checkpoint it made is stored or failed to be.
func (c *Compiled[S, U]) execute(ctx context.Context, cfg RunConfig[U], yield func(Event[S, U], error) bool) (*run[S, U], S, error) {
	caller := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &run[S, U]{c: c, cfg: cfg, yield: yield, cancel: cancel, handsOut: yield != nil}
	r.writes.start(caller, ctx)
	defer r.writes.release()
	if r.cfg.RunID == "" {
		r.cfg.RunID = newID()
	}
	if r.cfg.StepLimit <= 0 {
		r.cfg.StepLimit = DefaultStepLimit
	}
	state, err := r.execute(ctx)
	if ferr := r.flush(ctx); err == nil {
		err = ferr
	}
	r.keepDecoded()
	return r, state, err
}

// outcome is the event a run ended with: RunFailed when err is not nil,
// Interrupted when it paused or stopped at a breakpoint, else RunFinished.
func (r *run[S, U]) outcome(state S, err error) Event[S, U] {
	switch {
	case err != nil:
		return Event[S, U]{Kind: RunFailed, Err: err}
	case r.paused != nil:
		return Event[S, U]{Kind: Interrupted, Step: r.pausedAt, Node: r.paused.Node, Interrupt: r.paused, State: state}
	case r.stoppedAt != nil:
		return Event[S, U]{Kind: Interrupted, Step: r.stoppedAt.Step, Node: r.stoppedAt.Next[0], State: state}
	}
	return Event[S, U]{Kind: RunFinished, State: state}
}

// WithCheckpointer returns the same graph saving its checkpoints with cp:
// a cheap copy that shares the compiled shape, for binding the graph to a
// checkpointer scoped to one owner.
func (c *Compiled[S, U]) WithCheckpointer(cp Checkpointer) *Compiled[S, U] {
	d := *c
	d.cp = cp
	return &d
}

// WithNodeContext returns the same graph whose nodes run in the context
// bind makes of the run's: a cheap copy, sharing the compiled shape and
// the decoded states, for binding what the nodes reach (one user's tools
// and what is remembered of them) to a copy of the graph rather than
// compiling one for each.
func (c *Compiled[S, U]) WithNodeContext(bind func(context.Context) context.Context) *Compiled[S, U] {
	d := *c
	d.bind = bind
	return &d
}

// GetState returns a thread's state at a checkpoint ("" for the latest). The
// checkpoint's Interrupts are the thread's pending interrupts.
func (c *Compiled[S, U]) GetState(ctx context.Context, threadID, checkpointID string) (S, Checkpoint, error) {
	var s S
	cp, err := c.Checkpoint(ctx, threadID, checkpointID)
	if err != nil {
		return s, cp, err
	}
	s, err = c.decoded.of(cp)
	return s, cp, err
}

// UpdateState applies update to a thread's state at a checkpoint ("" for the
// latest) as if node asNode had returned it, and saves the result as a new
// checkpoint with source "update". Its next nodes are what asNode's edge
// chooses. Use START as asNode to route the way a new input would, and
// INPUT to save update as a pending input (source "input", START due), as
// a run's first checkpoint is: the state is unchanged until START applies
// it.
func (c *Compiled[S, U]) UpdateState(ctx context.Context, threadID, checkpointID string, update U, asNode string) (Checkpoint, error) {
	if asNode != START && asNode != INPUT && c.g.nodes[asNode] == nil {
		return Checkpoint{}, fmt.Errorf("updating state of thread %q: unknown node %q", threadID, asNode)
	}
	base, state, head, err := c.start(ctx, threadID, checkpointID)
	if err != nil {
		return Checkpoint{}, err
	}
	r := &run[S, U]{c: c, cfg: RunConfig[U]{ThreadID: threadID, RunID: newID()}, head: head, handsOut: true}
	if asNode == INPUT { // an input, pending: the state is unchanged until START applies it
		cp, err := r.unchanged(base, START, SourceInput, state, update, c.due(START))
		if err != nil {
			return cp, err
		}
		return cp, r.save(ctx, cp)
	}
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
		return Checkpoint{ThreadID: threadID, Step: emptyStep}, zero, "", nil // a new thread: no error made
	}
	if err != nil {
		return base, zero, "", loadError(threadID, checkpointID, err)
	}
	head := base.ID
	if checkpointID != "" {
		latest, err := c.Checkpoint(ctx, threadID, "")
		if err != nil {
			return base, zero, "", err
		}
		head = latest.ID
	}
	state, err := c.decoded.of(base)
	return base, state, head, err
}

// Checkpoint returns a thread's checkpoint (its newest when checkpointID is
// ""), its state as saved: GetState without decoding it.
func (c *Compiled[S, U]) Checkpoint(ctx context.Context, threadID, checkpointID string) (Checkpoint, error) {
	if threadID == "" {
		return Checkpoint{}, errors.New("a thread id is required")
	}
	cp, err := c.load(ctx, threadID, checkpointID)
	if err != nil {
		return cp, loadError(threadID, checkpointID, err)
	}
	return cp, nil
}

// load reads a thread's checkpoint (its newest when checkpointID is "")
// from the checkpointer, its error as the checkpointer gives it.
func (c *Compiled[S, U]) load(ctx context.Context, threadID, checkpointID string) (Checkpoint, error) {
	if checkpointID == "" {
		return c.cp.Latest(ctx, threadID)
	}
	return c.cp.Get(ctx, threadID, checkpointID)
}

// due returns a checkpoint's Next when node is due next: nil for END.
func (c *Compiled[S, U]) due(node string) []string {
	if node == END {
		return nil
	}
	return c.next[node]
}

func loadError(threadID, checkpointID string, err error) error {
	return fmt.Errorf("loading checkpoint %q of thread %q: %w", checkpointID, threadID, err)
}

// run is the state of one execution.
type run[S, U any] struct {
	c       *Compiled[S, U]
	cfg     RunConfig[U]
	yield   func(Event[S, U], error) bool // nil for Invoke and UpdateState: no events
	cancel  context.CancelFunc
	writes  writeContext // the context of its checkpoint writes
	stopped bool         // the consumer stopped iterating
	// handsOut says that its checkpoints are handed to others: to its
	// consumer in events, or to UpdateState's caller.
	handsOut bool
	steps    int // nodes executed so far

	head    string            // sync, exit: the thread's head, which the next write must find
	held    []Checkpoint      // sync, InputDurable: the input's checkpoints, saved with the next
	writer  *asyncWriter      // async: writes in the background
	last    *Checkpoint       // exit: the newest checkpoint, not yet written
	parent  string            // exit: the stored checkpoint the run's first checkpoint follows
	answers []json.RawMessage // resume values for the first node the run executes
	made    string            // the id of the newest checkpoint the run made
	madeAs  S                 // its state
	madeLen int               // the length of its state's JSON
	stored  string            // the id of the newest checkpoint stored

	paused   *PendingInterrupt // set when a node paused the run
	pausedAt int               // the step of the checkpoint that records the pause

	// events carries what the running node emits, and then that it
	// returned, what it returned being in returned; made at the first
	// node of a run with a consumer, it serves every node of the run.
	events   chan emitted
	returned nodeResult[U]

	branching  bool        // the run starts from a checkpoint older than the thread's head
	continuing bool        // the next node is the one the starting checkpoint left due: no breakpoint before it
	stoppedAt  *Checkpoint // set when a breakpoint stopped the run: the checkpoint it stopped at

	// knownAt is when the run started from the head its checkpointer knew
	// rather than read (see begin), in idTime's units; zero once it has
	// read the head.
	knownAt int64
}

// begin loads the checkpoint the run starts from and its state, and
// returns the thread's head, as Compiled.start does. A run with input
// from the thread's head at sync durability, whose input is saved before
// any node runs, starts from the head its checkpointer knows (HeadKnower)
// when it knows one, without reading it: inputOver reads it should the
// thread have moved past it.
func (r *run[S, U]) begin(ctx context.Context) (Checkpoint, S, string, error) {
	if k, ok := r.c.cp.(HeadKnower); ok && r.savesInputFirst() {
		if base, known := k.KnownHead(r.cfg.ThreadID); known {
			r.knownAt = v7Now()
			state, err := r.c.decoded.of(base)
			return base, state, base.ID, err
		}
	}
	return r.c.start(ctx, r.cfg.ThreadID, r.cfg.CheckpointID)
}

// savesInputFirst reports whether the run's first write is its input's,
// stored before any node runs or any event but RunStarted is emitted: a
// run with input from the thread's head (no Resume, Recover, Command or
// CheckpointID) at sync durability that does not hold its input for the
// first node's batch (RunConfig.InputDurable).
func (r *run[S, U]) savesInputFirst() bool {
	cfg := &r.cfg
	input := !cfg.Resume && !cfg.Recover && cfg.Command == nil && cfg.CheckpointID == ""
	return input && cfg.Durability.Sync() && !cfg.InputDurable
}

// inputOver saves the run's input over base (see input). When base is the
// head the checkpointer knew (begin) and the thread had moved past it
// before the run started, nothing was stored and no node ran: the run
// reads the head and saves its input over that, as it would have had it
// read the head to begin with. A head moved after the run started is a
// race the run lost, and fails it as when it read the head.
func (r *run[S, U]) inputOver(ctx context.Context, base Checkpoint, state S) (Checkpoint, S, error) {
	next, nextState, err := r.input(ctx, base, state)
	if r.knownAt == 0 || !r.movedBefore(err) {
		return next, nextState, err
	}
	r.knownAt = 0
	base, state, head, err := r.c.start(ctx, r.cfg.ThreadID, "")
	if err != nil {
		return base, state, err
	}
	r.head = head
	return r.input(ctx, base, state)
}

// movedBefore reports whether err says that the thread the run started
// from a known head of had moved before the run started: a conflict with a
// head made earlier (UUIDv7 ids say when: exactly for this process's, to
// a quarter of a microsecond for another's), no head, or no thread. A head
// written by a process whose clock is ahead of this one's can look made
// after the start: the run then fails as one that lost a race, as it
// would have had it read the head.
func (r *run[S, U]) movedBefore(err error) bool {
	var conflict *ConflictError
	if errors.As(err, &conflict) {
		made, ok := idTime(conflict.Actual)
		return conflict.Actual == "" || ok && made < r.knownAt
	}
	return errors.Is(err, ErrNotFound)
}

func (r *run[S, U]) execute(ctx context.Context) (S, error) {
	base, state, head, err := r.begin(ctx)
	started := Event[S, U]{Kind: RunStarted}
	if err == nil && (r.cfg.Resume || r.cfg.Command != nil) && base.ID != "" {
		from := base
		started.Checkpoint, started.Step = &from, base.Step
	}
	r.emit(started)
	if err != nil {
		return state, err
	}
	if err := ctx.Err(); err != nil {
		return state, fmt.Errorf("run cancelled before it started: %w", err)
	}
	r.branching = r.cfg.CheckpointID != "" && base.ID != head
	if err := r.startWriter(ctx, head); err != nil {
		return state, err
	}
	if err := r.c.checkBreakpoints(r.cfg); err != nil {
		return state, err
	}
	r.continuing = r.cfg.Command != nil || r.cfg.Resume
	switch {
	case r.cfg.Recover:
		if base.ID == "" {
			return state, fmt.Errorf("recovering run %q on thread %q: the thread has no checkpoint", r.cfg.RunID, r.cfg.ThreadID)
		}
		if r.stoppedHere(base) {
			return state, nil
		}
	case r.cfg.Command != nil:
		if base, state, err = r.command(ctx, base, state); err != nil {
			return state, err
		}
	case !r.cfg.Resume:
		if base, state, err = r.inputOver(ctx, base, state); err != nil {
			return state, err
		}
	case base.ID == "":
		return state, fmt.Errorf("resuming thread %q: it has no checkpoint", r.cfg.ThreadID)
	}
	for len(base.Next) > 0 {
		if r.breakBefore(base) {
			return state, nil
		}
		if base, state, err = r.next(ctx, base, state); err != nil || r.paused != nil || r.breakAfter(base) {
			return state, err
		}
	}
	return state, nil
}

// stoppedHere reports whether a recovered run had already stopped at base,
// its latest checkpoint: paused there, or at a breakpoint after base's
// node. It records the stop, which the run then reports again.
func (r *run[S, U]) stoppedHere(base Checkpoint) bool {
	switch {
	case len(base.Interrupts) > 0:
		r.paused, r.pausedAt = &base.Interrupts[0], base.Step
		return true
	case base.Node != "" && r.breakAfter(base):
		return true
	}
	return false
}

// input saves the run's input in two checkpoints, as LangGraph does: the
// state before it, with the input pending and START due (source input, or
// fork when the run branches off an earlier checkpoint), then the state
// with the input applied and the first node due (source loop). The two are
// saved together (one batch, where the checkpointer writes batches): no
// node runs between them; with RunConfig.InputDurable they wait for the
// next checkpoint's batch (see hold). An input that cannot be applied is
// saved pending, as a run stopped between the two would leave it.
func (r *run[S, U]) input(ctx context.Context, base Checkpoint, state S) (Checkpoint, S, error) {
	source := SourceInput
	if r.branching {
		source = SourceFork
	}
	pending, err := r.unchanged(base, START, source, state, r.cfg.Input, r.c.due(START))
	if err != nil {
		return base, state, err
	}
	next, applied, err := r.applied(pending, state, r.cfg.Input)
	if err != nil {
		if serr := r.save(ctx, pending); serr != nil {
			return base, state, serr
		}
		return pending, state, err
	}
	if r.holdsInput() {
		r.held = []Checkpoint{pending, applied} // made only here: a run that does not hold its input does not pay for it
		return applied, next, nil
	}
	if err := r.save(ctx, pending, applied); err != nil {
		return base, state, err
	}
	return applied, next, nil
}

// applyInput applies a pending input to the state, as START, and saves
// the result: the input is the update of the checkpoint it was pending at.
func (r *run[S, U]) applyInput(ctx context.Context, pending Checkpoint, state S, input U) (Checkpoint, S, error) {
	next, cp, err := r.applied(pending, state, input)
	if err != nil {
		return pending, state, err
	}
	if err := r.save(ctx, cp); err != nil {
		return pending, state, err
	}
	return cp, next, nil
}

// applied makes the checkpoint that applies input, pending at pending, to
// state, and returns it with the state it holds.
func (r *run[S, U]) applied(pending Checkpoint, state S, input U) (S, Checkpoint, error) {
	next, err := r.reduce(START, state, input)
	if err != nil {
		return state, pending, err
	}
	cp, err := r.routed(pending, START, SourceLoop, next, input, encoded{update: pending.Update})
	if err != nil {
		return state, pending, err
	}
	return next, cp, nil
}

// breakBefore stops the run at base when a breakpoint is set before the
// node due next, unless the run continues with that node.
func (r *run[S, U]) breakBefore(base Checkpoint) bool {
	continuing := r.continuing
	r.continuing = false
	if continuing || !slices.Contains(r.cfg.InterruptBefore, base.Next[0]) {
		return false
	}
	stop := base // a copy: taking base's address would move every step's base to the heap, breakpoint or not
	r.stoppedAt = &stop
	return true
}

// breakAfter stops the run at cp, the checkpoint of the node that just ran,
// when a breakpoint is set after that node and the run goes on from there.
func (r *run[S, U]) breakAfter(cp Checkpoint) bool {
	if len(cp.Next) == 0 || !slices.Contains(r.cfg.InterruptAfter, cp.Node) {
		return false
	}
	stop := cp // a copy, as in breakBefore
	r.stoppedAt = &stop
	return true
}

// checkBreakpoints refuses breakpoints at nodes the graph does not have.
func (c *Compiled[S, U]) checkBreakpoints(cfg RunConfig[U]) error {
	for _, node := range slices.Concat(cfg.InterruptBefore, cfg.InterruptAfter) {
		if c.g.nodes[node] == nil {
			return fmt.Errorf("running on thread %q: a breakpoint at unknown node %q", cfg.ThreadID, node)
		}
	}
	return nil
}

// next runs the node that follows base and saves what it returned. When
// START is due, base holds an input not applied yet (a run stopped between
// its two input checkpoints, or an input written by UpdateState as
// INPUT): it is applied, which runs no node.
func (r *run[S, U]) next(ctx context.Context, base Checkpoint, state S) (Checkpoint, S, error) {
	node := base.Next[0]
	if node == START {
		input, err := decode[U](base.Update)
		if err != nil {
			return base, state, fmt.Errorf("reading the input pending at checkpoint %q: %w", base.ID, err)
		}
		return r.applyInput(ctx, base, state, input)
	}
	if r.steps == r.cfg.StepLimit {
		return base, state, &StepLimitError{Limit: r.cfg.StepLimit, Next: node}
	}
	if err := r.writeErr(); err != nil {
		return base, state, err
	}
	if err := ctx.Err(); err != nil {
		return base, state, fmt.Errorf("run cancelled before node %q: %w", node, err)
	}
	r.steps++
	update, pause, err := r.runNode(ctx, base.Step+1, node, state)
	switch {
	case pause != nil:
		return r.pause(ctx, base, state, pause)
	case err != nil:
		return base, state, err
	}
	next, err := r.reduce(node, state, update)
	if err != nil {
		return base, state, err
	}
	if base, err = r.step(ctx, base, node, SourceLoop, next, update); err != nil {
		return base, state, err
	}
	if err := ctx.Err(); err != nil {
		return base, next, fmt.Errorf("run cancelled after node %q, whose update was saved: %w", node, err)
	}
	return base, next, nil
}

// command applies the run's Command to its starting checkpoint.
func (r *run[S, U]) command(ctx context.Context, base Checkpoint, state S) (Checkpoint, S, error) {
	cmd := r.cfg.Command
	if base.ID == "" {
		return base, state, fmt.Errorf("continuing thread %q: it has no checkpoint", r.cfg.ThreadID)
	}
	next, pending := base.Next, base.Interrupts
	if cmd.Goto != "" {
		if cmd.Goto != END && r.c.g.nodes[cmd.Goto] == nil {
			return base, state, fmt.Errorf("continuing thread %q: unknown node %q to go to", r.cfg.ThreadID, cmd.Goto)
		}
		next = nil
		if cmd.Goto != END {
			next = []string{cmd.Goto}
		}
		pending = slices.DeleteFunc(slices.Clone(pending), func(in PendingInterrupt) bool { return in.Node != cmd.Goto })
	}
	if cmd.Resume != nil {
		if len(pending) == 0 {
			return base, state, fmt.Errorf("resuming thread %q: no interrupt is pending", r.cfg.ThreadID)
		}
		answer, err := json.Marshal(cmd.Resume)
		if err != nil {
			return base, state, fmt.Errorf("encoding the answer to thread %q's interrupt: %w", r.cfg.ThreadID, err)
		}
		r.answers = append(slices.Clone(pending[0].Answers), answer)
	}
	if cmd.Update == nil && cmd.Goto == "" {
		return base, state, nil
	}
	var update U
	if cmd.Update != nil {
		update = *cmd.Update
	}
	state, err := r.reduce(START, state, update)
	if err != nil {
		return base, state, err
	}
	cp, err := r.checkpoint(base, START, SourceInput, state, update, next)
	if err != nil {
		return base, state, err
	}
	cp.Interrupts = pending
	return cp, state, r.save(ctx, cp)
}

// pause records that a node is waiting for an answer: a checkpoint with the
// state as it was, the node to run again, and the pending interrupt.
func (r *run[S, U]) pause(ctx context.Context, base Checkpoint, state S, in *PendingInterrupt) (Checkpoint, S, error) {
	var none U
	cp, err := r.unchanged(base, in.Node, SourceLoop, state, none, r.c.due(in.Node))
	if err != nil {
		return base, state, err
	}
	cp.Update = nil
	cp.Interrupts = []PendingInterrupt{*in}
	if err := r.save(ctx, cp); err != nil {
		return base, state, err
	}
	r.paused, r.pausedAt = in, cp.Step
	return cp, state, nil
}

// step records that update, from node, produced state: it routes from node,
// saves the checkpoint as a child of parent and reports it.
func (r *run[S, U]) step(ctx context.Context, parent Checkpoint, node, source string, state S, update U) (Checkpoint, error) {
	cp, err := r.routed(parent, node, source, state, update, encoded{})
	if err != nil {
		return parent, err
	}
	if source == SourceLoop && node != START {
		r.emit(Event[S, U]{Kind: NodeFinished, Step: cp.Step, Node: node, Update: update, State: state})
	}
	if err := r.save(ctx, cp); err != nil {
		return parent, err
	}
	return cp, nil
}

// routed makes the checkpoint that follows parent, with the node due after
// node routed from state.
func (r *run[S, U]) routed(parent Checkpoint, node, source string, state S, update U, known encoded) (Checkpoint, error) {
	to, err := r.route(node, state)
	if err != nil {
		return parent, err
	}
	return r.checkpointAs(parent, node, source, state, update, r.c.due(to), known)
}

// checkpoint makes the checkpoint that follows parent.
func (r *run[S, U]) checkpoint(parent Checkpoint, node, source string, state S, update U, next []string) (Checkpoint, error) {
	return r.checkpointAs(parent, node, source, state, update, next, encoded{})
}

// unchanged makes the checkpoint that follows parent with parent's state:
// its JSON is the parent's, not encoded again.
func (r *run[S, U]) unchanged(parent Checkpoint, node, source string, state S, update U, next []string) (Checkpoint, error) {
	return r.checkpointAs(parent, node, source, state, update, next, encoded{state: parent.State})
}

// encoded is the JSON a new checkpoint takes as it is rather than encode
// again: its parent's state when the state is unchanged, the input pending
// at its parent when it applies that input.
type encoded struct {
	state, update json.RawMessage
}

// checkpointAs makes the checkpoint that follows parent, encoding state
// and update unless known.
func (r *run[S, U]) checkpointAs(parent Checkpoint, node, source string, state S, update U, next []string, known encoded) (Checkpoint, error) {
	now := time.Now()
	cp := Checkpoint{
		ThreadID:  r.cfg.ThreadID,
		ID:        idAfter(max(r.head, r.made), now),
		ParentID:  parent.ID,
		Step:      parent.Step + 1,
		Next:      next,
		Metadata:  Metadata{Source: source, RunID: r.cfg.RunID},
		CreatedAt: now.UTC(),
		State:     known.state,
		Update:    known.update,
	}
	if node != START {
		cp.Node = node
	}
	var err error
	if cp.State == nil {
		if cp.State, err = r.c.encode.state(state); err != nil {
			return cp, fmt.Errorf("encoding the state after %q: %w", node, err)
		}
	}
	r.made, r.madeAs, r.madeLen = cp.ID, state, len(cp.State)
	if cp.Update == nil {
		if cp.Update, err = r.c.encode.update(update); err != nil {
			return cp, fmt.Errorf("encoding the update of %q: %w", node, err)
		}
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

// emit stamps and yields an event. Once the consumer stops iterating, the
// run is cancelled and later events are dropped.
func (r *run[S, U]) emit(ev Event[S, U]) {
	if r.yield == nil || r.stopped {
		return
	}
	if !r.yield(r.stamp(ev), nil) {
		r.stopped = true
		r.cancel()
	}
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

// runNode runs one node and returns once it has returned, even if ctx is
// cancelled meanwhile: the node's context is cancelled with it, and the
// run waits. A run with a consumer runs the node in its own goroutine and
// forwards what it emits while it runs; a run without one (Invoke) drops
// what nodes emit, so it runs the node in the run's goroutine, without a
// channel or a goroutine's start. A non-nil Interrupt means the node
// paused the run.
func (r *run[S, U]) runNode(ctx context.Context, step int, node string, state S) (U, *PendingInterrupt, error) {
	r.emit(Event[S, U]{Kind: NodeStarted, Step: step, Node: node, State: state})
	if r.c.bind != nil {
		ctx = r.c.bind(ctx)
	}
	em := &emitter{
		Context: ctx,
		info:    RunInfo{ThreadID: r.cfg.ThreadID, RunID: r.cfg.RunID, Step: step, Node: node},
		quiet:   r.yield == nil,
		answers: r.answers,
		turns:   r.cfg.Turns,
	}
	r.answers = nil // they answer the first node only
	var res nodeResult[U]
	if em.quiet {
		res = call(em, r.c.g.nodes[node], state)
	} else {
		res = r.runForwarding(em, r.c.g.nodes[node], state)
	}
	em.end() // what the node's goroutines send later is dropped
	em.mu.Lock()
	pause, turn := em.pause, em.turn
	em.mu.Unlock()
	if turn != nil {
		turn.end() // a node that took a turn and returned gives it back
	}
	switch {
	case pause != nil:
		return res.update, pause, nil
	case res.err != nil:
		return res.update, nil, &NodeError{Node: node, Err: res.err}
	}
	return res.update, nil, nil
}

// runForwarding runs a node in its own goroutine and forwards what it
// emits until it returns; what the node's goroutines sent before it
// returned comes first.
func (r *run[S, U]) runForwarding(em *emitter, fn NodeFunc[S, U], state S) nodeResult[U] {
	if r.events == nil {
		r.events = make(chan emitted, eventBuffer)
	}
	em.ch = r.events
	go func() {
		r.returned = call(em, fn, state)
		em.ch <- emitted{from: em} // returned
	}()
	for e := <-r.events; e.from != em || e.kind != 0; e = <-r.events {
		r.forwardFrom(em, e)
	}
	return r.returned
}

// eventBuffer is how many events a node may emit ahead of the consumer.
const eventBuffer = 16

// forwardFrom forwards what the running node em emitted; what a goroutine
// of an earlier node sends after that node's step is dropped, as that
// node's own emitter would have dropped it.
func (r *run[S, U]) forwardFrom(em *emitter, e emitted) {
	if e.from == em {
		r.forward(em.info.Step, em.info.Node, e)
	}
}

func (r *run[S, U]) forward(step int, node string, e emitted) {
	r.emit(Event[S, U]{Kind: e.kind, Step: step, Node: node, Name: e.name, Payload: e.payload, Token: e.token, MessageID: e.messageID})
}

// call runs a node function in em, its context, and returns what it
// returned, a panic turned into an error.
func call[S, U any](em *emitter, fn NodeFunc[S, U], state S) (res nodeResult[U]) {
	defer func() {
		if v := recover(); v != nil {
			res = nodeResult[U]{err: &PanicError{Value: v, Stack: debug.Stack()}}
		}
	}()
	u, err := fn(em, state)
	return nodeResult[U]{update: u, err: err}
}

// JSONAppender is a state or an update that encodes itself, as
// json.Marshal would, faster than encoding/json does: the engine encodes
// every step's state and update with AppendJSON when they have it.
type JSONAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// codec encodes a graph's states and updates.
type codec[S, U any] struct {
	state  func(S) (json.RawMessage, error)
	update func(U) (json.RawMessage, error)
}

func newCodec[S, U any]() codec[S, U] {
	return codec[S, U]{state: encoderOf[S](), update: encoderOf[U]()}
}

// encoderOf returns how the engine encodes a T: with its AppendJSON when
// it is a JSONAppender, else with encoding/json. A T that is one has the
// method called as T's, not through the interface, which would copy each
// state and update to the heap to encode it.
func encoderOf[T any]() func(T) (json.RawMessage, error) {
	t := reflect.TypeFor[T]()
	switch {
	case t.Kind() == reflect.Interface: // its values may be JSONAppenders or not
		return func(v T) (json.RawMessage, error) {
			if a, ok := any(v).(JSONAppender); ok {
				return a.AppendJSON(nil)
			}
			return json.Marshal(v)
		}
	case t.Implements(reflect.TypeFor[JSONAppender]()):
		m, _ := t.MethodByName("AppendJSON")
		appendJSON := m.Func.Interface().(func(T, []byte) ([]byte, error))
		return func(v T) (json.RawMessage, error) { return appendJSON(v, nil) }
	}
	return func(v T) (json.RawMessage, error) { return json.Marshal(v) }
}
