package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store/paging"
	"github.com/tripgraph/tripgraph/store/quota"
	"github.com/tripgraph/tripgraph/store/replica"
)

// Run statuses. Pending and running runs are active: a thread has at most
// one, which the database enforces with a unique partial index. A queued
// run waits behind its thread's active run and becomes pending when that
// one ends.
const (
	RunQueued      = "queued"
	RunPending     = "pending"
	RunRunning     = "running"
	RunSuccess     = "success"
	RunError       = "error"
	RunInterrupted = "interrupted"
	RunCancelled   = "cancelled"
)

// Multitask strategies: what happens to a thread's active run when another
// run is created on it. Reject refuses the new run; enqueue queues it
// behind the active one; interrupt and rollback cancel the active run and
// queue the new one first (the worker that runs it does the graph-level
// rollback, from Run.Replaces).
const (
	MultitaskReject    = "reject"
	MultitaskInterrupt = "interrupt"
	MultitaskRollback  = "rollback"
	MultitaskEnqueue   = "enqueue"
)

// Run is one execution of the graph on a thread.
type Run struct {
	ID                string
	ThreadID          string
	Status            string
	MultitaskStrategy string
	Input             json.RawMessage
	Metadata          json.RawMessage
	Error             string
	CreatedAt         time.Time
	StartedAt         *time.Time
	FinishedAt        *time.Time
	UpdatedAt         time.Time

	WorkerID        string     // the worker that claimed it last
	LeaseExpiresAt  *time.Time // while running
	Attempts        int        // times claimed; above 1 means resumed
	CancelRequested bool       // a cancel was asked while it ran
	Replaces        string     // the run an interrupt or rollback cancelled
	NotBefore       *time.Time // a delayed run: no worker claims it before then
	AssistantID     string     // the assistant it was created for, as the client named it
}

// Final reports whether the run has ended.
func (r Run) Final() bool {
	switch r.Status {
	case RunQueued, RunPending, RunRunning:
		return false
	}
	return true
}

// NewRun describes a run to create.
type NewRun struct {
	Input             json.RawMessage // optional: any JSON value
	Metadata          json.RawMessage // optional: a JSON object
	MultitaskStrategy string          // "" means MultitaskReject
	// Delay makes a delayed run: pending, so it holds its thread as an
	// active run does, but claimed only once it has passed.
	Delay       time.Duration
	AssistantID string // the assistant the run is for, as the client named it
	// ThreadMetadata, a JSON object, is merged into the thread's metadata
	// as the run is created (LangGraph stamps a run's graph and assistant
	// there).
	ThreadMetadata json.RawMessage
	// ClaimFor, when it names a worker, lets the run be created claimed
	// by it, as ClaimRun would leave it (running, first attempt, under a
	// lease, its thread busy): when it is created pending on a thread with
	// no active run, undelayed, and no other run waits to be claimed, so
	// that it takes no other run's turn. The worker then starts it without
	// a claim's round trip and commit. Otherwise the run is created as
	// without it; whether it was claimed is its Status (running, by
	// ClaimFor.ID).
	ClaimFor Worker
}

// Worker is a worker that may take a run as it is created (NewRun.ClaimFor).
type Worker struct {
	ID    string        // "" for none
	Lease time.Duration // the claim's lease
}

// claimsAtOnce is the SQL condition that a run being created pending is
// created claimed instead (NewRun.ClaimFor): a worker is named (worker, a
// text parameter), the run is not delayed (delay, its microseconds) and
// no other run is waiting to be claimed, so that it takes no other's turn.
func claimsAtOnce(worker, delay string) string {
	return `(` + worker + `::text <> '' AND ` + delay + `::bigint <= 0 AND NOT EXISTS (
		SELECT 1 FROM runs p WHERE ` + dueRun("p") + `))`
}

// claimedColumns is the SQL of the columns a new run takes from whether it
// is claimed at once (atOnce, an SQL boolean), by worker under a lease of
// lease microseconds (parameters): its status, and the claim ClaimRun
// would record. In the order of claimedColumnNames.
func claimedColumns(atOnce, worker, lease string) string {
	return `CASE WHEN ` + atOnce + ` THEN 'running' ELSE 'pending' END,
		CASE WHEN ` + atOnce + ` THEN ` + worker + `::text END,
		CASE WHEN ` + atOnce + ` THEN 1 ELSE 0 END,
		CASE WHEN ` + atOnce + ` THEN now() + ` + lease + `::bigint * interval '1 microsecond' END,
		CASE WHEN ` + atOnce + ` THEN now() END`
}

