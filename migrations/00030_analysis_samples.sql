-- +goose Up
-- Smaller analysis samples for the two tables of wide rows that the runs'
-- work grows fastest: checkpoints and run events.
--
-- ANALYZE reads 300 rows per unit of the largest statistics target of a
-- table's columns (30,000 at the default of 100) and holds them all while
-- it works. A partition of run events holds whole events of a kilobyte or
-- more, so an autovacuum worker analysing today's partition under load
-- held about 70 MiB, more than a dozen backends, and glibc keeps most of
-- it in the worker until it exits. Nothing plans by these columns' values:
-- every statement on the two tables finds its rows through an index on
-- the thread's or the run's id. A target of 10 samples 3,000 rows, enough
-- for the row counts and distinct ids those plans use. Measured at 50
-- streaming clients: the worker's peak went from 71 to 10 MiB, and the
-- statements' time per run stayed the same (2.24 against 2.30 ms).
ALTER TABLE checkpoints
    ALTER COLUMN thread_id SET STATISTICS 10, ALTER COLUMN id SET STATISTICS 10,
    ALTER COLUMN parent_id SET STATISTICS 10, ALTER COLUMN base_id SET STATISTICS 10,
    ALTER COLUMN run_id SET STATISTICS 10, ALTER COLUMN created_at SET STATISTICS 10,
    ALTER COLUMN step SET STATISTICS 10, ALTER COLUMN node SET STATISTICS 10,
    ALTER COLUMN source SET STATISTICS 10, ALTER COLUMN next SET STATISTICS 10,
    ALTER COLUMN state SET STATISTICS 10, ALTER COLUMN delta SET STATISTICS 10,
    ALTER COLUMN update_json SET STATISTICS 10, ALTER COLUMN interrupts SET STATISTICS 10,
    ALTER COLUMN owner_id SET STATISTICS 10;

-- On the partitioned table this reaches every partition there is.
ALTER TABLE run_events
    ALTER COLUMN run_id SET STATISTICS 10, ALTER COLUMN seq SET STATISTICS 10,
    ALTER COLUMN event SET STATISTICS 10, ALTER COLUMN data SET STATISTICS 10,
    ALTER COLUMN created_at SET STATISTICS 10, ALTER COLUMN position SET STATISTICS 10,
    ALTER COLUMN owner_id SET STATISTICS 10;

-- A partition made later does not inherit its parent's targets (neither
-- PARTITION OF nor LIKE copies them), so run_events_add_partitions now
-- gives each new partition those of run_events before attaching it. The
-- rest is as migration 00026 made it.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION run_events_add_partitions(days_ahead integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    today date := (now() AT TIME ZONE 'UTC')::date;
    day   date;
    name  text;
    lo    uuid;
    hi    uuid;
    col   record;
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
        FOR col IN SELECT attname, attstattarget FROM pg_attribute
                WHERE attrelid = 'run_events'::regclass AND attnum > 0 AND NOT attisdropped AND attstattarget >= 0 LOOP
            EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET STATISTICS %s', name, col.attname, col.attstattarget);
        END LOOP;
        EXECUTE format('WITH moved AS (DELETE FROM run_events_default WHERE run_id >= $1 AND run_id < $2 RETURNING *)
            INSERT INTO %I SELECT * FROM moved', name) USING lo, hi;
        EXECUTE format('ALTER TABLE run_events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, lo, hi);
        added := added + 1;
    END LOOP;
    RETURN added;
END
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION run_events_add_partitions(days_ahead integer) RETURNS integer LANGUAGE plpgsql AS $$
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
ALTER TABLE run_events
    ALTER COLUMN run_id SET STATISTICS -1, ALTER COLUMN seq SET STATISTICS -1,
    ALTER COLUMN event SET STATISTICS -1, ALTER COLUMN data SET STATISTICS -1,
    ALTER COLUMN created_at SET STATISTICS -1, ALTER COLUMN position SET STATISTICS -1,
    ALTER COLUMN owner_id SET STATISTICS -1;
ALTER TABLE checkpoints
    ALTER COLUMN thread_id SET STATISTICS -1, ALTER COLUMN id SET STATISTICS -1,
    ALTER COLUMN parent_id SET STATISTICS -1, ALTER COLUMN base_id SET STATISTICS -1,
    ALTER COLUMN run_id SET STATISTICS -1, ALTER COLUMN created_at SET STATISTICS -1,
    ALTER COLUMN step SET STATISTICS -1, ALTER COLUMN node SET STATISTICS -1,
    ALTER COLUMN source SET STATISTICS -1, ALTER COLUMN next SET STATISTICS -1,
    ALTER COLUMN state SET STATISTICS -1, ALTER COLUMN delta SET STATISTICS -1,
    ALTER COLUMN update_json SET STATISTICS -1, ALTER COLUMN interrupts SET STATISTICS -1,
    ALTER COLUMN owner_id SET STATISTICS -1;
