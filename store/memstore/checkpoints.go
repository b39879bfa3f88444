package memstore

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/checkpoint"
)

// checkpoints is the graph's checkpointer on one owner's threads, as
// checkpoint.Owned is in PostgreSQL: another owner's thread is NOT_FOUND,
// and a thread's first checkpoint creates the thread, the owner's. A run's
// (Owner.RunCheckpoints) writes only while its lease holds, with its
// stream's output.
type checkpoints struct {
	s     *state
	owner string
	lease *store.Lease // a run's writes: fenced by it
	out   store.StepOutput
}

// Checkpoints is the graph's checkpointer on the owner's threads.
func (o Owner) Checkpoints() graph.Checkpointer { return &checkpoints{s: o.s, owner: o.id} }

// RunCheckpoints is the checkpointer run l writes with, on the owner's
// threads: a write moves the thread's head only while l still holds the
// run (checkpoint.ErrFenced otherwise), and appends out's events with it.
func (o Owner) RunCheckpoints(l store.Lease, out store.StepOutput) graph.Checkpointer {
	return &checkpoints{s: o.s, owner: o.id, lease: &l, out: out}
}

// Put stores a copy of cp as the thread's new head, if its head is head.
func (c *checkpoints) Put(ctx context.Context, cp graph.Checkpoint, head string) error {
	_, err := c.PutAll(ctx, []graph.Checkpoint{cp}, head)
	return err
}

// PutAll stores checkpoints of one thread, each over the one before it,
// as Puts one after the other would, and returns how many it stored; the
// run's output goes with them.
func (c *checkpoints) PutAll(ctx context.Context, cps []graph.Checkpoint, head string) (int, error) {
	if len(cps) == 0 {
		return 0, nil
	}
	for i, cp := range cps {
		h := head
		if i > 0 {
			h = cps[i-1].ID
		}
		if err := checkpoint.CheckPut(cp, h); err != nil {
			return 0, err
		}
	}
	if err := ctx.Err(); err != nil { // as a database would, for a cancelled write
		return 0, fmt.Errorf("saving the checkpoints of thread %s: %w", cps[0].ThreadID, err)
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if c.lease != nil {
		if r, ok := c.s.runs[c.lease.RunID]; !ok || !c.lease.Holds(r.Run) {
			return 0, errcode.Wrap(errcode.Conflict, checkpoint.ErrFenced, fmt.Sprintf("run %s is no longer held by worker %s", c.lease.RunID, c.lease.WorkerID))
		}
	}
	if c.out == nil {
		return c.store(cps, head)
	}
	// The output goes in with the step, as in the store's batch, and the
	// run's end after the checkpoints when they end it and are all stored.
	var appended []store.RunEvent
	events, ends := c.out.Take(cps)
	if len(events) > 0 {
		appended = c.s.appendLocked(c.s.runs[c.lease.RunID], events)
	}
	if err := c.out.Appended(appended, nil); err != nil {
		return 0, err
	}
	n, err := c.store(cps, head)
	if ends && err == nil && n == len(cps) {
		r := c.s.runs[c.lease.RunID]
		c.s.endRun(r, store.RunSuccess, "")
		c.out.Ended(r.record(), func() {})
	}
	return n, err
}

// store puts cps on their thread, each over the one before it; the caller
// holds mu.
func (c *checkpoints) store(cps []graph.Checkpoint, head string) (int, error) {
	id := cps[0].ThreadID
	t, ok := c.s.threads[id]
	switch {
	case !ok && head == "":
		var err error
		if t, err = c.s.newThreadLocked(c.owner, id, nil); err != nil {
			return 0, checkpoint.NotFound("Thread with ID %s not found", id)
		}
	case !ok || t.owner != c.owner:
		return 0, checkpoint.NotFound("Thread with ID %s not found", id)
	}
	for i, cp := range cps {
		if i > 0 {
			head = cps[i-1].ID
		}
		if actual := t.head(); actual != head {
			return i, &errcode.Error{Code: errcode.Conflict, Message: fmt.Sprintf("thread %s was written concurrently", id),
				Err: &graph.ConflictError{ThreadID: id, Expected: head, Actual: actual}}
		}
		if cp.ID <= head {
			return i, checkpoint.InvalidID(fmt.Errorf("saving checkpoint %s: it does not sort after the head %s: %w", cp.ID, head, graph.ErrInvalidID))
		}
		t.checkpoints = append(t.checkpoints, cp.Clone())
		t.updated = c.s.now()
	}
	return len(cps), nil
}

// Latest returns the newest checkpoint of a thread.
func (c *checkpoints) Latest(_ context.Context, threadID string) (graph.Checkpoint, error) {
	if err := graph.CheckID("thread id", threadID); err != nil {
		return graph.Checkpoint{}, checkpoint.InvalidID(err)
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	list := c.list(threadID)
	if len(list) == 0 {
		return graph.Checkpoint{}, checkpoint.NotFound("thread %s has no checkpoint", threadID)
	}
	return list[len(list)-1].Clone(), nil
}

// Get returns one checkpoint of a thread.
func (c *checkpoints) Get(_ context.Context, threadID, checkpointID string) (graph.Checkpoint, error) {
	if err := errors.Join(graph.CheckID("thread id", threadID), graph.CheckID("checkpoint id", checkpointID)); err != nil {
		return graph.Checkpoint{}, checkpoint.InvalidID(err)
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	list := c.list(threadID)
	i, ok := slices.BinarySearchFunc(list, checkpointID, func(cp graph.Checkpoint, id string) int {
		switch {
		case cp.ID < id:
			return -1
		case cp.ID > id:
			return 1
		}
		return 0
	})
	if !ok {
		return graph.Checkpoint{}, checkpoint.NotFound("no checkpoint %s in thread %s", checkpointID, threadID)
	}
	return list[i].Clone(), nil
}

// List returns a thread's checkpoints, newest first; another owner's
// thread has none.
func (c *checkpoints) List(_ context.Context, threadID string, opts graph.ListOptions) ([]graph.Checkpoint, error) {
	if err := graph.CheckID("thread id", threadID); err != nil {
		return nil, checkpoint.InvalidID(err)
	}
	if opts.Before != "" {
		if err := graph.CheckID("list cursor", opts.Before); err != nil {
			return nil, checkpoint.InvalidID(err)
		}
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return opts.Select(c.list(threadID)), nil
}

// list is the checkpoints of one of the owner's threads, oldest first;
// none for another owner's. The caller holds mu.
func (c *checkpoints) list(threadID string) []graph.Checkpoint {
	t, ok := c.s.threads[threadID]
	if !ok || t.owner != c.owner {
		return nil
	}
	return t.checkpoints
}