// claimedColumnNames names the columns of claimedColumns.
const claimedColumnNames = `status, worker_id, attempts, lease_expires_at, started_at`

const runColumns = `r.id, r.thread_id, r.status, r.multitask_strategy, r.input, r.metadata,
	coalesce(r.error, ''), r.created_at, r.started_at, r.finished_at, r.updated_at,
	coalesce(r.worker_id, ''), r.lease_expires_at, r.attempts, r.cancel_requested_at IS NOT NULL,
	coalesce(r.replaces::text, ''), r.not_before, coalesce(r.assistant_id, '')`

// CreateRun creates a run on one of the owner's threads. With no active run
// on the thread it is pending. Otherwise its multitask strategy decides:
// reject (the default) returns a CONFLICT error naming the active run;
// enqueue creates it queued behind the others; interrupt and rollback
// cancel the thread's queued runs and its active one (at once when pending,
// by a cancel request when running) and create it pending, or queued until
// the running one ends. An owner with the most runs queued, pending and
// running the limits allow, over all their threads, once the strategy has
// ended those it replaces, is refused one more (TOO_MANY_REQUESTS,
// quota.Limits.CheckActiveRuns). All of it is one transaction, which
// locks the owner's row before it counts their runs: two processes cannot
// both create the last run allowed.
func (o Owner) CreateRun(ctx context.Context, threadID string, nr NewRun) (Run, error) {
	if run, ok, err := o.createRunOnIdleThread(ctx, threadID, nr); ok || err != nil {
		return run, err
	}
	var run Run
	err := o.s.inTx(ctx, o.s.requests, func(tx pgx.Tx, n *notes) (err error) {
		run, err = o.createRunIn(ctx, tx, n, threadID, nr)
		return err
	})
	return run, notFoundAs(err, "Thread with ID %s not found", threadID)
}

// createRunOnIdleThread is CreateRun for its usual case, a thread with no
// active run and an owner below their limit, in one round trip and one
// commit, shared with the owner's other creations under way (see
// creation): after the owner's lock, it stamps the thread's metadata and
// then, in a statement of its own that so sees every run committed before
// the lock was had, creates the run pending if the thread has no active
// run and the owner fewer active runs than the limit. ok is false when it
// created none (the thread is missing, or busy, or the owner at their
// limit): CreateRun's transaction then decides, and says why.
func (o Owner) createRunOnIdleThread(ctx context.Context, threadID string, nr NewRun) (run Run, ok bool, err error) {
	if err := uuid.Validate(threadID); err != nil {
		return Run{}, false, errcode.New(errcode.NotFound, "Thread with ID %s not found", threadID)
	}
	strategy, input, meta, err := nr.columns()
	if err != nil {
		return Run{}, false, err
	}
	stamp, err := CheckMetadata(nr.ThreadMetadata)
	if err != nil {
		return Run{}, false, err
	}
	c := newCreation(func(b *pgx.Batch) {
		b.Queue(`UPDATE threads SET metadata = metadata || $3, updated_at = now() WHERE id = $1 AND owner_id::text = $2`,
			threadID, o.id, stamp)
		b.Queue(`
		WITH c AS (SELECT `+claimsAtOnce("$9", "$7")+` AS at_once),
		r AS (
			INSERT INTO runs (thread_id, owner_id, multitask_strategy, input, metadata, not_before, assistant_id, claim_round,
				`+claimedColumnNames+`)
			SELECT t.id, t.owner_id, $3, $4, $5, `+notBefore+`, nullif($6, ''), `+claimRoundOf("t.owner_id", "")+`,
				`+claimedColumns("c.at_once", "$9", "$10")+`
			FROM threads t, c
			WHERE t.id = $1 AND t.owner_id::text = $2
				AND NOT EXISTS (SELECT 1 FROM runs WHERE thread_id = t.id AND status IN ('pending', 'running'))
				AND `+activeRunsBelow("t.owner_id", "$8")+`
			RETURNING *),
		busy AS (UPDATE threads SET status = 'busy' FROM r WHERE threads.id = r.thread_id AND r.status = 'running')
		SELECT `+runColumns+` FROM r`, threadID, o.id, strategy, input, meta, nr.AssistantID, nr.Delay.Microseconds(),
			o.s.limits.ActiveRuns, nr.ClaimFor.ID, nr.ClaimFor.Lease.Microseconds())
	}, func(res pgx.BatchResults) (Run, error, error) {
		if _, err := res.Exec(); err != nil {
			return Run{}, nil, fmt.Errorf("stamping thread %s: %w", threadID, err)
		}
		run, err := batchRow(res, scanRun)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return Run{}, errNotCreatedAtOnce, nil
		case err != nil:
			return Run{}, nil, fmt.Errorf("creating a run on thread %s: %w", threadID, err)
		}
		return run, nil, nil
	})
	watched := o.s.cancelWatchFor(ctx, threadID, nr)
	run, err = o.s.create(ctx, o.id, c)
	watched(run, err)
	switch {
	case errors.Is(err, errNotCreatedAtOnce):
		return Run{}, false, nil
	case err != nil:
		return Run{}, false, notFoundAs(err, "Thread with ID %s not found", threadID)
	}
	o.announceCreated(ctx, run)
	return run, true, nil
}

