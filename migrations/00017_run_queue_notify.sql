-- +goose Up
-- A run that becomes pending (created, promoted from the queue behind its
-- thread's run, handed back by a stopping worker, or reclaimed from a dead
-- one) is announced on the run_queue channel when its transaction commits,
-- so that an idle worker of any process claims it at once instead of at
-- its next look.
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

-- +goose Down
DROP TRIGGER run_pending ON runs;
DROP FUNCTION tg_notify_run_queue();
