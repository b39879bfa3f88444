package memstore

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/paging"
)

// run is a run with its events and what the queue keeps of it.
type run struct {
	store.Run
	owner           string
	leaseExpires    time.Time // while running
	cancelRequested bool
	events          []store.RunEvent
	positions       map[string]bool // the positions its events took
	round           int64           // its claim round, taken when it became pending (store.ClaimRound)
}

func (r *run) record() store.Run {
	out := r.Run
	out.CancelRequested = r.cancelRequested
	if r.Status == store.RunRunning {
		exp := r.leaseExpires
		out.LeaseExpiresAt = &exp
	}
	return out
}

func runNotFound(id string) error { return errcode.New(errcode.NotFound, "no run %s", id) }

// ownRun is a run on one of owner's threads; the caller holds mu.
func (s *state) ownRun(owner, id string) (*run, error) {
	r, ok := s.runs[id]
	if !ok || r.owner != owner {
		return nil, runNotFound(id)
	}
	return r, nil
}

// CreateRun creates a run on one of the owner's threads, as
// store.Owner.CreateRun does: pending on an idle thread; otherwise its
// multitask strategy decides (reject, enqueue, interrupt, rollback). An
// owner at their limit of runs queued, pending and running, once the
// strategy has ended those it replaces, is refused one more.
func (o Owner) CreateRun(_ context.Context, threadID string, nr store.NewRun) (store.Run, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	r, err := o.s.createRunLocked(o.id, threadID, nr)
	if err != nil {
		return store.Run{}, err
	}
	return r.record(), nil
}

// createRunLocked is CreateRun; the caller holds mu.
func (s *state) createRunLocked(owner, threadID string, nr store.NewRun) (*run, error) {
	strategy, meta, err := nr.Check()
	if err != nil {
		return nil, err
	}
	stamp, err := store.CheckMetadata(nr.ThreadMetadata)
	if err != nil {
		return nil, err
	}
	t, err := s.ownThread(owner, threadID)
	if err != nil {
		return nil, err
	}
	status, replaces, err := s.makeRoom(t, strategy, func(ended int) error {
		return s.limits.CheckActiveRuns(s.activeRunsOf(owner) - ended)
	})
	if err != nil {
		return nil, err
	}
	t.metadata, t.updated = merge(t.metadata, stamp), s.now()
	return s.addRun(t, nr, strategy, meta, status, replaces), nil
}

// makeRoom applies a multitask strategy to a thread and returns the status
// of the run to create and the run it replaces. It changes nothing until
// check, told how many active runs the strategy ends, lets the run be
// created.
func (s *state) makeRoom(t *thread, strategy string, check func(ended int) error) (status, replaces string, err error) {
	active := s.activeRun(t.id)
	switch {
	case active == nil:
		return store.RunPending, "", check(0)
	case strategy == store.MultitaskReject:
		return "", "", errcode.New(errcode.Conflict, "thread %s already has an active run %s (%s)", t.id, active.ID, active.Status)
	case strategy == store.MultitaskEnqueue:
		return store.RunQueued, "", check(0)
	}
	queued := slices.DeleteFunc(s.runsOf(t.id), func(r *run) bool { return r.Status != store.RunQueued })
	ended := len(queued)
	if active.Status == store.RunPending {
		ended++
	}
	if err := check(ended); err != nil {
		return "", "", err
	}
	for _, r := range queued {
		s.endRun(r, store.RunCancelled, "")
	}
	if active.Status == store.RunPending {
		atOnce := store.RollsBackAtOnce(strategy, active.Run)
		s.endRun(active, store.RunCancelled, "")
		if atOnce {
			delete(s.runs, active.ID)
			return store.RunPending, "", nil
		}
		return store.RunPending, active.ID, nil
	}
	s.requestCancel(active)
	return store.RunQueued, active.ID, nil
}

