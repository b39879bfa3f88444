package store

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/store/quota"
)

// A run's creation locks its owner's row (quota.LockUser) until it
// commits, so that two creations cannot both take the owner's last
// active run: one owner's creations go one at a time, each waiting for the
// one before it to reach the disk. An app whose every traveller is one
// user (a backend key) would create runs no faster than one commit after
// another. So the creations of one owner that this process makes at once
// go together: while a batch of them is in flight the next ones gather,
// and go in the batch after it, under one lock of the owner's row and one
// commit. Each creation still sees those before it in the batch (the
// statements of a batch run in order, in one transaction), so the limit
// holds exactly. A creation alone goes at once, as it did.

// creation is one run's creation in a batch of its owner's creations: the
// statements it queues after the owner's lock, and how it reads their
// results. read returns refused for a rule's answer (the thread is busy,
// the owner at their limit), which leaves the batch's transaction whole,
// and failed for a statement that failed, which rolls it back.
type creation struct {
	queue func(b *pgx.Batch)
	read  func(res pgx.BatchResults) (run Run, refused, failed error)

	// Filled in once it has been sent.
	run Run
	err error
	// lead hands this creation the batch it leads (it and those gathered
	// with it); done is closed once another's batch sent it.
	lead chan []*creation
	done chan struct{}
}

// newCreation is a creation of queue and read.
func newCreation(queue func(b *pgx.Batch), read func(res pgx.BatchResults) (Run, error, error)) *creation {
	return &creation{queue: queue, read: read, lead: make(chan []*creation, 1), done: make(chan struct{})}
}

// creations gathers, per owner, the creations that wait for the owner's
// batch in flight.
type creations struct {
	mu      sync.Mutex
	waiting map[string][]*creation // by owner; present while a batch of theirs is in flight
}

// maxCreationWait bounds a batch of creations, which goes on when the
// request that leads it has gone: the others wait for it.
const maxCreationWait = 30 * time.Second

// create sends c, a creation of owner's runs, on db: at once when no
// batch of the owner's is in flight, else with the others gathered
// behind it. It returns c's run, or its error.
func (s *Store) create(ctx context.Context, owner string, c *creation) (Run, error) {
	s.creating.mu.Lock()
	if s.creating.waiting == nil {
		s.creating.waiting = map[string][]*creation{}
	}
	waiting, busy := s.creating.waiting[owner]
	if !busy {
		s.creating.waiting[owner] = nil
	} else {
		s.creating.waiting[owner] = append(waiting, c)
	}
	s.creating.mu.Unlock()
	batch := []*creation{c}
	if busy {
		select {
		case batch = <-c.lead:
		case <-c.done:
			return c.run, c.err
		}
	}
	s.leadCreations(ctx, owner, batch)
	return c.run, c.err
}

// leadCreations sends batch, then hands the creations gathered meanwhile
// to the first of them, to send as the owner's next batch.
func (s *Store) leadCreations(ctx context.Context, owner string, batch []*creation) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), maxCreationWait)
	s.sendCreations(ctx, s.requests, owner, batch)
	cancel()
	s.creating.mu.Lock()
	next := s.creating.waiting[owner]
	if len(next) == 0 {
		delete(s.creating.waiting, owner)
	} else {
		s.creating.waiting[owner] = nil
	}
	s.creating.mu.Unlock()
	for _, c := range batch {
		close(c.done)
	}
	if len(next) > 0 {
		next[0].lead <- next
	}
}

// sendCreations sends creations of owner's runs in one batch on q (a
// pool or a transaction) and records each one's outcome. When one of
// several fails (which rolls back the others), each is sent again alone,
// so that one creation's failure is not another's.
func (s *Store) sendCreations(ctx context.Context, q batcher, owner string, batch []*creation) {
	if failed := sendCreationBatch(ctx, q, owner, batch); failed != nil && len(batch) > 1 {
		for _, c := range batch {
			sendCreationBatch(ctx, q, owner, []*creation{c})
		}
	}
}

// sendCreationBatch sends creations in one batch that first locks the owner's
// row, and records each one's outcome. It returns the first failure, which
// rolled the batch back.
func sendCreationBatch(ctx context.Context, q batcher, owner string, batch []*creation) error {
	b := &pgx.Batch{}
	b.Queue(quota.LockUser, owner)
	for _, c := range batch {
		c.queue(b)
	}
	res := q.SendBatch(ctx, b)
	var failed error
	if _, err := res.Exec(); err != nil {
		failed = fmt.Errorf("locking the runs of user %s: %w", owner, err)
	}
	for _, c := range batch {
		if failed != nil {
			break
		}
		var refused error
		c.run, refused, failed = c.read(res)
		c.err = refused
	}
	if err := res.Close(); err != nil && failed == nil {
		failed = fmt.Errorf("creating runs of user %s: %w", owner, err)
	}
	if failed != nil { // rolled back: none was created
		for _, c := range batch {
			c.run, c.err = Run{}, failed
		}
	}
	return failed
}
