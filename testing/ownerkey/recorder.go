// Package ownerkey holds the store's statements to the rule that makes
// sharding by owner possible: every statement on a table of users' data
// names the owner (or a thread, which has one owner), so that a
// distributed database can send it to the one node holding that owner's
// rows. Recorder collects the statements a store executes (set it as
// store.Options.Tracer); Check reads each one and reports those that
// break the rule. The tables, their keys and the deliberate exceptions
// are listed in rules.go.
package ownerkey

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
)

// Recorder is a pgx tracer that keeps every distinct statement sent
// through it, whether alone, in a batch or as a COPY.
type Recorder struct {
	mu   sync.Mutex
	seen map[string]bool
}

var (
	_ pgx.QueryTracer    = (*Recorder)(nil)
	_ pgx.BatchTracer    = (*Recorder)(nil)
	_ pgx.CopyFromTracer = (*Recorder)(nil)
)

func (r *Recorder) add(sql string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	r.seen[sql] = true
}

// Statements are the distinct statements recorded so far, sorted.
func (r *Recorder) Statements() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.seen))
	for s := range r.seen {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// TraceQueryStart records a statement sent alone.
func (r *Recorder) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	r.add(d.SQL)
	return ctx
}

// TraceQueryEnd does nothing.
func (r *Recorder) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// TraceBatchStart does nothing: the batch's statements come one by one.
func (r *Recorder) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return ctx
}

// TraceBatchQuery records a statement of a batch.
func (r *Recorder) TraceBatchQuery(_ context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	r.add(d.SQL)
}

// TraceBatchEnd does nothing.
func (r *Recorder) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// TraceCopyFromStart records a COPY as the statement it stands for.
func (r *Recorder) TraceCopyFromStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceCopyFromStartData) context.Context {
	r.add("COPY " + d.TableName.Sanitize() + " (" + strings.Join(d.ColumnNames, ", ") + ") FROM STDIN")
	return ctx
}

// TraceCopyFromEnd does nothing.
func (r *Recorder) TraceCopyFromEnd(context.Context, *pgx.Conn, pgx.TraceCopyFromEndData) {}
