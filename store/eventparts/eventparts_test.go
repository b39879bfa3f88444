package eventparts

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "eventparts", &testURL)) }

// A partition's name gives back its day, and only a day's partition is
// one.
func TestNames(t *testing.T) {
	at := time.Date(2026, 11, 29, 23, 59, 0, 0, time.FixedZone("BRT", -3*3600)) // 30 Nov in UTC
	part, ok := parseName(NameOf(at))
	if !ok || part.Name != "run_events_p20261130" || !part.Day.Equal(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)) ||
		!part.End().Equal(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("NameOf(%v) = %s, read back as %+v (%v), ending %v", at, NameOf(at), part, ok, part.End())
	}
	for _, name := range []string{"run_events_default", "run_events_p2026113", "run_events_p20261340", "other_p20261130"} {
		if _, ok := parseName(name); ok {
			t.Errorf("%s is read as a day's partition", name)
		}
	}
}

// newDatabase is a fresh migrated database of the test's own (partitions
// are the whole table's) with a user.
func newDatabase(t testing.TB) *pgxpool.Pool {
	t.Helper()
	ctx := context.Background()
	url := pgtest.Database(t, "eventparts")
	if err := migrations.Up(ctx, url); err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := pool.Exec(ctx, `
		INSERT INTO users (id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'u')`); err != nil {
		t.Fatal(err)
	}
	return pool
}

