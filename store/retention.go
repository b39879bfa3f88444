package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// PruneOptions tune PruneThreads.
type PruneOptions struct {
	// DryRun counts the threads that would be deleted, and deletes nothing.
	DryRun bool
	// BatchSize is how many threads one transaction deletes, with all their
	// rows, so that a large prune never holds its locks for long. 0 means 100.
	BatchSize int
}

// expiredThreads selects the threads whose newest checkpoint (or, for a
// thread without any, whose creation) is older than $1, and that have no
// pending or running run.
const expiredThreads = `FROM threads t
	WHERE coalesce(t.head_at, t.created_at) < $1
		AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.thread_id = t.id AND r.status IN ('pending', 'running'))`

// expiredIDsSQL collects the ids of at most $2 expired threads, in no
// order: one pass over threads, stopped once it has them. Neither it nor
// pruneBatchSQL asks for the threads in the order of their last activity,
// so neither needs threads_last_active_idx, which every checkpoint's move
// of a thread's head has to update: a release that no longer queries by
// it lets the next one drop it, and then a head's move changes no indexed
// column.
const expiredIDsSQL = `SELECT t.id /* any owner: retention */ ` + expiredThreads + ` LIMIT $2`

// pruneBatchSQL deletes those of the threads $2 that are still expired and
// that no other transaction holds.
const pruneBatchSQL = `
	DELETE FROM threads /* any owner: retention */ WHERE id IN (
		SELECT t.id ` + expiredThreads + ` AND t.id = ANY($2)
		FOR UPDATE SKIP LOCKED)`

// pruneCollect is how many expired threads' ids a prune collects in one
// pass over threads before it deletes them, about 50 bytes each. Tests
// lower it.
var pruneCollect = 10_000

// PruneThreads deletes, of every owner, the threads whose newest checkpoint
// is older than cutoff (a thread that never had one counts from its
// creation), with their checkpoints, runs and run events, and returns how
// many it deleted. A thread with a pending or running run is kept, and so is
// one that another transaction is writing to at that moment (it is not
// expired then). It collects the expired threads' ids in one pass over
// threads (another pass for each further 10,000), and deletes them in
// batches of opts.BatchSize threads, checking each again.
func (s *Store) PruneThreads(ctx context.Context, cutoff time.Time, opts PruneOptions) (int64, error) {
	if opts.DryRun {
		var n int64
		if err := s.Pool.QueryRow(ctx, `SELECT count(*) /* any owner: retention */ `+expiredThreads, cutoff).Scan(&n); err != nil {
			return 0, fmt.Errorf("counting threads idle since %s: %w", cutoff.Format(time.RFC3339), err)
		}
		return n, nil
	}
	batch := opts.BatchSize
	if batch <= 0 {
		batch = 100
	}
	var total int64
	for {
		rows, err := s.Pool.Query(ctx, expiredIDsSQL, cutoff, pruneCollect)
		if err != nil {
			return total, fmt.Errorf("finding threads idle since %s: %w", cutoff.Format(time.RFC3339), err)
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return total, fmt.Errorf("finding threads idle since %s: %w", cutoff.Format(time.RFC3339), err)
		}
		var deleted int64
		for chunk := range slices.Chunk(ids, batch) {
			tag, err := s.Pool.Exec(ctx, pruneBatchSQL, cutoff, chunk)
			if err != nil {
				return total, fmt.Errorf("deleting threads idle since %s: %w", cutoff.Format(time.RFC3339), err)
			}
			deleted += tag.RowsAffected()
		}
		total += deleted
		// A full pass may have more behind it; one that deleted nothing
		// found only threads other transactions hold.
		if len(ids) < pruneCollect || deleted == 0 {
			return total, nil
		}
	}
}

// Pruned is what PruneMemory deleted (or, in a dry run, would delete).
type Pruned struct {
	Items int64 // store items whose time to live ran out
	Crons int64 // crons past their end time
}

// PruneMemory deletes, of every owner, the long-term store's items whose
// time to live ran out and the crons that ended before cutoff (past their
// end time, never due again). What a deleted user had, and the crons of a
// deleted thread, the database deletes with them (ON DELETE CASCADE):
// PruneThreads and a deleted account leave nothing behind.
func (s *Store) PruneMemory(ctx context.Context, cutoff time.Time, dryRun bool) (Pruned, error) {
	var p Pruned
	var err error
	if p.Items, err = s.Items.PruneExpired(ctx, dryRun); err != nil {
		return p, err
	}
	p.Crons, err = s.Crons.PruneEnded(ctx, cutoff, dryRun)
	return p, err
}