// errNotCreatedAtOnce is a creation's answer when the thread is missing,
// or busy, or its owner at their limit: CreateRun's transaction decides.
var errNotCreatedAtOnce = errors.New("no run was created at once")

// CreateRunIn is CreateRun within tx, for a caller that commits the run
// together with its own changes (a cron's next due time). The run is
// announced when tx commits.
func (o Owner) CreateRunIn(ctx context.Context, tx pgx.Tx, threadID string, nr NewRun) (Run, error) {
	var n notes
	run, err := o.createRunIn(ctx, tx, &n, threadID, nr)
	if err == nil {
		err = n.sendIn(ctx, tx)
	}
	return run, err
}

// createRunIn is CreateRun within tx; it adds the announcements to send
// once tx commits to n.
func (o Owner) createRunIn(ctx context.Context, tx pgx.Tx, n *notes, threadID string, nr NewRun) (Run, error) {
	strategy, input, meta, err := nr.columns()
	if err != nil {
		return Run{}, err
	}
	if err := o.lockRuns(ctx, tx); err != nil {
		return Run{}, err
	}
	if err := lockThread(ctx, tx, o.id, threadID); err != nil {
		return Run{}, err
	}
	if len(nr.ThreadMetadata) > 0 {
		stamp, err := CheckMetadata(nr.ThreadMetadata)
		if err != nil {
			return Run{}, err
		}
		if _, err := tx.Exec(ctx, `UPDATE threads SET metadata = metadata || $2, updated_at = now() WHERE id = $1`, threadID, stamp); err != nil {
			return Run{}, fmt.Errorf("stamping the metadata of thread %s: %w", threadID, err)
		}
	}
	status, replaces, err := makeRoom(ctx, tx, n, threadID, strategy)
	if err != nil {
		return Run{}, err
	}
	if err := o.roomForOneMore(ctx, tx); err != nil {
		return Run{}, err
	}
	run, err := oneRun(ctx, tx, "creating a run on thread "+threadID, `
		WITH r AS (
			INSERT INTO runs (thread_id, owner_id, status, multitask_strategy, input, metadata, replaces, not_before, assistant_id,
				claim_round)
			VALUES ($1, $9, $2, $3, $4, $5, nullif($6, '')::uuid, `+notBefore+`, nullif($8, ''), `+claimRoundOf("$9::uuid", "")+`)
			RETURNING *)
		SELECT `+runColumns+` FROM r`, threadID, status, strategy, input, meta, replaces, nr.Delay.Microseconds(), nr.AssistantID, o.id)
	if err == nil && run.Status == RunPending {
		n.add(runPending)
	}
	return run, err
}

// CreateRunOnNewThread creates a thread of the owner's, as CreateThread
// does, with a pending run on it, in one batch: one round trip and one
// commit (shared with the owner's other creations under way, see
// creation), where CreateThread then CreateRun take two commits and a
// transaction of five statements. A stateless run starts this way. An
// owner at their limit of active runs is refused, as CreateRun refuses
// them, and gets no thread either.
func (o Owner) CreateRunOnNewThread(ctx context.Context, nt NewThread, nr NewRun) (Run, error) {
	c, err := o.onNewThread(nt, nr)
	if err != nil {
		return Run{}, err
	}
	watched := o.s.cancelWatchFor(ctx, nt.ID, nr)
	run, err := o.s.create(ctx, o.id, c)
	watched(run, err)
	if err == nil {
		o.announceCreated(ctx, run)
	}
	return run, err
}

