package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// RunEventsChannel is the PostgreSQL NOTIFY channel on which AppendRunEvent
// announces each event as "<run id>:<seq>", and the end of a run as
// "<run id>:<final status>", so that a stream can be joined from another
// connection or process (see FollowRunEvents).
const RunEventsChannel = "run_events"

// runEventsPage is the most events one read returns.
const runEventsPage = 1000

// RunEvent is one item of a run's ordered stream.
type RunEvent struct {
	RunID     string
	Seq       int64 // grows with each event; use it to resume
	Event     string
	Data      []byte
	CreatedAt time.Time
}

// AppendRunEvent adds an event to the stream of the run the lease holds,
// and notifies RunEventsChannel, in one statement that appends only while
// the lease still holds the run: a worker that lost its run to another
// (its lease expired and the run was handed on, or it ended) gets
// ErrLeaseLost and appends nothing, so the run's stream has only the
// output of the attempt that holds it.
func (s *Store) AppendRunEvent(ctx context.Context, l Lease, event string, data []byte) (RunEvent, error) {
	if data == nil {
		data = []byte{}
	}
	rows, err := s.Pool.Query(ctx, `
		WITH e AS (
			INSERT INTO run_events (run_id, event, data)
			SELECT r.id, $4, $5 FROM runs r
			WHERE r.id = $1 AND r.worker_id = $2 AND r.attempts = $3 AND r.status = 'running'
			RETURNING run_id, seq, event, data, created_at)
		SELECT e.*, pg_notify($6, e.run_id::text || ':' || e.seq) IS NULL FROM e`,
		l.RunID, l.WorkerID, l.Attempt, event, data, RunEventsChannel)
	if err != nil {
		return RunEvent{}, fmt.Errorf("appending an event to run %s: %w", l.RunID, err)
	}
	e, err := pgx.CollectExactlyOneRow(rows, func(row pgx.CollectableRow) (RunEvent, error) {
		var e RunEvent
		var ignored bool
		err := row.Scan(&e.RunID, &e.Seq, &e.Event, &e.Data, &e.CreatedAt, &ignored)
		return e, err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return RunEvent{}, leaseLost(l)
	}
	if err != nil {
		return RunEvent{}, fmt.Errorf("appending an event to run %s: %w", l.RunID, err)
	}
	return e, nil
}

// RunEvents returns the events of a run on one of the owner's threads that
// come after seq afterSeq (0 for all), in order, at most limit of them (0
// means runEventsPage, the most).
func (o Owner) RunEvents(ctx context.Context, runID string, afterSeq int64, limit int) ([]RunEvent, error) {
	if limit <= 0 || limit > runEventsPage {
		limit = runEventsPage
	}
	rows, err := o.s.Pool.Query(ctx, `
		SELECT e.run_id, e.seq, e.event, e.data, e.created_at
		FROM run_events e JOIN runs r ON r.id = e.run_id JOIN threads t ON t.id = r.thread_id
		WHERE e.run_id = $1 AND t.owner_id = $2 AND e.seq > $3
		ORDER BY e.seq LIMIT $4`, runID, o.id, afterSeq, limit)
	if err != nil {
		return nil, notFoundAs(fmt.Errorf("reading the events of run %s: %w", runID, err), "no run %s", runID)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (RunEvent, error) {
		var e RunEvent
		err := row.Scan(&e.RunID, &e.Seq, &e.Event, &e.Data, &e.CreatedAt)
		return e, err
	})
	if err != nil {
		return nil, notFoundAs(fmt.Errorf("reading the events of run %s: %w", runID, err), "no run %s", runID)
	}
	return list, nil
}
