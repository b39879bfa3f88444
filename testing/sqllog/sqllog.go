// Package sqllog records, in order, the round trips a store makes to
// PostgreSQL: each statement sent alone, each batch with its statements,
// each COPY, with the function of ours that sent it and whether it ran
// inside a transaction. Set a Recorder as store.Options.Tracer; tests use
// it to hold the statements and commits of a piece of work to a count.
package sqllog

import (
	"context"
	"runtime"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
)

// Trip is one round trip to the database.
type Trip struct {
	// SQL is the statement, or a batch's statements joined by "; ".
	SQL string
	// Statements is how many statements the trip carried (a batch's
	// count; one otherwise).
	Statements int
	// Caller is the function of ours, outside the tests' helpers, that
	// sent it: "store.(*Owner).CreateRun".
	Caller string
	// InTx tells that it ran inside an explicit transaction (between a
	// begin and its commit or rollback, both of which are trips too).
	InTx bool
}

// Commit tells that the trip ended a transaction that may have written:
// an explicit commit, or a statement sent outside a transaction, which is
// one of its own.
func (t Trip) Commit() bool { return t.SQL == "commit" || !t.InTx && t.SQL != "begin" }

// Recorder is a pgx tracer that keeps the round trips sent through it
// while it is on.
type Recorder struct {
	mu    sync.Mutex
	on    bool
	trips []Trip
	inTx  map[*pgx.Conn]bool
	batch map[*pgx.Conn]*Trip
}

var (
	_ pgx.QueryTracer    = (*Recorder)(nil)
	_ pgx.BatchTracer    = (*Recorder)(nil)
	_ pgx.CopyFromTracer = (*Recorder)(nil)
)

// Start forgets what was recorded and records from now on.
func (r *Recorder) Start() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on, r.trips = true, nil
}

// Stop stops recording and returns the trips recorded since Start.
func (r *Recorder) Stop() []Trip {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = false
	return r.trips
}

// Len is how many trips were recorded since Start.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.trips)
}

// pgx's pool pings a connection that was idle for a while before handing
// it out; that is the pool's, not the caller's, and is not recorded.
const ping = "-- ping"

func (r *Recorder) add(conn *pgx.Conn, sql string) {
	sql = strings.Join(strings.Fields(sql), " ")
	if sql == ping {
		return
	}
	caller := callerOf()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.inTx == nil {
		r.inTx = map[*pgx.Conn]bool{}
	}
	lower := strings.ToLower(sql)
	inTx := r.inTx[conn]
	switch {
	case strings.HasPrefix(lower, "begin"):
		r.inTx[conn] = true
	case lower == "commit" || lower == "rollback":
		delete(r.inTx, conn)
	}
	if r.on {
		r.trips = append(r.trips, Trip{SQL: sql, Statements: 1, Caller: caller, InTx: inTx})
	}
}

// callerOf is the innermost function of the module, outside pgx and the
// test helpers, on the stack of the statement being sent.
func callerOf() string {
	const module = "github.com/tripgraph/tripgraph/"
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if name, ok := strings.CutPrefix(f.Function, module); ok && !strings.HasPrefix(name, "testing/") {
			return name
		}
		if !more {
			return "?"
		}
	}
}

// TraceQueryStart records a statement sent alone.
func (r *Recorder) TraceQueryStart(ctx context.Context, conn *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	r.add(conn, d.SQL)
	return ctx
}

// TraceQueryEnd does nothing.
func (r *Recorder) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TraceBatchStart opens the trip of a batch.
func (r *Recorder) TraceBatchStart(ctx context.Context, conn *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	caller := callerOf()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.batch == nil {
		r.batch = map[*pgx.Conn]*Trip{}
	}
	r.batch[conn] = &Trip{Caller: caller, InTx: r.inTx[conn]}
	return ctx
}

// TraceBatchQuery adds a statement to its batch's trip.
func (r *Recorder) TraceBatchQuery(_ context.Context, conn *pgx.Conn, d pgx.TraceBatchQueryData) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if b := r.batch[conn]; b != nil {
		if b.SQL != "" {
			b.SQL += "; "
		}
		b.SQL += strings.Join(strings.Fields(d.SQL), " ")
		b.Statements++
	}
}

// TraceBatchEnd records the batch's trip.
func (r *Recorder) TraceBatchEnd(_ context.Context, conn *pgx.Conn, _ pgx.TraceBatchEndData) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if b := r.batch[conn]; b != nil && r.on {
		r.trips = append(r.trips, *b)
	}
	delete(r.batch, conn)
}

// TraceCopyFromStart records a COPY as the statement it stands for.
func (r *Recorder) TraceCopyFromStart(ctx context.Context, conn *pgx.Conn, d pgx.TraceCopyFromStartData) context.Context {
	r.add(conn, "COPY "+d.TableName.Sanitize()+" ("+strings.Join(d.ColumnNames, ", ")+") FROM STDIN")
	return ctx
}

// TraceCopyFromEnd does nothing.
func (r *Recorder) TraceCopyFromEnd(context.Context, *pgx.Conn, pgx.TraceCopyFromEndData) {}
