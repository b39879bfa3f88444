package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tripgraph/tripgraph/errcode"
)

// Run statuses. Pending and running runs are active: a thread has at most
// one, which the database enforces with a unique partial index.
const (
	RunPending     = "pending"
	RunRunning     = "running"
	RunSuccess     = "success"
	RunError       = "error"
	RunInterrupted = "interrupted"
	RunCancelled   = "cancelled"
)

// Multitask strategies: what a client asked to happen to a thread's active
// run when it started this one. The store records it; the caller acts on it.
const (
	MultitaskReject    = "reject"
	MultitaskInterrupt = "interrupt"
	MultitaskRollback  = "rollback"
	MultitaskEnqueue   = "enqueue"
)

// Run is one execution of the graph on a thread.
type Run struct {
	ID                string          `json:"run_id"`
	ThreadID          string          `json:"thread_id"`
	Status            string          `json:"status"`
	MultitaskStrategy string          `json:"multitask_strategy"`
	Input             json.RawMessage `json:"input,omitempty"`
	Metadata          json.RawMessage `json:"metadata"`
	Error             string          `json:"error,omitempty"`
	CreatedAt         time.Time       `json:"created_at"`
	StartedAt         *time.Time      `json:"started_at,omitempty"`
	FinishedAt        *time.Time      `json:"finished_at,omitempty"`
	UpdatedAt         time.Time       `json:"updated_at"`
}

// NewRun describes a run to create.
type NewRun struct {
	Input             json.RawMessage // optional: any JSON value
	Metadata          json.RawMessage // optional: a JSON object
	MultitaskStrategy string          // "" means MultitaskReject
}

const runColumns = `r.id, r.thread_id, r.status, r.multitask_strategy, r.input, r.metadata,
	coalesce(r.error, ''), r.created_at, r.started_at, r.finished_at, r.updated_at`

// CreateRun creates a pending run on one of ownerID's threads. When the
// thread has an active run already, it returns a CONFLICT error that names
// that run.
func (s *Store) CreateRun(ctx context.Context, ownerID, threadID string, nr NewRun) (Run, error) {
	meta, err := metadataObject(nr.Metadata)
	if err != nil {
		return Run{}, err
	}
	strategy := nr.MultitaskStrategy
	if strategy == "" {
		strategy = MultitaskReject
	}
	var input any
	if len(nr.Input) > 0 {
		input = []byte(nr.Input)
	}
	for range 3 {
		r, err := s.oneRun(ctx, "creating a run on thread "+threadID, `
			WITH r AS (
				INSERT INTO runs (thread_id, multitask_strategy, input, metadata)
				SELECT t.id, $3, $4, $5 FROM threads t WHERE t.id = $1 AND t.owner_id = $2
				RETURNING *)
			SELECT `+runColumns+` FROM r`, threadID, ownerID, strategy, input, meta)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "23505" {
			return r, notFoundAs(err, "no thread %s", threadID)
		}
		active, aerr := s.ActiveRun(ctx, ownerID, threadID)
		if aerr == nil {
			return Run{}, errcode.New(errcode.Conflict, "thread %s already has an active run %s (%s)",
				threadID, active.ID, active.Status)
		}
		if errcode.Of(aerr) != errcode.NotFound {
			return Run{}, aerr
		}
		// The active run finished meanwhile: try again.
	}
	return Run{}, errcode.New(errcode.Conflict, "thread %s keeps getting new active runs", threadID)
}

// StartRun marks a pending run of ownerID's as running, and its thread busy.
func (s *Store) StartRun(ctx context.Context, ownerID, runID string) (Run, error) {
	r, err := s.oneRun(ctx, "starting run "+runID, `
		WITH r AS (
			UPDATE runs SET status = 'running', started_at = now(), updated_at = now()
			FROM threads t
			WHERE runs.id = $1 AND t.id = runs.thread_id AND t.owner_id = $2 AND runs.status = 'pending'
			RETURNING runs.*),
		th AS (UPDATE threads SET status = 'busy', updated_at = now() WHERE id = (SELECT thread_id FROM r))
		SELECT `+runColumns+` FROM r`, runID, ownerID)
	return s.transitionResult(ctx, ownerID, runID, r, err, "start")
}

