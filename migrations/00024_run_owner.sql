-- +goose Up

-- Each run names its thread's owner (a thread never changes owner), so
-- that creating a run counts its owner's runs queued, pending and running
-- against their limit from an index, in its own transaction, rather than
-- by joining every active run of every user to its thread.
--
-- Expand: the release before this one inserts runs without the column.
-- The trigger fills it from the run's thread when an insert leaves it
-- NULL, before the NOT NULL check, so that release's inserts keep working
-- while both releases run; a contract migration, once no release leaves
-- the column out, drops the trigger.
ALTER TABLE runs ADD COLUMN owner_id uuid;

-- +goose StatementBegin
CREATE FUNCTION tg_run_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT owner_id INTO NEW.owner_id FROM threads WHERE id = NEW.thread_id;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER run_owner BEFORE INSERT ON runs
    FOR EACH ROW WHEN (NEW.owner_id IS NULL) EXECUTE FUNCTION tg_run_owner();

UPDATE runs r SET owner_id = t.owner_id FROM threads t WHERE t.id = r.thread_id;
ALTER TABLE runs ALTER COLUMN owner_id SET NOT NULL;
CREATE INDEX runs_owner_active_idx ON runs (owner_id, status) WHERE status IN ('queued', 'pending', 'running');

-- +goose Down
DROP TRIGGER run_owner ON runs;
DROP FUNCTION tg_run_owner();
ALTER TABLE runs DROP COLUMN owner_id;
