-- +goose Up

-- A thread's head is its newest checkpoint. Every checkpoint write compares
-- it with the head the writer started from and moves it in the same
-- statement, so that of two runs racing on a thread exactly one wins.
-- head_at is the head's creation time: retention deletes the threads whose
-- newest checkpoint (or, with none, whose creation) is older than a TTL.
ALTER TABLE threads
    ADD COLUMN head    uuid,
    ADD COLUMN head_at timestamptz;

UPDATE threads t SET head = c.id, head_at = c.created_at
FROM (SELECT DISTINCT ON (thread_id) thread_id, id, created_at
      FROM checkpoints ORDER BY thread_id, id DESC) c
WHERE c.thread_id = t.id;

CREATE INDEX threads_last_active_idx ON threads ((coalesce(head_at, created_at)));

-- The interrupts pending at a checkpoint, as a JSON array; NULL when none.
ALTER TABLE checkpoints ADD COLUMN interrupts bytea;

-- +goose Down
ALTER TABLE checkpoints DROP COLUMN interrupts;
DROP INDEX threads_last_active_idx;
ALTER TABLE threads DROP COLUMN head_at, DROP COLUMN head;
