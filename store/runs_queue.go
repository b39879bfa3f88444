package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/errcode"
)

// RunCancelChannel is the PostgreSQL NOTIFY channel on which a cancel
// request for a running run is announced, as "<run id>:<thread id>" (a
// reader that knows only the run's id takes what comes before the colon).
const RunCancelChannel = "run_cancel"

// ErrLeaseLost is wrapped (as a CONFLICT) by the calls of a worker that no
// longer holds a run: its lease expired and the run was handed on, or ended.
var ErrLeaseLost = errors.New("the worker no longer holds the run")

// Lease names one claim of a run by a worker. Attempt tells a claim from a
// later claim of the same run by the same worker.
type Lease struct {
	RunID    string
	ThreadID string // the run's thread, which names its owner to a sharded database
	WorkerID string
	Attempt  int
}

// Lease returns the claim a run that ClaimRun returned is under.
func (r Run) Lease() Lease {
	return Lease{RunID: r.ID, ThreadID: r.ThreadID, WorkerID: r.WorkerID, Attempt: r.Attempts}
}

// Holds reports whether the lease still holds r: the run is running,
// claimed by the lease's worker in the lease's attempt.
func (l Lease) Holds(r Run) bool {
	return r.Status == RunRunning && r.WorkerID == l.WorkerID && r.Attempts == l.Attempt
}

// LeaseLost is the error of a worker whose lease no longer holds its run
// (a CONFLICT wrapping ErrLeaseLost).
func LeaseLost(l Lease) error {
	return errcode.Wrap(errcode.Conflict, ErrLeaseLost,
		fmt.Sprintf("run %s is no longer held by worker %s", l.RunID, l.WorkerID))
}

// Claim is a run ClaimRun claimed.
type Claim struct {
	Run
	// Owner is the id of the user whose thread the run is on, as whom the
	// worker runs it.
	Owner string
	// More reports whether other runs were pending when it was claimed: a
	// worker pool then wakes another worker to claim them.
	More bool
}

// ClaimRun takes the next pending run of any owner for workerID: the one
// of the lowest claim round, the oldest within it (see ClaimRound), so
// that the owners with runs waiting take turns. It marks the run running
// under a lease of the given length, counts the attempt and marks its
// thread busy. It skips runs that other transactions hold, so workers in
// several processes never claim the same run, nor wait for one another.
// ok is false when no run is waiting. A run with Attempts above 1 was
// started before by a worker that stopped: resume it from its thread's
// last checkpoint.
func (s *Store) ClaimRun(ctx context.Context, workerID string, lease time.Duration) (c Claim, ok bool, err error) {
	if workerID == "" || lease <= 0 {
		return Claim{}, false, errcode.New(errcode.BadRequest, "a claim needs a worker id and a positive lease")
	}
	rows, err := s.Pool.Query(ctx, claimSQL, workerID, lease.Microseconds())
	if err == nil {
		c, err = pgx.CollectExactlyOneRow(rows, func(row pgx.CollectableRow) (Claim, error) {
			var c Claim
			err := row.Scan(append(runFields(&c.Run), &c.Owner, &c.More)...)
			return c, err
		})
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return Claim{}, false, nil
	}
	if err != nil {
		return Claim{}, false, fmt.Errorf("claiming a run for worker %s: %w", workerID, err)
	}
	if c.Attempts > 1 {
		// The attempt before may have appended events whose announcement
		// died with its process; the run's followers read the table before
		// they take this attempt's events as all that came before them.
		s.announce(note{RunEventsChannel, c.ID + ":" + resumed})
	}
	return c, true, nil
}

// ClaimRound is the claim round a run takes when it becomes pending.
// Workers claim the pending run of the lowest round first, the oldest
// within it, so that every owner with runs waiting has one claimed per
// round, however many they queued: one user's backlog does not hold up
// another user's run. lowest is the lowest round of the runs pending now,
// of any owner, and ownersHighest the highest of the run's owner's; nil
// when there is none. The round is the later of lowest and one past
// ownersHighest: an owner with nothing waiting joins the current round,
// one with runs waiting takes the round after their last. (The store
// works it out in SQL, claimRoundOf; the in-memory twin calls this.)
func ClaimRound(lowest, ownersHighest *int64) int64 {
	var round int64
	if lowest != nil {
		round = max(round, *lowest)
	}
	if ownersHighest != nil {
		round = max(round, *ownersHighest+1)
	}
	return round
}

