package migrations

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/testing/pgtest"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "migrations", &testURL)) }

// Every migration applies, rolls back and applies again.
func TestUpDownUp(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	steps := []struct {
		name       string
		apply      func(context.Context, string) error
		wantTables bool
	}{
		{"up", Up, true},
		{"down to 0", func(ctx context.Context, u string) error { return DownTo(ctx, u, 0) }, false},
		{"up again", Up, true},
	}
	for _, step := range steps {
		if err := step.apply(ctx, testURL); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		tables := publicTables(t)
		for _, want := range []string{"users", "api_keys", "threads", "checkpoints", "runs", "run_events", "mcp_servers", "user_settings", "tool_outputs"} {
			if tables[want] != step.wantTables {
				t.Errorf("after %s: table %s exists = %v, want %v", step.name, want, tables[want], step.wantTables)
			}
		}
		if !step.wantTables {
			for name := range tables {
				if name != "goose_db_version" {
					t.Errorf("after %s: table %s is left", step.name, name)
				}
			}
		}
	}
	var status bytes.Buffer
	if err := Status(ctx, testURL, &status); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(status.String(), "pending") || !strings.Contains(status.String(), "00002_threads.sql") {
		t.Errorf("status after up:\n%s", status.String())
	}
}

func publicTables(t *testing.T) map[string]bool {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)
	if err != nil {
		t.Fatal(err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]bool)
	for _, n := range names {
		out[n] = true
	}
	return out
}

// Processes that start together migrate one after another: each
// migration is applied once, and none of them fails on another's.
func TestConcurrentUpsApplyEachMigrationOnce(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Database(t, "migrconcurrent")
	const processes = 3
	errs := make(chan error, processes)
	for range processes {
		go func() { errs <- Up(ctx, url) }()
	}
	for range processes {
		if err := <-errs; err != nil {
			t.Errorf("one of %d concurrent migrations: %v", processes, err)
		}
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var applied, twice int
	if err := conn.QueryRow(ctx, `SELECT count(DISTINCT version_id), count(*) - count(DISTINCT version_id) FROM goose_db_version WHERE version_id > 0`).Scan(&applied, &twice); err != nil {
		t.Fatal(err)
	}
	all, err := fs.Glob(files, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	if applied != len(all) || twice != 0 {
		t.Errorf("%d migrations of %d applied, %d of them more than once", applied, len(all), twice)
	}
}
