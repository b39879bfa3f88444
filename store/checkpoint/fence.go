package checkpoint

import (
	"context"
	"errors"
	"fmt"

	"github.com/tripgraph/tripgraph/errcode"
)

// Fence names the lease of the run a checkpoint is written for: while a
// context carries one (WithFence), Put writes only as long as that worker
// still holds the run under that attempt, in the same statement that
// moves the thread's head. A worker that lost its run to another (its
// lease lapsed and the run was taken over) then writes nothing. The run
// queue's rows are in the same database, so the check costs no round
// trip.
type Fence struct {
	RunID    string
	WorkerID string
	Attempt  int
}

// ErrFenced is wrapped (as a CONFLICT) by a Put whose fence no longer
// holds.
var ErrFenced = errors.New("the run's lease is held by another worker")

type fenceKey struct{}

// WithFence returns a context whose checkpoint writes are fenced by f.
func WithFence(ctx context.Context, f Fence) context.Context {
	return context.WithValue(ctx, fenceKey{}, f)
}

func fenceOf(ctx context.Context) (Fence, bool) {
	f, ok := ctx.Value(fenceKey{}).(Fence)
	return f, ok
}

// fenceCond is the condition on the head's move that the fence holds, on
// the parameters $17 (the run, NULL when unfenced), $18 and $19.
const fenceCond = `
			AND ($17::uuid IS NULL OR EXISTS (SELECT 1 FROM runs WHERE runs.id = $17::uuid
				AND runs.worker_id = $18 AND runs.attempts = $19 AND runs.status = 'running'))`

// holds reports whether the fence's worker still holds its run.
func (c *Saver) holds(ctx context.Context, f Fence) bool {
	var n int
	err := c.pool.QueryRow(ctx, `SELECT count(*) FROM runs WHERE id = $1::uuid AND worker_id = $2 AND attempts = $3
		AND status = 'running'`, f.RunID, f.WorkerID, f.Attempt).Scan(&n)
	return err == nil && n == 1
}

func (f Fence) lost() error {
	return errcode.Wrap(errcode.Conflict, ErrFenced, fmt.Sprintf("run %s is no longer held by worker %s", f.RunID, f.WorkerID))
}
