// Package graph is a small, typed state-graph engine.
//
// A graph has a state type S and an update type U. Nodes read the state and
// return an update; a reducer folds each update into a new state. Edges are
// either fixed (AddEdge) or chosen by a router from a declared set of targets
// (AddConditionalEdges). Compile checks the shape once; a compiled graph runs
// any number of times concurrently, saving a checkpoint after every step so a
// thread can be resumed, inspected, updated or forked.
//
// The reducer must be pure: it returns a new S and never writes into slices
// or maps it was given, so that a state, once checkpointed, never changes.
// Nodes, routers and whoever reads a run's events read states and never
// write into them (nor append to their slices): the engine keeps the state
// a run ended on decoded and starts the thread's next run from it, so S
// must also mean the same as its JSON encoding decoded.
//
// Compile copies the graph's shape: later changes to the Graph do not reach
// the Compiled one.
//
// One writer per thread: every checkpoint write is a compare-and-set on the
// thread's newest checkpoint, so of two runs racing on a thread one wins and
// the other fails with a *ConflictError; a fork or an update from an older
// checkpoint is written over the newest one and loses nothing.
//
// Cancellation: cancelling a run's context (or stopping its iteration)
// cancels the running node's context, and the run waits for the node to
// return. What the node returned is checkpointed all the same, then the run
// ends with the cancellation error, so that no side effect of a node is left
// unrecorded after Run has returned.
//
// Human in the loop: a node calls Interrupt to ask a person something; the
// run saves the pending interrupt and ends with an Interrupted event. A later
// run with a Command carrying the answer runs the node again from its start,
// and Interrupt returns the answer. Commands may also update the state and
// choose the next node.
//
// Events are best-effort: Emit and EmitToken never fail a node, and what
// must not be lost belongs in the node's update. RunConfig.Durability says
// when checkpoints are written: before the next step (sync, the default),
// while the next step runs (async), or only at the run's end (exit).
//
// Turns on the cores: runs given the same Turns (RunConfig.Turns) share
// them, and a node that takes one (TakeTurn) runs only while at most n
// such nodes do, giving it up while it waits outside the process (Away).
// A program orders its runs' work with them when the cores are busy.
package graph

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// START and END are the graph's virtual entry and exit nodes. INPUT is
// what UpdateState names an input with: it is saved pending, with START due
// to apply it.
const (
	START = "__start__"
	END   = "__end__"
	INPUT = "__input__"
)

// NodeFunc is a node: it reads the state and returns an update.
type NodeFunc[S, U any] func(ctx context.Context, state S) (U, error)

// Graph is a graph under construction. Its methods record mistakes instead of
// failing at once; Compile reports them all.
type Graph[S, U any] struct {
	reduce func(S, U) S
	nodes  map[string]NodeFunc[S, U]
	order  []string // node names in the order they were added
	out    map[string]edge[S]
	errs   []error
}

// edge leaves a node: either to one fixed target or through a router.
type edge[S any] struct {
	to      string         // fixed target, when route is nil
	route   func(S) string // router, for conditional edges
	targets []string       // the router's declared targets
}

// New starts a graph whose updates are folded into the state by reduce.
func New[S, U any](reduce func(S, U) S) *Graph[S, U] {
	return &Graph[S, U]{reduce: reduce, nodes: map[string]NodeFunc[S, U]{}, out: map[string]edge[S]{}}
}

// AddNode adds a node.
func (g *Graph[S, U]) AddNode(name string, fn NodeFunc[S, U]) *Graph[S, U] {
	switch {
	case name == "" || name == START || name == END || name == INPUT:
		g.errs = append(g.errs, fmt.Errorf("node name %q is reserved or empty", name))
	case fn == nil:
		g.errs = append(g.errs, fmt.Errorf("node %q has a nil function", name))
	case g.nodes[name] != nil:
		g.errs = append(g.errs, fmt.Errorf("duplicate node name %q", name))
	default:
		g.nodes[name] = fn
		g.order = append(g.order, name)
	}
	return g
}

// AddEdge makes to always follow from. Use START as from for the entry point.
func (g *Graph[S, U]) AddEdge(from, to string) *Graph[S, U] {
	return g.addEdge(from, edge[S]{to: to})
}

// AddConditionalEdges lets router choose what follows from, among targets
// (which may include END). A router returning anything else fails the run.
func (g *Graph[S, U]) AddConditionalEdges(from string, router func(S) string, targets ...string) *Graph[S, U] {
	if router == nil || len(targets) == 0 {
		g.errs = append(g.errs, fmt.Errorf("conditional edges from %q need a router and at least one target", from))
		return g
	}
	return g.addEdge(from, edge[S]{route: router, targets: slices.Clone(targets)})
}