// addRun adds a run to a thread; the caller holds mu.
func (s *state) addRun(t *thread, nr store.NewRun, strategy string, meta []byte, status, replaces string) *run {
	at := s.now()
	r := &run{owner: t.owner, Run: store.Run{ID: newID(), ThreadID: t.id, Status: status, MultitaskStrategy: strategy,
		Input: cloneJSON(nr.Input), Metadata: encode(decode(meta)), CreatedAt: at, UpdatedAt: at, Replaces: replaces,
		AssistantID: nr.AssistantID}}
	if nr.Delay > 0 {
		nb := at.Add(nr.Delay)
		r.NotBefore = &nb
	}
	if status == store.RunPending {
		r.round = s.claimRound(r.owner)
	}
	if status == store.RunPending && replaces == "" && nr.ClaimFor.ID != "" && nr.Delay <= 0 && !s.anyDueLocked(at) {
		r.Status, r.WorkerID, r.Attempts, r.leaseExpires, r.StartedAt = store.RunRunning, nr.ClaimFor.ID, 1, at.Add(nr.ClaimFor.Lease), &at
		t.status = store.ThreadBusy
	}
	s.runs[r.ID] = r
	if r.Status == store.RunPending {
		s.pendingLocked()
	}
	return r
}

// anyDueLocked reports whether a pending run is due at at: one a worker
// would claim. The caller holds mu.
func (s *state) anyDueLocked(at time.Time) bool {
	for _, r := range s.runs {
		if r.dueAt(at) {
			return true
		}
	}
	return false
}

// dueAt reports whether r waits to be claimed at at: pending, and not
// delayed past it.
func (r *run) dueAt(at time.Time) bool {
	return r.Status == store.RunPending && (r.NotBefore == nil || !r.NotBefore.After(at))
}

// claimRound is the claim round a run of owner's takes as it becomes
// pending (store.ClaimRound); the caller holds mu.
func (s *state) claimRound(owner string) int64 {
	var lowest, highest *int64
	for _, r := range s.runs {
		if r.Status != store.RunPending {
			continue
		}
		if lowest == nil || r.round < *lowest {
			lowest = &r.round
		}
		if r.owner == owner && (highest == nil || r.round > *highest) {
			highest = &r.round
		}
	}
	return store.ClaimRound(lowest, highest)
}

// cloneJSON copies a JSON value; none stays none.
func cloneJSON(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return encode(decode(b))
}

// CreateRunOnNewThread creates a thread of the owner's, as CreateThread
// does, with a pending run on it.
func (o Owner) CreateRunOnNewThread(_ context.Context, nt store.NewThread, nr store.NewRun) (store.Run, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	r, err := o.s.createRunOnNewThreadLocked(o.id, nt, nr)
	if err != nil {
		return store.Run{}, err
	}
	return r.record(), nil
}

// createRunOnNewThreadLocked is CreateRunOnNewThread; the caller holds mu.
// An owner at their limit of active runs gets no thread either.
func (s *state) createRunOnNewThreadLocked(owner string, nt store.NewThread, nr store.NewRun) (*run, error) {
	strategy, meta, err := nr.Check()
	if err != nil {
		return nil, err
	}
	if err := s.limits.CheckActiveRuns(s.activeRunsOf(owner)); err != nil {
		return nil, err
	}
	threadMeta, err := store.CheckMetadata(nt.Metadata)
	if err != nil {
		return nil, err
	}
	stamp, err := store.CheckMetadata(nr.ThreadMetadata)
	if err != nil {
		return nil, err
	}
	t, err := s.newThreadLocked(owner, nt.ID, merge(threadMeta, stamp))
	if err != nil {
		return nil, err
	}
	return s.addRun(t, nr, strategy, meta, store.RunPending, ""), nil
}

// Run returns a run on one of the owner's threads.
func (o Owner) Run(_ context.Context, runID string) (store.Run, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	r, err := o.s.ownRun(o.id, runID)
	if err != nil {
		return store.Run{}, err
	}
	return r.record(), nil
}

// ActiveRun returns the pending or running run of one of the owner's
// threads.
func (o Owner) ActiveRun(_ context.Context, threadID string) (store.Run, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	t, ok := o.s.threads[threadID]
	if ok && t.owner == o.id {
		if r := o.s.activeRun(threadID); r != nil {
			return r.record(), nil
		}
	}
	return store.Run{}, errcode.New(errcode.NotFound, "thread %s has no active run", threadID)
}

