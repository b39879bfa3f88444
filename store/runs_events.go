package store

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
)

// RunEventsChannel is the PostgreSQL NOTIFY channel on which new events of
// a run are announced (PublishRunEvents, AnnounceRunEvents) as "<run
// id>:<last seq>"; the end of a run as "<run id>:<final status>:<seq of
// its last event>" (0 when it has none; a queued run cancelled with its
// thread's others leaves the seq out); and the claim of another attempt
// of a run as "<run id>:resumed". So a stream can be joined from another
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

// NewRunEvent is an event a worker appends to its run's stream.
type NewRunEvent struct {
	Event string
	Data  []byte
	// Position names the event's place in the run's output, the same in
	// every attempt of the run (its step, its kind and its rank there):
	// an event whose position the stream already holds, because an
	// earlier attempt appended it before its worker stopped, is not
	// appended again. "" for an event that has no such place.
	Position string
}

// AppendRunEvents adds events, in order, to the stream of the run the
// lease holds, in one statement that appends only while the lease still
// holds the run: a worker that lost its run to another (its lease expired
// and the run was handed on, or it ended) gets ErrLeaseLost and appends
// nothing, so the run's stream has only the output of the attempt that
// holds it. It returns the events appended, without those whose position
// the stream already held, for the caller to announce (PublishRunEvents or
// AnnounceRunEvents).
func (s *Store) AppendRunEvents(ctx context.Context, l Lease, events []NewRunEvent) ([]RunEvent, error) {
	return readAppended(s.Pool.QueryRow(ctx, appendEventsSQL, appendArgs(l, events)...), l, events)
}

// AnnounceRunEvents announces on RunEventsChannel events of one run,
// appended in a transaction that has committed, so that its followers in
// every process read them (those of this process are woken at once).
func (s *Store) AnnounceRunEvents(events []RunEvent) {
	if len(events) > 0 {
		last := events[len(events)-1]
		s.announce(note{RunEventsChannel, last.RunID + ":" + strconv.FormatInt(last.Seq, 10)})
	}
}

// PublishRunEvents hands events of one run, appended in a transaction that
// has committed, to the run's followers in this process (FollowRunEvents),
// so that they need not read them back, then announces them
// (AnnounceRunEvents) for the followers in other processes to read. A
// follower takes what it is handed as all that came before it: a worker
// publishes every event it appends to its run, in order, or, once it has
// left one out, only announces.
func (s *Store) PublishRunEvents(events []RunEvent) {
	s.hubMu.Lock()
	h := s.hub
	s.hubMu.Unlock()
	if h != nil { // without a hub, no one follows
		h.publish(events)
	}
	s.AnnounceRunEvents(events)
}

// QueueRunEvents queues on b the statement of AppendRunEvents, for a caller
// that sends it with statements of its own: a batch sent outside a
// transaction is one, so the events are appended only if every statement
// of the batch succeeds. read reads the statement's result, in its turn
// among the batch's. Once the batch has committed, the caller announces
// the events read (PublishRunEvents or AnnounceRunEvents).
func QueueRunEvents(b *pgx.Batch, l Lease, events []NewRunEvent) (read func(pgx.BatchResults) ([]RunEvent, error)) {
	b.Queue(appendEventsSQL, appendArgs(l, events)...)
	return func(res pgx.BatchResults) ([]RunEvent, error) {
		return readAppended(res.QueryRow(), l, events)
	}
}

// appendEventsSQL appends events to a run's stream while the lease ($1,
// $2, $3, with the run's thread $7) holds it. FOR SHARE holds the run's row until the events are
// in: a takeover (which updates the row) waits for them, or, once it has
// committed, leaves this statement no row to append for. The aggregate row
// comes back even when nothing was appended.
const appendEventsSQL = `
	WITH r AS (
		SELECT id, owner_id FROM runs
		WHERE id = $1 AND thread_id = $7 AND worker_id = $2 AND attempts = $3 AND status = 'running'
		FOR SHARE),
	e AS (
		INSERT INTO run_events (run_id, owner_id, event, data, position)
		SELECT r.id, r.owner_id, x.event, x.data, x.position
		FROM r, unnest($4::text[], $5::bytea[], $6::text[]) WITH ORDINALITY AS x(event, data, position, n)
		ORDER BY x.n
		ON CONFLICT (run_id, position) WHERE position IS NOT NULL DO NOTHING
		RETURNING seq, created_at, position)
	SELECT (SELECT count(*) FROM r),
		coalesce(array_agg(seq ORDER BY seq), '{}'), coalesce(array_agg(created_at ORDER BY seq), '{}'),
		coalesce(array_agg(position ORDER BY seq), '{}')
	FROM e`

// appendArgs are appendEventsSQL's arguments.
func appendArgs(l Lease, events []NewRunEvent) []any {
	names, data, positions := make([]string, len(events)), make([][]byte, len(events)), make([]*string, len(events))
	for i, e := range events {
		names[i], data[i] = e.Event, e.Data
		if data[i] == nil {
			data[i] = []byte{}
		}
		if e.Position != "" {
			positions[i] = &events[i].Position
		}
	}
	return []any{l.RunID, l.WorkerID, l.Attempt, names, data, positions, l.ThreadID}
}

// readAppended reads the row of appendEventsSQL.
func readAppended(row pgx.Row, l Lease, events []NewRunEvent) ([]RunEvent, error) {
	var held int
	var seqs []int64
	var created []time.Time
	var placed []*string
	if err := row.Scan(&held, &seqs, &created, &placed); err != nil {
		return nil, fmt.Errorf("appending events to run %s: %w", l.RunID, err)
	}
	if held == 0 {
		return nil, LeaseLost(l)
	}
	return appendedOf(l.RunID, events, seqs, created, placed), nil
}

// appendedOf pairs the events given to AppendRunEvents with the seqs and
// times of those that were appended: all those without a position, and
// those whose position was placed. Both are in the order given.
func appendedOf(runID string, events []NewRunEvent, seqs []int64, created []time.Time, placed []*string) []RunEvent {
	isPlaced := make(map[string]bool, len(placed))
	for _, p := range placed {
		if p != nil {
			isPlaced[*p] = true
		}
	}
	out := make([]RunEvent, 0, len(seqs))
	for _, e := range events {
		if e.Position != "" {
			if !isPlaced[e.Position] {
				continue
			}
			delete(isPlaced, e.Position) // a position given twice is placed once
		}
		i := len(out)
		out = append(out, RunEvent{RunID: runID, Seq: seqs[i], Event: e.Event, Data: e.Data, CreatedAt: created[i]})
	}
	return out
}

// runEventsSQL reads at most $4 events of run $1 of owner $2 after seq $3:
// the run's partition alone, along its primary key.
const runEventsSQL = `
	SELECT e.run_id, e.seq, e.event, e.data, e.created_at
	FROM run_events e JOIN runs r ON r.id = e.run_id JOIN threads t ON t.id = r.thread_id
	WHERE e.run_id = $1 AND t.owner_id = $2 AND e.seq > $3
	ORDER BY e.seq LIMIT $4`

// RunEvents returns the events of a run on one of the owner's threads that
// come after seq afterSeq (0 for all), in order, at most limit of them (0
// means runEventsPage, the most).
func (o Owner) RunEvents(ctx context.Context, runID string, afterSeq int64, limit int) ([]RunEvent, error) {
	if limit <= 0 || limit > runEventsPage {
		limit = runEventsPage
	}
	rows, err := o.s.Pool.Query(ctx, runEventsSQL, runID, o.id, afterSeq, limit)
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
