// Package connwait makes a connection pool reuse a busy connection rather
// than open another when one is about to be released.
//
// Each connection of a PostgreSQL pool is a server process holding
// megabytes of its own (catalog and plan caches), and under load the
// statements that want a connection at one instant come in bursts far above
// their average: a pool that opens a connection whenever it finds none
// idle grows to the bursts and keeps the backends. With Install, a
// statement that finds every connection busy, in a pool past its floor and
// below its ceiling, first waits for one to be released, at most as long
// as opening a connection has been taking this pool (measured on each
// connection it opens, within MinWait and MaxWait), and only then opens
// one. A release is handed to the longest waiting statement, and a
// waiting statement looks every millisecond for a connection that came
// back idle, so a burst is served by the connections that are there
// whenever they turn over faster than a new backend would start.
package connwait

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/multitracer"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Options bound the wait. The zero value is the default.
type Options struct {
	// Floor is how many connections the pool opens without waiting (at
	// least 1).
	Floor int32
	// MinWait and MaxWait bound how long a statement waits for a release
	// before it opens a connection: the time opening one has been taking,
	// kept between the two (defaults 1 ms and 20 ms).
	MinWait, MaxWait time.Duration
}

const (
	defaultMinWait = time.Millisecond
	defaultMaxWait = 20 * time.Millisecond
	// firstGuess is the time opening a connection is taken to take until
	// one has been measured.
	firstGuess = 5 * time.Millisecond
)

// Gate is what Install puts in a pool's tracer: it holds back an acquire
// that would open a connection, and hands each release to a waiting one.
type Gate struct {
	floor            int32
	minWait, maxWait time.Duration

	freed   chan struct{} // unbuffered: a release reaches only a statement waiting then
	connect atomic.Int64  // the time opening a connection takes, moving average, in ns

	// mu orders the decisions to go on; claimed counts the acquires that
	// went on to take an idle connection, or were handed one being
	// released, and have not got it yet: acquires that arrive at once must
	// not all count the same idle connection as theirs.
	mu      sync.Mutex
	claimed int32

	waits   atomic.Int64 // acquires that waited
	handed  atomic.Int64 // of them, those a release reached before the bound
	waiting atomic.Int32 // acquires waiting now
}

// Install sets cfg's tracer to one that waits as the package describes,
// keeping any tracer cfg had (it still sees every statement), and returns
// the gate, whose Stats tell how often statements waited.
func Install(cfg *pgxpool.Config, o Options) *Gate {
	g := &Gate{floor: max(1, o.Floor), minWait: o.MinWait, maxWait: o.MaxWait, freed: make(chan struct{})}
	if g.minWait <= 0 {
		g.minWait = defaultMinWait
	}
	if g.maxWait <= 0 {
		g.maxWait = defaultMaxWait
	}
	g.maxWait = max(g.maxWait, g.minWait)
	g.connect.Store(int64(firstGuess))
	if cfg.ConnConfig.Tracer == nil {
		cfg.ConnConfig.Tracer = g
	} else {
		cfg.ConnConfig.Tracer = multitracer.New(g, cfg.ConnConfig.Tracer)
	}
	return g
}

// Stats are how many acquires waited for a release and how many of them a
// release reached before the bound (the others opened a connection).
type Stats struct{ Waited, Handed int64 }

// Stats reports the waits so far.
func (g *Gate) Stats() Stats { return Stats{Waited: g.waits.Load(), Handed: g.handed.Load()} }

// Wait is how long a statement now waits for a release at most.
func (g *Gate) Wait() time.Duration {
	return min(max(time.Duration(g.connect.Load()), g.minWait), g.maxWait)
}

// claim is whether an acquire on pool may go on at once, and whether it
// then holds a claim on an idle connection: it may when one is idle that
// no other acquire under way has claimed (it claims it), or when the pool
// is below its floor, or at its ceiling (where it queues acquires itself).
func (g *Gate) claim(pool *pgxpool.Pool) (goOn, claimed bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s := pool.Stat()
	if s.IdleConns() > g.claimed {
		g.claimed++
		return true, true
	}
	return s.TotalConns() < g.floor || s.TotalConns() >= s.MaxConns(), false
}

// unclaim ends a claim.
func (g *Gate) unclaim() {
	g.mu.Lock()
	g.claimed--
	g.mu.Unlock()
}

// claimedKey marks an acquire's context when it holds a claim, which its
// end gives back.
type claimedKey struct{}

// withClaim marks ctx as holding a claim when claimed.
func withClaim(ctx context.Context, claimed bool) context.Context {
	if !claimed {
		return ctx
	}
	return context.WithValue(ctx, claimedKey{}, true)
}

// poll is how often a waiting acquire looks again for an idle connection
// that came back without being handed to it (a release that came
// while it was deciding to wait).
const poll = time.Millisecond

// TraceAcquireStart waits, when no connection is free for this acquire,
// for a release or the bound, whichever comes first; the pool then
// acquires as it would have.
func (g *Gate) TraceAcquireStart(ctx context.Context, pool *pgxpool.Pool, _ pgxpool.TraceAcquireStartData) context.Context {
	if goOn, claimed := g.claim(pool); goOn {
		return withClaim(ctx, claimed)
	}
	g.waits.Add(1)
	g.waiting.Add(1)
	defer g.waiting.Add(-1)
	bound := time.NewTimer(g.Wait())
	defer bound.Stop()
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		select {
		case <-g.freed: // TraceRelease claimed it for this acquire
			g.handed.Add(1)
			return context.WithValue(ctx, claimedKey{}, true)
		case <-tick.C:
			if goOn, claimed := g.claim(pool); goOn {
				return withClaim(ctx, claimed)
			}
		case <-bound.C:
			return ctx
		case <-ctx.Done():
			return ctx
		}
	}
}

// TraceAcquireEnd gives back the acquire's claim, if it had one.
func (g *Gate) TraceAcquireEnd(ctx context.Context, _ *pgxpool.Pool, _ pgxpool.TraceAcquireEndData) {
	if ctx.Value(claimedKey{}) != nil {
		g.unclaim()
	}
}

// TraceRelease hands the connection being released to the statement that
// has waited longest, if one waits.
func (g *Gate) TraceRelease(*pgxpool.Pool, pgxpool.TraceReleaseData) {
	g.mu.Lock()
	g.claimed++ // before the hand-over, so that no acquire arriving meanwhile counts it as free
	g.mu.Unlock()
	select {
	case g.freed <- struct{}{}:
	default:
		g.unclaim()
	}
}

type connectStart struct{}

// TraceConnectStart notes when the pool began opening a connection.
func (g *Gate) TraceConnectStart(ctx context.Context, _ pgx.TraceConnectStartData) context.Context {
	return context.WithValue(ctx, connectStart{}, time.Now())
}

// TraceConnectEnd folds the time opening the connection took into the
// moving average that bounds the waits (an eighth of the new one).
func (g *Gate) TraceConnectEnd(ctx context.Context, data pgx.TraceConnectEndData) {
	start, ok := ctx.Value(connectStart{}).(time.Time)
	if !ok || data.Err != nil {
		return
	}
	took := int64(time.Since(start))
	old := g.connect.Load()
	g.connect.Store(old + (took-old)/8)
}

// TraceQueryStart is part of pgx.QueryTracer, which a connection's tracer
// must be; the gate does not look at statements.
func (g *Gate) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}

// TraceQueryEnd is part of pgx.QueryTracer.
func (g *Gate) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
