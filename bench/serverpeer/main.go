// Command serverpeer measures tripgraph serve side by side with
// LangGraph.js's API server (@langchain/langgraph-api, the engine of
// `langgraphjs dev`) under the same load: one program (js/load.mjs) using
// the official JS client, N concurrent clients streaming runs.
//
// It starts a scratch PostgreSQL cluster with pg_stat_statements, then for
// each N runs rounds that alternate between the servers (each round starts
// with the next one): a fresh server per round, on a fresh database where
// it has one, a warm-up, then the timed load. It reads each server's CPU
// time and its database cluster's from /proc over the timed part, the
// server's peak RSS at the end and its cluster's peak PSS through the
// round, and prints the medians. See
// bench/README.md.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tripgraph/tripgraph/bench/internal/procstat"
)

type config struct {
	bin         string
	js          string
	clients     []int
	rounds      int
	seconds     int
	warmupRuns  int
	servers     []string
	out         string
	perfClients int
	statements  int
	check       bool
	report      string
}

func main() {
	var c config
	var clients, servers string
	flag.StringVar(&c.bin, "bin", "bin/tripgraph", "the tripgraph binary")
	flag.StringVar(&c.js, "js", "bench/serverpeer/js", "the directory of the JS programs and their node_modules")
	flag.StringVar(&clients, "clients", "10,50", "numbers of concurrent clients, comma-separated")
	flag.IntVar(&c.rounds, "rounds", 3, "rounds per server and number of clients")
	flag.IntVar(&c.seconds, "seconds", 20, "seconds that clients start runs in a round")
	flag.IntVar(&c.warmupRuns, "warmup-runs", 50, "runs streamed by up to 10 clients before a round's timed part")
	flag.StringVar(&servers, "servers", strings.Join([]string{tripgraph, langgraph, langgraphPG}, ","), "servers to measure, comma-separated")
	flag.StringVar(&c.out, "out", "", "a directory for every round's figures (JSON), the servers' logs and perf data (default: a temporary one, removed)")
	flag.IntVar(&c.perfClients, "perf", 0, "record the CPU of serve and of its PostgreSQL processes with perf during tripgraph rounds at this number of clients (needs -out)")
	flag.IntVar(&c.statements, "statements", 12, "how many of tripgraph's statements to print, by total time")
	flag.BoolVar(&c.check, "check", false, "only stream every conversation once on tripgraph and LangGraph.js and compare the nodes they ran and the trips they reached")
	flag.StringVar(&c.report, "report", "", "only print the summary of rounds saved before (the rounds.json of -out; several files comma-separated)")
	flag.Parse()
	if c.report != "" {
		if err := report(os.Stdout, c.report, c.statements); err != nil {
			fail(err)
		}
		return
	}
	var err error
	if c.clients, err = parseInts(clients); err != nil {
		fail(err)
	}
	c.servers = strings.Split(servers, ",")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, c); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "serverpeer:", err)
	os.Exit(1)
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 2000 {
			return nil, fmt.Errorf("-clients: want numbers from 1 to 2000, not %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func (c config) validate() error {
	if c.rounds < 1 || c.seconds < 1 || c.seconds > 600 || c.warmupRuns < 1 {
		return errors.New("want -rounds ≥ 1, 1 ≤ -seconds ≤ 600 and -warmup-runs ≥ 1")
	}
	for _, s := range c.servers {
		if s != tripgraph && s != langgraph && s != langgraphPG {
			return fmt.Errorf("-servers: unknown server %q (want %s, %s or %s)", s, tripgraph, langgraph, langgraphPG)
		}
	}
	if c.perfClients > 0 && c.out == "" {
		return errors.New("-perf needs -out")
	}
	return nil
}

func run(ctx context.Context, c config) error {
	if err := c.validate(); err != nil {
		return err
	}
	var err error
	if c.js, err = filepath.Abs(c.js); err != nil {
		return fmt.Errorf("finding %s: %w", c.js, err)
	}
	out := c.out
	if out == "" {
		tmp, err := os.MkdirTemp("", "serverpeer-")
		if err != nil {
			return fmt.Errorf("creating a directory for the logs: %w", err)
		}
		defer os.RemoveAll(tmp)
		out = tmp
	} else if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", out, err)
	}
	fmt.Printf("serverpeer: load average %s at the start; starting a scratch PostgreSQL cluster\n", loadAverage())
	cl, err := startCluster(ctx)
	if err != nil {
		return err
	}
	defer cl.remove()
	env := roundEnv{bin: c.bin, js: c.js, cl: cl, logDir: out}
	if err := prepareTemplate(ctx, env); err != nil {
		return err
	}
	if c.check {
		return runCheck(ctx, env, os.Stdout)
	}
	var all []roundResult
	for _, n := range c.clients {
		for r := range c.rounds {
			for i := range c.servers {
				name := c.servers[(i+r)%len(c.servers)] // each round starts with the next server
				res, err := runRound(ctx, c, env, name, n, r+1)
				if err != nil {
					return fmt.Errorf("%s, %d clients, round %d: %w", name, n, r+1, err)
				}
				res.printLine(os.Stdout)
				all = append(all, res)
				if err := saveJSON(filepath.Join(out, "rounds.json"), all); err != nil {
					return err
				}
			}
		}
	}
	printSummary(os.Stdout, c, all)
	printStatements(os.Stdout, all, c.statements)
	return nil
}

