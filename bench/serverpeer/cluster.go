package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/bench/internal/procstat"
	serveconfig "github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/devdb"
	"github.com/tripgraph/tripgraph/store"
)

// cluster is the scratch PostgreSQL cluster of one benchmark: its own
// postmaster, so that every backend under it works for the server being
// measured, with pg_stat_statements loaded.
type cluster struct {
	dir        string
	c          *devdb.Cluster
	adminURL   string // the cluster's default database, where pg_stat_statements is installed
	postmaster int
}

// startCluster creates a cluster under a new temporary directory, loads
// pg_stat_statements (which needs a restart) and installs its view.
func startCluster(ctx context.Context) (*cluster, error) {
	dir, err := os.MkdirTemp("", "serverpeer-pg-")
	if err != nil {
		return nil, fmt.Errorf("creating the scratch cluster's directory: %w", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // its owner is not root
		return nil, fmt.Errorf("opening the scratch cluster's directory: %w", err)
	}
	cl := &cluster{dir: dir, c: &devdb.Cluster{Root: dir}}
	u, err := cl.c.Ensure(ctx)
	if err != nil {
		cl.remove()
		return nil, fmt.Errorf("starting the scratch cluster: %w", err)
	}
	slots, err := connectionSlots()
	if err != nil {
		cl.remove()
		return nil, err
	}
	conf := []string{
		"ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'",
		"ALTER SYSTEM SET track_io_timing = on",
		fmt.Sprintf("ALTER SYSTEM SET max_connections = %d", slots),
	}
	if err := execAll(ctx, u, conf...); err != nil {
		cl.remove()
		return nil, fmt.Errorf("configuring the scratch cluster: %w", err)
	}
	if err := cl.c.Stop(ctx); err != nil {
		cl.remove()
		return nil, fmt.Errorf("restarting the scratch cluster: %w", err)
	}
	if u, err = cl.c.Ensure(ctx); err != nil {
		cl.remove()
		return nil, fmt.Errorf("restarting the scratch cluster: %w", err)
	}
	cl.adminURL = u
	// Planning time too: pgx prepares each statement once per connection,
	// so this shows whether any statement is planned on every call.
	if err := execAll(ctx, u, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements",
		"ALTER SYSTEM SET pg_stat_statements.track_planning = on", "SELECT pg_reload_conf()"); err != nil {
		cl.remove()
		return nil, fmt.Errorf("installing pg_stat_statements: %w", err)
	}
	if cl.postmaster, err = cl.findPostmaster(ctx); err != nil {
		cl.remove()
		return nil, err
	}
	return cl, nil
}

// benchConnections is how many connections of its own a benchmark opens
// to the scratch cluster at most (the sampler, the statistics, creating and
// dropping databases), with PostgreSQL's three reserved for superusers.
const benchConnections = 8

// connectionSlots is the scratch cluster's max_connections, sized as
// docs/operations.md asks of a deployment's: what the one serve process
// may open (its pools as this environment sizes them, and its
// notification connections) and the benchmark's own. Every slot costs
// shared memory, used or not: the local cluster's 300, which the tests'
// parallel packages need, would count about 8 MiB the server never uses.
func connectionSlots() (int32, error) {
	cfg, err := serveconfig.Load(os.Environ(), "")
	if err != nil {
		return 0, fmt.Errorf("reading the pool size serve will use: %w", err)
	}
	return store.MostConnections(cfg.DBPool(runtime.GOMAXPROCS(0))) + benchConnections, nil
}

// findPostmaster is the parent of a backend of ours.
func (cl *cluster) findPostmaster(ctx context.Context) (int, error) {
	conn, err := pgx.Connect(ctx, cl.adminURL)
	if err != nil {
		return 0, fmt.Errorf("connecting to the scratch cluster: %w", err)
	}
	defer conn.Close(ctx)
	var backend int
	if err := conn.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&backend); err != nil {
		return 0, fmt.Errorf("asking for a backend's pid: %w", err)
	}
	return procstat.Parent(backend)
}

// restart stops the cluster and starts it again, with the postmaster's
// new pid and the port it now listens on.
func (cl *cluster) restart(ctx context.Context) error {
	if err := cl.c.Stop(ctx); err != nil {
		return fmt.Errorf("stopping the scratch cluster: %w", err)
	}
	u, err := cl.c.Ensure(ctx)
	if err != nil {
		return fmt.Errorf("starting the scratch cluster again: %w", err)
	}
	cl.adminURL = u
	cl.postmaster, err = cl.findPostmaster(ctx)
	return err
}

// remove stops the cluster and deletes it.
func (cl *cluster) remove() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cl.c.Reset(ctx)
	os.RemoveAll(cl.dir)
}

// pids is the postmaster and every process below it now.
func (cl *cluster) pids() ([]int, error) { return procstat.Tree(cl.postmaster) }

// cpu is the CPU time of the whole cluster so far: postmaster, backends
// (ended ones included) and background processes.
func (cl *cluster) cpu() (time.Duration, error) { return procstat.TreeCPU(cl.postmaster) }

// dbURL is the URL of database name in the cluster.
func (cl *cluster) dbURL(name string) string {
	u, _ := url.Parse(cl.adminURL)
	u.Path = "/" + name
	return u.String()
}

// createDB creates database name, as a copy of template when it is set.
func (cl *cluster) createDB(ctx context.Context, name, template string) error {
	q := "CREATE DATABASE " + pgx.Identifier{name}.Sanitize()
	if template != "" {
		q += " TEMPLATE " + pgx.Identifier{template}.Sanitize()
	}
	return execAll(ctx, cl.adminURL, q)
}

