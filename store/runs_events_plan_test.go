package store

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/store/eventparts"
)

// Every statement that reads a run's events reads one partition of
// run_events, the run's, along an index that starts with the run id:
// planned for the run at hand, and planned once for any run (as a
// prepared statement's generic plan is) and pruned when it runs.
func TestRunEventQueriesReadOnePartition(t *testing.T) {
	ctx := context.Background()
	s := openQueueStores(t, 1)[0]
	owner, thread := newThread(t, s, "plan")
	r, err := s.ForOwner(owner).CreateRun(ctx, thread, NewRun{})
	if err != nil {
		t.Fatal(err)
	}
	// Many runs with events on every partition, the default one too.
	_, err = s.Pool.Exec(ctx, `
		WITH r AS (INSERT INTO runs (id, thread_id, owner_id, status)
			SELECT CASE WHEN g % 5 = 0 THEN gen_random_uuid() ELSE uuid_v7() END, $1, $2, 'success'
			FROM generate_series(1, 2000) g RETURNING id)
		INSERT INTO run_events (run_id, event, data) SELECT r.id, 'values', '\x7b7d' FROM r, generate_series(1, 5)`, thread, owner)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pool.Exec(ctx, `ANALYZE run_events; ANALYZE runs; ANALYZE threads`); err != nil {
		t.Fatal(err)
	}
	appendEvent(t, s, r.ID, "values", []byte(`{}`))
	part := eventparts.NameOf(time.Now())
	for _, c := range []struct {
		what, sql string
		args      []any
	}{
		{"RunEvents", runEventsSQL, []any{r.ID, owner, 0, runEventsPage}},
		{"a follower's read", runAndEventsSQL, []any{r.ID, owner, 0, runEventsPage}},
		{"the end of a run", endRunSQL, endRunArgs(r.ID, r.ThreadID, nil, RunSuccess, "", "")},
	} {
		plan := explain(t, s, c.sql, c.args...)
		checkOnePartition(t, c.what, plan, part)
		generic := explainGeneric(t, s, c.sql, c.args...)
		checkOnePartition(t, c.what+" (generic plan)", generic, "")
		if !strings.Contains(generic, "Subplans Removed") {
			t.Errorf("the generic plan of %s is not pruned when it runs:\n%s", c.what, generic)
		}
	}
}

// partitionScan is a scan of run_events (a partition or its index) in a
// plan: its kind, the index it uses and what it scans.
var partitionScan = regexp.MustCompile(`((?:Parallel )?(?:Seq|Index|Index Only|Bitmap Heap|Bitmap Index) Scan(?: Backward)?)(?: using (\S+))? on (run_events_\w+)`)

// checkOnePartition fails the test unless every scan of run_events in plan
// goes through a partition's primary key (run_id, seq), and reads partition
// part alone when it is not "".
func checkOnePartition(t *testing.T, what, plan, part string) {
	t.Helper()
	read := map[string]bool{}
	for _, sc := range partitionScan.FindAllStringSubmatch(plan, -1) {
		kind, index, rel := sc[1], sc[2], sc[3]
		switch {
		case kind == "Bitmap Index Scan":
			index, rel = rel, strings.TrimSuffix(rel, "_pkey")
		case kind == "Bitmap Heap Scan":
			continue // its Bitmap Index Scan says which index
		case !strings.HasPrefix(kind, "Index"):
			t.Errorf("%s reads %s with a %s:\n%s", what, rel, kind, plan)
		}
		if index != rel+"_pkey" {
			t.Errorf("%s reads %s through %q, want its primary key:\n%s", what, rel, index, plan)
		}
		read[rel] = true
	}
	if len(read) == 0 || (part != "" && (len(read) != 1 || !read[part])) {
		t.Errorf("%s reads the partitions %v of run_events, want %q alone:\n%s", what, read, part, plan)
	}
}

// explainGeneric is the plan PostgreSQL makes of a statement once for any
// arguments, as it may for a prepared statement, run with these.
func explainGeneric(t *testing.T, s *Store, sql string, args ...any) string {
	t.Helper()
	ctx := context.Background()
	conn, err := s.Pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	literals := make([]string, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case nil:
			literals[i] = "NULL"
		case *string:
			literals[i] = "NULL"
			if v != nil {
				literals[i] = "'" + *v + "'"
			}
		case string:
			literals[i] = "'" + strings.ReplaceAll(v, "'", "''") + "'"
		default:
			literals[i] = fmt.Sprint(v)
		}
	}
	var lines []string
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL plan_cache_mode = force_generic_plan`); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `PREPARE generic_plan AS `+sql); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `EXPLAIN EXECUTE generic_plan(`+strings.Join(literals, ", ")+`)`, pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			return err
		}
		lines, err = pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DEALLOCATE generic_plan`)
		return err
	})
	if err != nil {
		t.Fatalf("explaining the generic plan: %v", err)
	}
	return strings.Join(lines, "\n")
}
