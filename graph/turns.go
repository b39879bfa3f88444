package graph

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Turns order on the process's cores the nodes, of all the runs that
// share them (RunConfig.Turns), that ask for a turn (TakeTurn): at most n
// of them run at once, the others wait in the order they asked. Nodes that
// ask none run at once. A graph whose nodes after the first output take
// turns keeps, when the cores are busy, a traveller waiting for a run's
// first output from waiting behind the later steps of runs that already
// show something.
//
// A turn is for work in the process. A node about to wait on something
// outside it (a model or a tool across the network) gives its turn up for
// the wait (Away). A turn held longer than the lease is taken as a wait
// that nobody announced and stops counting, so a node that blocks in the
// process holds the others up for a lease at most.
type Turns struct {
	n     int
	lease time.Duration

	mu    sync.Mutex
	held  int      // turns that count
	queue []*grant // nodes waiting for a turn, oldest first
}

// NewTurns returns Turns that let n nodes hold a turn at once (at least
// one), each turn counting for at most lease.
func NewTurns(n int, lease time.Duration) *Turns {
	return &Turns{n: max(n, 1), lease: lease}
}

// grant is one turn, given or asked for.
type grant struct {
	t       *Turns
	ready   chan struct{} // closed once the turn is given
	timer   *time.Timer   // ends the lease; set before ready is closed
	counted bool          // counts among t.held; guarded by t.mu
}

// take waits for a turn, or for ctx to end.
func (t *Turns) take(ctx context.Context) (*grant, error) {
	g := &grant{t: t, ready: make(chan struct{})}
	t.mu.Lock()
	if t.held < t.n && len(t.queue) == 0 {
		t.give(g)
		t.mu.Unlock()
		return g, nil
	}
	t.queue = append(t.queue, g)
	t.mu.Unlock()
	select {
	case <-g.ready:
		return g, nil
	case <-ctx.Done():
		t.mu.Lock()
		if i := slices.Index(t.queue, g); i >= 0 {
			t.queue = slices.Delete(t.queue, i, i+1)
			t.mu.Unlock()
			return nil, ctx.Err()
		}
		t.mu.Unlock()
		g.done() // given as ctx ended: passed on
		return nil, ctx.Err()
	}
}

// give gives g its turn; t.mu is held.
func (t *Turns) give(g *grant) {
	t.held++
	g.counted = true
	g.timer = time.AfterFunc(t.lease, g.uncount)
	close(g.ready)
}

// done gives g's turn back.
func (g *grant) done() {
	g.timer.Stop()
	g.uncount()
}

// uncount stops counting g's turn, once, and gives the turns that frees to
// the nodes waiting longest.
func (g *grant) uncount() {
	t := g.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if !g.counted {
		return
	}
	g.counted = false
	t.held--
	for t.held < t.n && len(t.queue) > 0 {
		next := t.queue[0]
		t.queue = slices.Delete(t.queue, 0, 1)
		t.give(next)
	}
}

// nodeTurn is the turn a node took, given up while the node is away
// (Away) and taken again when it is back.
type nodeTurn struct {
	t  *Turns
	mu sync.Mutex
	g  *grant // nil while away, and once the node is over
	// away counts the node's goroutines away at once; over is set when
	// the node has returned.
	away int
	over bool
}

// TakeTurn waits for a turn on the cores for the running node of ctx, in
// a run with Turns; the node keeps it until it returns, or until it calls
// the function returned, which gives it back. A node takes one turn, from
// its own goroutine: a second call, or a call outside a node or in a run
// without Turns, takes none and returns at once. It fails only when ctx
// ends first.
func TakeTurn(ctx context.Context) (done func(), err error) {
	em, ok := ctx.Value(emitterKey{}).(*emitter)
	if !ok || em.turns == nil {
		return func() {}, nil
	}
	em.mu.Lock()
	taken := em.turn != nil
	em.mu.Unlock()
	if taken {
		return func() {}, nil
	}
	g, err := em.turns.take(ctx)
	if err != nil {
		return func() {}, fmt.Errorf("waiting for a turn on the cores: %w", err)
	}
	nt := &nodeTurn{t: em.turns, g: g}
	em.mu.Lock()
	em.turn = nt
	em.mu.Unlock()
	return nt.end, nil
}

// end gives the node's turn back, for good.
func (nt *nodeTurn) end() {
	nt.mu.Lock()
	g := nt.g
	nt.g, nt.over = nil, true
	nt.mu.Unlock()
	if g != nil {
		g.done()
	}
}

// leave gives the turn up for a wait.
func (nt *nodeTurn) leave() {
	nt.mu.Lock()
	nt.away++
	g := nt.g
	nt.g = nil
	nt.mu.Unlock()
	if g != nil {
		g.done()
	}
}

// back takes a turn again when the last of the node's waits is over.
func (nt *nodeTurn) back(ctx context.Context) {
	nt.mu.Lock()
	nt.away--
	last := nt.away == 0 && !nt.over
	nt.mu.Unlock()
	if !last {
		return
	}
	g, err := nt.t.take(ctx)
	if err != nil {
		return // the node sees ctx's end itself
	}
	nt.mu.Lock()
	keep := nt.away == 0 && !nt.over && nt.g == nil
	if keep {
		nt.g = g
	}
	nt.mu.Unlock()
	if !keep {
		g.done()
	}
}

// Away tells a running node's run that the node is about to wait on
// something outside the process, such as a model or a tool across the
// network, and gives the turn it took (TakeTurn) up for the wait; call the
// function it returns when the wait is over, and the node takes a turn
// again. When the node holds no turn it does nothing.
func Away(ctx context.Context) (back func()) {
	em, ok := ctx.Value(emitterKey{}).(*emitter)
	if !ok {
		return func() {}
	}
	em.mu.Lock()
	nt := em.turn
	em.mu.Unlock()
	if nt == nil {
		return func() {}
	}
	nt.leave()
	var once sync.Once
	return func() { once.Do(func() { nt.back(ctx) }) }
}