// ListRuns lists the runs of one of the owner's threads, newest first;
// with statuses, only the runs in one of them. Another owner's thread
// has none.
func (o Owner) ListRuns(_ context.Context, threadID string, limit, offset int, statuses ...string) ([]store.Run, error) {
	limit, offset = paging.Clamp(limit, offset, 20)
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	out := []store.Run{}
	t, ok := o.s.threads[threadID]
	if !ok || t.owner != o.id {
		return out, nil
	}
	var list []*run
	for _, r := range o.s.runsOf(threadID) {
		if statuses == nil || slices.Contains(statuses, r.Status) {
			list = append(list, r)
		}
	}
	slices.Reverse(list)
	return records(page(list, limit, offset), (*run).record), nil
}

// activeRunsOf counts the owner's runs queued, pending and running, over
// all their threads; the caller holds mu.
func (s *state) activeRunsOf(owner string) int {
	n := 0
	for _, r := range s.runs {
		if r.owner == owner && !r.Final() {
			n++
		}
	}
	return n
}

// runsOf are a thread's runs, oldest first; the caller holds mu.
func (s *state) runsOf(threadID string) []*run {
	var list []*run
	for _, r := range s.runs {
		if r.ThreadID == threadID {
			list = append(list, r)
		}
	}
	slices.SortFunc(list, func(a, b *run) int { return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID)) })
	return list
}

// activeRun is a thread's pending or running run, nil when none; the
// caller holds mu.
func (s *state) activeRun(threadID string) *run {
	for _, r := range s.runs {
		if r.ThreadID == threadID && (r.Status == store.RunPending || r.Status == store.RunRunning) {
			return r
		}
	}
	return nil
}

// endRun gives a run a final status. When it was its thread's active one,
// the thread's oldest queued run becomes pending (the thread busy again),
// or else the thread takes the status the run's end gives it. The caller
// holds mu.
func (s *state) endRun(r *run, status, runErr string) {
	wasActive := r.Status != store.RunQueued
	at := s.now()
	r.Status, r.Error, r.FinishedAt, r.UpdatedAt = status, runErr, &at, at
	r.leaseExpires = time.Time{}
	defer s.notifyLocked()
	t := s.threads[r.ThreadID]
	if !wasActive || t == nil {
		return
	}
	for _, q := range s.runsOf(r.ThreadID) {
		if q.Status == store.RunQueued {
			q.round = s.claimRound(q.owner)
			q.Status, q.UpdatedAt = store.RunPending, at
			t.status, t.updated = store.ThreadBusy, at
			s.pendingLocked()
			return
		}
	}
	t.status, _ = store.ThreadStatusAfter(status)
	t.updated = at
}

// requestCancel records a cancel request on a running run.
func (s *state) requestCancel(r *run) {
	r.cancelRequested, r.UpdatedAt = true, s.now()
	s.notifyLocked()
}

// CancelRun cancels a run of the owner's: a queued or pending one ends
// cancelled at once; a running one gets a cancel request, which its
// worker acts on. A run that has ended is a CONFLICT.
func (o Owner) CancelRun(_ context.Context, runID string) (store.Run, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	r, err := o.s.ownRun(o.id, runID)
	if err != nil {
		return store.Run{}, err
	}
	switch r.Status {
	case store.RunQueued, store.RunPending:
		o.s.endRun(r, store.RunCancelled, "")
	case store.RunRunning:
		o.s.requestCancel(r)
	default:
		return store.Run{}, errcode.New(errcode.Conflict, "cannot cancel run %s: it is %s", runID, r.Status)
	}
	return r.record(), nil
}

