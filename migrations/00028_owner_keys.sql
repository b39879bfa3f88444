-- +goose Up

-- Every table of users' data names its owner, so that a database sharded
-- by owner can keep each owner's rows together and send each statement to
-- the one node that holds them (docs/scaling.md). Checkpoints, run events
-- and assistant versions named only their parent row; they now carry the
-- owner too. The column is nullable and a trigger fills it from the parent
-- when an insert leaves it out, as the previous release's inserts do
-- during a rolling upgrade; this release writes it itself. A later
-- migration, once no process of the previous release is left, can make it
-- NOT NULL and drop the triggers.
ALTER TABLE checkpoints ADD COLUMN owner_id uuid;
ALTER TABLE run_events ADD COLUMN owner_id uuid;
ALTER TABLE assistant_versions ADD COLUMN owner_id uuid;

-- +goose StatementBegin
CREATE FUNCTION tg_checkpoint_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT owner_id INTO NEW.owner_id FROM threads WHERE id = NEW.thread_id;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER checkpoints_owner BEFORE INSERT ON checkpoints
    FOR EACH ROW WHEN (NEW.owner_id IS NULL) EXECUTE FUNCTION tg_checkpoint_owner();

-- +goose StatementBegin
CREATE FUNCTION tg_run_event_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT owner_id INTO NEW.owner_id FROM runs WHERE id = NEW.run_id;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER run_events_owner BEFORE INSERT ON run_events
    FOR EACH ROW WHEN (NEW.owner_id IS NULL) EXECUTE FUNCTION tg_run_event_owner();

-- +goose StatementBegin
CREATE FUNCTION tg_assistant_version_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT owner_id INTO NEW.owner_id FROM assistants WHERE id = NEW.assistant_id;
    RETURN NEW;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER assistant_versions_owner BEFORE INSERT ON assistant_versions
    FOR EACH ROW WHEN (NEW.owner_id IS NULL) EXECUTE FUNCTION tg_assistant_version_owner();

UPDATE checkpoints c SET owner_id = t.owner_id FROM threads t WHERE t.id = c.thread_id AND c.owner_id IS NULL;
UPDATE run_events e SET owner_id = r.owner_id FROM runs r WHERE r.id = e.run_id AND e.owner_id IS NULL;
UPDATE assistant_versions v SET owner_id = a.owner_id FROM assistants a WHERE a.id = v.assistant_id AND v.owner_id IS NULL;

-- +goose Down
DROP TRIGGER assistant_versions_owner ON assistant_versions;
DROP TRIGGER run_events_owner ON run_events;
DROP TRIGGER checkpoints_owner ON checkpoints;
DROP FUNCTION tg_assistant_version_owner();
DROP FUNCTION tg_run_event_owner();
DROP FUNCTION tg_checkpoint_owner();
ALTER TABLE assistant_versions DROP COLUMN owner_id;
ALTER TABLE run_events DROP COLUMN owner_id;
ALTER TABLE checkpoints DROP COLUMN owner_id;
