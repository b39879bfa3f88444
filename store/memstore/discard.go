package memstore

import (
	"context"
	"slices"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
)

// DiscardRun deletes one of the owner's runs that has ended, with its
// events and the checkpoints it wrote; the newest checkpoint left is the
// thread's head. A run still going, or one a later checkpoint builds on,
// is a CONFLICT.
func (o Owner) DiscardRun(_ context.Context, runID string) error {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	r, err := o.s.ownRun(o.id, runID)
	if err != nil {
		return err
	}
	if !r.Final() {
		return errcode.New(errcode.Conflict, "run %s is %s: only a run that has ended can be discarded", runID, r.Status)
	}
	t := o.s.threads[r.ThreadID]
	first := slices.IndexFunc(t.checkpoints, func(cp graph.Checkpoint) bool { return cp.Metadata.RunID == runID })
	if first >= 0 && slices.ContainsFunc(t.checkpoints[first:], func(cp graph.Checkpoint) bool { return cp.Metadata.RunID != runID }) {
		return errcode.New(errcode.Conflict, "run %s cannot be discarded: later checkpoints build on its own", runID)
	}
	t.checkpoints = slices.DeleteFunc(t.checkpoints, func(cp graph.Checkpoint) bool { return cp.Metadata.RunID == runID })
	delete(o.s.runs, runID)
	o.s.notifyLocked()
	return nil
}
