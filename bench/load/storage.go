package main

import (
	"context"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5"
)

// printStorage writes what the database holds per run (a run is one
// turn), table by table, indexes and TOAST included, after a VACUUM so
// that the visibility and free-space maps are counted as they settle.
func printStorage(ctx context.Context, w io.Writer, dbURL string, r result) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		fmt.Fprintln(w, "storage: unknown:", err)
		return
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `VACUUM`); err != nil {
		fmt.Fprintln(w, "storage: vacuum:", err)
	}
	var runs, threads, owners int64
	if err := conn.QueryRow(ctx, `SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM threads),
		(SELECT count(DISTINCT owner_id) FROM threads)`).Scan(&runs, &threads, &owners); err != nil || runs == 0 {
		fmt.Fprintln(w, "storage: no runs stored:", err)
		return
	}
	rows, err := conn.Query(ctx, `
		SELECT c.relname, pg_total_relation_size(c.oid)
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
			AND c.relname IN ('threads', 'checkpoints', 'runs', 'run_events')
		ORDER BY 2 DESC`)
	if err != nil {
		fmt.Fprintln(w, "storage: sizes:", err)
		return
	}
	type size struct {
		Table string
		Bytes int64
	}
	sizes, err := pgx.CollectRows(rows, pgx.RowToStructByPos[size])
	if err != nil {
		fmt.Fprintln(w, "storage: sizes:", err)
		return
	}
	var total int64
	fmt.Fprintf(w, "stored: %d runs (turns) on %d threads of %d owners\n", runs, threads, owners)
	for _, s := range sizes {
		total += s.Bytes
		fmt.Fprintf(w, "  %-12s %8.1f KiB/run\n", s.Table, float64(s.Bytes)/1024/float64(runs))
	}
	fmt.Fprintf(w, "  %-12s %8.1f KiB/run\n", "all four", float64(total)/1024/float64(runs))
}