// roundResult is everything one round measured.
type roundResult struct {
	Server      string        `json:"server"`
	Clients     int           `json:"clients"`
	Round       int           `json:"round"`
	LoadAverage string        `json:"loadAverage"`
	Load        loadResult    `json:"load"`
	ServerCPU   time.Duration `json:"serverCpuNs"`
	DBCPU       time.Duration `json:"dbCpuNs"`
	PeakRSS     int64         `json:"peakRssBytes"`
	// DBPeakPSS is the most the cluster's processes held together at one
	// reading (their PSS added up), with how many they were then; 0 for a
	// server that keeps its state in memory.
	DBPeakPSS int64 `json:"dbPeakPssBytes"`
	DBProcs   int   `json:"dbProcsAtPeak"`
	// DBPeakActive and DBMeanActive are the most of the round database's
	// backends busy with a statement at one reading, and their mean: how
	// many connections the server's work needed at once.
	DBPeakActive int      `json:"dbPeakActive"`
	DBMeanActive float64  `json:"dbMeanActive"`
	DB           *dbStats `json:"db,omitempty"`
}

// loadResult is what js/load.mjs prints.
type loadResult struct {
	Clients        int              `json:"clients"`
	Seconds        float64          `json:"seconds"`
	OK             int              `json:"ok"`
	Errors         map[string]int   `json:"errors"`
	RunsPerSecond  float64          `json:"runsPerSecond"`
	FirstFrameMs   percentiles      `json:"firstFrameMs"`
	FirstUpdateMs  percentiles      `json:"firstUpdateMs"`
	RunMs          percentiles      `json:"runMs"`
	ThreadCreateMs percentiles      `json:"threadCreateMs"`
	Statuses       map[string]int64 `json:"statuses"`
	WarmupErrors   int              `json:"warmupErrors"`
	WarmupStatuses map[string]int64 `json:"warmupStatuses"`
	LoadCPUSeconds float64          `json:"loadCpuSeconds"`
}

type percentiles struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

func (l loadResult) errorCount() int {
	n := 0
	for _, v := range l.Errors {
		n += v
	}
	return n
}

func runRound(ctx context.Context, c config, env roundEnv, name string, clients, round int) (roundResult, error) {
	res := roundResult{Server: name, Clients: clients, Round: round, LoadAverage: loadAverage()}
	label := fmt.Sprintf("%s-%d-%d", name, clients, round)
	db := strings.ReplaceAll(fmt.Sprintf("serverpeer_%s_%d_%d", name, clients, round), "-", "_")
	var (
		s   *server
		err error
	)
	// A fresh cluster per round: shared buffers that earlier rounds
	// touched stay mapped in the postmaster's long-lived children, and
	// would count in this round's memory.
	if err := env.cl.restart(ctx); err != nil {
		return res, err
	}
	switch name {
	case tripgraph:
		if err := env.cl.createDB(ctx, db, templateDB); err != nil {
			return res, err
		}
		s, err = startTripgraph(ctx, env, db, label)
	case langgraphPG:
		if err := env.cl.createDB(ctx, db, ""); err != nil {
			return res, err
		}
		s, err = startLangGraph(ctx, env, db, label)
	default:
		db = ""
		s, err = startLangGraph(ctx, env, "", label)
	}
	if db != "" {
		defer env.cl.dropDB(context.Background(), db)
	}
	if err != nil {
		return res, err
	}
	defer s.stop()
	var mem *sampler
	if db != "" {
		if mem, err = sampleCluster(ctx, env.cl.postmaster, env.cl.adminURL, db); err != nil {
			return res, err
		}
	}
	profile := name == tripgraph && clients == c.perfClients
	var perfs []*exec.Cmd
	var before, after [2]time.Duration
	measure := func(into *[2]time.Duration) error {
		var err error
		if into[0], err = procstat.ProcessCPU(s.pid()); err != nil {
			return err
		}
		into[1], err = env.cl.cpu()
		return err
	}
	onMeasuring := func() error {
		if err := env.cl.resetStatements(ctx); err != nil {
			return err
		}
		if profile {
			var err error
			if perfs, err = startPerf(env, s.pid(), filepath.Join(c.out, label)); err != nil {
				return err
			}
		}
		return measure(&before)
	}
	onDrained := func() error {
		for _, p := range perfs {
			p.Process.Signal(os.Interrupt)
			p.Wait()
		}
		return measure(&after)
	}
	args := []string{"load.mjs", "--url", s.url, "--clients", strconv.Itoa(clients),
		"--seconds", strconv.Itoa(c.seconds), "--warmup-runs", strconv.Itoa(c.warmupRuns)}
	if s.key != "" {
		args = append(args, "--key", s.key)
	}
	if res.Load, err = runLoad(ctx, env.js, args, onMeasuring, onDrained); err != nil {
		return res, err
	}
	res.ServerCPU, res.DBCPU = after[0]-before[0], after[1]-before[1]
	if res.PeakRSS, err = procstat.PeakRSS(s.pid()); err != nil {
		return res, err
	}
	if mem != nil {
		peak, err := mem.stop()
		if err != nil {
			return res, fmt.Errorf("reading the cluster's memory: %w", err)
		}
		res.DBPeakPSS, res.DBProcs = peak.pss, peak.procs
		res.DBPeakActive, res.DBMeanActive = peak.peakActive, peak.meanActive
	}
	if db != "" {
		st, err := env.cl.stats(ctx, db)
		if err != nil {
			return res, err
		}
		if name == tripgraph {
			if st.Stored, err = env.cl.tripgraphStored(ctx, db); err != nil {
				return res, err
			}
		}
		res.DB = &st
	}
	return res, nil
}

