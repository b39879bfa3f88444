-- +goose Up

-- A thread is one conversation of one owner. Every query names the owner.
CREATE TABLE threads (
    id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    owner_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    metadata    jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
    status      text NOT NULL DEFAULT 'idle'
                CHECK (status IN ('idle', 'busy', 'interrupted', 'error')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX threads_owner_created_idx ON threads (owner_id, created_at DESC, id DESC);
CREATE INDEX threads_metadata_idx ON threads USING gin (metadata jsonb_path_ops);

-- One row per graph step. A row holds either the full state (a snapshot) or
-- a delta against its parent's state; base_id names the snapshot its chain
-- starts from (itself for a snapshot). See store/checkpoints.go.
CREATE TABLE checkpoints (
    thread_id   uuid NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    id          uuid NOT NULL,   -- UUIDv7: byte order is creation order
    parent_id   uuid,
    base_id     uuid NOT NULL,
    run_id      uuid,
    created_at  timestamptz NOT NULL,
    step        integer NOT NULL,
    node        text NOT NULL DEFAULT '',
    source      text NOT NULL,
    next        text,            -- JSON array of node names; NULL when none
    state       bytea,           -- full state JSON, for a snapshot
    delta       bytea,           -- delta against the parent, otherwise
    update_json bytea,           -- the update that produced this step, as given
    -- Latest, Get, List and the replay of a delta chain are all range scans
    -- of this index, newest first by scanning it backward. Ascending, because
    -- UUIDv7 ids arrive in order: new entries go to the right of their
    -- thread's range, where B-tree pages split full rather than half full.
    PRIMARY KEY (thread_id, id),
    CHECK ((state IS NULL) <> (delta IS NULL))
)
-- PostgreSQL compresses a row's wide values only once the row passes
-- toast_tuple_target (about 2 kB by default); a step's update is usually
-- smaller, so without this it would be stored raw.
WITH (toast_tuple_target = 256);

CREATE TABLE runs (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    thread_id          uuid NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
    status             text NOT NULL DEFAULT 'pending'
                       CHECK (status IN ('pending', 'running', 'success', 'error', 'interrupted', 'cancelled')),
    multitask_strategy text NOT NULL DEFAULT 'reject'
                       CHECK (multitask_strategy IN ('reject', 'interrupt', 'rollback', 'enqueue')),
    input              jsonb,
    metadata           jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
    error              text,
    created_at         timestamptz NOT NULL DEFAULT now(),
    started_at         timestamptz,
    finished_at        timestamptz,
    updated_at         timestamptz NOT NULL DEFAULT now()
);
-- At most one active run per thread: a second one fails with a unique violation.
CREATE UNIQUE INDEX runs_one_active_per_thread_idx ON runs (thread_id)
    WHERE status IN ('pending', 'running');
CREATE INDEX runs_thread_created_idx ON runs (thread_id, created_at DESC, id DESC);

-- The ordered stream of a run, so that a client can join or resume it.
CREATE TABLE run_events (
    run_id      uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq         bigint GENERATED ALWAYS AS IDENTITY,
    event       text NOT NULL,
    data        bytea NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, seq)
);

-- +goose Down
DROP TABLE run_events;
DROP TABLE runs;
DROP TABLE checkpoints;
DROP TABLE threads;