// cancelWatchFor subscribes, before a run that may be created claimed
// (nr.ClaimFor) is created on thread threadID, to the cancel requests of
// the thread's runs, and returns what, once the creation is over, keeps
// that subscription for the worker's cancel watch (WatchCancel) of the
// run created claimed, or else drops it. Subscribed before the run
// exists, it hears every cancel of the run, so the watch need not read
// whether one came before it. Without a worker or a thread's id, or when
// the hub cannot subscribe, it keeps nothing, and the watch reads.
func (s *Store) cancelWatchFor(ctx context.Context, threadID string, nr NewRun) (created func(Run, error)) {
	if nr.ClaimFor.ID == "" || threadID == "" {
		return func(Run, error) {}
	}
	h := s.runHub()
	sub, unsubscribe, err := h.subscribe(ctx, RunCancelChannel, threadKey(threadID))
	if err != nil {
		return func(Run, error) {}
	}
	return func(run Run, err error) {
		if err != nil || run.Status != RunRunning {
			unsubscribe()
			return
		}
		h.keepSub(subKey{RunCancelChannel, run.ID}, "", sub, unsubscribe)
	}
}

// announceCreated tells the workers of every process of a run created
// pending. A run created claimed (NewRun.ClaimFor) has its worker, in
// this process, which is handed the run once this returns: the run's
// events are subscribed to now, for its first follower here (hub.keep).
func (o Owner) announceCreated(ctx context.Context, run Run) {
	switch run.Status {
	case RunPending:
		o.s.announce(runPending)
	case RunRunning:
		o.s.runHub().keep(ctx, o.id, run.ID)
	}
}

// CreateRunOnNewThreadIn is CreateRunOnNewThread within tx; the run is
// announced when tx commits.
func (o Owner) CreateRunOnNewThreadIn(ctx context.Context, tx pgx.Tx, nt NewThread, nr NewRun) (Run, error) {
	c, err := o.onNewThread(nt, nr)
	if err != nil {
		return Run{}, err
	}
	o.s.sendCreations(ctx, tx, o.id, []*creation{c})
	if c.err == nil && c.run.Status == RunPending {
		c.err = notes{runPending}.sendIn(ctx, tx)
	}
	return c.run, c.err
}

// onNewThread is the creation of a run on a new thread: after the owner's
// lock, a statement counts their active runs, and then another creates
// the thread and its run if the owner is below their limit; else the
// count says why not.
func (o Owner) onNewThread(nt NewThread, nr NewRun) (*creation, error) {
	strategy, input, meta, err := nr.columns()
	if err != nil {
		return nil, err
	}
	threadMeta, err := CheckMetadata(nt.Metadata)
	if err != nil {
		return nil, err
	}
	stamp, err := CheckMetadata(nr.ThreadMetadata)
	if err != nil {
		return nil, err
	}
	return newCreation(func(b *pgx.Batch) {
		b.Queue(countActiveRuns, o.id)
		b.Queue(`
		WITH c AS (SELECT `+claimsAtOnce("$11", "$7")+` AS at_once),
		t AS (
			INSERT INTO threads (id, owner_id, metadata, status)
			SELECT coalesce($1::uuid, gen_random_uuid()), $2, $3::jsonb || $9::jsonb,
				CASE WHEN c.at_once THEN 'busy' ELSE 'idle' END
			FROM c
			WHERE `+activeRunsBelow("$2::uuid", "$10")+`
			RETURNING id, owner_id),
		r AS (
			INSERT INTO runs (thread_id, owner_id, multitask_strategy, input, metadata, not_before, assistant_id, claim_round,
				`+claimedColumnNames+`)
			SELECT t.id, t.owner_id, $4, $5, $6, `+notBefore+`, nullif($8, ''), `+claimRoundOf("t.owner_id", "")+`,
				`+claimedColumns("c.at_once", "$11", "$12")+`
			FROM t, c
			RETURNING *)
		SELECT `+runColumns+` FROM r`, nullable(nt.ID), o.id, threadMeta, strategy, input, meta, nr.Delay.Microseconds(),
			nr.AssistantID, stamp, o.s.limits.ActiveRuns, nr.ClaimFor.ID, nr.ClaimFor.Lease.Microseconds())
	}, func(res pgx.BatchResults) (Run, error, error) {
		var active int
		if err := res.QueryRow().Scan(&active); err != nil {
			return Run{}, nil, threadError(fmt.Errorf("counting the active runs of user %s: %w", o.id, err), "creating a run on a new thread", nt.ID)
		}
		run, err := batchRow(res, scanRun)
		if errors.Is(err, pgx.ErrNoRows) { // the owner is at their limit
			if refused := o.s.limits.CheckActiveRuns(active); refused != nil {
				return Run{}, refused, nil
			}
		}
		if err != nil {
			return Run{}, nil, threadError(err, "creating a run on a new thread", nt.ID)
		}
		return run, nil, nil
	}), nil
}

