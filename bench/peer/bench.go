package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// benchConfig is what peer bench is told.
type benchConfig struct {
	rounds    int
	seconds   float64 // per in-memory round
	pgSeconds float64 // per PostgreSQL round
	node      string
	jsDir     string
	noDelta   bool
}

func (c *benchConfig) flags(fs *flag.FlagSet) {
	fs.IntVar(&c.rounds, "rounds", 5, "bench: measured rounds per engine and saver")
	fs.Float64Var(&c.seconds, "memory-seconds", 2, "bench: timed seconds per in-memory round")
	fs.Float64Var(&c.pgSeconds, "pg-seconds", 0, "bench: timed seconds per PostgreSQL round (at least one pass)")
	fs.StringVar(&c.node, "node", "node", "bench: the node executable")
	fs.StringVar(&c.jsDir, "js", "bench/peer/js", "bench: the directory of peer.mjs, with its node_modules")
	fs.BoolVar(&c.noDelta, "no-delta", false, "bench: leave out LangGraph.js with DeltaChannel")
}

// engine is one program under test, run as a child process.
type engine struct {
	name    string
	command func(args ...string) *exec.Cmd
	tables  []string // the tables that hold its checkpoints
	migrate bool     // whether its database needs tripgraph's migrations
}

// Engine names, as the table shows them.
const (
	nameTripgraph = "tripgraph"
	nameLangGraph = "LangGraph.js"
	nameDelta     = "LangGraph.js + DeltaChannel"
)

func (c benchConfig) engines() ([]engine, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this program to run it as a worker: %w", err)
	}
	script, err := filepath.Abs(filepath.Join(c.jsDir, "peer.mjs"))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(c.jsDir, "node_modules", "@langchain", "langgraph")); err != nil {
		return nil, fmt.Errorf("the npm packages are not installed in %s (run npm ci there, or make bench-peer): %w", c.jsDir, err)
	}
	js := func(extra ...string) func(args ...string) *exec.Cmd {
		return func(args ...string) *exec.Cmd {
			return exec.Command(c.node, append(append([]string{script}, args...), extra...)...)
		}
	}
	lgTables := []string{"checkpoints", "checkpoint_blobs", "checkpoint_writes"}
	out := []engine{
		{name: nameTripgraph, command: func(args ...string) *exec.Cmd { return exec.Command(self, args...) }, tables: []string{"checkpoints"}, migrate: true},
		{name: nameLangGraph, command: js(), tables: lgTables},
	}
	if !c.noDelta {
		out = append(out, engine{name: nameDelta, command: js("--delta"), tables: lgTables})
	}
	return out, nil
}

// output runs the engine to completion and returns what it printed.
func (e engine) output(ctx context.Context, args ...string) ([]byte, error) {
	cmd := e.command(args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s %s: %w", e.name, args[0], err)
	}
	stop := context.AfterFunc(ctx, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	stop()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w\n%s", e.name, args[0], err, tail(stderr.Bytes()))
	}
	return stdout.Bytes(), nil
}

