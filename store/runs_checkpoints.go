package store

import (
	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/store/checkpoint"
)

// StepOutput is what a run writes in the same transaction as its next
// checkpoint: its stream's events of the step the checkpoint ends, and of
// the checkpoint itself. A checkpoint then never exists without that
// output, and the two cost one round trip and one commit.
type StepOutput interface {
	// Take returns the events to append with the checkpoints being saved
	// (in order, each over the one before it); none when it has nothing
	// to write.
	Take(saving []graph.Checkpoint) []NewRunEvent
	// Appended is told what Take's events became once the checkpoints'
	// transaction ran: the events appended, or why they were not. Its
	// error fails the checkpoints' write.
	Appended(events []RunEvent, err error) error
}

// RunCheckpoints is the checkpointer run l writes with, on the owner's
// threads: a write moves the thread's head only while l still holds the
// run (checkpoint.ErrFenced otherwise), and appends out's events, if out
// is not nil, in its transaction.
func (o Owner) RunCheckpoints(l Lease, out StepOutput) graph.Checkpointer {
	fence := checkpoint.Fence{RunID: l.RunID, WorkerID: l.WorkerID, Attempt: l.Attempt}
	if out == nil {
		return o.checkpoints.ForRun(fence, nil)
	}
	return o.checkpoints.ForRun(fence, stepCompanion{lease: l, out: out})
}

// stepCompanion is a run's StepOutput as the checkpointer's companion.
type stepCompanion struct {
	lease Lease
	out   StepOutput
}

// Queue queues the append of the output's events on b.
func (c stepCompanion) Queue(b *pgx.Batch, saving []graph.Checkpoint) func(pgx.BatchResults) error {
	events := c.out.Take(saving)
	if len(events) == 0 {
		return nil
	}
	read := QueueRunEvents(b, c.lease, events)
	return func(res pgx.BatchResults) error { return c.out.Appended(read(res)) }
}
