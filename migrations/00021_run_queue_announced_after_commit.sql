-- +goose Up
-- A run that becomes pending is announced on the run_queue channel by the
-- process that made it so, once its transaction has committed, and no
-- longer by a trigger in that transaction: a transaction that notifies
-- holds, from its commit until the commit is on disk, a lock that every
-- other notifying transaction of the server waits for.
DROP TRIGGER run_pending ON runs;
DROP FUNCTION tg_notify_run_queue();

-- +goose Down
-- +goose StatementBegin
CREATE FUNCTION tg_notify_run_queue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('run_queue', '');
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER run_pending AFTER INSERT OR UPDATE OF status ON runs
    FOR EACH ROW WHEN (NEW.status = 'pending') EXECUTE FUNCTION tg_notify_run_queue();
