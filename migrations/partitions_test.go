package migrations

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// oldAppend is the statement with which the release before migration 00026
// appends a run's events: it must keep working on the partitioned table
// while processes are replaced one by one.
const oldAppend = `
	INSERT INTO run_events (run_id, event, data, position)
	SELECT $1, x.event, x.data, x.position
	FROM unnest($2::text[], $3::bytea[], $4::text[]) WITH ORDINALITY AS x(event, data, position, n)
	ORDER BY x.n
	ON CONFLICT (run_id, position) WHERE position IS NOT NULL DO NOTHING
	RETURNING seq`

// Migration 00026 copies the run events into the partitioned table,
// numbers new events after the old ones, and keeps the previous release's
// append (with its conflict on a position) and reads working; new runs
// take UUIDv7 ids whose events land in their day's partition, old runs'
// in the default one. Its Down copies them back.
func TestRunEventsPartitioned(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	p, conn := migratedTo(t, "migrparts", 25)
	_, err := conn.Exec(ctx, `
		INSERT INTO users (id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'old');
		INSERT INTO threads (id, owner_id) VALUES ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000001');
		INSERT INTO runs (id, thread_id, owner_id, status) VALUES
			('c0ffee00-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000001', 'running');
		INSERT INTO run_events (run_id, event, data, position)
			SELECT 'c0ffee00-0000-4000-8000-000000000001', 'values', convert_to('{"n":' || n || '}', 'UTF8'), 'p' || n
			FROM generate_series(1, 50) n;`)
	if err != nil {
		t.Fatal(err)
	}
	before := events(t, conn, "c0ffee00-0000-4000-8000-000000000001")

	if _, err := p.UpTo(ctx, 26); err != nil {
		t.Fatal(err)
	}
	conn.DeallocateAll(ctx)
	if after := events(t, conn, "c0ffee00-0000-4000-8000-000000000001"); !slices.Equal(after, before) {
		t.Fatalf("after the migration the old run's events are\n%v\nwant\n%v", after, before)
	}
	if got := partitionOf(t, conn, "c0ffee00-0000-4000-8000-000000000001"); got != "run_events_default" {
		t.Errorf("an old run's events are in %s, want the default partition", got)
	}
	if kind := relkind(t, conn, "run_events"); kind != "p" {
		t.Fatalf("run_events has relkind %q, want a partitioned table", kind)
	}

	// The previous release appends to the old run and to a new one.
	var fresh string
	if err := conn.QueryRow(ctx, `INSERT INTO runs (thread_id, owner_id, status) VALUES
		('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000001', 'queued') RETURNING id::text`).Scan(&fresh); err != nil {
		t.Fatal(err)
	}
	if fresh[14] != '7' {
		t.Errorf("a new run's id %s is not a UUIDv7", fresh)
	}
	seqs := oldAppendRows(t, conn, "c0ffee00-0000-4000-8000-000000000001", "p50", "p51")
	if len(seqs) != 1 || seqs[0] <= before[len(before)-1].seq {
		t.Errorf("appending p50 (held) and p51 after seq %d gave seqs %v, want one new seq after it", before[len(before)-1].seq, seqs)
	}
	if seqs := oldAppendRows(t, conn, fresh, "a", "a"); len(seqs) != 1 {
		t.Errorf("appending one position twice to a new run gave seqs %v, want one", seqs)
	}
	if seqs := oldAppendRows(t, conn, fresh, "a", "b"); len(seqs) != 1 {
		t.Errorf("appending a held position again gave seqs %v, want only the new one", seqs)
	}
	if got, want := partitionOf(t, conn, fresh), "run_events_p"+dayOf(t, conn); got != want {
		t.Errorf("a new run's events are in %s, want %s", got, want)
	}

	withNew := events(t, conn, "c0ffee00-0000-4000-8000-000000000001")
	if _, err := p.DownTo(ctx, 25); err != nil {
		t.Fatal(err)
	}
	conn.DeallocateAll(ctx)
	if kind := relkind(t, conn, "run_events"); kind != "r" {
		t.Fatalf("after Down run_events has relkind %q, want a plain table", kind)
	}
	if back := events(t, conn, "c0ffee00-0000-4000-8000-000000000001"); !slices.Equal(back, withNew) {
		t.Fatalf("after Down the old run's events are\n%v\nwant\n%v", back, withNew)
	}
	if seqs := oldAppendRows(t, conn, fresh, "c"); len(seqs) != 1 || seqs[0] <= withNew[len(withNew)-1].seq {
		t.Errorf("an append after Down gave seqs %v, want one after %d", seqs, withNew[len(withNew)-1].seq)
	}
}