// FinishRun ends an active run of ownerID's with a final status (success,
// error, interrupted or cancelled) and an error message, and sets its
// thread's status to match.
func (s *Store) FinishRun(ctx context.Context, ownerID, runID, status, runErr string) (Run, error) {
	threadStatus := map[string]string{RunSuccess: ThreadIdle, RunCancelled: ThreadIdle,
		RunError: ThreadError, RunInterrupted: ThreadInterrupted}[status]
	if threadStatus == "" {
		return Run{}, errcode.New(errcode.BadRequest, "%q is not a final run status", status)
	}
	r, err := s.oneRun(ctx, "finishing run "+runID, `
		WITH r AS (
			UPDATE runs SET status = $3, error = nullif($4, ''), finished_at = now(), updated_at = now()
			FROM threads t
			WHERE runs.id = $1 AND t.id = runs.thread_id AND t.owner_id = $2
				AND runs.status IN ('pending', 'running')
			RETURNING runs.*),
		th AS (UPDATE threads SET status = $5, updated_at = now() WHERE id = (SELECT thread_id FROM r))
		SELECT `+runColumns+` FROM r`, runID, ownerID, status, runErr, threadStatus)
	return s.transitionResult(ctx, ownerID, runID, r, err, "finish")
}

// transitionResult explains why a status change matched no run: the run is
// missing (NOT_FOUND) or not in a state to change (CONFLICT).
func (s *Store) transitionResult(ctx context.Context, ownerID, runID string, r Run, err error, verb string) (Run, error) {
	if !errors.Is(err, pgx.ErrNoRows) {
		return r, notFoundAs(err, "no run %s", runID)
	}
	cur, err := s.RunByID(ctx, ownerID, runID)
	if err != nil {
		return Run{}, err
	}
	return Run{}, errcode.New(errcode.Conflict, "cannot %s run %s: it is %s", verb, runID, cur.Status)
}

// RunByID returns a run on one of ownerID's threads.
func (s *Store) RunByID(ctx context.Context, ownerID, runID string) (Run, error) {
	r, err := s.oneRun(ctx, "reading run "+runID, `
		SELECT `+runColumns+` FROM runs r JOIN threads t ON t.id = r.thread_id
		WHERE r.id = $1 AND t.owner_id = $2`, runID, ownerID)
	return r, notFoundAs(err, "no run %s", runID)
}

// ActiveRun returns the pending or running run of one of ownerID's threads.
func (s *Store) ActiveRun(ctx context.Context, ownerID, threadID string) (Run, error) {
	r, err := s.oneRun(ctx, "reading the active run of thread "+threadID, `
		SELECT `+runColumns+` FROM runs r JOIN threads t ON t.id = r.thread_id
		WHERE r.thread_id = $1 AND t.owner_id = $2 AND r.status IN ('pending', 'running')`, threadID, ownerID)
	return r, notFoundAs(err, "thread %s has no active run", threadID)
}

// ListRuns lists the runs of one of ownerID's threads, newest first.
func (s *Store) ListRuns(ctx context.Context, ownerID, threadID string, limit, offset int) ([]Run, error) {
	limit, offset = page(limit, offset)
	rows, err := s.Pool.Query(ctx, `
		SELECT `+runColumns+` FROM runs r JOIN threads t ON t.id = r.thread_id
		WHERE r.thread_id = $1 AND t.owner_id = $2
		ORDER BY r.created_at DESC, r.id DESC LIMIT $3 OFFSET $4`, threadID, ownerID, limit, offset)
	if err != nil {
		return nil, notFoundAs(fmt.Errorf("listing the runs of thread %s: %w", threadID, err), "no thread %s", threadID)
	}
	list, err := pgx.CollectRows(rows, scanRun)
	if err != nil {
		return nil, notFoundAs(fmt.Errorf("listing the runs of thread %s: %w", threadID, err), "no thread %s", threadID)
	}
	return list, nil
}

// oneRun runs a query that returns at most one run. It returns
// pgx.ErrNoRows (wrapped) when there is none.
func (s *Store) oneRun(ctx context.Context, doing, sql string, args ...any) (Run, error) {
	rows, err := s.Pool.Query(ctx, sql, args...)
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
	err := row.Scan(&r.ID, &r.ThreadID, &r.Status, &r.MultitaskStrategy, &r.Input, &r.Metadata,
		&r.Error, &r.CreatedAt, &r.StartedAt, &r.FinishedAt, &r.UpdatedAt)
	return r, err
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
