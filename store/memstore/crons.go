package memstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/crons"
)

// Crons are the scheduled runs of every user, as store/crons keeps them:
// checked and changed by the same rules (crons.NewCron.Check,
// crons.Change.Apply), deleted with their thread, and fired by FireCrons.
type Crons struct{ s *state }

// cronsData are the crons, by id.
type cronsData struct {
	byID map[string]*crons.Cron
}

func (s *state) initCrons() { s.crons = cronsData{byID: map[string]*crons.Cron{}} }

// deleteCronsOfThread deletes the crons on a thread, as the database
// deletes them with it; the caller holds mu.
func (s *state) deleteCronsOfThread(threadID string) {
	for id, c := range s.crons.byID {
		if c.ThreadID == threadID {
			delete(s.crons.byID, id)
		}
	}
}

// cronNotFound is the store's error for a cron that is missing, or
// another owner's.
func cronNotFound(id string) error { return errcode.New(errcode.NotFound, "no cron %s", id) }

// OwnedCrons are one user's crons: every method reaches that user's only,
// and another user's cron is NOT_FOUND.
type OwnedCrons struct {
	s  *state
	id string
}

// ForOwner returns userID's crons.
func (x *Crons) ForOwner(userID string) OwnedCrons { return OwnedCrons{x.s, userID} }

// own is one of the owner's crons; the caller holds mu.
func (o OwnedCrons) own(id string) (*crons.Cron, error) {
	c, ok := o.s.crons.byID[id]
	if !ok || c.UserID != o.id {
		return nil, cronNotFound(id)
	}
	return c, nil
}