// event is what a test compares of a stored run event.
type event struct {
	seq                       int64
	event, data, at, position string // position "-" for none
}

func (e event) String() string {
	return fmt.Sprintf("%d %s %s %s %s", e.seq, e.event, e.data, e.at, e.position)
}

func events(t *testing.T, conn *pgx.Conn, run string) []event {
	t.Helper()
	rows, err := conn.Query(context.Background(), `SELECT seq, event, convert_from(data, 'UTF8'), created_at::text, coalesce(position, '-')
		FROM run_events WHERE run_id = $1 ORDER BY seq`, run)
	if err != nil {
		t.Fatal(err)
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (event, error) {
		var e event
		return e, r.Scan(&e.seq, &e.event, &e.data, &e.at, &e.position)
	})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// oldAppendRows appends one event per position with oldAppend and returns
// the seqs of those appended.
func oldAppendRows(t *testing.T, conn *pgx.Conn, run string, positions ...string) []int64 {
	t.Helper()
	names, data := make([]string, len(positions)), make([][]byte, len(positions))
	for i := range positions {
		names[i], data[i] = "values", []byte(`{}`)
	}
	rows, err := conn.Query(context.Background(), oldAppend, run, names, data, positions)
	if err != nil {
		t.Fatal(err)
	}
	seqs, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatalf("the previous release's append: %v", err)
	}
	return seqs
}

func partitionOf(t *testing.T, conn *pgx.Conn, run string) string {
	t.Helper()
	var name string
	if err := conn.QueryRow(context.Background(), `SELECT DISTINCT tableoid::regclass::text FROM run_events WHERE run_id = $1`, run).Scan(&name); err != nil {
		t.Fatal(err)
	}
	return name
}

func dayOf(t *testing.T, conn *pgx.Conn) string {
	t.Helper()
	var day string
	if err := conn.QueryRow(context.Background(), `SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYYMMDD')`).Scan(&day); err != nil {
		t.Fatal(err)
	}
	return day
}

func relkind(t *testing.T, conn *pgx.Conn, name string) string {
	t.Helper()
	var kind string
	if err := conn.QueryRow(context.Background(), `SELECT relkind::text FROM pg_class WHERE relname = $1`, name).Scan(&kind); err != nil {
		t.Fatal(err)
	}
	return kind
}

// Migration 00030 samples checkpoints and run events with a statistics
// target of 10, on every partition there is and on those added later,
// and its Down gives the default back.
func TestRunEventsAnalysisSample(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	p, conn := migratedTo(t, "migrsample", 30)
	// A partition added after the migration: the day after the last one
	// there is.
	if _, err := conn.Exec(ctx, `SELECT run_events_add_partitions(5)`); err != nil {
		t.Fatal(err)
	}
	targets := func() map[string]int {
		rows, err := conn.Query(ctx, `SELECT attrelid::regclass::text, min(attstattarget), max(attstattarget) FROM pg_attribute
			WHERE attrelid IN (SELECT 'checkpoints'::regclass UNION ALL SELECT 'run_events'::regclass
				UNION ALL SELECT inhrelid FROM pg_inherits WHERE inhparent = 'run_events'::regclass)
				AND attnum > 0 AND NOT attisdropped GROUP BY 1`)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for rows.Next() {
			var name string
			var lo, hi int
			if err := rows.Scan(&name, &lo, &hi); err != nil {
				t.Fatal(err)
			}
			if lo != hi {
				t.Errorf("%s's columns have statistics targets from %d to %d, want one", name, lo, hi)
			}
			got[name] = lo
		}
		if rows.Err() != nil {
			t.Fatal(rows.Err())
		}
		return got
	}
	added := "run_events_p" + dayAfter(t, conn, 5)
	got := targets()
	if _, ok := got[added]; !ok {
		t.Fatalf("no partition %s among %v", added, got)
	}
	for name, target := range got {
		if target != 10 {
			t.Errorf("%s samples with a statistics target of %d, want 10", name, target)
		}
	}
	if _, err := p.DownTo(ctx, 29); err != nil {
		t.Fatal(err)
	}
	for name, target := range targets() {
		if target != -1 {
			t.Errorf("after Down, %s samples with a statistics target of %d, want the default (-1)", name, target)
		}
	}
}

// dayAfter is the UTC day days from today, as partitions are named.
func dayAfter(t *testing.T, conn *pgx.Conn, days int) string {
	t.Helper()
	var day string
	if err := conn.QueryRow(context.Background(),
		`SELECT to_char((now() AT TIME ZONE 'UTC')::date + $1::int, 'YYYYMMDD')`, days).Scan(&day); err != nil {
		t.Fatal(err)
	}
	return day
}