// ClaimRun takes the next pending run of any owner for workerID, of the
// lowest claim round and the oldest within it (store.ClaimRound), marks
// it running under a lease of the given length, counts the attempt and
// marks its thread busy. ok is false when no run is waiting.
func (st *Store) ClaimRun(_ context.Context, workerID string, lease time.Duration) (store.Claim, bool, error) {
	if workerID == "" || lease <= 0 {
		return store.Claim{}, false, errcode.New(errcode.BadRequest, "a claim needs a worker id and a positive lease")
	}
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	at := st.s.now()
	var due []*run
	for _, r := range s.runs {
		if r.dueAt(at) {
			due = append(due, r)
		}
	}
	if len(due) == 0 {
		return store.Claim{}, false, nil
	}
	r := slices.MinFunc(due, func(a, b *run) int {
		return cmp.Or(cmp.Compare(a.round, b.round), a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	r.Status, r.WorkerID, r.Attempts, r.leaseExpires, r.UpdatedAt = store.RunRunning, workerID, r.Attempts+1, at.Add(lease), at
	if r.StartedAt == nil {
		r.StartedAt = &at
	}
	t := s.threads[r.ThreadID]
	t.status, t.updated = store.ThreadBusy, at
	s.notifyLocked()
	return store.Claim{Run: r.record(), Owner: r.owner, More: len(due) > 1}, true, nil
}

// heldRun is the run l names while l holds it; the caller holds mu.
func (s *state) heldRun(l store.Lease) (*run, error) {
	r, ok := s.runs[l.RunID]
	if !ok || !l.Holds(r.Run) {
		return nil, store.LeaseLost(l)
	}
	return r, nil
}

// endingRun is the run l names while l holds it, for finishing or
// releasing it: a run that does not exist is NOT_FOUND, as in
// PostgreSQL, rather than a lost lease. The caller holds mu.
func (s *state) endingRun(l store.Lease) (*run, error) {
	if _, ok := s.runs[l.RunID]; !ok {
		return nil, runNotFound(l.RunID)
	}
	return s.heldRun(l)
}

// RenewLease extends the lease l to the given length from now, or fails
// with store.ErrLeaseLost (a CONFLICT) when l no longer holds its run.
func (st *Store) RenewLease(_ context.Context, l store.Lease, lease time.Duration) (store.Run, error) {
	if lease <= 0 {
		return store.Run{}, errcode.New(errcode.BadRequest, "a lease must be positive")
	}
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.heldRun(l)
	if err != nil {
		return store.Run{}, err
	}
	r.leaseExpires, r.UpdatedAt = st.s.now().Add(lease), st.s.now()
	return r.record(), nil
}

// FinishRun ends a run that l still holds with a final status and an
// error message, promotes the thread's next queued run, and sets the
// thread's status to match.
func (st *Store) FinishRun(_ context.Context, l store.Lease, status, runErr string) (store.Run, error) {
	if _, ok := store.ThreadStatusAfter(status); !ok {
		return store.Run{}, errcode.New(errcode.BadRequest, "%q is not a final run status", status)
	}
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.endingRun(l)
	if err != nil {
		return store.Run{}, err
	}
	s.endRun(r, status, runErr)
	return r.record(), nil
}

// ReleaseRun hands a run that l still holds back to the queue, pending;
// one with a cancel request ends cancelled instead.
func (st *Store) ReleaseRun(_ context.Context, l store.Lease) (store.Run, error) {
	return st.handBack(l, 0)
}

// ReturnClaim undoes a claim l made as its worker's pool began to stop:
// the run is pending again and the claim is not counted; one with a cancel
// request ends cancelled instead.
func (st *Store) ReturnClaim(_ context.Context, l store.Lease) (store.Run, error) {
	return st.handBack(l, 1)
}

// handBack is ReleaseRun with the run's attempts lowered by uncount.
func (st *Store) handBack(l store.Lease, uncount int) (store.Run, error) {
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.endingRun(l)
	if err != nil {
		return store.Run{}, err
	}
	if r.cancelRequested {
		s.endRun(r, store.RunCancelled, "")
	} else {
		r.Attempts = max(r.Attempts-uncount, 0)
		s.requeue(r)
	}
	return r.record(), nil
}

// requeue puts a running run back to pending, without a lease; it keeps
// its claim round, so it is claimed again before the runs that became
// pending since.
func (s *state) requeue(r *run) {
	r.Status, r.leaseExpires, r.UpdatedAt = store.RunPending, time.Time{}, s.now()
	s.pendingLocked()
	s.notifyLocked()
}

// ReclaimExpired deals with the running runs whose lease has expired: a
// run with a cancel request ends cancelled; a run claimed maxAttempts
// times already ends in error; any other goes back to pending. It returns
// the runs it changed.
func (st *Store) ReclaimExpired(_ context.Context, maxAttempts int) ([]store.Run, error) {
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	at := st.s.now()
	var expired []*run
	for _, r := range s.runs {
		if r.Status == store.RunRunning && r.leaseExpires.Before(at) {
			expired = append(expired, r)
		}
	}
	slices.SortFunc(expired, func(a, b *run) int { return a.leaseExpires.Compare(b.leaseExpires) })
	var changed []store.Run
	for _, r := range expired[:min(len(expired), 100)] {
		switch {
		case r.cancelRequested:
			s.endRun(r, store.RunCancelled, "")
		case r.Attempts >= maxAttempts:
			s.endRun(r, store.RunError, fmt.Sprintf("the run's worker stopped answering %d times", r.Attempts))
		default:
			s.requeue(r)
		}
		changed = append(changed, r.record())
	}
	return changed, nil
}

// WatchCancel returns a context derived from ctx that is cancelled, with
// cause store.ErrRunCancelled, when a cancel is requested for the run, or
// was before the call, or the run (of thread threadID) is gone.
func (st *Store) WatchCancel(ctx context.Context, threadID, runID string) (context.Context, context.CancelFunc, error) {
	watched, cancel := context.WithCancelCause(ctx)
	requested := func() (bool, <-chan struct{}) {
		s := st.s
		s.mu.Lock()
		defer s.mu.Unlock()
		r, ok := s.runs[runID]
		return !ok || r.ThreadID != threadID || r.cancelRequested, s.changed
	}
	yes, changed := requested()
	if yes {
		cancel(store.ErrRunCancelled)
	}
	go func() {
		for !yes {
			select {
			case <-watched.Done():
				return
			case <-changed:
			}
			if yes, changed = requested(); yes {
				cancel(store.ErrRunCancelled)
			}
		}
	}()
	return watched, func() { cancel(context.Canceled) }, nil
}

// WatchQueue tells pending whenever a run becomes pending, until stop.
func (st *Store) WatchQueue(context.Context) (<-chan struct{}, func(), error) {
	s := st.s
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	id := s.nextWatcher
	s.nextWatcher++
	s.queueWatchers[id] = ch
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		delete(s.queueWatchers, id)
		s.mu.Unlock()
	}, nil
}

// DeleteRunThread deletes thread threadID of an ended run runID with all
// on it, unless another run of the thread is still active.
func (st *Store) DeleteRunThread(_ context.Context, threadID, runID string) error {
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.runs[runID]
	if !ok || r.ThreadID != threadID || !r.Final() {
		return nil
	}
	for _, o := range s.runsOf(r.ThreadID) {
		if !o.Final() {
			return nil
		}
	}
	s.deleteThreadLocked(r.ThreadID)
	return nil
}

// RunQueueDepth returns the queue depth over all owners.
func (st *Store) RunQueueDepth(context.Context) (store.QueueDepth, error) {
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	var d store.QueueDepth
	for _, r := range s.runs {
		switch r.Status {
		case store.RunPending:
			d.Pending++
		case store.RunQueued:
			d.Queued++
		}
	}
	return d, nil
}

// RunsByStatus counts the runs of all owners by status; every status is
// present.
func (st *Store) RunsByStatus(context.Context) (map[string]int64, error) {
	counts := map[string]int64{}
	for _, status := range []string{store.RunQueued, store.RunPending, store.RunRunning, store.RunSuccess,
		store.RunError, store.RunInterrupted, store.RunCancelled} {
		counts[status] = 0
	}
	s := st.s
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.runs {
		counts[r.Status]++
	}
	return counts, nil
}