// lockRuns locks the owner's row in tx, before their active runs are
// counted: the creations of one owner's runs wait for one another.
func (o Owner) lockRuns(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, quota.LockUser, o.id); err != nil {
		return fmt.Errorf("locking the runs of user %s: %w", o.id, err)
	}
	return nil
}

// roomForOneMore counts the owner's active runs in tx, which has locked
// the owner's row, and refuses one more past the limit.
func (o Owner) roomForOneMore(ctx context.Context, tx pgx.Tx) error {
	var active int
	if err := tx.QueryRow(ctx, countActiveRuns, o.id).Scan(&active); err != nil {
		return fmt.Errorf("counting the active runs of user %s: %w", o.id, err)
	}
	return o.s.limits.CheckActiveRuns(active)
}

// activeRunsOf is the SQL that counts owner's (an SQL expression) runs
// queued, pending and running, on the index runs_owner_active_idx.
func activeRunsOf(owner string) string {
	return `(SELECT count(*) FROM runs a WHERE a.owner_id = ` + owner + ` AND a.status IN ('queued', 'pending', 'running'))`
}

// countActiveRuns counts owner $1's active runs.
var countActiveRuns = `SELECT ` + activeRunsOf("$1")

// activeRunsBelow is the SQL condition that owner (an SQL expression) has
// fewer active runs than limit (a parameter): quota.Limits.CheckActiveRuns's
// rule, for the statements that create a run in one round trip. When it
// fails they create nothing, and their caller asks the rule itself for
// its error.
func activeRunsBelow(owner, limit string) string { return activeRunsOf(owner) + ` < ` + limit }

// batcher sends a batch: a pool or a transaction.
type batcher interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// notBefore is the SQL of a new run's not_before from its delay in
// microseconds, the seventh parameter: none when it is not delayed.
const notBefore = `CASE WHEN $7::bigint > 0 THEN now() + $7::bigint * interval '1 microsecond' END`

// Check applies the store's rules to a new run and returns its multitask
// strategy (reject when it names none) and its metadata (a JSON object;
// none is {}).
func (nr NewRun) Check() (strategy string, meta []byte, err error) {
	if meta, err = CheckMetadata(nr.Metadata); err != nil {
		return "", nil, err
	}
	strategy = nr.MultitaskStrategy
	if strategy == "" {
		strategy = MultitaskReject
	}
	switch strategy {
	case MultitaskReject, MultitaskEnqueue, MultitaskInterrupt, MultitaskRollback:
	default:
		return "", nil, errcode.New(errcode.BadRequest, "%q is not a multitask strategy", strategy)
	}
	return strategy, meta, nil
}

// columns checks a new run and returns its strategy, input and metadata
// as the runs table stores them.
func (nr NewRun) columns() (strategy string, input any, meta []byte, err error) {
	if strategy, meta, err = nr.Check(); err != nil {
		return "", nil, nil, err
	}
	if len(nr.Input) > 0 {
		input = []byte(nr.Input)
	}
	return strategy, input, meta, nil
}

