// Package eventparts keeps the partitions of the run events table: it adds
// them ahead of need and drops, whole, those that retention no longer
// needs.
//
// run_events is partitioned by range of run id (migration 00026). Run ids
// are UUIDv7s, which begin with their creation time, so the partition of
// a UTC day, run_events_pYYYYMMDD, holds every event of the runs created
// that day. A run's events are kept while the run is queued, pending or
// running, and otherwise until its day ended longer ago than the time to
// live: a day's partition is dropped only once no run of that day is
// active. The default partition holds the events of runs whose day had no
// partition (those made before the migration, whose ids are random, and
// any made while the partition was missing); retention deletes those row
// by row under the same rule, counting from the run's creation.
package eventparts

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DaysAhead is how many days after today always have their partition: a
// process adds them every pass, so a day's partition exists days before
// its first run, and several failed passes in a row still leave time.
const DaysAhead = 3

// lockTimeout bounds the wait for the locks that adding and dropping a
// partition take (dropping one locks the whole table): past it the
// statement gives up rather than hold up the appends queued behind it, and
// the next pass tries again.
const lockTimeout = 500 * time.Millisecond

// tries is how many times one pass tries a change whose locks it could
// not get in time.
const tries = 3

// defaultBatch is how many rows of the default partition one statement
// looks at to delete those expired (a variable for tests).
var defaultBatch = 5000

// namePrefix and nameLayout name a day's partition.
const (
	namePrefix = "run_events_p"
	nameLayout = "20060102"
)

// Partitions adds and drops the partitions of run_events.
type Partitions struct {
	pool *pgxpool.Pool
}

// New returns the partitions of run_events on pool.
func New(pool *pgxpool.Pool) *Partitions { return &Partitions{pool: pool} }

// Partition is one day's partition of run_events.
type Partition struct {
	Name string
	Day  time.Time // 00:00 UTC of the day whose runs' events it holds
}

// End is when the partition's day ends: the partition holds the events of
// runs created before it.
func (p Partition) End() time.Time { return p.Day.AddDate(0, 0, 1) }

// NameOf is the name of the partition of the UTC day of t.
func NameOf(t time.Time) string { return namePrefix + t.UTC().Format(nameLayout) }

// parseName is the partition a table name names, and false for a table
// that is not a day's partition (the default one).
func parseName(name string) (Partition, bool) {
	if len(name) != len(namePrefix)+len(nameLayout) || name[:len(namePrefix)] != namePrefix {
		return Partition{}, false
	}
	day, err := time.Parse(nameLayout, name[len(namePrefix):])
	if err != nil {
		return Partition{}, false
	}
	return Partition{Name: name, Day: day}, true
}

// List returns the days' partitions, oldest first.
func (p *Partitions) List(ctx context.Context) ([]Partition, error) {
	rows, err := p.pool.Query(ctx, `
		SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		WHERE i.inhparent = 'run_events'::regclass ORDER BY c.relname`)
	if err != nil {
		return nil, fmt.Errorf("listing the partitions of run_events: %w", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("listing the partitions of run_events: %w", err)
	}
	var out []Partition
	for _, n := range names {
		if part, ok := parseName(n); ok {
			out = append(out, part)
		}
	}
	return out, nil
}

// Add adds the partitions missing from today (UTC, by the database's
// clock) to DaysAhead days on, and returns how many it added. Any number
// of processes may call it at once.
func (p *Partitions) Add(ctx context.Context) (int, error) {
	var added int
	err := p.retry(ctx, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, `SELECT run_events_add_partitions($1)`, DaysAhead).Scan(&added)
	})
	if err != nil {
		return 0, fmt.Errorf("adding the partitions of run_events for the next %d days: %w", DaysAhead, err)
	}
	return added, nil
}

// Pruned is what Prune dropped and deleted (or, in a dry run, would).
type Pruned struct {
	Partitions []string // the days' partitions dropped
	Kept       []string // expired partitions kept because a run of their day is active
	Rows       int64    // rows deleted from the default partition
}

// activeSQL tells whether a run with an id in [$1, $2) is queued, pending
// or running. It reads the active runs alone, which are few, along the
// partial index runs_owner_active_idx, not the day's runs: it runs while
// the drop holds the whole table.
const activeSQL = `SELECT EXISTS (SELECT 1 FROM runs WHERE id >= uuid_v7_bound($1) AND id < uuid_v7_bound($2)
	AND status IN ('queued', 'pending', 'running'))`

