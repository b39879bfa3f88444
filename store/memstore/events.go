package memstore

import (
	"context"
	"iter"
	"slices"

	"github.com/tripgraph/tripgraph/store"
)

// runEventsPage is the most events one read returns, as the store's.
const runEventsPage = 1000

// AppendRunEvents adds events, in order, to the stream of the run the
// lease holds, but those whose position the stream holds already; a
// worker that lost its run gets store.ErrLeaseLost and appends nothing.
func (st *Store) AppendRunEvents(_ context.Context, l store.Lease, events []store.NewRunEvent) ([]store.RunEvent, error) {
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.heldRun(l)
	if err != nil {
		return nil, err
	}
	return s.appendLocked(r, events), nil
}

// appendLocked appends events to r's stream; the caller holds mu.
func (s *state) appendLocked(r *run, events []store.NewRunEvent) []store.RunEvent {
	out := make([]store.RunEvent, 0, len(events))
	at := s.now()
	for _, e := range events {
		if e.Position != "" {
			if r.positions[e.Position] {
				continue
			}
			if r.positions == nil {
				r.positions = map[string]bool{}
			}
			r.positions[e.Position] = true
		}
		s.seq++
		ev := store.RunEvent{RunID: r.ID, Seq: s.seq, Event: e.Event, Data: slices.Clone(e.Data), CreatedAt: at}
		r.events = append(r.events, ev)
		out = append(out, ev)
	}
	if len(out) > 0 {
		s.notifyLocked()
	}
	return out
}

// AnnounceRunEvents is a no-op: appending wakes the followers already.
func (st *Store) AnnounceRunEvents([]store.RunEvent) {}

// PublishRunEvents is a no-op: appending wakes the followers already.
func (st *Store) PublishRunEvents([]store.RunEvent) {}

// RunEvents returns the events of a run on one of the owner's threads
// that come after seq afterSeq, in order, at most limit of them (0 means
// the most a page holds). Another owner's run has none.
func (o Owner) RunEvents(_ context.Context, runID string, afterSeq int64, limit int) ([]store.RunEvent, error) {
	if limit <= 0 || limit > runEventsPage {
		limit = runEventsPage
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	out := []store.RunEvent{}
	if r, err := o.s.ownRun(o.id, runID); err == nil {
		out = append(out, after(r.events, afterSeq, limit)...)
	}
	return out, nil
}

// after are the events after seq, at most limit.
func after(events []store.RunEvent, seq int64, limit int) []store.RunEvent {
	i, _ := slices.BinarySearchFunc(events, seq+1, func(e store.RunEvent, seq int64) int {
		switch {
		case e.Seq < seq:
			return -1
		case e.Seq > seq:
			return 1
		}
		return 0
	})
	return slices.Clone(events[i:min(len(events), i+limit)])
}

// FollowRunEvents yields the events of a run of the owner's after seq
// afterSeq, in order: first those stored, then new ones as they are
// appended. It ends after the last event of a run that has ended, or
// with an error: NOT_FOUND for a run that is not the owner's (or is gone),
// or ctx's cause.
func (o Owner) FollowRunEvents(ctx context.Context, runID string, afterSeq int64) iter.Seq2[store.RunEvent, error] {
	return func(yield func(store.RunEvent, error) bool) {
		for {
			events, final, changed, err := o.read(runID, afterSeq)
			if err != nil {
				yield(store.RunEvent{}, err)
				return
			}
			for _, e := range events {
				if !yield(e, nil) {
					return
				}
				afterSeq = e.Seq
			}
			if len(events) == runEventsPage {
				continue
			}
			if final {
				return
			}
			select {
			case <-ctx.Done():
				yield(store.RunEvent{}, context.Cause(ctx))
				return
			case <-changed:
			}
		}
	}
}

// read is a page of a run's events after seq, whether the run has ended,
// and the signal of its next change.
func (o Owner) read(runID string, seq int64) ([]store.RunEvent, bool, <-chan struct{}, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	r, err := o.s.ownRun(o.id, runID)
	if err != nil {
		return nil, false, nil, err
	}
	return after(r.events, seq, runEventsPage), r.Final(), o.s.changed, nil
}