// makeRoom applies a multitask strategy to a locked thread and returns the
// status of the run to create and the run it replaces; it adds the
// announcements of the runs it ends or asks to cancel to n.
func makeRoom(ctx context.Context, tx pgx.Tx, n *notes, threadID, strategy string) (status, replaces string, err error) {
	active, err := oneRun(ctx, tx, "reading the active run of thread "+threadID, `
		SELECT `+runColumns+` FROM runs r
		WHERE r.thread_id = $1 AND r.status IN ('pending', 'running') FOR NO KEY UPDATE`, threadID)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return RunPending, "", nil
	case err != nil:
		return "", "", err
	}
	switch strategy {
	case MultitaskReject:
		return "", "", errcode.New(errcode.Conflict, "thread %s already has an active run %s (%s)",
			threadID, active.ID, active.Status)
	case MultitaskEnqueue:
		return RunQueued, "", nil
	}
	if err := cancelQueued(ctx, tx, n, threadID); err != nil {
		return "", "", err
	}
	if active.Status == RunPending {
		_, err := endRun(ctx, tx, n, active, RunCancelled, "")
		if err == nil && RollsBackAtOnce(strategy, active) {
			if _, err := tx.Exec(ctx, `DELETE FROM runs WHERE id = $1 AND thread_id = $2`, active.ID, active.ThreadID); err != nil {
				return "", "", fmt.Errorf("rolling back run %s: %w", active.ID, err)
			}
			return RunPending, "", nil
		}
		return RunPending, active.ID, err
	}
	return RunQueued, active.ID, requestCancel(ctx, tx, n, active)
}

// RollsBackAtOnce reports whether a rollback deletes the active run it
// replaces as it creates the new one: a pending run that never started
// (a delayed one, or one waiting for a worker) has written nothing, so
// deleting it is all its rollback is, and a client that asks for it right
// after sees it gone rather than cancelled. A run that started, or did
// and was handed back, is cancelled, and the new run's worker discards it
// (DiscardRun) once it has ended.
func RollsBackAtOnce(strategy string, active Run) bool {
	return strategy == MultitaskRollback && active.Status == RunPending && active.Attempts == 0
}

// FinishRun ends a run that the lease holder l still holds with a final
// status (success, error, interrupted or cancelled) and an error message,
// promotes the thread's next queued run, and sets the thread's status to
// match. A worker whose lease was taken over gets ErrLeaseLost.
func (s *Store) FinishRun(ctx context.Context, l Lease, status, runErr string) (Run, error) {
	if _, ok := threadStatusAfter[status]; !ok {
		return Run{}, errcode.New(errcode.BadRequest, "%q is not a final run status", status)
	}
	// One round trip and one commit: a batch (one transaction) that locks
	// the run's thread, then ends the run if the lease still holds it.
	b := &pgx.Batch{}
	b.Queue(lockThreadSQL, l.ThreadID)
	b.Queue(endRunSQL, endRunArgs(l.RunID, l.ThreadID, &l, status, runErr, "")...)
	res := s.Pool.SendBatch(ctx, b)
	defer res.Close()
	var threadID string
	if err := res.QueryRow().Scan(&threadID); err != nil {
		return Run{}, notFoundAs(fmt.Errorf("locking the thread of run %s: %w", l.RunID, err), "no run %s", l.RunID)
	}
	e, err := batchRow(res, scanEnded)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return Run{}, LeaseLost(l)
	case err != nil:
		return Run{}, fmt.Errorf("ending run %s: %w", l.RunID, err)
	}
	if err := res.Close(); err != nil {
		return Run{}, fmt.Errorf("ending run %s: %w", l.RunID, err)
	}
	var n notes
	e.announce(&n)
	s.announce(n...)
	return e.Run, nil
}

// threadStatusAfter maps a final run status to its thread's status.
var threadStatusAfter = map[string]string{RunSuccess: ThreadIdle, RunCancelled: ThreadIdle,
	RunError: ThreadError, RunInterrupted: ThreadInterrupted}

// ThreadStatusAfter is the status a thread takes when its active run ends
// with status (and no queued run follows it); ok is false when status is
// not a final run status.
func ThreadStatusAfter(status string) (threadStatus string, ok bool) {
	threadStatus, ok = threadStatusAfter[status]
	return threadStatus, ok
}

// Run returns a run on one of the owner's threads.
func (o Owner) Run(ctx context.Context, runID string) (Run, error) {
	r, err := oneRun(ctx, o.s.Pool, "reading run "+runID, `
		SELECT `+runColumns+` FROM runs r JOIN threads t ON t.id = r.thread_id
		WHERE r.id = $1 AND t.owner_id = $2`, runID, o.id)
	return r, notFoundAs(err, "no run %s", runID)
}

// ActiveRun returns the pending or running run of one of the owner's threads.
func (o Owner) ActiveRun(ctx context.Context, threadID string) (Run, error) {
	r, err := oneRun(ctx, o.s.Pool, "reading the active run of thread "+threadID, `
		SELECT `+runColumns+` FROM runs r JOIN threads t ON t.id = r.thread_id
		WHERE r.thread_id = $1 AND t.owner_id = $2 AND r.status IN ('pending', 'running')`, threadID, o.id)
	return r, notFoundAs(err, "thread %s has no active run", threadID)
}

