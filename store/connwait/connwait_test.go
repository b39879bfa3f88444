package connwait

import (
	"context"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/testing/pgtest"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "connwait", &testURL)) }

// open is a pool of at most 4 connections, none opened ahead, with the
// gate installed.
func open(t *testing.T, o Options, tracer pgx.QueryTracer) (*pgxpool.Pool, *Gate) {
	t.Helper()
	return openWarm(t, o, tracer, 0)
}

// openWarm is open with warm connections opened ahead, once they are.
func openWarm(t *testing.T, o Options, tracer pgx.QueryTracer, warm int32) (*pgxpool.Pool, *Gate) {
	t.Helper()
	pgtest.Skip(t)
	cfg, err := pgxpool.ParseConfig(testURL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.MaxConns, cfg.MinConns = 4, warm
	cfg.ConnConfig.Tracer = tracer
	g := Install(cfg, o)
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	for deadline := time.Now().Add(10 * time.Second); pool.Stat().IdleConns() < warm; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the pool did not open its %d warm connections", warm)
		}
	}
	return pool, g
}

// hold acquires a connection (opening the pool's first) and returns it;
// it is released when the test ends if it was not before, since closing
// the pool waits for it.
func hold(t *testing.T, pool *pgxpool.Pool) *pgxpool.Conn {
	t.Helper()
	c, err := pool.Acquire(context.Background())
	if err != nil {
		t.Fatalf("acquiring a connection: %v", err)
	}
	t.Cleanup(c.Release)
	return c
}

// query runs a statement on pool in the background and returns where its
// error arrives.
func query(pool *pgxpool.Pool) <-chan error {
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := pool.Exec(ctx, "SELECT 1")
		done <- err
	}()
	return done
}

// waitUntilWaiting returns once a statement waits at the gate.
func waitUntilWaiting(t *testing.T, g *Gate) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); g.waiting.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no statement waited for a connection while every one was busy")
		}
	}
}

// A statement that finds every connection busy waits, and takes the
// connection released meanwhile (handed to it, or found idle when it
// looks again a millisecond later): the pool does not open a second one.
func TestAReleasedConnectionIsReused(t *testing.T) {
	pool, g := open(t, Options{MinWait: time.Minute, MaxWait: time.Minute}, nil)
	c := hold(t, pool)
	done := query(pool)
	waitUntilWaiting(t, g)
	c.Release()
	if err := <-done; err != nil {
		t.Fatalf("the statement that waited: %v", err)
	}
	if n := pool.Stat().TotalConns(); n != 1 {
		t.Errorf("the pool has %d connections, want 1: the statement opened one instead of taking the one released", n)
	}
	if s := g.Stats(); s.Waited != 1 {
		t.Errorf("%d statements waited, want 1", s.Waited)
	}
}

// The wait is bounded: with no release, the statement opens a connection
// once the bound has passed.
func TestWithNoReleaseAConnectionIsOpened(t *testing.T) {
	pool, g := open(t, Options{MinWait: 20 * time.Millisecond, MaxWait: 20 * time.Millisecond}, nil)
	hold(t, pool)
	if err := <-query(pool); err != nil {
		t.Fatalf("the statement that waited: %v", err)
	}
	if n := pool.Stat().TotalConns(); n != 2 {
		t.Errorf("the pool has %d connections, want 2", n)
	}
	if s := g.Stats(); s != (Stats{Waited: 1, Handed: 0}) {
		t.Errorf("stats %+v, want one wait, ended by the bound", s)
	}
}

// Below the floor, and when a connection is idle, nothing waits.
func TestNoWaitBelowTheFloorOrWithAnIdleConnection(t *testing.T) {
	pool, g := open(t, Options{Floor: 2, MinWait: time.Minute, MaxWait: time.Minute}, nil)
	c := hold(t, pool)
	if err := <-query(pool); err != nil { // the second connection: under the floor
		t.Fatal(err)
	}
	if err := <-query(pool); err != nil { // the second is idle now
		t.Fatal(err)
	}
	c.Release()
	if n := pool.Stat().TotalConns(); n != 2 {
		t.Errorf("the pool has %d connections, want 2", n)
	}
	if s := g.Stats(); s.Waited != 0 {
		t.Errorf("%d statements waited, want none", s.Waited)
	}
}

// The bound follows the time opening a connection took, within MinWait
// and MaxWait.
func TestTheBoundIsTheTimeToConnect(t *testing.T) {
	pool, g := open(t, Options{MinWait: time.Nanosecond, MaxWait: time.Hour}, nil)
	if g.Wait() != firstGuess {
		t.Fatalf("before any connection the bound is %v, want %v", g.Wait(), firstGuess)
	}
	hold(t, pool).Release()
	if w := g.Wait(); w == firstGuess || w <= 0 {
		t.Errorf("after a connection was opened the bound is %v: the time it took was not counted", w)
	}
	_, g = open(t, Options{MinWait: time.Hour, MaxWait: time.Hour}, nil)
	if g.Wait() != time.Hour {
		t.Errorf("the bound is %v, want MinWait, an hour", g.Wait())
	}
	_, g = open(t, Options{MinWait: time.Nanosecond, MaxWait: time.Nanosecond}, nil)
	if g.Wait() != time.Nanosecond {
		t.Errorf("the bound is %v, want MaxWait, 1 ns", g.Wait())
	}
}

// counter counts the statements it sees.
type counter struct{ n atomic.Int32 }

func (c *counter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}
func (c *counter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// The pool's own tracer still sees every statement.
func TestTheTracerIsKept(t *testing.T) {
	var c counter
	pool, _ := open(t, Options{}, &c)
	if err := <-query(pool); err != nil {
		t.Fatal(err)
	}
	if c.n.Load() != 1 {
		t.Errorf("the pool's tracer saw %d statements, want 1", c.n.Load())
	}
}

// Acquires that arrive at once do not all count one idle connection as
// theirs: with one idle and a first acquire gone on to take it, the
// second waits rather than open another.
func TestOneIdleConnectionIsClaimedOnce(t *testing.T) {
	pool, g := openWarm(t, Options{MinWait: time.Minute, MaxWait: time.Minute}, nil, 2)
	busy := hold(t, pool) // the other is idle
	ctx := context.Background()
	first := g.TraceAcquireStart(ctx, pool, pgxpool.TraceAcquireStartData{})
	if g.Stats().Waited != 0 {
		t.Fatal("the first acquire waited although a connection was idle")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		second := g.TraceAcquireStart(ctx, pool, pgxpool.TraceAcquireStartData{})
		g.TraceAcquireEnd(second, pool, pgxpool.TraceAcquireEndData{})
	}()
	waitUntilWaiting(t, g) // fails the test if the second went on
	busy.Release()
	g.TraceAcquireEnd(first, pool, pgxpool.TraceAcquireEndData{})
	<-done
	if s := g.Stats(); s.Waited != 1 {
		t.Errorf("%d acquires waited, want the second only", s.Waited)
	}
}