// Create stores a cron, first due at the schedule's next time after now.
// A thread must be the owner's; an owner who keeps the most crons the
// limits allow is refused one more.
func (o OwnedCrons) Create(_ context.Context, nc crons.NewCron) (crons.Cron, error) {
	nc, next, err := nc.Check(time.Now(), o.s.limits)
	if err != nil {
		return crons.Cron{}, err
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	if _, ok := o.s.users[o.id]; !ok {
		return crons.Cron{}, errcode.New(errcode.NotFound, "no such owner")
	}
	if err := o.s.limits.CheckCrons(len(o.matching("", ""))); err != nil {
		return crons.Cron{}, err
	}
	if nc.ThreadID != "" {
		if _, err := o.s.ownThread(o.id, nc.ThreadID); err != nil {
			return crons.Cron{}, errcode.New(errcode.NotFound, "no thread %s", nc.ThreadID)
		}
	}
	at := o.s.now()
	c := &crons.Cron{ID: newID(), UserID: o.id, ThreadID: nc.ThreadID, AssistantID: nc.AssistantID,
		Schedule: nc.Schedule, Timezone: nc.Timezone, Payload: cloneJSON(nc.Payload), Job: cloneJSON(nc.Job),
		Metadata: cloneJSON(nc.Metadata), Enabled: nc.Enabled, OnCompleted: nc.OnCompleted,
		EndTime: microseconds(nc.EndTime), NextRunAt: next, CreatedAt: at, UpdatedAt: at}
	o.s.crons.byID[c.ID] = c
	return copyCron(c), nil
}

// microseconds is t to the microsecond, as PostgreSQL keeps it.
func microseconds(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := t.Truncate(time.Microsecond)
	return &v
}

// copyCron is a cron apart from the stored one.
func copyCron(c *crons.Cron) crons.Cron {
	out := *c
	out.Payload, out.Job, out.Metadata = cloneJSON(c.Payload), cloneJSON(c.Job), cloneJSON(c.Metadata)
	return out
}

// Get is one of the owner's crons.
func (o OwnedCrons) Get(_ context.Context, id string) (crons.Cron, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	c, err := o.own(id)
	if err != nil {
		return crons.Cron{}, err
	}
	return copyCron(c), nil
}

// Update changes one of the owner's crons and works out its next due
// time again.
func (o OwnedCrons) Update(_ context.Context, id string, ch crons.Change) (crons.Cron, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	c, err := o.own(id)
	if err != nil {
		return crons.Cron{}, err
	}
	next, err := ch.Apply(*c, time.Now(), o.s.limits)
	if err != nil {
		return crons.Cron{}, err
	}
	next.Payload, next.Job, next.Metadata = cloneJSON(next.Payload), cloneJSON(next.Job), cloneJSON(next.Metadata)
	next.EndTime, next.UpdatedAt = microseconds(next.EndTime), o.s.now()
	*c = next
	return copyCron(c), nil
}

// Delete removes one of the owner's crons.
func (o OwnedCrons) Delete(_ context.Context, id string) error {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	if _, err := o.own(id); err != nil {
		return err
	}
	delete(o.s.crons.byID, id)
	return nil
}

// cronSorts are the columns crons sort by, by their API name (those of
// crons.SortColumns); a column a cron has no value in is nil.
var cronSorts = map[string]func(c *crons.Cron) any{
	"cron_id":       func(c *crons.Cron) any { return c.ID },
	"assistant_id":  func(c *crons.Cron) any { return c.AssistantID },
	"thread_id":     func(c *crons.Cron) any { return nonEmpty(c.ThreadID) },
	"created_at":    func(c *crons.Cron) any { return c.CreatedAt },
	"updated_at":    func(c *crons.Cron) any { return c.UpdatedAt },
	"next_run_date": func(c *crons.Cron) any { return timeOrNil(c.NextRunAt) },
	"end_time":      func(c *crons.Cron) any { return timeOrNil(c.EndTime) },
}

func nonEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func timeOrNil(t *time.Time) any {
	if t == nil {
		return nil
	}
	return *t
}

// compareColumn compares two values of a column. nulls says that one of
// them or both are nil, which sorts after any value whatever the
// direction.
func compareColumn(a, b any) (c int, nulls bool) {
	switch {
	case a == nil && b == nil:
		return 0, true
	case a == nil:
		return 1, true
	case b == nil:
		return -1, true
	}
	switch av := a.(type) {
	case string:
		return cmp.Compare(av, b.(string)), false
	case time.Time:
		return av.Compare(b.(time.Time)), false
	}
	return 0, false
}

// Search lists the owner's crons that q selects: by q's column (nulls
// last), then by id, both in q's direction.
func (o OwnedCrons) Search(_ context.Context, q crons.Query) ([]crons.Cron, error) {
	q, err := q.Check()
	if err != nil {
		return nil, err
	}
	col, dir := cronSorts[q.SortBy], -1
	if q.Ascending {
		dir = 1
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	list := o.matching(q.AssistantID, q.ThreadID)
	list = slices.DeleteFunc(list, func(c *crons.Cron) bool { return q.Enabled != nil && c.Enabled != *q.Enabled })
	slices.SortFunc(list, func(a, b *crons.Cron) int {
		c, nulls := compareColumn(col(a), col(b))
		if !nulls {
			c *= dir
		}
		return cmp.Or(c, dir*cmp.Compare(a.ID, b.ID))
	})
	return records(page(list, q.Limit, q.Offset), copyCron), nil
}

// matching are the owner's crons of an assistant and a thread ("": any);
// the caller holds mu.
func (o OwnedCrons) matching(assistantID, threadID string) []*crons.Cron {
	var out []*crons.Cron
	for _, c := range o.s.crons.byID {
		if c.UserID == o.id && (assistantID == "" || c.AssistantID == assistantID) && (threadID == "" || c.ThreadID == threadID) {
			out = append(out, c)
		}
	}
	return out
}

// Count counts the owner's crons of an assistant and a thread ("": any).
func (o OwnedCrons) Count(_ context.Context, assistantID, threadID string) (int, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	return len(o.matching(assistantID, threadID)), nil
}

// FireCrons claims up to limit enabled crons of any owner that are due,
// the earliest due first, and for each starts the run plan makes of it,
// as the cron's owner (store.FireCrons and crons.Store.Fire): on the
// cron's thread, or on a new thread. Each cron then moves to its
// schedule's first time after now, or nil past its end. A plan or a start
// that fails skips that due time alone, and is reported with it. It all
// happens under the store's one lock, so a due time starts one run
// whoever fires it; plan must not call the store.
func (st *Store) FireCrons(_ context.Context, limit int, plan func(crons.Cron, time.Time) (store.CronRun, error)) ([]crons.Fired, error) {
	if limit < 0 {
		return nil, fmt.Errorf("claiming due crons: a limit of %d", limit)
	}
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	at := st.s.now()
	var due []*crons.Cron
	for _, c := range s.crons.byID {
		if c.Enabled && c.NextRunAt != nil && !c.NextRunAt.After(at) {
			due = append(due, c)
		}
	}
	slices.SortFunc(due, func(a, b *crons.Cron) int {
		return cmp.Or(a.NextRunAt.Compare(*b.NextRunAt), cmp.Compare(a.ID, b.ID))
	})
	var out []crons.Fired
	for _, c := range due[:min(len(due), limit)] {
		f := crons.Fired{Cron: copyCron(c), Due: *c.NextRunAt}
		f.Err = s.startCronRun(f.Cron, f.Due, plan)
		next, err := c.NextDue(at, s.limits)
		if err != nil {
			f.Err = errors.Join(f.Err, err)
		}
		c.NextRunAt = next
		out = append(out, f)
	}
	return out, nil
}

// startCronRun starts the run plan makes of a due cron, as its owner; the
// caller holds mu. A failure changes nothing.
func (s *state) startCronRun(c crons.Cron, due time.Time, plan func(crons.Cron, time.Time) (store.CronRun, error)) error {
	cr, err := plan(c, due)
	if err != nil {
		return err
	}
	if cr.ThreadID != "" {
		_, err = s.createRunLocked(c.UserID, cr.ThreadID, cr.Run)
		return err
	}
	_, err = s.createRunOnNewThreadLocked(c.UserID, cr.NewThread, cr.Run)
	return err
}
