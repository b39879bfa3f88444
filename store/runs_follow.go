package store

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"time"
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
// one after another, as the run's one worker does. While the database
// cannot be reached it reads again, for up to followPatience.
func (o Owner) FollowRunEvents(ctx context.Context, runID string, afterSeq int64) iter.Seq2[RunEvent, error] {
	return func(yield func(RunEvent, error) bool) {
		sub, unsubscribe, err := o.s.runHub().subscribe(ctx, RunEventsChannel, runID)
		if err != nil {
			yield(RunEvent{}, err)
			return
		}
		defer unsubscribe()
		var outage time.Time // when reads began to fail as Unreachable
		for {
			run, events, err := o.runAndEvents(ctx, runID, afterSeq)
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
			if run.Final() {
				return
			}
			if err := sub.wait(ctx); err != nil {
				yield(RunEvent{}, fmt.Errorf("following the events of run %s: %w", runID, err))
				return
			}
		}
	}
}

// followPatience is how long a follower keeps reading again while the
// database cannot be reached, before it gives up with the error; a
// follower that comes through misses nothing, as it reads from where it
// was. followRetry is the pause between its tries.
const (
	followPatience = 20 * time.Second
	followRetry    = 250 * time.Millisecond
)

// runAndEvents reads a run and a page of its events after afterSeq: the
// status first, as once it is final every event of the run is committed,
// and the read that follows sees them all.
func (o Owner) runAndEvents(ctx context.Context, runID string, afterSeq int64) (Run, []RunEvent, error) {
	run, err := o.Run(ctx, runID)
	if err != nil {
		return Run{}, nil, err
	}
	events, err := o.RunEvents(ctx, runID, afterSeq, runEventsPage)
	return run, events, err
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
// A worker runs its run under it. Call stop when the run is over.
func (s *Store) WatchCancel(ctx context.Context, runID string) (watched context.Context, stop context.CancelFunc, err error) {
	sub, unsubscribe, err := s.runHub().subscribe(ctx, RunCancelChannel, runID)
	if err != nil {
		return nil, nil, err
	}
	requested, err := s.cancelRequested(ctx, runID)
	if err != nil {
		unsubscribe()
		return nil, nil, err
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
			requested, err := s.cancelRequested(watched, runID)
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
func (s *Store) cancelRequested(ctx context.Context, runID string) (bool, error) {
	var n int
	err := s.Pool.QueryRow(ctx, `SELECT count(*) FROM runs WHERE id = $1 AND cancel_requested_at IS NULL`,
		runID).Scan(&n)
	if err != nil {
		return false, notFoundAs(fmt.Errorf("reading the cancel request of run %s: %w", runID, err), "no run %s", runID)
	}
	return n == 0, nil
}