// claimRoundOf is ClaimRound in SQL, for a run of owner (an SQL
// expression) that becomes pending: two probes of an index, the first
// entry of runs_claim_idx and the last of the owner's pending entries in
// runs_owner_active_idx. ending, when not "", is the id (an SQL
// expression) of a run the statement ends, which its snapshot still shows
// pending: it does not count.
func claimRoundOf(owner, ending string) string {
	other := ""
	if ending != "" {
		other = ` AND p.id <> ` + ending
	}
	return `greatest(0,
		(SELECT p.claim_round FROM runs p WHERE p.status = 'pending'` + other + ` ORDER BY p.claim_round LIMIT 1),
		(SELECT max(p.claim_round) + 1 FROM runs p WHERE p.owner_id = ` + owner + ` AND p.status = 'pending'` + other + `))`
}

// claimSQL claims the next pending run for worker $1 under a lease of $2
// microseconds: the first entry of runs_claim_idx (claim round, then age)
// that is due and that no other transaction holds, its thread locked with
// it, both skipped when held (SKIP LOCKED), so that no worker waits for
// another. It returns the run as claimed, its owner, and whether another
// run is pending.
var claimSQL = `
	WITH c AS (
		SELECT r.id, r.thread_id, t.owner_id FROM runs r JOIN threads t ON t.id = r.thread_id
		WHERE /* any owner: claim */ ` + dueRun("r") + `
		ORDER BY r.claim_round, r.created_at, r.id LIMIT 1
		FOR NO KEY UPDATE OF r, t SKIP LOCKED),
	th AS (UPDATE threads SET status = 'busy', updated_at = now() FROM c WHERE threads.id = c.thread_id),
	r AS (
		UPDATE runs SET status = 'running', worker_id = $1, attempts = attempts + 1,
			lease_expires_at = now() + $2 * interval '1 microsecond',
			started_at = coalesce(started_at, now()), updated_at = now()
		FROM c WHERE runs.id = c.id
		RETURNING runs.*)
	SELECT ` + runColumns + `, c.owner_id::text, EXISTS (
		SELECT 1 FROM runs o WHERE ` + dueRun("o") + ` AND o.id <> r.id)
	FROM r JOIN c ON c.id = r.id`

// dueRun is the SQL condition that the run alias names waits to be
// claimed: pending, and not delayed past now.
func dueRun(alias string) string {
	return alias + `.status = 'pending' AND (` + alias + `.not_before IS NULL OR ` + alias + `.not_before <= now())`
}

// resumed is the announcement, after a run's id, that another attempt of
// the run began: a follower reads the table (see subscription.noted).
const resumed = "resumed"

// RenewLease extends the lease l to the given length from now. It returns
// the run, whose CancelRequested a worker should check as well as
// WatchCancel, or ErrLeaseLost (a CONFLICT) when l no longer holds it.
func (s *Store) RenewLease(ctx context.Context, l Lease, lease time.Duration) (Run, error) {
	if lease <= 0 {
		return Run{}, errcode.New(errcode.BadRequest, "a lease must be positive")
	}
	r, err := oneRun(ctx, s.Pool, "renewing the lease on run "+l.RunID, `
		WITH r AS (
			UPDATE runs SET lease_expires_at = now() + $4 * interval '1 microsecond', updated_at = now()
			WHERE id = $1 AND thread_id = $5 AND worker_id = $2 AND attempts = $3 AND status = 'running'
			RETURNING *)
		SELECT `+runColumns+` FROM r`, l.RunID, l.WorkerID, l.Attempt, lease.Microseconds(), l.ThreadID)
	if errors.Is(err, pgx.ErrNoRows) {
		return Run{}, LeaseLost(l)
	}
	return r, notFoundAs(err, "no run %s", l.RunID)
}