// ListRuns lists the runs of one of the owner's threads, newest first;
// with statuses, only the runs in one of them. A replica that has caught
// up may serve it (see package replica).
func (o Owner) ListRuns(ctx context.Context, threadID string, limit, offset int, statuses ...string) ([]Run, error) {
	limit, offset = paging.Clamp(limit, offset, 20)
	var list []Run
	err := o.s.reads.Read(ctx, func(db replica.Querier) error {
		rows, err := db.Query(ctx, `
			SELECT `+runColumns+` FROM runs r JOIN threads t ON t.id = r.thread_id
			WHERE r.thread_id = $1 AND t.owner_id = $2 AND ($5::text[] IS NULL OR r.status = ANY($5))
			ORDER BY r.created_at DESC, r.id DESC LIMIT $3 OFFSET $4`, threadID, o.id, limit, offset, statuses)
		if err == nil {
			list, err = pgx.CollectRows(rows, scanRun)
		}
		return err
	})
	if err != nil {
		return nil, notFoundAs(fmt.Errorf("listing the runs of thread %s: %w", threadID, err), "Thread with ID %s not found", threadID)
	}
	return list, nil
}

// querier is a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// oneRun runs a query that returns at most one run. It returns
// pgx.ErrNoRows (wrapped) when there is none.
func oneRun(ctx context.Context, q querier, doing, sql string, args ...any) (Run, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return Run{}, fmt.Errorf("%s: %w", doing, err)
	}
	r, err := pgx.CollectExactlyOneRow(rows, scanRun)
	if err != nil {
		return Run{}, fmt.Errorf("%s: %w", doing, err)
	}
	return r, nil
}

func scanRun(row pgx.CollectableRow) (Run, error) {
	var r Run
	err := row.Scan(runFields(&r)...)
	return r, err
}

// runFields are where the columns of runColumns are scanned into r.
func runFields(r *Run) []any {
	return []any{&r.ID, &r.ThreadID, &r.Status, &r.MultitaskStrategy, &r.Input, &r.Metadata,
		&r.Error, &r.CreatedAt, &r.StartedAt, &r.FinishedAt, &r.UpdatedAt,
		&r.WorkerID, &r.LeaseExpiresAt, &r.Attempts, &r.CancelRequested, &r.Replaces, &r.NotBefore, &r.AssistantID}
}

// notFoundAs turns "no rows" and malformed ids into a NOT_FOUND error and a
// bad value into BAD_REQUEST; it returns other errors as they are.
func notFoundAs(err error, format string, args ...any) error {
	var pgErr *pgconn.PgError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, pgx.ErrNoRows), errors.As(err, &pgErr) && pgErr.Code == "22P02":
		return errcode.New(errcode.NotFound, format, args...)
	case errors.As(err, &pgErr) && pgErr.Code == "23514":
		return errcode.Wrap(errcode.BadRequest, err, "a value is out of range")
	}
	return err
}

// DeleteRunThread deletes thread threadID of an ended run runID, with its
// runs, checkpoints and events: a worker's call, for runs that asked for it
// (a cron's run on a thread of its own). A thread with another run still
// active is kept.
func (s *Store) DeleteRunThread(ctx context.Context, threadID, runID string) error {
	_, err := s.Pool.Exec(ctx, `
		DELETE FROM threads t USING runs r
		WHERE t.id = $2 AND r.id = $1 AND r.thread_id = $2 AND r.status NOT IN ('queued', 'pending', 'running')
			AND NOT EXISTS (SELECT 1 FROM runs o WHERE o.thread_id = $2 AND o.status IN ('queued', 'pending', 'running'))`,
		runID, threadID)
	if err != nil {
		return fmt.Errorf("deleting the thread of run %s: %w", runID, err)
	}
	return nil
}

// batchRow reads the batch's next result as exactly one row, scanned by
// scan: pgx.ErrNoRows when there is none.
func batchRow[T any](res pgx.BatchResults, scan pgx.RowToFunc[T]) (T, error) {
	rows, err := res.Query()
	if err != nil {
		var zero T
		return zero, err
	}
	return pgx.CollectExactlyOneRow(rows, scan)
}