// runAt is a run created at the time given, with that time's UUIDv7 id
// (or a random id when v4), on a thread of its own, and three events.
func runAt(t *testing.T, pool *pgxpool.Pool, at time.Time, status string, v4 bool) string {
	t.Helper()
	id := uuid.New()
	if !v4 {
		ms := uint64(at.UnixMilli())
		for i := range 6 {
			id[i] = byte(ms >> (40 - 8*i))
		}
		id[6] = 0x70 | id[6]&0x0f
	}
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `
		WITH t AS (INSERT INTO threads (owner_id) VALUES ('00000000-0000-4000-8000-000000000001') RETURNING id)
		INSERT INTO runs (id, thread_id, owner_id, status, created_at)
		SELECT $1, t.id, '00000000-0000-4000-8000-000000000001', $2, $3 FROM t`, id, status, at); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO run_events (run_id, event, data, created_at)
		SELECT $1, 'values', '\x7b7d', $2 FROM generate_series(1, 3)`, id, at); err != nil {
		t.Fatalf("appending to run %s of %v: %v", id, at, err)
	}
	return id.String()
}

// partitionOf is where a run's events are, and how many.
func partitionOf(t *testing.T, pool *pgxpool.Pool, run string) (string, int) {
	t.Helper()
	var name string
	var n int
	err := pool.QueryRow(context.Background(), `SELECT coalesce(min(tableoid::regclass::text), ''), count(*) FROM run_events WHERE run_id = $1`, run).Scan(&name, &n)
	if err != nil {
		t.Fatal(err)
	}
	return name, n
}

// addPast adds the partition of a past day, as Add did on that day.
func addPast(t testing.TB, pool *pgxpool.Pool, day time.Time) {
	t.Helper()
	ctx := context.Background()
	var lo, hi string
	if err := pool.QueryRow(ctx, `SELECT uuid_v7_bound($1)::text, uuid_v7_bound($2)::text`, day, day.AddDate(0, 0, 1)).Scan(&lo, &hi); err != nil {
		t.Fatal(err)
	}
	_, err := pool.Exec(ctx, fmt.Sprintf(`CREATE TABLE %s PARTITION OF run_events FOR VALUES FROM ('%s') TO ('%s')`,
		pgx.Identifier{NameOf(day)}.Sanitize(), lo, hi))
	if err != nil {
		t.Fatal(err)
	}
}

func names(t *testing.T, p *Partitions) []string {
	t.Helper()
	parts, err := p.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, part := range parts {
		out = append(out, part.Name)
	}
	return out
}

// An append for a day without a partition goes to the default partition;
// adding the day's partition moves it there. Processes adding at once add
// each partition once.
func TestAddMovesWhatTheDefaultHeld(t *testing.T) {
	ctx := context.Background()
	pool := newDatabase(t)
	p := New(pool)
	today := time.Now().UTC().Truncate(24 * time.Hour)
	want := []string{NameOf(today), NameOf(today.AddDate(0, 0, 1)), NameOf(today.AddDate(0, 0, 2)), NameOf(today.AddDate(0, 0, 3))}
	if got := names(t, p); !slices.Equal(got, want) {
		t.Fatalf("after the migration the partitions are %v, want %v", got, want)
	}
	last := today.AddDate(0, 0, DaysAhead)
	if _, err := pool.Exec(ctx, `DROP TABLE `+NameOf(last)); err != nil {
		t.Fatal(err)
	}
	early := runAt(t, pool, last.Add(time.Hour), "running", false)
	if part, n := partitionOf(t, pool, early); part != "run_events_default" || n != 3 {
		t.Fatalf("with no partition for its day, a run's events are in %q (%d), want the default partition", part, n)
	}

	var wg sync.WaitGroup
	added := make([]int, 4)
	errs := make([]error, 4)
	for i := range added {
		wg.Add(1)
		go func() {
			defer wg.Done()
			added[i], errs[i] = p.Add(ctx)
		}()
	}
	wg.Wait()
	total := 0
	for i := range added {
		if errs[i] != nil {
			t.Fatalf("Add: %v", errs[i])
		}
		total += added[i]
	}
	if total != 1 {
		t.Errorf("four processes adding at once added %v partitions, want one in all", added)
	}
	if got := names(t, p); !slices.Equal(got, want) {
		t.Errorf("partitions %v, want %v", got, want)
	}
	if part, n := partitionOf(t, pool, early); part != NameOf(last) || n != 3 {
		t.Errorf("after Add the run's events are in %q (%d), want %s", part, n, NameOf(last))
	}
}

// Retention drops whole the partitions of days past the cutoff, but never
// one holding the events of a run still queued, pending or running: a
// running run's events survive the pass that drops the partitions around
// it, and go once it has ended. In the default partition it deletes the
// events of ended runs created before the cutoff, and keeps the others.
func TestPruneKeepsActiveRuns(t *testing.T) {
	ctx := context.Background()
	pool := newDatabase(t)
	p := New(pool)
	defer func(n int) { defaultBatch = n }(defaultBatch)
	defaultBatch = 2 // a run's events span statements
	today := time.Now().UTC().Truncate(24 * time.Hour)
	d10, d9, d8 := today.AddDate(0, 0, -10), today.AddDate(0, 0, -9), today.AddDate(0, 0, -8)
	for _, d := range []time.Time{d10, d9, d8} {
		addPast(t, pool, d)
	}
	ended10 := runAt(t, pool, d10.Add(3*time.Hour), "success", false)
	running9 := runAt(t, pool, d9.Add(23*time.Hour), "running", false)
	ended9 := runAt(t, pool, d9.Add(time.Hour), "error", false)
	queued8 := runAt(t, pool, d8.Add(time.Hour), "queued", false)
	ended8 := runAt(t, pool, d8.Add(2*time.Hour), "cancelled", false)
	recent := runAt(t, pool, today.Add(time.Minute), "success", false)
	oldLegacy := runAt(t, pool, d10, "success", true)
	activeLegacy := runAt(t, pool, d10, "pending", true)
	newLegacy := runAt(t, pool, today, "success", true)
	for _, legacy := range []string{oldLegacy, activeLegacy, newLegacy} {
		if part, _ := partitionOf(t, pool, legacy); part != "run_events_default" && !strings.HasPrefix(part, namePrefix) {
			t.Fatalf("run %s is in %s", legacy, part)
		}
	}
	cutoff := time.Now().Add(-7 * 24 * time.Hour)
	wantRows, laterRows := defaultRows(t, pool, oldLegacy), defaultRows(t, pool, activeLegacy)

	dry, err := p.Prune(ctx, cutoff, true)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Prune(ctx, cutoff, false)
	if err != nil {
		t.Fatal(err)
	}
	want := Pruned{Partitions: []string{NameOf(d10)}, Kept: []string{NameOf(d9), NameOf(d8)}}
	if !slices.Equal(got.Partitions, want.Partitions) || !slices.Equal(got.Kept, want.Kept) ||
		!slices.Equal(dry.Partitions, want.Partitions) || !slices.Equal(dry.Kept, want.Kept) {
		t.Errorf("Prune dropped %v and kept %v (dry run: %v, %v), want %v and %v",
			got.Partitions, got.Kept, dry.Partitions, dry.Kept, want.Partitions, want.Kept)
	}
	for run, n := range map[string]int{ended10: 0, running9: 3, ended9: 3, queued8: 3, ended8: 3, recent: 3, activeLegacy: 3, newLegacy: 3} {
		if _, got := partitionOf(t, pool, run); got != n {
			t.Errorf("after the first pass run %s has %d events, want %d", run, got, n)
		}
	}
	if got.Rows != wantRows || dry.Rows != wantRows {
		t.Errorf("Prune deleted %d rows of the default partition (dry run %d), want %d", got.Rows, dry.Rows, wantRows)
	}
	if _, n := partitionOf(t, pool, oldLegacy); wantRows > 0 && n != 0 {
		t.Errorf("an old ended run in the default partition keeps %d events", n)
	}

	if _, err := pool.Exec(ctx, `UPDATE runs SET status = 'success' WHERE id = ANY($1::uuid[])`, []string{running9, activeLegacy}); err != nil {
		t.Fatal(err)
	}
	got, err = p.Prune(ctx, cutoff, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Partitions, []string{NameOf(d9)}) || !slices.Equal(got.Kept, []string{NameOf(d8)}) || got.Rows != laterRows {
		t.Errorf("once its runs ended, Prune dropped %v, kept %v and deleted %d rows of the default partition, want %s dropped, %s kept and %d rows",
			got.Partitions, got.Kept, got.Rows, NameOf(d9), NameOf(d8), laterRows)
	}
	for run, n := range map[string]int{running9: 0, ended9: 0, queued8: 3, recent: 3, newLegacy: 3} {
		if _, got := partitionOf(t, pool, run); got != n {
			t.Errorf("after the second pass run %s has %d events, want %d", run, got, n)
		}
	}
}

// defaultRows is how many events of a run the default partition holds.
func defaultRows(t *testing.T, pool *pgxpool.Pool, run string) int64 {
	t.Helper()
	var n int64
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM run_events_default WHERE run_id = $1`, run).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The check for a partition's active runs, which runs while the drop
// holds the whole table, reads the few active runs along their partial
// index, not the day's many runs.
func TestActiveCheckReadsActiveRunsOnly(t *testing.T) {
	ctx := context.Background()
	pool := newDatabase(t)
	day := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -9)
	_, err := pool.Exec(ctx, `
		WITH t AS (INSERT INTO threads (owner_id) SELECT '00000000-0000-4000-8000-000000000001' FROM generate_series(1, 20000) RETURNING id)
		INSERT INTO runs (id, thread_id, owner_id, status)
		SELECT overlay(uuid_v7_bound($1::timestamptz + n * interval '1 second')::text PLACING substr(gen_random_uuid()::text, 15) FROM 15)::uuid,
			id, '00000000-0000-4000-8000-000000000001', CASE WHEN n % 5000 = 0 THEN 'running' ELSE 'success' END
		FROM (SELECT id, row_number() OVER () AS n FROM t) t`, day)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `ANALYZE runs`); err != nil {
		t.Fatal(err)
	}
	rows, err := pool.Query(ctx, `EXPLAIN `+activeSQL, day, day.AddDate(0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if plan := strings.Join(lines, "\n"); !strings.Contains(plan, "runs_owner_active_idx") {
		t.Errorf("the active-run check does not read runs_owner_active_idx:\n%s", plan)
	}
}