// ReclaimExpired deals with the running runs whose lease has expired, whose
// worker must have stopped: a run with a cancel request ends cancelled; a
// run claimed maxAttempts times already ends in error; any other goes back
// to pending, for a worker to claim and resume. It returns the runs it
// changed, as they are now. Several processes may call it at once.
func (s *Store) ReclaimExpired(ctx context.Context, maxAttempts int) ([]Run, error) {
	rows, err := s.Pool.Query(ctx, `
		SELECT id, thread_id FROM runs /* any owner: reclaim */ WHERE status = 'running' AND lease_expires_at < now()
		ORDER BY lease_expires_at LIMIT 100`)
	if err != nil {
		return nil, fmt.Errorf("listing runs with expired leases: %w", err)
	}
	expired, err := pgx.CollectRows(rows, pgx.RowToStructByPos[runOfThread])
	if err != nil {
		return nil, fmt.Errorf("listing runs with expired leases: %w", err)
	}
	var changed []Run
	for _, e := range expired {
		r, ok, err := s.reclaim(ctx, e, maxAttempts)
		if err != nil {
			return changed, err
		}
		if ok {
			changed = append(changed, r)
		}
	}
	return changed, nil
}

// runOfThread names a run and its thread.
type runOfThread struct{ RunID, ThreadID string }

// reclaim deals with one run whose lease had expired, unless another
// process did first.
func (s *Store) reclaim(ctx context.Context, e runOfThread, maxAttempts int) (r Run, ok bool, err error) {
	runID := e.RunID
	err = s.inTx(ctx, s.Pool, func(tx pgx.Tx, n *notes) error {
		cur, err := lockThreadRun(ctx, tx, e.ThreadID, runID)
		if err != nil {
			return err
		}
		var expired bool
		if err := tx.QueryRow(ctx, `SELECT coalesce(lease_expires_at < now(), false) FROM runs WHERE id = $1 AND thread_id = $2`,
			runID, e.ThreadID).Scan(&expired); err != nil {
			return fmt.Errorf("reading the lease of run %s: %w", runID, err)
		}
		if cur.Status != RunRunning || !expired {
			return nil
		}
		ok = true
		switch {
		case cur.CancelRequested:
			r, err = endRun(ctx, tx, n, cur, RunCancelled, "")
		case cur.Attempts >= maxAttempts:
			r, err = endRun(ctx, tx, n, cur, RunError,
				fmt.Sprintf("the run's worker stopped answering %d times", cur.Attempts))
		default:
			r, err = requeue(ctx, tx, n, cur)
		}
		return err
	})
	if errcode.Of(err) == errcode.NotFound {
		return Run{}, false, nil // the thread was deleted meanwhile
	}
	return r, ok, err
}

// ReleaseRun hands a run that l still holds back to the queue, pending,
// for another worker to claim and resume (a process shutting down does
// this with the runs it could not finish); a run with a cancel request ends
// cancelled instead. The claim counts towards ReclaimExpired's attempts.
func (s *Store) ReleaseRun(ctx context.Context, l Lease) (Run, error) {
	return s.handBack(ctx, l, 0)
}

// ReturnClaim undoes a claim l made as its worker's pool began to stop,
// before the run executed anything: the run is pending again, and the
// claim does not count towards ReclaimExpired's attempts, since no worker
// stopped answering on it. A run with a cancel request ends cancelled, as
// with ReleaseRun.
func (s *Store) ReturnClaim(ctx context.Context, l Lease) (Run, error) {
	return s.handBack(ctx, l, 1)
}

// handBack is ReleaseRun with the run's attempts lowered by uncount.
func (s *Store) handBack(ctx context.Context, l Lease, uncount int) (Run, error) {
	return s.withHeldRun(ctx, l, func(tx pgx.Tx, n *notes, r Run) (Run, error) {
		if r.CancelRequested {
			return endRun(ctx, tx, n, r, RunCancelled, "")
		}
		return requeueWith(ctx, tx, n, r, uncount)
	})
}

// withHeldRun runs change on the run l names, locked in a transaction,
// when l still holds it; a lease taken over is ErrLeaseLost.
func (s *Store) withHeldRun(ctx context.Context, l Lease, change func(pgx.Tx, *notes, Run) (Run, error)) (Run, error) {
	var out Run
	err := s.inTx(ctx, s.Pool, func(tx pgx.Tx, n *notes) error {
		r, err := lockThreadRun(ctx, tx, l.ThreadID, l.RunID)
		if err != nil {
			return err
		}
		if !l.Holds(r) {
			return LeaseLost(l)
		}
		out, err = change(tx, n, r)
		return err
	})
	return out, notFoundAs(err, "no run %s", l.RunID)
}