func tail(b []byte) string {
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// measured is one engine's figures.
type measured struct {
	memRate, pgRate, asyncRate []float64 // runs/s of each round
	memCPU, pgCPU, asyncCPU    []float64 // CPU ms per run of each round, the worker process only
	memRSS, pgRSS              int64     // the highest peak RSS of any round
	storage                    int64     // bytes of the long thread's checkpoints
	tableSizes                 []int64   // per table, in the order of engine.tables
	xactsPerRun                float64   // transactions committed per run of the long thread
	flushesPerRun              float64   // commits per run of the long thread that wrote, so waited for a WAL flush
	commitMs                   []float64 // median commit latency between the runs of each of its sync rounds (tripgraph's)
}

func runBench(ctx context.Context, w *workload, cfg benchConfig) error {
	engines, err := cfg.engines()
	if err != nil {
		return err
	}
	scratch := &scratchDBs{}
	defer scratch.dropAll()
	want, err := checkDumps(ctx, w, engines)
	if err != nil {
		return err
	}
	figures := make([]measured, len(engines))
	if err := measureRounds(ctx, engines, figures, scratch, cfg); err != nil {
		return err
	}
	if err := measureStorage(ctx, engines, figures, scratch, want.Long, len(w.longThread())); err != nil {
		return err
	}
	printTable(os.Stdout, engines, figures, cfg, w)
	return nil
}

// checkDumps runs every engine's dump and fails unless all final states
// equal tripgraph's. It returns tripgraph's dump.
func checkDumps(ctx context.Context, w *workload, engines []engine) (dump, error) {
	want, err := runDump(ctx, w, saverMemory, "", false)
	if err != nil {
		return want, err
	}
	wantJSON, err := printJSON(want)
	if err != nil {
		return want, err
	}
	for _, e := range engines[1:] {
		got, err := e.output(ctx, "dump")
		if err != nil {
			return want, err
		}
		d, err := sameJSON(wantJSON, got)
		if err != nil {
			return want, err
		}
		if d != "" {
			return want, fmt.Errorf("%s and tripgraph reach different states: %s", e.name, d)
		}
	}
	fmt.Fprintf(os.Stderr, "final states equal: %d threads of %d turns and one of %d turns, on %d engines\n",
		len(w.Schedule), len(w.Schedule[0]), len(w.longThread()), len(engines))
	return want, nil
}

// measureRounds alternates rounds between the engines, in memory and then
// on PostgreSQL, starting each round with the next engine in turn.
func measureRounds(ctx context.Context, engines []engine, figures []measured, scratch *scratchDBs, cfg benchConfig) error {
	dbs := make([]string, len(engines))
	for i, e := range engines {
		u, err := scratch.create(ctx, "peer_runs", e.migrate)
		if err != nil {
			return err
		}
		dbs[i] = u
	}
	for _, kind := range roundKinds {
		seconds := cfg.seconds
		if kind.saver == saverPostgres {
			seconds = cfg.pgSeconds
		}
		for r := range cfg.rounds {
			for k := range engines {
				i := (r + k) % len(engines)
				args := []string{"run", "--saver", kind.saver, "--seconds", fmt.Sprint(seconds), "--durability", kind.durability}
				if kind.saver == saverPostgres {
					args = append(args, "--db", dbs[i])
				}
				res, err := round(ctx, engines[i], args)
				if err != nil {
					return err
				}
				rate, cpu, rss := float64(res.Runs)/res.Seconds, 1000*res.CPUSeconds/float64(res.Runs), res.PeakRSS
				f := &figures[i]
				switch {
				case kind.saver == saverMemory:
					f.memRate, f.memCPU, f.memRSS = append(f.memRate, rate), append(f.memCPU, cpu), max(f.memRSS, rss)
				case kind.durability == "async":
					f.asyncRate, f.asyncCPU, f.pgRSS = append(f.asyncRate, rate), append(f.asyncCPU, cpu), max(f.pgRSS, rss)
				default:
					f.pgRate, f.pgCPU, f.pgRSS = append(f.pgRate, rate), append(f.pgCPU, cpu), max(f.pgRSS, rss)
				}
				fmt.Fprintf(os.Stderr, "round %d %-8s %-5s %-28s %9.1f runs/s %7.3f CPU ms/run %6.1f MiB peak RSS  (%d runs in %.2f s)\n",
					r+1, kind.saver, kind.durability, engines[i].name, rate, cpu, mib(rss), res.Runs, res.Seconds)
				if res.CommitMs > 0 && kind.durability == "sync" {
					f.commitMs = append(f.commitMs, res.CommitMs)
					fmt.Fprintf(os.Stderr, "        commit latency between its runs: %.3f ms (median of one-row INSERTs, one after each run)\n", res.CommitMs)
				}
			}
		}
	}
	return nil
}

// roundKinds are the rounds measured, in this order: in memory, then on
// PostgreSQL with each checkpoint committed before the next step (sync),
// then with checkpoints written while the next steps run (async,
// LangGraph's default).
var roundKinds = []struct{ saver, durability string }{
	{saverMemory, "sync"},
	{saverPostgres, "sync"},
	{saverPostgres, "async"},
}

func round(ctx context.Context, e engine, args []string) (roundResult, error) {
	var res roundResult
	out, err := e.output(ctx, args...)
	if err != nil {
		return res, err
	}
	if err := json.Unmarshal(out, &res); err != nil {
		return res, fmt.Errorf("reading the result of a %s round: %w", e.name, err)
	}
	if res.Runs == 0 || res.Seconds <= 0 || res.PeakRSS <= 0 {
		return res, fmt.Errorf("a %s round measured nothing: %s", e.name, out)
	}
	return res, nil
}

// measureStorage writes the long thread with each engine into a database of
// its own, checks its final state, vacuums and measures the checkpoint
// tables.
func measureStorage(ctx context.Context, engines []engine, figures []measured, scratch *scratchDBs, want any, longTurns int) error {
	wantJSON, err := printJSON(want)
	if err != nil {
		return err
	}
	for i, e := range engines {
		u, err := scratch.create(ctx, "peer_storage", e.migrate)
		if err != nil {
			return err
		}
		xacts, err := committed(ctx, u)
		if err != nil {
			return err
		}
		flushes, err := writingCommits(ctx, u)
		if err != nil {
			return err
		}
		got, err := e.output(ctx, "storage", "--db", u)
		if err != nil {
			return err
		}
		time.Sleep(time.Second) // the worker's backends report their statistics as they exit
		after, err := committed(ctx, u)
		if err != nil {
			return err
		}
		figures[i].xactsPerRun = float64(after-xacts) / float64(longTurns)
		flushed, err := writingCommits(ctx, u)
		if err != nil {
			return err
		}
		figures[i].flushesPerRun = float64(flushed-flushes) / float64(longTurns)
		d, err := sameJSON(wantJSON, got)
		if err != nil {
			return err
		}
		if d != "" {
			return fmt.Errorf("the long thread of %s on PostgreSQL differs from tripgraph's: %s", e.name, d)
		}
		sizes, err := tableSizes(ctx, u, e.tables)
		if err != nil {
			return err
		}
		figures[i].tableSizes = sizes
		for _, s := range sizes {
			figures[i].storage += s
		}
		fmt.Fprintf(os.Stderr, "storage %-28s %9d B  %v %v\n", e.name, figures[i].storage, e.tables, sizes)
	}
	return nil
}

// committed returns how many transactions the database has committed.
func committed(ctx context.Context, dbURL string) (int64, error) {
	return countOn(ctx, dbURL, "transactions",
		`SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()`)
}

// writingCommits returns how many transactions of the cluster have
// written something (the transaction ids assigned, read without assigning
// one): each waits, as it commits, for its WAL to reach the disk, where a
// read-only one does not. The cluster is the benchmark's own, so nothing
// else writes meanwhile but its autovacuum.
func writingCommits(ctx context.Context, dbURL string) (int64, error) {
	return countOn(ctx, dbURL, "writing transactions", `SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint`)
}

// countOn runs query, which returns one count, on a connection of its
// own; what names the count in errors.
func countOn(ctx context.Context, dbURL, what, query string) (int64, error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return 0, fmt.Errorf("connecting to count %s: %w", what, err)
	}
	defer conn.Close(ctx)
	var n int64
	if err := conn.QueryRow(ctx, query).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting %s: %w", what, err)
	}
	return n, nil
}

