-- +goose Up

-- Run events, the largest table, become a table partitioned by time, so
-- that retention drops a day's partition instead of deleting its rows
-- one by one (see docs/operations.md, "Run events and retention").
--
-- The partition key is the run's id, and run ids carry their creation
-- time: a UUIDv7 begins with the milliseconds since 1970, so the ids of
-- the runs created on one UTC day form one range of uuids, and one
-- partition holds every event of the runs created that day. The key has
-- to be the run id: PostgreSQL requires every unique index of a
-- partitioned table to hold the partition key, and appends rely on two,
-- (run_id, seq) and (run_id, position), the second naming the conflict an
-- append skips (ON CONFLICT (run_id, position)). Keyed on the events' own
-- time, neither would hold across partitions, and the statement the
-- previous release sends would find no index to name. Every query on run
-- events names the run, so each reads one partition, through its index.

-- uuid_v7 is a new UUIDv7: the current time's milliseconds, then random
-- bits (with the version 7 and the variant of RFC 9562).
CREATE FUNCTION uuid_v7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN encode(overlay(set_bit(set_bit(uuid_send(gen_random_uuid()), 52, 1), 53, 1)
    PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
    FROM 1 FOR 6), 'hex')::uuid;

-- uuid_v7_bound is the lowest uuid of the UUIDv7s made at or after a
-- time: its milliseconds, then zeros.
CREATE FUNCTION uuid_v7_bound(at timestamptz) RETURNS uuid LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (lpad(to_hex(floor(extract(epoch FROM at) * 1000)::bigint), 12, '0') || repeat('0', 20))::uuid;

-- New runs take UUIDv7 ids, whichever release creates them (both leave
-- the id to the database). Runs made before keep their random ids.
ALTER TABLE runs ALTER COLUMN id SET DEFAULT uuid_v7();

ALTER TABLE run_events RENAME TO run_events_unpartitioned;
ALTER TABLE run_events_unpartitioned RENAME CONSTRAINT run_events_pkey TO run_events_unpartitioned_pkey;
ALTER TABLE run_events_unpartitioned RENAME CONSTRAINT run_events_run_id_fkey TO run_events_unpartitioned_run_id_fkey;
ALTER INDEX run_events_position_idx RENAME TO run_events_unpartitioned_position_idx;
ALTER SEQUENCE run_events_seq_seq RENAME TO run_events_unpartitioned_seq_seq;

-- The same columns, in the same order, with the same defaults: the
-- previous release reads and appends as before.
CREATE TABLE run_events (
    run_id      uuid NOT NULL CONSTRAINT run_events_run_id_fkey REFERENCES runs (id) ON DELETE CASCADE,
    seq         bigint GENERATED ALWAYS AS IDENTITY,
    event       text NOT NULL,
    data        bytea NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    position    text,
    PRIMARY KEY (run_id, seq)
) PARTITION BY RANGE (run_id);
CREATE UNIQUE INDEX run_events_position_idx ON run_events (run_id, position) WHERE position IS NOT NULL;
-- +goose StatementBegin
DO $$
BEGIN
    ALTER TABLE run_events ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'this PostgreSQL has no lz4: run events keep pglz';
END
$$;
-- +goose StatementEnd

-- The default partition takes the events of runs whose day has no
-- partition: runs made before this migration (random ids, scattered over
-- every range), and any run a process made while no partition was there
-- for its day. An append never fails for want of a partition. When a
-- day's partition is added, the rows the default holds for that day move
-- into it; retention deletes the others row by row, once their runs are
-- over and as old as a partition it would drop.
CREATE TABLE run_events_default PARTITION OF run_events DEFAULT WITH (toast_tuple_target = 8160);