// requeue puts a locked running run back to pending, without a lease,
// and adds its announcement to n. It keeps its claim round, below the
// rounds of the runs that became pending since: a run handed back is
// claimed again before them.
func requeue(ctx context.Context, tx pgx.Tx, n *notes, run Run) (Run, error) {
	return requeueWith(ctx, tx, n, run, 0)
}

// requeueWith is requeue with the run's attempts lowered by uncount.
func requeueWith(ctx context.Context, tx pgx.Tx, n *notes, run Run, uncount int) (Run, error) {
	r, err := oneRun(ctx, tx, "handing run "+run.ID+" back to the queue", `
		WITH r AS (
			UPDATE runs SET status = 'pending', lease_expires_at = NULL, updated_at = now(),
				attempts = greatest(attempts - $3, 0)
			WHERE id = $1 AND thread_id = $2 RETURNING *)
		SELECT `+runColumns+` FROM r`, run.ID, run.ThreadID, uncount)
	if err == nil {
		n.add(runPending)
	}
	return r, err
}

// CancelRun cancels a run of the owner's: a queued or pending one ends
// cancelled at once; a running one gets a cancel request, announced on
// RunCancelChannel, which its worker acts on. A run that has ended is a
// CONFLICT.
func (o Owner) CancelRun(ctx context.Context, runID string) (Run, error) {
	var out Run
	err := o.s.inTx(ctx, o.s.requests, func(tx pgx.Tx, n *notes) error {
		r, err := lockRun(ctx, tx, o.id, runID)
		if err != nil {
			return err
		}
		switch r.Status {
		case RunQueued, RunPending:
			out, err = endRun(ctx, tx, n, r, RunCancelled, "")
			return err
		case RunRunning:
			if err := requestCancel(ctx, tx, n, r); err != nil {
				return err
			}
			out, err = lockRun(ctx, tx, o.id, runID)
			return err
		}
		return errcode.New(errcode.Conflict, "cannot cancel run %s: it is %s", runID, r.Status)
	})
	return out, notFoundAs(err, "no run %s", runID)
}

// QueueDepth counts the runs waiting: pending ones for a worker, queued
// ones behind their thread's active run.
type QueueDepth struct {
	Pending, Queued int64
}

// RunQueueDepth returns the queue depth over all owners.
func (s *Store) RunQueueDepth(ctx context.Context) (QueueDepth, error) {
	var d QueueDepth
	err := s.Pool.QueryRow(ctx, `
		SELECT /* any owner: queue depth */ (SELECT count(*) FROM runs WHERE status = 'pending'),
		       (SELECT count(*) FROM runs WHERE status = 'queued')`).Scan(&d.Pending, &d.Queued)
	if err != nil {
		return QueueDepth{}, fmt.Errorf("counting waiting runs: %w", err)
	}
	return d, nil
}