// tableSizes vacuums each table and returns pg_total_relation_size of each:
// heap, TOAST, indexes and the free-space and visibility maps.
func tableSizes(ctx context.Context, dbURL string, tables []string) ([]int64, error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return nil, fmt.Errorf("connecting to measure storage: %w", err)
	}
	defer conn.Close(ctx)
	var out []int64
	for _, t := range tables {
		if _, err := conn.Exec(ctx, "VACUUM "+pgx.Identifier{t}.Sanitize()); err != nil {
			return nil, fmt.Errorf("vacuuming %s: %w", t, err)
		}
		var size int64
		if err := conn.QueryRow(ctx, "SELECT pg_total_relation_size($1::regclass)", t).Scan(&size); err != nil {
			return nil, fmt.Errorf("measuring %s: %w", t, err)
		}
		out = append(out, size)
	}
	return out, nil
}

// scratchDBs creates databases on the local cluster (or DATABASE_URL's
// server) and drops them all at the end.
type scratchDBs struct {
	drops []func()
}

func (s *scratchDBs) create(ctx context.Context, prefix string, migrate bool) (string, error) {
	u, drop, err := pgtest.NewDatabase(ctx, prefix)
	if err != nil {
		return "", err
	}
	s.drops = append(s.drops, drop)
	if migrate {
		if err := migrations.Up(ctx, u); err != nil {
			return "", err
		}
	}
	return u, nil
}