// analyseSeeded vacuums and analyses the tables of database name that
// hold rows, the catalogue's among them (the migrations filled it), so
// that every copy of it starts with their statistics (a copy carries its
// template's) and autovacuum does not go through them, in the copy or in
// the template, during a round: its worker held 35 – 75 MiB doing so,
// which the round would count as the server's. The empty tables, the
// runs' own, are left as they are: statistics saying they are empty would
// plan their statements as scans of empty tables until autovacuum came
// by, up to a minute into the round.
func (cl *cluster) analyseSeeded(ctx context.Context, name string) error {
	conn, err := pgx.Connect(ctx, cl.dbURL(name))
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", name, err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT format('%I.%I', schemaname, relname) FROM pg_stat_all_tables
		WHERE n_live_tup > 0 AND schemaname <> 'pg_toast'`)
	if err != nil {
		return fmt.Errorf("listing the seeded tables of %s: %w", name, err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("listing the seeded tables of %s: %w", name, err)
	}
	if len(tables) == 0 {
		return fmt.Errorf("%s has no table with rows to analyse", name)
	}
	if _, err := conn.Exec(ctx, "VACUUM (ANALYZE) "+strings.Join(tables, ", ")); err != nil {
		return fmt.Errorf("analysing the seeded tables of %s: %w", name, err)
	}
	return nil
}

func (cl *cluster) dropDB(ctx context.Context, name string) error {
	return execAll(ctx, cl.adminURL, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
}

// resetStatements empties pg_stat_statements.
func (cl *cluster) resetStatements(ctx context.Context) error {
	return execAll(ctx, cl.adminURL, "SELECT pg_stat_statements_reset()")
}

// statement is one row of pg_stat_statements.
type statement struct {
	Query   string  `json:"query"`
	Calls   int64   `json:"calls"`
	TotalMs float64 `json:"totalMs"` // execution
	PlanMs  float64 `json:"planMs"`
	Plans   int64   `json:"plans"`
	Rows    int64   `json:"rows"`
	WALB    int64   `json:"walBytes"`
}

// dbStats is what PostgreSQL counted for one database during a round.
type dbStats struct {
	Commits    int64       `json:"commits"`
	Rollbacks  int64       `json:"rollbacks"`
	Statements []statement `json:"statements"`
	Stored     *stored     `json:"stored,omitempty"`
}

// stored is what tripgraph's tables hold after a round, warm-up included.
type stored struct {
	Runs        int64            `json:"runs"`
	Checkpoints int64            `json:"checkpoints"`
	Events      map[string]int64 `json:"events"` // run events by kind
}

// tripgraphStored counts tripgraph's runs, checkpoints and run events by
// kind in database db.
func (cl *cluster) tripgraphStored(ctx context.Context, db string) (*stored, error) {
	conn, err := pgx.Connect(ctx, cl.dbURL(db))
	if err != nil {
		return nil, fmt.Errorf("connecting to count what was stored: %w", err)
	}
	defer conn.Close(ctx)
	st := &stored{Events: map[string]int64{}}
	if err := conn.QueryRow(ctx, "SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM checkpoints)").
		Scan(&st.Runs, &st.Checkpoints); err != nil {
		return nil, fmt.Errorf("counting runs and checkpoints: %w", err)
	}
	rows, err := conn.Query(ctx, "SELECT event, count(*) FROM run_events GROUP BY event")
	if err != nil {
		return nil, fmt.Errorf("counting run events: %w", err)
	}
	for rows.Next() {
		var kind string
		var n int64
		if err := rows.Scan(&kind, &n); err != nil {
			return nil, fmt.Errorf("counting run events: %w", err)
		}
		st.Events[kind] = n
	}
	return st, rows.Err()
}

// stats reads the round database's statements (all of them, by total
// time) and its commits and rollbacks.
func (cl *cluster) stats(ctx context.Context, db string) (dbStats, error) {
	conn, err := pgx.Connect(ctx, cl.adminURL)
	if err != nil {
		return dbStats{}, fmt.Errorf("connecting to read the statements: %w", err)
	}
	defer conn.Close(ctx)
	var s dbStats
	if err := conn.QueryRow(ctx, "SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = $1", db).
		Scan(&s.Commits, &s.Rollbacks); err != nil {
		return dbStats{}, fmt.Errorf("reading the database's commits: %w", err)
	}
	rows, err := conn.Query(ctx, `SELECT s.query, s.calls, s.total_exec_time, s.total_plan_time, s.plans, s.rows, s.wal_bytes::bigint
		FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
		WHERE d.datname = $1 ORDER BY s.total_exec_time DESC`, db)
	if err != nil {
		return dbStats{}, fmt.Errorf("reading pg_stat_statements: %w", err)
	}
	for rows.Next() {
		var st statement
		if err := rows.Scan(&st.Query, &st.Calls, &st.TotalMs, &st.PlanMs, &st.Plans, &st.Rows, &st.WALB); err != nil {
			return dbStats{}, fmt.Errorf("reading pg_stat_statements: %w", err)
		}
		st.Query = strings.Join(strings.Fields(st.Query), " ")
		s.Statements = append(s.Statements, st)
	}
	return s, rows.Err()
}

func execAll(ctx context.Context, u string, stmts ...string) error {
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		return fmt.Errorf("connecting: %w", err)
	}
	defer conn.Close(ctx)
	for _, q := range stmts {
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}
