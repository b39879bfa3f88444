package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/errcode"
)

// DiscardRun deletes one of the owner's runs that has ended, with its
// events and the checkpoints it wrote, and makes the newest checkpoint
// left its thread's head (none, when the run started the thread): what a
// rollback does to the run it replaces, as LangGraph deletes it. A run
// still going is a CONFLICT, and so is one whose checkpoints a later
// checkpoint builds on; an unknown run is NOT_FOUND.
func (o Owner) DiscardRun(ctx context.Context, runID string) error {
	err := o.s.inTx(ctx, o.s.requests, func(tx pgx.Tx, _ *notes) error {
		r, err := lockRun(ctx, tx, o.id, runID)
		if err != nil {
			return err
		}
		if !r.Final() {
			return errcode.New(errcode.Conflict, "run %s is %s: only a run that has ended can be discarded", runID, r.Status)
		}
		var later bool
		if err := tx.QueryRow(ctx, discardBlockedSQL, r.ThreadID, runID).Scan(&later); err != nil {
			return fmt.Errorf("checking what builds on run %s: %w", runID, err)
		}
		if later {
			return errcode.New(errcode.Conflict, "run %s cannot be discarded: later checkpoints build on its own", runID)
		}
		if _, err := tx.Exec(ctx, discardRunSQL, r.ThreadID, runID); err != nil {
			return fmt.Errorf("discarding run %s: %w", runID, err)
		}
		return nil
	})
	return notFoundAs(err, "no run %s", runID)
}

// discardBlockedSQL tells whether a checkpoint of another run comes after
// the first checkpoint of run $2 on thread $1.
const discardBlockedSQL = `
	SELECT EXISTS (
		SELECT 1 FROM checkpoints c
		WHERE c.thread_id = $1 AND c.run_id IS DISTINCT FROM $2
		  AND c.id > (SELECT id FROM checkpoints WHERE thread_id = $1 AND run_id = $2 ORDER BY id LIMIT 1))`

// discardRunSQL deletes run $2's checkpoints on thread $1, moves the
// thread's head (and the time retention counts from) to its newest
// checkpoint left, and deletes the run (its events go with it).
const discardRunSQL = `
	WITH gone AS (DELETE FROM checkpoints WHERE thread_id = $1 AND run_id = $2 RETURNING id),
	run AS (DELETE FROM runs WHERE id = $2),
	left_head AS (
		SELECT c.id, c.created_at FROM checkpoints c WHERE c.thread_id = $1 AND c.id NOT IN (SELECT id FROM gone)
		ORDER BY c.id DESC LIMIT 1)
	UPDATE threads SET head = (SELECT id FROM left_head), head_at = (SELECT created_at FROM left_head), updated_at = now()
	WHERE id = $1`
