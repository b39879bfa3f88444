package eventparts

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// benchRuns and benchEvents are the runs of a day and the events of each
// that BenchmarkPrune expires, and benchData the bytes of an event's data
// (a small values frame).
const (
	benchRuns   = 1000
	benchEvents = 100
	benchData   = 400
)

// BenchmarkPrune expires a day of run events (benchRuns runs of
// benchEvents events each) both ways Prune can: deleted row by row, as
// the events of runs in the default partition are (and as every event
// was before the table was partitioned), and dropped with the day's
// partition. It reports the time of the pass and the write-ahead log it
// wrote (what replicas and backups receive), per pass.
func BenchmarkPrune(b *testing.B) {
	for _, way := range []struct {
		name   string
		legacy bool // the runs have random ids, so their events are in the default partition
	}{{"rows deleted", true}, {"partition dropped", false}} {
		b.Run(way.name, func(b *testing.B) {
			pool := newDatabase(b)
			p := New(pool)
			ctx := context.Background()
			var wal int64
			for b.Loop() {
				b.StopTimer()
				day := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -10)
				if !way.legacy {
					addPast(b, pool, day)
				}
				fillDay(b, pool, day, way.legacy)
				if _, err := pool.Exec(ctx, `CHECKPOINT`); err != nil {
					b.Fatal(err)
				}
				var before string
				if err := pool.QueryRow(ctx, `SELECT pg_current_wal_insert_lsn()::text`).Scan(&before); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				got, err := p.Prune(ctx, time.Now().AddDate(0, 0, -7), false)
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				if n := len(got.Partitions); (way.legacy && got.Rows != benchRuns*benchEvents) || (!way.legacy && n != 1) {
					b.Fatalf("Prune dropped %v and deleted %d rows", got.Partitions, got.Rows)
				}
				var bytes int64
				if err := pool.QueryRow(ctx, `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn)::bigint`, before).Scan(&bytes); err != nil {
					b.Fatal(err)
				}
				wal += bytes
				if _, err := pool.Exec(ctx, `DELETE FROM runs`); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(wal)/float64(b.N), "WAL-bytes/op")
			b.ReportMetric(benchRuns*benchEvents, "events/op")
		})
	}
}

// fillDay makes benchRuns ended runs created on day, each with benchEvents
// events, and vacuums them in, as a day long past would be.
func fillDay(b *testing.B, pool *pgxpool.Pool, day time.Time, legacy bool) {
	b.Helper()
	ctx := context.Background()
	_, err := pool.Exec(ctx, `
		WITH t AS (INSERT INTO threads (owner_id) SELECT '00000000-0000-4000-8000-000000000001' FROM generate_series(1, $1) RETURNING id),
		r AS (INSERT INTO runs (id, thread_id, owner_id, status, created_at)
			SELECT CASE WHEN $4 THEN gen_random_uuid()
				ELSE overlay(uuid_v7_bound($2::timestamptz + n * interval '1 second')::text PLACING substr(gen_random_uuid()::text, 15) FROM 15)::uuid END,
				t.id, '00000000-0000-4000-8000-000000000001', 'success', $2::timestamptz + n * interval '1 second'
			FROM (SELECT id, row_number() OVER () AS n FROM t) t RETURNING id, created_at)
		INSERT INTO run_events (run_id, event, data, created_at)
		SELECT r.id, 'values', convert_to(repeat('x', $3), 'UTF8'), r.created_at FROM r, generate_series(1, $5)`,
		benchRuns, day, benchData, legacy, benchEvents)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `VACUUM ANALYZE run_events_default`); err != nil {
		b.Fatal(err)
	}
}