// startPerf records the CPU of the server (prefix.serve.perf.data) and of
// its cluster's processes as they are now (prefix.postgres.perf.data) with
// perf, sampling call stacks at 499 Hz, until interrupted.
func startPerf(env roundEnv, serverPID int, prefix string) ([]*exec.Cmd, error) {
	pg, err := env.cl.pids()
	if err != nil {
		return nil, err
	}
	pgList := make([]string, len(pg))
	for i, p := range pg {
		pgList[i] = strconv.Itoa(p)
	}
	var out []*exec.Cmd
	for _, t := range []struct{ pids, file string }{
		{strconv.Itoa(serverPID), prefix + ".serve.perf.data"},
		{strings.Join(pgList, ","), prefix + ".postgres.perf.data"},
	} {
		cmd := exec.Command("perf", "record", "-F", "499", "-g", "-p", t.pids, "-o", t.file)
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		if err := cmd.Start(); err != nil {
			for _, p := range out {
				p.Process.Kill()
				p.Wait()
			}
			return nil, fmt.Errorf("starting perf: %w", err)
		}
		out = append(out, cmd)
	}
	return out, nil
}

// runLoad runs js/load.mjs, calls onMeasuring and onDrained when it says
// the timed part starts and ends, and returns its result.
func runLoad(ctx context.Context, dir string, args []string, onMeasuring, onDrained func() error) (loadResult, error) {
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return loadResult{}, fmt.Errorf("piping the load program's output: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return loadResult{}, fmt.Errorf("starting the load program: %w", err)
	}
	var res loadResult
	got, hookErr := false, error(nil)
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "measuring" && hookErr == nil:
			hookErr = onMeasuring()
		case line == "drained" && hookErr == nil:
			hookErr = onDrained()
		case strings.HasPrefix(line, "{"):
			if err := json.Unmarshal([]byte(line), &res); err != nil {
				hookErr = errors.Join(hookErr, fmt.Errorf("reading the load program's result: %w", err))
			}
			got = true
		}
	}
	waitErr := cmd.Wait()
	switch {
	case hookErr != nil:
		return res, hookErr
	case waitErr != nil:
		return res, fmt.Errorf("the load program: %w", waitErr)
	case !got:
		return res, errNoResult
	}
	return res, nil
}

// report prints the summary of the rounds saved in files, a
// comma-separated list.
func report(w io.Writer, files string, statements int) error {
	var all []roundResult
	for _, f := range strings.Split(files, ",") {
		b, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("reading saved rounds: %w", err)
		}
		var rs []roundResult
		if err := json.Unmarshal(b, &rs); err != nil {
			return fmt.Errorf("reading %s: %w", f, err)
		}
		all = append(all, rs...)
	}
	var c config
	for _, r := range all {
		if !slices.Contains(c.clients, r.Clients) {
			c.clients = append(c.clients, r.Clients)
		}
		if !slices.Contains(c.servers, r.Server) {
			c.servers = append(c.servers, r.Server)
		}
		c.rounds = max(c.rounds, r.Round)
	}
	printSummary(w, c, all)
	printStatements(w, all, statements)
	return nil
}

func saveJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return fmt.Errorf("encoding the rounds: %w", err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("saving the rounds: %w", err)
	}
	return nil
}
