// Package replica decides where a read of the store is served: by a
// streaming replica of the primary when the replica has replayed every
// transaction the primary had committed when the read began, else by the
// primary.
//
// # The lag rule
//
// Before a read goes to the replica, the primary is asked for its WAL
// flush position (pg_current_wal_flush_lsn()); the read is served by the
// replica only once the replica's replay position
// (pg_last_wal_replay_lsn()), checked on the connection that will serve
// the read, has reached it. A committed transaction is visible only once
// its commit record is flushed, so every write any client saw succeed
// before the read began (in this process or any other sharing the
// database) is in what the replica has replayed: a replica read answers
// as a read of the primary at some moment between its start and its end
// would, and a client reads its own writes, whichever process made them.
// A replica that is behind is given up to Options.MaxWait to catch up,
// checked every few milliseconds; then the read is served by the primary,
// as every read is for ten times MaxWait (at most Options.DownFor): one
// that far behind would keep each read waiting for nothing.
//
// The primary's position costs one small query, but not one per read: a
// read waits for the first question asked after it began, and one
// question at a time is asked for all the reads waiting, so however many
// reads come at once, the primary answers at most one position query at a
// time (on the pool given for it, the store's request pool).
//
// Only transactions committed with synchronous_commit off (the store's
// notifications, which change no table) can be visible before they are
// flushed; the rule does not wait for them.
//
// # Failures
//
// A replica read that fails, other than with an answer (a coded error such
// as NOT_FOUND, no rows, a value the statement refuses), is done again on the primary, and the replica
// is left alone for Options.DownFor: every read meanwhile goes straight to
// the primary, and the first read after that tries the replica again. A
// stopped or unreachable replica therefore costs a client nothing but the
// time of one failed connection attempt.
package replica

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/errcode"
)

// Querier is what a read runs its statements on: a connection of the
// replica or of the primary.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// Options tune a Router. The zero value is the default.
type Options struct {
	// MaxWait is how long a read waits for the replica to replay the
	// primary's position before the primary serves it. 0 means
	// DefaultMaxWait.
	MaxWait time.Duration
	// DownFor is how long a replica that failed is left alone. 0 means
	// DefaultDownFor.
	DownFor time.Duration
	// Log is where the replica's failures and recoveries are reported;
	// slog's default when nil.
	Log *slog.Logger
}

// DefaultMaxWait is the default Options.MaxWait: a replica on the same
// network replays a commit within a few milliseconds; one further behind
// than this serves nothing until it has caught up.
const DefaultMaxWait = 100 * time.Millisecond

// DefaultDownFor is the default Options.DownFor.
const DefaultDownFor = 10 * time.Second

// replicaConnectTimeout bounds a connection attempt to a replica whose
// URL sets none, so that an unreachable host costs a read little.
const replicaConnectTimeout = 2 * time.Second

// Router sends each read to the replica or the primary. It is safe for
// concurrent use.
type Router struct {
	primary   *pgxpool.Pool
	replica   *pgxpool.Pool // nil: every read is the primary's
	positions *positions
	opts      Options
	downUntil atomic.Int64 // unix nanoseconds until which the replica is left alone
	down      atomic.Bool  // the replica was left alone and has not served since
	stats     [servedKinds]atomic.Uint64
}

// Primary is a Router without a replica: every read is the primary's.
func Primary(pool *pgxpool.Pool) *Router { return &Router{primary: pool} }

// Open connects to the replica at url and returns a Router that serves
// reads from it, asking the primary's position on positionPool (a pool of
// the primary's that reads do not queue on) and falling back to primary.
// maxConns sizes the replica's pool when above 0. The replica need not be
// up: until it is, reads are the primary's.
func Open(ctx context.Context, primary, positionPool *pgxpool.Pool, url string, maxConns int32, o Options) (*Router, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("reading the replica's URL: %w", err)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = replicaConnectTimeout
	}
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	cfg.ConnConfig.Tracer = primary.Config().ConnConfig.Tracer
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("opening the replica's pool: %w", err)
	}
	if o.MaxWait <= 0 {
		o.MaxWait = DefaultMaxWait
	}
	if o.DownFor <= 0 {
		o.DownFor = DefaultDownFor
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return &Router{primary: primary, replica: pool, positions: &positions{pool: positionPool}, opts: o}, nil
}

// Close closes the replica's pool (not the primary's).
func (r *Router) Close() {
	if r.replica != nil {
		r.replica.Close()
	}
}

// Served names who served a read.
type Served int

// Who serves reads.
const (
	ByPrimary Served = iota // the primary
	ByReplica               // the replica
	servedKinds
)

// String is the name metrics and logs give s.
func (s Served) String() string {
	if s == ByReplica {
		return "replica"
	}
	return "primary"
}

// Served is how many reads each has served since the Router was made.
func (r *Router) Served(by Served) uint64 { return r.stats[by].Load() }

