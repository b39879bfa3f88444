-- +goose Up

-- Runs become a work queue shared by every serve process.
--   queued:  waits behind the thread's active run; not active, so the
--            one-active-run index does not cover it. Promoted to pending
--            when the active run ends, in the same transaction.
--   pending: the thread's active run, waiting for a worker to claim it.
--   running: claimed by worker_id, for as long as its lease lasts.
ALTER TABLE runs DROP CONSTRAINT runs_status_check;
ALTER TABLE runs ADD CONSTRAINT runs_status_check
    CHECK (status IN ('queued', 'pending', 'running', 'success', 'error', 'interrupted', 'cancelled'));

ALTER TABLE runs
    ADD COLUMN worker_id        text,
    ADD COLUMN lease_expires_at timestamptz,
    ADD COLUMN attempts         integer NOT NULL DEFAULT 0,      -- times claimed
    ADD COLUMN cancel_requested_at timestamptz,
    ADD COLUMN replaces         uuid REFERENCES runs (id) ON DELETE SET NULL;
                                -- the run an interrupt or rollback cancelled

-- Claiming takes the oldest pending run; reclaiming scans expired leases;
-- promotion takes a thread's oldest queued run.
CREATE INDEX runs_pending_idx ON runs (created_at, id) WHERE status = 'pending';
CREATE INDEX runs_lease_idx ON runs (lease_expires_at) WHERE status = 'running';
CREATE INDEX runs_queued_idx ON runs (thread_id, created_at, id) WHERE status = 'queued';

-- +goose Down
DROP INDEX runs_queued_idx;
DROP INDEX runs_lease_idx;
DROP INDEX runs_pending_idx;
UPDATE runs SET status = 'cancelled', finished_at = now() WHERE status = 'queued';
ALTER TABLE runs
    DROP COLUMN replaces,
    DROP COLUMN cancel_requested_at,
    DROP COLUMN attempts,
    DROP COLUMN lease_expires_at,
    DROP COLUMN worker_id;
ALTER TABLE runs DROP CONSTRAINT runs_status_check;
ALTER TABLE runs ADD CONSTRAINT runs_status_check
    CHECK (status IN ('pending', 'running', 'success', 'error', 'interrupted', 'cancelled'));