func (g *Graph[S, U]) addEdge(from string, e edge[S]) *Graph[S, U] {
	if _, dup := g.out[from]; dup {
		g.errs = append(g.errs, fmt.Errorf("node %q already has an outgoing edge; use one AddConditionalEdges to branch", from))
		return g
	}
	g.out[from] = e
	return g
}

// Compile checks the graph and returns a runnable graph that saves its
// checkpoints with cp (a new MemorySaver when cp is nil).
func (g *Graph[S, U]) Compile(cp Checkpointer) (*Compiled[S, U], error) {
	errs := slices.Clone(g.errs)
	errs = append(errs, g.checkEdges()...)
	if len(errs) == 0 {
		errs = append(errs, g.checkReachability()...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("compiling graph: %w", err)
	}
	if cp == nil {
		cp = NewMemorySaver()
	}
	c := &Compiled[S, U]{g: g.snapshot(), cp: cp, decoded: newDecodedStates[S](), next: map[string][]string{START: {START}}, encode: newCodec[S, U]()}
	for name := range c.g.nodes {
		c.next[name] = []string{name}
	}
	return c, nil
}

// snapshot copies the builder, so that a compiled graph never sees later
// changes to it.
func (g *Graph[S, U]) snapshot() *Graph[S, U] {
	out := make(map[string]edge[S], len(g.out))
	for from, e := range g.out {
		e.targets = slices.Clone(e.targets)
		out[from] = e
	}
	return &Graph[S, U]{reduce: g.reduce, nodes: maps.Clone(g.nodes), order: slices.Clone(g.order), out: out}
}

// checkEdges finds edges from or to unknown nodes and a missing entry point.
func (g *Graph[S, U]) checkEdges() []error {
	var errs []error
	if _, ok := g.out[START]; !ok {
		errs = append(errs, errors.New("no entry point: add an edge from START"))
	}
	for _, from := range g.edgeSources() {
		if from != START && g.nodes[from] == nil {
			errs = append(errs, fmt.Errorf("edge from unknown node %q", from))
		}
		e := g.out[from]
		if e.route == nil {
			if !g.known(e.to) || e.to == START {
				errs = append(errs, fmt.Errorf("edge from %q to unknown node %q", from, e.to))
			}
			continue
		}
		for _, t := range e.targets {
			if !g.known(t) || t == START {
				errs = append(errs, fmt.Errorf("router of %q declares target %q, which is not a node", from, t))
			}
		}
	}
	return errs
}

// checkReachability finds nodes that START cannot reach and nodes with no
// path to END.
func (g *Graph[S, U]) checkReachability() []error {
	var errs []error
	fromStart := g.reach(START, func(n string) []string { return g.successors(n) })
	preds := map[string][]string{}
	for _, from := range g.edgeSources() {
		for _, to := range g.successors(from) {
			preds[to] = append(preds[to], from)
		}
	}
	toEnd := g.reach(END, func(n string) []string { return preds[n] })
	for _, n := range g.order {
		if !fromStart[n] {
			errs = append(errs, fmt.Errorf("node %q cannot be reached from START", n))
		} else if !toEnd[n] {
			errs = append(errs, fmt.Errorf("node %q has no path to END", n))
		}
	}
	return errs
}

// reach returns the set of names reachable from first through next.
func (g *Graph[S, U]) reach(first string, next func(string) []string) map[string]bool {
	seen := map[string]bool{first: true}
	queue := []string{first}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, m := range next(n) {
			if !seen[m] {
				seen[m] = true
				queue = append(queue, m)
			}
		}
	}
	return seen
}

// successors lists the nodes that can follow n.
func (g *Graph[S, U]) successors(n string) []string {
	e, ok := g.out[n]
	switch {
	case !ok:
		return nil
	case e.route == nil:
		return []string{e.to}
	}
	return e.targets
}

// edgeSources lists the nodes with outgoing edges, START first, then in the
// order the nodes were added, so errors and diagrams come out stable.
func (g *Graph[S, U]) edgeSources() []string {
	var out []string
	if _, ok := g.out[START]; ok {
		out = append(out, START)
	}
	for _, n := range g.order {
		if _, ok := g.out[n]; ok {
			out = append(out, n)
		}
	}
	var unknown []string // edges from unknown nodes, for the error
	for from := range g.out {
		if from != START && g.nodes[from] == nil {
			unknown = append(unknown, from)
		}
	}
	slices.Sort(unknown)
	return append(out, unknown...)
}

func (g *Graph[S, U]) known(name string) bool {
	return name == END || name == START || g.nodes[name] != nil
}