-- run_events_add_partitions adds the partitions of the UTC days from
-- today to days_ahead days on, those missing, and returns how many it
-- added. Processes call it ahead of need; several may at once (the
-- parent's lock takes them one at a time). A partition is made apart and
-- then attached, which locks the table's readers and writers out of the
-- default partition only, and the runs table against writes only while
-- the foreign key is checked on the new partition's rows.
-- +goose StatementBegin
CREATE FUNCTION run_events_add_partitions(days_ahead integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    today date := (now() AT TIME ZONE 'UTC')::date;
    day   date;
    name  text;
    lo    uuid;
    hi    uuid;
    added integer := 0;
BEGIN
    FOR i IN 0..days_ahead LOOP
        day := today + i;
        name := 'run_events_p' || to_char(day, 'YYYYMMDD');
        CONTINUE WHEN to_regclass(name) IS NOT NULL;
        LOCK TABLE run_events IN SHARE UPDATE EXCLUSIVE MODE;
        LOCK TABLE run_events_default IN ACCESS EXCLUSIVE MODE;
        CONTINUE WHEN to_regclass(name) IS NOT NULL; -- another process added it meanwhile
        lo := uuid_v7_bound(day::timestamp AT TIME ZONE 'UTC');
        hi := uuid_v7_bound((day + 1)::timestamp AT TIME ZONE 'UTC');
        EXECUTE format('CREATE TABLE %I (LIKE run_events INCLUDING DEFAULTS INCLUDING STORAGE INCLUDING COMPRESSION)
            WITH (toast_tuple_target = 8160)', name);
        EXECUTE format('WITH moved AS (DELETE FROM run_events_default WHERE run_id >= $1 AND run_id < $2 RETURNING *)
            INSERT INTO %I SELECT * FROM moved', name) USING lo, hi;
        EXECUTE format('ALTER TABLE run_events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, lo, hi);
        added := added + 1;
    END LOOP;
    RETURN added;
END
$$;
-- +goose StatementEnd

-- Today's partition and the next three days', before the copy, so that
-- the copy routes rows straight to them.
SELECT run_events_add_partitions(3);

INSERT INTO run_events (run_id, seq, event, data, created_at, position) OVERRIDING SYSTEM VALUE
    SELECT run_id, seq, event, data, created_at, position FROM run_events_unpartitioned;
SELECT setval(pg_get_serial_sequence('run_events', 'seq'), last_value, is_called) FROM run_events_unpartitioned_seq_seq;
DROP TABLE run_events_unpartitioned;

-- +goose Down
ALTER TABLE run_events RENAME TO run_events_partitioned;
ALTER TABLE run_events_partitioned RENAME CONSTRAINT run_events_pkey TO run_events_partitioned_pkey;
ALTER TABLE run_events_partitioned RENAME CONSTRAINT run_events_run_id_fkey TO run_events_partitioned_run_id_fkey;
ALTER INDEX run_events_position_idx RENAME TO run_events_partitioned_position_idx;
ALTER SEQUENCE run_events_seq_seq RENAME TO run_events_partitioned_seq_seq;
CREATE TABLE run_events (
    run_id      uuid NOT NULL CONSTRAINT run_events_run_id_fkey REFERENCES runs (id) ON DELETE CASCADE,
    seq         bigint GENERATED ALWAYS AS IDENTITY,
    event       text NOT NULL,
    data        bytea NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    position    text,
    PRIMARY KEY (run_id, seq)
) WITH (toast_tuple_target = 8160);
CREATE UNIQUE INDEX run_events_position_idx ON run_events (run_id, position) WHERE position IS NOT NULL;
-- +goose StatementBegin
DO $$
BEGIN
    ALTER TABLE run_events ALTER COLUMN data SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'this PostgreSQL has no lz4: run events keep pglz';
END
$$;
-- +goose StatementEnd
INSERT INTO run_events (run_id, seq, event, data, created_at, position) OVERRIDING SYSTEM VALUE
    SELECT run_id, seq, event, data, created_at, position FROM run_events_partitioned;
SELECT setval(pg_get_serial_sequence('run_events', 'seq'), last_value, is_called) FROM run_events_partitioned_seq_seq;
DROP TABLE run_events_partitioned;
DROP FUNCTION run_events_add_partitions(integer);
ALTER TABLE runs ALTER COLUMN id SET DEFAULT gen_random_uuid();
DROP FUNCTION uuid_v7_bound(timestamptz);
DROP FUNCTION uuid_v7();
