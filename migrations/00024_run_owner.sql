-- +goose Up

-- Each run names its thread's owner (a thread never changes owner), so
-- that creating a run counts its owner's runs queued, pending and running
-- against their limit from an index, in its own transaction, rather than
-- by joining every active run of every user to its thread.
ALTER TABLE runs ADD COLUMN owner_id uuid;
UPDATE runs r SET owner_id = t.owner_id FROM threads t WHERE t.id = r.thread_id;
ALTER TABLE runs ALTER COLUMN owner_id SET NOT NULL;
CREATE INDEX runs_owner_active_idx ON runs (owner_id, status) WHERE status IN ('queued', 'pending', 'running');

-- +goose Down
ALTER TABLE runs DROP COLUMN owner_id;
