package store

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/store/replica"
)

// ErrRunCancelled is the cause of a context that WatchCancel cancelled
// because a cancel was requested for the run.
var ErrRunCancelled = errors.New("the run was cancelled")

// FollowRunEvents yields the events of a run of the owner's after seq
// afterSeq, in order: first those stored, then new ones as they are
// appended, from this process or any other. It ends after the last event
// of a run that has ended, or with an error (a NOT_FOUND one for a run that
// is not the owner's, or ctx's cause). All the followers in a process share
// one LISTEN connection.
//
// It subscribes before it reads, so an event appended between a read and
// the next wait still wakes it. It relies on a run's events being appended
// one after another, as the run's one worker does. Events this process
// appended are handed to it (PublishRunEvents), so it reads the table
// only at its start and for what other processes appended (a notification
// announces a seq it has not been handed); the run's end, announced with
// the seq of its last event, needs no read when it has every event. After
// followQuiet without news it reads anyway. While the database cannot be
// reached it reads again, for up to followPatience.
//
// The replay of a run that has ended may be served by a replica that has
// caught up (see package replica): its first read, and the pages after it
// when that read found the run ended. Once a read finds the run going on,
// every read is the primary's, where the run's worker writes.
func (o Owner) FollowRunEvents(ctx context.Context, runID string, afterSeq int64) iter.Seq2[RunEvent, error] {
	return func(yield func(RunEvent, error) bool) {
		// A run this process created claimed by one of its workers was
		// subscribed to before the worker had it (hub.keep): its first
		// follower here starts from what that subscription gathered
		// instead of a read, as nothing of the run came before it.
		sub, unsubscribe, kept := o.s.runHub().adopt(RunEventsChannel, o.id, runID)
		if !kept || afterSeq != 0 {
			if kept {
				unsubscribe()
			}
			kept = false
			var err error
			if sub, unsubscribe, err = o.s.runHub().subscribe(ctx, RunEventsChannel, runID); err != nil {
				yield(RunEvent{}, err)
				return
			}
		}
		defer unsubscribe()
		if kept && !handedOver(ctx, sub, runID, &afterSeq, true, yield) {
			return
		}
		var outage time.Time // when reads began to fail as Unreachable
		reads := o.s.reads   // until a read finds the run going on
		if kept {
			reads = o.s.primary
		}
		for {
			final, events, err := o.runAndEvents(ctx, reads, runID, afterSeq)
			if !final {
				reads = o.s.primary
			}
			if Unreachable(err) && ctx.Err() == nil {
				if outage.IsZero() {
					outage = time.Now()
				}
				if time.Since(outage) < followPatience {
					if sleep(ctx, followRetry) == nil {
						continue
					}
				}
			}
			if err != nil {
				yield(RunEvent{}, err)
				return
			}
			outage = time.Time{}
			for _, e := range events {
				if !yield(e, nil) {
					return
				}
				afterSeq = e.Seq
			}
			if len(events) == runEventsPage {
				continue
			}
			if final || !handedOver(ctx, sub, runID, &afterSeq, false, yield) {
				return
			}
		}
	}
}

// handedOver waits for news of a run and yields the events this process
// hands over, for as long as they are all there is to know. It returns
// true when the table must be read (a notification announced an event it
// was not handed, or notifications may have been missed), false when the
// follower is done: it stopped, the wait failed, or the run ended and
// every event up to its last was yielded. The events handed over with
// news that calls for a read are left to the read, which returns them too.
// local says that this process writes the run (it has handed events
// over, or created the run claimed by its own worker).
func handedOver(ctx context.Context, sub *subscription, runID string, afterSeq *int64, local bool, yield func(RunEvent, error) bool) bool {
	for {
		woken, err := sub.waitAtMost(ctx, followQuiet)
		if err != nil {
			yield(RunEvent{}, fmt.Errorf("following the events of run %s: %w", runID, err))
			return false
		}
		if !woken {
			return true // a notification may have been lost with the process that was to send it
		}
		n := sub.take()
		if local && !n.mustRead && n.announced > maxSeq(n.local, *afterSeq) {
			n = sub.awaitHandOver(ctx, n, *afterSeq)
		}
		if n.mustRead || n.announced > maxSeq(n.local, *afterSeq) {
			return true
		}
		local = local || len(n.local) > 0
		for _, e := range n.local {
			if e.Seq <= *afterSeq {
				continue // read from the table already
			}
			if !yield(e, nil) {
				return false
			}
			*afterSeq = e.Seq
		}
		if n.ended {
			return false // every event of the run was yielded
		}
	}
}

// handOverGrace is how long a follower of a run its own process writes
// waits for the hand-over of events a notification announced (the
// notification may come first) before it reads them from the table.
const handOverGrace = 50 * time.Millisecond

// awaitHandOver adds to n what the subscription gathers until the events
// n announces are handed over, something calls for a read, or
// handOverGrace has passed.
func (s *subscription) awaitHandOver(ctx context.Context, n news, afterSeq int64) news {
	timer := time.NewTimer(handOverGrace)
	defer timer.Stop()
	for !n.mustRead && n.announced > maxSeq(n.local, afterSeq) {
		select {
		case <-s.wake:
		case <-timer.C:
			return n
		case <-ctx.Done():
			return n
		}
		more := s.take()
		n.local = append(n.local, more.local...)
		n.announced = max(n.announced, more.announced)
		n.ended = n.ended || more.ended
		n.mustRead = n.mustRead || more.mustRead
	}
	return n
}

