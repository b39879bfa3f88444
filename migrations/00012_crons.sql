-- +goose Up

-- Scheduled runs. A cron with a thread runs on it; one without makes a
-- new thread for each run (deleted after it unless on_run_completed is
-- keep). next_run_at is the next time it is due, NULL once it never will
-- be again (past its end time); whichever serve process claims a due cron
-- (FOR NO KEY UPDATE SKIP LOCKED) creates its run and moves next_run_at on
-- in one transaction, so each due time starts exactly one run.
CREATE TABLE crons (
    id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    thread_id        uuid REFERENCES threads (id) ON DELETE CASCADE,
    assistant_id     text NOT NULL,
    schedule         text NOT NULL,
    timezone         text NOT NULL DEFAULT 'UTC',
    payload          jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(payload) = 'object'),
    job              jsonb NOT NULL,
    metadata         jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
    enabled          boolean NOT NULL DEFAULT true,
    on_run_completed text NOT NULL DEFAULT 'delete' CHECK (on_run_completed IN ('delete', 'keep')),
    end_time         timestamptz,
    next_run_at      timestamptz,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX crons_due_idx ON crons (next_run_at) WHERE enabled AND next_run_at IS NOT NULL;
CREATE INDEX crons_user_idx ON crons (user_id, created_at DESC, id DESC);
CREATE INDEX crons_thread_idx ON crons (thread_id) WHERE thread_id IS NOT NULL;

-- +goose Down
DROP TABLE crons;