func (s *scratchDBs) dropAll() {
	for _, drop := range s.drops {
		drop()
	}
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func printTable(out io.Writer, engines []engine, f []measured, cfg benchConfig, w *workload) {
	fmt.Fprintf(out, "\n%d threads × %d turns per pass, %d rounds per engine and saver (median runs/s, min–max); storage: one %d-turn thread after VACUUM\n\n",
		len(w.Schedule), len(w.Schedule[0]), cfg.rounds, len(w.longThread()))
	tw := tabwriter.NewWriter(out, 0, 0, 1, ' ', 0)
	head := []string{"", engines[0].name, engines[1].name, "ratio", "target"}
	if len(engines) > 2 {
		head = append(head, engines[2].name, "ratio")
	}
	row := func(cells ...string) { fmt.Fprintln(tw, "| "+strings.Join(cells, "\t| ")+"\t|") }
	row(head...)
	row(slices.Repeat([]string{"---"}, len(head))...)
	type metric struct {
		label  string
		value  func(measured) string
		ratio  func(ours, theirs measured) string
		target string
	}
	metrics := []metric{
		{"runs/s, in-memory savers", func(m measured) string { return rates(m.memRate) },
			func(a, b measured) string { return fmt.Sprintf("%.1f×", median(a.memRate)/median(b.memRate)) }, "≥ 50×"},
		{"runs/s, PostgreSQL savers (sync)", func(m measured) string { return rates(m.pgRate) },
			func(a, b measured) string { return fmt.Sprintf("%.1f×", median(a.pgRate)/median(b.pgRate)) }, "≥ 15×"},
		{"runs/s, PostgreSQL savers (async)", func(m measured) string { return rates(m.asyncRate) },
			func(a, b measured) string { return fmt.Sprintf("%.1f×", median(a.asyncRate)/median(b.asyncRate)) }, "≥ 10×"},
		{"CPU ms per run, in-memory (worker process)", func(m measured) string { return cpus(m.memCPU) },
			func(a, b measured) string { return fmt.Sprintf("%.1f×", median(b.memCPU)/median(a.memCPU)) }, "(≥ 50×)"},
		{"CPU ms per run, PostgreSQL (worker process)", func(m measured) string { return cpus(m.pgCPU) },
			func(a, b measured) string { return fmt.Sprintf("%.1f×", median(b.pgCPU)/median(a.pgCPU)) }, "(≥ 10×)"},
		{"CPU ms per run, PostgreSQL async (worker process)", func(m measured) string { return cpus(m.asyncCPU) },
			func(a, b measured) string { return fmt.Sprintf("%.1f×", median(b.asyncCPU)/median(a.asyncCPU)) }, "(≥ 10×)"},
		{"transactions per run (200-turn thread)", func(m measured) string { return fmt.Sprintf("%.2f", m.xactsPerRun) },
			func(a, b measured) string { return fmt.Sprintf("%.1f× fewer", b.xactsPerRun/a.xactsPerRun) }, ""},
		{"commits that wait for a WAL flush, per run (200-turn thread)", func(m measured) string { return fmt.Sprintf("%.2f", m.flushesPerRun) },
			func(a, b measured) string { return fmt.Sprintf("%.1f× fewer", b.flushesPerRun/a.flushesPerRun) }, ""},
		{"commit latency between its sync runs, ms", func(m measured) string { return orNone(m.commitMs, cpus) },
			func(a, b measured) string { return "" }, ""},
		{"runs/s bound at sync: 1 / (those commits × commit latency)", func(m measured) string {
			return orNone(m.commitMs, func([]float64) string { return fmt.Sprintf("%.0f", bound(m)) })
		},
			func(a, b measured) string { return fmt.Sprintf("%.1f×", bound(a)/median(b.pgRate)) }, "(the bound / their runs/s)"},
		{"peak RSS, in-memory round", func(m measured) string { return fmt.Sprintf("%.1f MiB", mib(m.memRSS)) },
			func(a, b measured) string { return fmt.Sprintf("%.2f×", float64(a.memRSS)/float64(b.memRSS)) }, "≤ 0.2×"},
		{"peak RSS, PostgreSQL round", func(m measured) string { return fmt.Sprintf("%.1f MiB", mib(m.pgRSS)) },
			func(a, b measured) string { return fmt.Sprintf("%.2f×", float64(a.pgRSS)/float64(b.pgRSS)) }, "≤ 0.2×"},
		{"storage, 200-turn thread", func(m measured) string { return fmt.Sprintf("%d B", m.storage) },
			func(a, b measured) string { return fmt.Sprintf("%.1f× less", float64(b.storage)/float64(a.storage)) }, "≥ 25× less (≥ 8× vs DeltaChannel)"},
	}
	for _, m := range metrics {
		cells := []string{m.label, m.value(f[0]), m.value(f[1]), m.ratio(f[0], f[1]), m.target}
		if len(engines) > 2 {
			cells = append(cells, m.value(f[2]), m.ratio(f[0], f[2]))
		}
		row(cells...)
	}
	tw.Flush()
	fmt.Fprintln(out)
	for i, e := range engines {
		fmt.Fprintf(out, "%s storage by table: %s\n", e.name, sizesLine(e.tables, f[i].tableSizes))
	}
	fmt.Fprintf(out, "at %s\n", time.Now().UTC().Format(time.RFC3339))
}

// bound is the most sequential sync runs a second that the cluster's
// commits allow the engine: each of a run's writing commits waits for a
// WAL flush, which takes the median commit latency measured beside its
// rounds.
func bound(m measured) float64 {
	if len(m.commitMs) == 0 || m.flushesPerRun == 0 {
		return 0
	}
	return 1000 / (m.flushesPerRun * median(m.commitMs))
}

// orNone formats xs with f, or says there is nothing to show.
func orNone(xs []float64, f func([]float64) string) string {
	if len(xs) == 0 {
		return "—"
	}
	return f(xs)
}

func rates(xs []float64) string {
	return fmt.Sprintf("%.0f (%.0f–%.0f)", median(xs), slices.Min(xs), slices.Max(xs))
}

func cpus(xs []float64) string {
	return fmt.Sprintf("%.3f (%.3f–%.3f)", median(xs), slices.Min(xs), slices.Max(xs))
}

func sizesLine(tables []string, sizes []int64) string {
	var parts []string
	for i, t := range tables {
		if i < len(sizes) {
			parts = append(parts, fmt.Sprintf("%s %d B", t, sizes[i]))
		}
	}
	return strings.Join(parts, ", ")
}