// RunsByStatus counts the runs of all owners by status; every status is
// present, with zero when there is none. It reads the whole table.
func (s *Store) RunsByStatus(ctx context.Context) (map[string]int64, error) {
	counts := map[string]int64{}
	for _, st := range []string{RunQueued, RunPending, RunRunning, RunSuccess, RunError, RunInterrupted, RunCancelled} {
		counts[st] = 0
	}
	rows, err := s.Pool.Query(ctx, `SELECT status, count(*) FROM runs /* any owner: queue depth */ GROUP BY status`)
	if err != nil {
		return nil, fmt.Errorf("counting runs by status: %w", err)
	}
	var status string
	var n int64
	_, err = pgx.ForEachRow(rows, []any{&status, &n}, func() error {
		counts[status] = n
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("counting runs by status: %w", err)
	}
	return counts, nil
}

// lockThread locks one of ownerID's threads against other changes to its
// runs. Every change to which run of a thread is active locks the thread
// first, then the run, so concurrent changes queue up instead of racing.
func lockThread(ctx context.Context, tx pgx.Tx, ownerID, threadID string) error {
	var id string
	err := tx.QueryRow(ctx, `SELECT id FROM threads WHERE id = $1 AND owner_id::text = $2 FOR NO KEY UPDATE`,
		threadID, ownerID).Scan(&id)
	if err != nil {
		return notFoundAs(fmt.Errorf("locking thread %s: %w", threadID, err), "Thread with ID %s not found", threadID)
	}
	return nil
}

// lockRun locks a run of ownerID's and its thread, in that thread-first
// order, and returns the run.
func lockRun(ctx context.Context, tx pgx.Tx, ownerID, runID string) (Run, error) {
	var threadID string
	err := tx.QueryRow(ctx, lockThreadOfRunSQL, runID, ownerID).Scan(&threadID)
	if err != nil {
		return Run{}, notFoundAs(fmt.Errorf("locking the thread of run %s: %w", runID, err), "no run %s", runID)
	}
	return lockRunOf(ctx, tx, threadID, runID)
}

// lockThreadRun is lockRun for a worker, which knows the run's thread
// (from its lease) rather than its owner.
func lockThreadRun(ctx context.Context, tx pgx.Tx, threadID, runID string) (Run, error) {
	var id string
	if err := tx.QueryRow(ctx, lockThreadSQL, threadID).Scan(&id); err != nil {
		return Run{}, notFoundAs(fmt.Errorf("locking thread %s of run %s: %w", threadID, runID, err), "no run %s", runID)
	}
	return lockRunOf(ctx, tx, threadID, runID)
}

// lockRunOf locks run runID of a thread the caller has locked.
func lockRunOf(ctx context.Context, tx pgx.Tx, threadID, runID string) (Run, error) {
	r, err := oneRun(ctx, tx, "locking run "+runID,
		`SELECT `+runColumns+` FROM runs r WHERE r.id = $1 AND r.thread_id = $2 FOR NO KEY UPDATE`, runID, threadID)
	return r, notFoundAs(err, "no run %s", runID)
}

// lockThreadOfRunSQL locks the thread of run $1 if it is owner $2's, and
// returns the thread's id.
const lockThreadOfRunSQL = `
	SELECT t.id FROM runs r JOIN threads t ON t.id = r.thread_id
	WHERE r.id = $1 AND t.owner_id::text = $2 FOR NO KEY UPDATE OF t`

// lockThreadSQL locks thread $1, whoever owns it, and returns its id.
const lockThreadSQL = `SELECT id FROM threads WHERE id = $1 FOR NO KEY UPDATE`

// endRun gives a locked run a final status and adds its announcements to
// n. When the run was its thread's active one, it promotes the thread's
// oldest queued run to pending and sets the thread's status.
func endRun(ctx context.Context, tx pgx.Tx, n *notes, r Run, status, runErr string) (Run, error) {
	rows, err := tx.Query(ctx, endRunSQL, endRunArgs(r.ID, r.ThreadID, nil, status, runErr, "")...)
	var e ended
	if err == nil {
		e, err = pgx.CollectExactlyOneRow(rows, scanEnded)
	}
	if err != nil {
		return Run{}, fmt.Errorf("ending run %s: %w", r.ID, err)
	}
	e.announce(n)
	return e.Run, nil
}

// ended is a run endRunSQL ended.
type ended struct {
	Run
	lastSeq  int64 // the seq of its last event, 0 when it has none
	promoted bool  // a queued run of its thread became pending
}

func scanEnded(row pgx.CollectableRow) (ended, error) {
	var e ended
	err := row.Scan(append(runFields(&e.Run), &e.lastSeq, &e.promoted)...)
	return e, err
}

// announce adds the end's announcements to n: on RunEventsChannel, with
// its last event, so that a follower that has it need not read the table
// again; and on RunQueueChannel when a run became pending.
func (e ended) announce(n *notes) {
	n.add(note{RunEventsChannel, e.ID + ":" + e.Status + ":" + strconv.FormatInt(e.lastSeq, 10)})
	if e.promoted {
		n.add(runPending)
	}
}

// endRunSQL gives run $1 (of thread $8) the final status $2, with the error $3; with a
// lease ($4, $5), only while the lease holds the run; with a checkpoint
// $9, only while it is the thread's head (a run ended in the batch of its
// last checkpoint, which that batch's insert moved there). When the run was its
// thread's active one (not queued), the thread's oldest queued run becomes
// pending and the thread busy ($7) again; else the thread takes the status
// the run's end gives it ($6). It returns the run, the seq of its last
// event (read as run_id $1, so from the run's partition of run_events
// alone) and whether a run was promoted (see ended). Every part of the
// statement reads the runs as they were before it, so old is the run's
// status before it ended. The caller has locked the thread.
var endRunSQL = `
	WITH old AS (SELECT status FROM runs WHERE id = $1 AND thread_id = $8),
	r AS (
		UPDATE runs SET status = $2, error = nullif($3, ''), finished_at = now(), updated_at = now(),
			lease_expires_at = NULL
		WHERE id = $1 AND thread_id = $8 AND ($4::text IS NULL OR (worker_id = $4 AND attempts = $5 AND status = 'running'))
			AND ($9::uuid IS NULL OR EXISTS (SELECT 1 FROM threads h WHERE h.id = $8 AND h.head = $9))
		RETURNING *),
	was_active AS (SELECT r.thread_id FROM r, old WHERE old.status <> 'queued'),
	promoted AS (
		UPDATE runs u SET status = 'pending', claim_round = ` + claimRoundOf("u.owner_id", "$1") + `, updated_at = now()
		WHERE u.id = (SELECT q.id FROM runs q JOIN was_active a ON q.thread_id = a.thread_id
		              WHERE q.status = 'queued' ORDER BY q.created_at, q.id LIMIT 1)
		RETURNING u.id),
	th AS (
		UPDATE threads SET status = CASE WHEN EXISTS (SELECT 1 FROM promoted) THEN $7 ELSE $6 END, updated_at = now()
		FROM was_active a WHERE threads.id = a.thread_id)
	SELECT ` + runColumns + `, coalesce((SELECT max(seq) FROM run_events WHERE run_id = $1), 0),
		EXISTS (SELECT 1 FROM promoted)
	FROM r`

// endRunArgs are endRunSQL's arguments; l is nil for a run the caller has
// locked itself, head "" for a run ended whatever its thread's head.
func endRunArgs(runID, threadID string, l *Lease, status, runErr, head string) []any {
	var worker, headID *string
	attempt := 0
	if l != nil {
		worker, attempt = &l.WorkerID, l.Attempt
	}
	if head != "" {
		headID = &head
	}
	return []any{runID, status, runErr, worker, attempt, threadStatusAfter[status], ThreadBusy, threadID, headID}
}

// cancelQueued ends a locked thread's queued runs as cancelled, and adds
// their ends' announcements to n.
func cancelQueued(ctx context.Context, tx pgx.Tx, n *notes, threadID string) error {
	rows, err := tx.Query(ctx, `
		UPDATE runs SET status = 'cancelled', finished_at = now(), updated_at = now()
		WHERE thread_id = $1 AND status = 'queued' RETURNING id::text`, threadID)
	var ids []string
	if err == nil {
		ids, err = pgx.CollectRows(rows, pgx.RowTo[string])
	}
	if err != nil {
		return fmt.Errorf("cancelling the queued runs of thread %s: %w", threadID, err)
	}
	for _, id := range ids {
		n.add(note{RunEventsChannel, id + ":" + RunCancelled})
	}
	return nil
}

// requestCancel records a cancel request on a locked running run and adds
// its announcement on RunCancelChannel to n.
func requestCancel(ctx context.Context, tx pgx.Tx, n *notes, r Run) error {
	runID := r.ID
	tag, err := tx.Exec(ctx, `
		UPDATE runs SET cancel_requested_at = coalesce(cancel_requested_at, now()), updated_at = now()
		WHERE id = $1 AND thread_id = $2`, runID, r.ThreadID)
	if err != nil {
		return fmt.Errorf("asking run %s to cancel: %w", runID, err)
	}
	if tag.RowsAffected() > 0 {
		n.add(note{RunCancelChannel, runID + ":" + r.ThreadID})
	}
	return nil
}