// maxSeq is the newest seq of events, or floor when that is newer.
func maxSeq(events []RunEvent, floor int64) int64 {
	for _, e := range events {
		floor = max(floor, e.Seq)
	}
	return floor
}

// followQuiet is how long a follower waits for news of its run before it
// reads the table anyway: an announcement is lost when its process stops
// between a commit and the send (see announce). A variable for tests.
var followQuiet = 10 * time.Second

// followPatience is how long a follower keeps reading again while the
// database cannot be reached, before it gives up with the error; a
// follower that comes through misses nothing, as it reads from where it
// was. followRetry is the pause between its tries.
const (
	followPatience = 20 * time.Second
	followRetry    = 250 * time.Millisecond
)

// runAndEventsSQL reads run $1 of owner $2 and at most $4 of its events
// after seq $3. The events are those of run_id $1, not of the run row's
// id (the same run): a parameter is what lets PostgreSQL read the run's
// partition of run_events alone, whether it plans for this run or for
// any and prunes when the plan runs.
const runAndEventsSQL = `
	SELECT r.status, e.seq, e.event, e.data, e.created_at
	FROM runs r JOIN threads t ON t.id = r.thread_id
	LEFT JOIN LATERAL (
		SELECT seq, event, data, created_at FROM run_events
		WHERE run_id = $1 AND seq > $3 ORDER BY seq LIMIT $4) e ON true
	WHERE r.id = $1 AND t.owner_id = $2
	ORDER BY e.seq`

// runAndEvents reads whether a run has ended and a page of its events
// after afterSeq, in one statement: so in one snapshot, where a final
// status means that every event of the run is there to read.
func (o Owner) runAndEvents(ctx context.Context, reads *replica.Router, runID string, afterSeq int64) (final bool, events []RunEvent, err error) {
	err = reads.Read(ctx, func(db replica.Querier) (err error) {
		final, events, err = o.runAndEventsOn(ctx, db, runID, afterSeq)
		return err
	})
	return final, events, err
}

// runAndEventsOn is runAndEvents on db.
func (o Owner) runAndEventsOn(ctx context.Context, db replica.Querier, runID string, afterSeq int64) (final bool, events []RunEvent, err error) {
	rows, err := db.Query(ctx, runAndEventsSQL, runID, o.id, afterSeq, runEventsPage)
	if err != nil {
		return false, nil, notFoundAs(fmt.Errorf("reading the events of run %s: %w", runID, err), "no run %s", runID)
	}
	defer rows.Close()
	found := false
	for rows.Next() {
		var status string
		var seq *int64
		var event *string
		var data []byte
		var created *time.Time
		if err := rows.Scan(&status, &seq, &event, &data, &created); err != nil {
			return false, nil, fmt.Errorf("reading the events of run %s: %w", runID, err)
		}
		found, final = true, Run{Status: status}.Final()
		if seq != nil {
			events = append(events, RunEvent{RunID: runID, Seq: *seq, Event: *event, Data: data, CreatedAt: *created})
		}
	}
	switch {
	case rows.Err() != nil:
		err = fmt.Errorf("reading the events of run %s: %w", runID, rows.Err())
	case !found:
		err = pgx.ErrNoRows
	}
	if err != nil {
		return false, nil, notFoundAs(err, "no run %s", runID)
	}
	return final, events, nil
}

// sleep pauses for d, or until ctx ends (its cause).
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// WatchCancel returns a context derived from ctx that is cancelled, with
// cause ErrRunCancelled, when a cancel is requested for the run (see
// CancelRun) from any process, or was before the call, or the run is gone.
// A worker runs its run (of thread threadID) under it. Call stop when the
// run is over.
//
// For a run this process created claimed by one of its workers, the
// subscription made before the run's creation (cancelWatchFor) serves:
// no cancel of the run can have come before it, so the watch does not
// read whether one did.
func (s *Store) WatchCancel(ctx context.Context, threadID, runID string) (watched context.Context, stop context.CancelFunc, err error) {
	requested := false
	sub, unsubscribe, kept := s.runHub().adopt(RunCancelChannel, "", runID)
	if !kept {
		if sub, unsubscribe, err = s.runHub().subscribe(ctx, RunCancelChannel, runID); err != nil {
			return nil, nil, err
		}
		if requested, err = s.cancelRequested(ctx, threadID, runID); err != nil {
			unsubscribe()
			return nil, nil, err
		}
	}
	watched, cancel := context.WithCancelCause(ctx)
	if requested {
		cancel(ErrRunCancelled)
	}
	go func() {
		defer unsubscribe()
		for watched.Err() == nil {
			if sub.wait(watched) != nil {
				return
			}
			requested, err := s.cancelRequested(watched, threadID, runID)
			if err != nil {
				slog.Warn("reading a run's cancel request", "run_id", runID, "err", err)
				continue
			}
			if requested {
				cancel(ErrRunCancelled)
			}
		}
	}()
	return watched, func() { cancel(context.Canceled) }, nil
}

// cancelRequested reports whether a run has a cancel request, or is gone.
func (s *Store) cancelRequested(ctx context.Context, threadID, runID string) (bool, error) {
	var n int
	err := s.Pool.QueryRow(ctx, `SELECT count(*) FROM runs WHERE id = $1 AND thread_id = $2 AND cancel_requested_at IS NULL`,
		runID, threadID).Scan(&n)
	if err != nil {
		return false, notFoundAs(fmt.Errorf("reading the cancel request of run %s: %w", runID, err), "no run %s", runID)
	}
	return n == 0, nil
}
