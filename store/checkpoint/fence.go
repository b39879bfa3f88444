package checkpoint

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
)

// Fence names the lease of the run a checkpoint is written for: a run's
// checkpointer (Owned.ForRun) writes only as long as that worker
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

// fenceArgs appends the parameters of a run's fence to args (its run,
// worker and attempt), which fenceSQL's condition reads; none for writes
// that are not a run's.
func (c *saver) fenceArgs(args *[]any) {
	if f := c.fence; f != nil {
		*args = append(*args, f.RunID, f.WorkerID, f.Attempt)
	}
}

// fenceSQL is the condition on a run's move of a thread's head that its
// fence holds, its parameters (see fenceArgs) numbered from n.
func fenceSQL(n int) string {
	return fmt.Sprintf(`
			AND EXISTS (SELECT 1 FROM runs WHERE runs.id = $%d::uuid AND runs.thread_id = $1
				AND runs.worker_id = $%d AND runs.attempts = $%d AND runs.status = 'running')`, n, n+1, n+2)
}

// holds reports whether the fence's worker still holds its run.
func (c *saver) holds(ctx context.Context, threadID string, f Fence) bool {
	var n int
	err := c.pool.QueryRow(ctx, `SELECT count(*) FROM runs WHERE id = $1::uuid AND thread_id = $4 AND worker_id = $2
		AND attempts = $3 AND status = 'running'`, f.RunID, f.WorkerID, f.Attempt, threadID).Scan(&n)
	return err == nil && n == 1
}

func (f Fence) lost() error {
	return errcode.Wrap(errcode.Conflict, ErrFenced, fmt.Sprintf("run %s is no longer held by worker %s", f.RunID, f.WorkerID))
}

// Companion is what a run writes in the same transaction as its next
// checkpoint: the runner's stream output of the step the checkpoint ends.
// A checkpoint then never exists without that output, and the two cost one
// round trip and one commit.
type Companion interface {
	// Queue adds the companion's statements to b, after a lock of the
	// checkpoints' thread and ahead of the statements that save the
	// checkpoints saving (in order, each over the one before it), and
	// returns what reads their results in turn; nil when it has nothing to
	// write. read's error fails the Put, though the
	// batch ran: a write that must stop the checkpoint fails in SQL,
	// which rolls back the whole batch (the runner's appends stop when its
	// lease is lost, and so does the checkpoint's own fence).
	Queue(b *pgx.Batch, saving []graph.Checkpoint) (read func(pgx.BatchResults) error)
}

// Closing is a Companion that may also write after the checkpoints, in
// their transaction: a run's end, written with its last checkpoint
// instead of in a commit of its own. QueueAfter adds its statements to b
// after those that save the checkpoints saving, and returns what reads
// their results once every checkpoint was stored; nil when it has
// nothing to write. Its statements run whether the checkpoints were
// stored or not (a moved head or a lost fence stores nothing and is no
// error of the batch), so they must check that themselves, such as by
// the thread's head being the last of saving.
type Closing interface {
	Companion
	QueueAfter(b *pgx.Batch, saving []graph.Checkpoint) (read func(pgx.BatchResults) error)
}