// Read runs read on the replica when it has caught up with the primary
// (see the package's rule), else on the primary. read may run twice (on
// the replica, which failed, then on the primary), so it must gather its
// results afresh each time and change nothing.
func (r *Router) Read(ctx context.Context, read func(Querier) error) error {
	if r.replica == nil || time.Now().UnixNano() < r.downUntil.Load() {
		return r.onPrimary(ctx, read)
	}
	conn, err := r.caughtUp(ctx)
	switch {
	case err != nil && ctx.Err() != nil:
		return context.Cause(ctx)
	case errors.Is(err, errBehind):
		r.behind()
		return r.onPrimary(ctx, read)
	case errors.Is(err, errPrimary):
		return r.onPrimary(ctx, read)
	case err != nil:
		r.failed(err)
		return r.onPrimary(ctx, read)
	}
	err = read(conn)
	conn.Release()
	if err != nil && !answered(err) && ctx.Err() == nil {
		r.failed(err)
		return r.onPrimary(ctx, read)
	}
	r.stats[ByReplica].Add(1)
	if r.down.CompareAndSwap(true, false) {
		r.opts.Log.Info("the read replica serves reads again")
	}
	return err
}

// onPrimary runs read on the primary.
func (r *Router) onPrimary(ctx context.Context, read func(Querier) error) error {
	r.stats[ByPrimary].Add(1)
	return read(r.primary)
}

// failed leaves the replica alone for DownFor, and drops its connections,
// which may all be broken.
func (r *Router) failed(err error) {
	r.downUntil.Store(time.Now().Add(r.opts.DownFor).UnixNano())
	r.replica.Reset()
	if !r.down.Swap(true) {
		r.opts.Log.Warn("the read replica failed: reads go to the primary for a while",
			"retry_in", r.opts.DownFor.String(), "err", err)
	}
}

// behind leaves a replica that did not catch up within MaxWait alone for
// ten times MaxWait, at most DownFor: a replica that far behind is likely
// to stay behind for a moment, and every read meanwhile would wait
// MaxWait for nothing.
func (r *Router) behind() {
	r.downUntil.Store(time.Now().Add(min(10*r.opts.MaxWait, r.opts.DownFor)).UnixNano())
	if !r.down.Swap(true) {
		r.opts.Log.Warn("the read replica is behind the primary: reads go to the primary for a while",
			"max_wait", r.opts.MaxWait.String())
	}
}

// answered reports whether err is an answer to a read (NOT_FOUND or
// another coded error, no rows, a statement that any server would refuse
// for its values or its text) rather than a failure of the database that
// served it.
func answered(err error) bool {
	if errcode.Of(err) != errcode.Internal || errors.Is(err, pgx.ErrNoRows) {
		return true
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return false
	}
	switch pgErr.Code[:2] {
	case "22", "23", "42", "P0": // data exception, integrity, syntax or access, raised
		return true
	}
	return false
}

var (
	// errBehind: the replica did not replay the primary's position in time.
	errBehind = errors.New("the replica is behind the primary")
	// errPrimary: the primary's position could not be read.
	errPrimary = errors.New("reading the primary's WAL position")
)

// caughtUp returns a connection of the replica once the replica has
// replayed the primary's flush position as of now, or errBehind after
// MaxWait.
func (r *Router) caughtUp(ctx context.Context) (*pgxpool.Conn, error) {
	target, err := r.positions.now(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errPrimary, err)
	}
	conn, err := r.replica.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("connecting to the replica: %w", err)
	}
	deadline := time.Now().Add(r.opts.MaxWait)
	for pause := time.Millisecond; ; pause = min(2*pause, 10*time.Millisecond) {
		replayed, err := replayPosition(ctx, conn)
		if err != nil {
			conn.Release()
			return nil, err
		}
		if replayed >= target {
			return conn, nil
		}
		if time.Now().Add(pause).After(deadline) {
			conn.Release()
			return nil, errBehind
		}
		select {
		case <-ctx.Done():
			conn.Release()
			return nil, context.Cause(ctx)
		case <-time.After(pause):
		}
	}
}

// replayPosition is the WAL position the replica has replayed.
func replayPosition(ctx context.Context, conn *pgxpool.Conn) (uint64, error) {
	var text *string
	if err := conn.QueryRow(ctx, `SELECT pg_last_wal_replay_lsn()::text`).Scan(&text); err != nil {
		return 0, fmt.Errorf("reading the replica's replay position: %w", err)
	}
	if text == nil {
		return 0, errors.New("the replica's URL names a server that is not a standby: it replays no WAL")
	}
	return parseLSN(*text)
}

// parseLSN reads a WAL position as PostgreSQL writes it ("16/B374D848").
func parseLSN(s string) (uint64, error) {
	hi, lo, ok := strings.Cut(s, "/")
	h, err1 := strconv.ParseUint(hi, 16, 32)
	l, err2 := strconv.ParseUint(lo, 16, 32)
	if !ok || err1 != nil || err2 != nil {
		return 0, fmt.Errorf("reading the WAL position %q", s)
	}
	return h<<32 | l, nil
}