// Prune drops each day's partition whose day ended before cutoff and none
// of whose runs is queued, pending or running, and deletes from the
// default partition the events of the runs created before cutoff that are
// none of those.
func (p *Partitions) Prune(ctx context.Context, cutoff time.Time, dryRun bool) (Pruned, error) {
	var out Pruned
	parts, err := p.List(ctx)
	if err != nil {
		return out, err
	}
	for _, part := range parts {
		if part.End().After(cutoff) {
			break
		}
		dropped, err := p.drop(ctx, part, dryRun)
		if err != nil {
			return out, err
		}
		if dropped {
			out.Partitions = append(out.Partitions, part.Name)
		} else {
			out.Kept = append(out.Kept, part.Name)
		}
	}
	out.Rows, err = p.pruneDefault(ctx, cutoff, dryRun)
	return out, err
}

// drop drops a partition unless one of its runs is active, and says
// whether it did (in a dry run, whether it would). The check runs under
// the lock that the drop takes (the whole table's), so no event is
// appended in between; a run that has ended never becomes active again,
// and new runs take ids of the current day, so none comes back to the
// partition afterwards either.
func (p *Partitions) drop(ctx context.Context, part Partition, dryRun bool) (bool, error) {
	var dropped bool
	err := p.retry(ctx, func(tx pgx.Tx) error {
		if !dryRun {
			if _, err := tx.Exec(ctx, `LOCK TABLE run_events IN ACCESS EXCLUSIVE MODE`); err != nil {
				return err
			}
		}
		var active bool
		if err := tx.QueryRow(ctx, activeSQL, part.Day, part.End()).Scan(&active); err != nil {
			return err
		}
		if active || dryRun {
			dropped = !active
			return nil
		}
		if _, err := tx.Exec(ctx, `DROP TABLE `+pgx.Identifier{part.Name}.Sanitize()); err != nil {
			return err
		}
		dropped = true
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("dropping the run events partition %s: %w", part.Name, err)
	}
	return dropped, nil
}

// expiredDefault selects the rows of the default partition whose runs were
// created before $1 and are not active.
const expiredDefault = `FROM run_events_default e JOIN runs r ON r.id = e.run_id
	WHERE r.created_at < $1 AND r.status NOT IN ('queued', 'pending', 'running')`

// pruneDefaultSQL deletes the expired rows of the runs of the next
// defaultBatch rows of the default partition after run $2 (all runs when
// NULL), in run id order along its primary key, and returns the last run
// id it looked at (NULL past the end) and how many rows it deleted. Each
// statement starts where the one before stopped, so none reads again the
// rows that it left dead.
const pruneDefaultSQL = `
	WITH /* any owner: retention */ batch AS (
		SELECT DISTINCT run_id FROM (
			SELECT run_id FROM run_events_default WHERE $2::uuid IS NULL OR run_id > $2
			ORDER BY run_id LIMIT $3) x),
	gone AS (
		DELETE FROM run_events_default e USING runs r, batch b
		WHERE e.run_id = b.run_id AND r.id = b.run_id
			AND r.created_at < $1 AND r.status NOT IN ('queued', 'pending', 'running')
		RETURNING 1)
	SELECT (SELECT run_id FROM batch ORDER BY run_id DESC LIMIT 1), (SELECT count(*) FROM gone)`

// pruneDefault deletes the expired rows of the default partition, a batch
// of runs per statement, and returns how many.
func (p *Partitions) pruneDefault(ctx context.Context, cutoff time.Time, dryRun bool) (int64, error) {
	if dryRun {
		var n int64
		if err := p.pool.QueryRow(ctx, `SELECT count(*) /* any owner: retention */ `+expiredDefault, cutoff).Scan(&n); err != nil {
			return 0, fmt.Errorf("counting the expired rows of run_events_default: %w", err)
		}
		return n, nil
	}
	var total int64
	var after *string
	for {
		var n int64
		if err := p.pool.QueryRow(ctx, pruneDefaultSQL, cutoff, after, defaultBatch).Scan(&after, &n); err != nil {
			return total, fmt.Errorf("deleting the expired rows of run_events_default: %w", err)
		}
		total += n
		if after == nil {
			return total, nil
		}
	}
}

// retry runs change in a transaction whose locks wait at most lockTimeout,
// up to tries times while it fails for want of a lock (or a deadlock).
func (p *Partitions) retry(ctx context.Context, change func(pgx.Tx) error) error {
	var err error
	for try := 1; ; try++ {
		err = pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, fmt.Sprintf(`SET LOCAL lock_timeout = %d`, lockTimeout.Milliseconds())); err != nil {
				return err
			}
			return change(tx)
		})
		var pgErr *pgconn.PgError
		if err == nil || try == tries || !errors.As(err, &pgErr) || (pgErr.Code != "55P03" && pgErr.Code != "40P01") {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(try) * lockTimeout):
		}
	}
}
