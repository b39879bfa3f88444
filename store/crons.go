package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/store/crons"
)

// CronRun is the run a due cron starts: on the cron's thread (ThreadID),
// or on a new thread of the cron's owner (NewThread).
type CronRun struct {
	ThreadID  string
	NewThread NewThread
	Run       NewRun
}

// FireCrons claims up to limit due crons of any owner and starts the run
// plan makes of each, as the cron's owner, in the transaction that claims
// the cron and moves it to its next due time (crons.Store.Fire): a due
// time starts one run, whichever process fires it. A plan or a start that
// fails skips that due time alone, and is reported with it.
func (s *Store) FireCrons(ctx context.Context, limit int, plan func(crons.Cron, time.Time) (CronRun, error)) ([]crons.Fired, error) {
	return s.Crons.Fire(ctx, limit, func(ctx context.Context, tx pgx.Tx, c crons.Cron, due time.Time) error {
		cr, err := plan(c, due)
		if err != nil {
			return err
		}
		o := s.ForOwner(c.UserID)
		if cr.ThreadID != "" {
			_, err = o.CreateRunIn(ctx, tx, cr.ThreadID, cr.Run)
			return err
		}
		_, err = o.CreateRunOnNewThreadIn(ctx, tx, cr.NewThread, cr.Run)
		return err
	})
}
