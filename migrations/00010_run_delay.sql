-- +goose Up

-- A delayed run (LangGraph's after_seconds) is pending from its creation,
-- so that it holds its thread as an active run does, but no worker claims
-- it before not_before. assistant_id is the assistant the run was created
-- for, as its clients named it (a user's assistant, or the built-in one).
ALTER TABLE runs
    ADD COLUMN not_before   timestamptz,
    ADD COLUMN assistant_id text;

-- +goose Down
ALTER TABLE runs
    DROP COLUMN assistant_id,
    DROP COLUMN not_before;
