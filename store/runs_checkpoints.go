package store

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/store/checkpoint"
)

// StepOutput is what a run writes in the same transaction as its next
// checkpoint: its stream's events of the step the checkpoint ends, and of
// the checkpoint itself, and, when that checkpoint is the run's last, the
// run's end. A checkpoint then never exists without that output, and the
// two cost one round trip and one commit.
type StepOutput interface {
	// Take returns the events to append with the checkpoints being saved
	// (in order, each over the one before it); none when it has nothing
	// to write. ends says that the last of saving ends the run with
	// success and that nothing more is to be written of it: the run's
	// end (FinishRun's) then goes in the same transaction, after the
	// checkpoints, and only if every one of them is stored.
	Take(saving []graph.Checkpoint) (events []NewRunEvent, ends bool)
	// Appended is told what Take's events became once the checkpoints'
	// transaction ran: the events appended, or why they were not. Its
	// error fails the checkpoints' write.
	Appended(events []RunEvent, err error) error
	// Ended is told, when Take said the checkpoints end the run and they
	// were all stored, the run as their transaction ended it, and
	// announce, which announces the end (as FinishRun does) and is to be
	// called once that transaction has committed, after the events
	// appended are published.
	Ended(run Run, announce func())
}

// RunCheckpoints is the checkpointer run l writes with, on the owner's
// threads: a write moves the thread's head only while l still holds the
// run (checkpoint.ErrFenced otherwise), and appends out's events, if out
// is not nil, in its transaction, and ends the run with its last
// checkpoint when out says so.
func (o Owner) RunCheckpoints(l Lease, out StepOutput) graph.Checkpointer {
	fence := checkpoint.Fence{RunID: l.RunID, WorkerID: l.WorkerID, Attempt: l.Attempt}
	if out == nil {
		return o.checkpoints.ForRun(fence, nil)
	}
	return o.checkpoints.ForRun(fence, &stepCompanion{s: o.s, lease: l, out: out})
}

// stepCompanion is a run's StepOutput as the checkpointer's companion.
// ends is what Take said of the checkpoints being saved.
type stepCompanion struct {
	s     *Store
	lease Lease
	out   StepOutput
	ends  bool
}

// Queue queues the append of the output's events on b.
func (c *stepCompanion) Queue(b *pgx.Batch, saving []graph.Checkpoint) func(pgx.BatchResults) error {
	events, ends := c.out.Take(saving)
	c.ends = ends
	if len(events) == 0 {
		return nil
	}
	read := QueueRunEvents(b, c.lease, events)
	return func(res pgx.BatchResults) error { return c.out.Appended(read(res)) }
}

// QueueAfter queues the run's end on b, after the checkpoints, when Take
// said they end the run: it ends the run only while the lease holds it
// and the last of saving is the thread's head, so only when every
// checkpoint was stored.
func (c *stepCompanion) QueueAfter(b *pgx.Batch, saving []graph.Checkpoint) func(pgx.BatchResults) error {
	if !c.ends {
		return nil
	}
	l := c.lease
	b.Queue(endRunSQL, endRunArgs(l.RunID, l.ThreadID, &l, RunSuccess, "", saving[len(saving)-1].ID)...)
	return func(res pgx.BatchResults) error {
		e, err := batchRow(res, scanEnded)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return LeaseLost(l)
		case err != nil:
			return fmt.Errorf("ending run %s with its last checkpoint: %w", l.RunID, err)
		}
		var n notes
		e.announce(&n)
		c.out.Ended(e.Run, func() { c.s.announce(n...) })
		return nil
	}
}
