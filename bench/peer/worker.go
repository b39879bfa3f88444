package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/store"
)

// The savers a round can use.
const (
	saverMemory   = "memory"
	saverPostgres = "postgres"
)

// warmTurnsPostgres is how many turns of the workload warm a PostgreSQL
// round up.
const warmTurnsPostgres = 2

// roundResult is what one worker process reports: how many runs it timed,
// how long they took, and its peak resident set size.
type roundResult struct {
	Runs       int     `json:"runs"`
	Seconds    float64 `json:"seconds"`    // wall time spent in timed runs
	CPUSeconds float64 `json:"cpuSeconds"` // CPU time of the process (all threads) meanwhile
	Passes     int     `json:"passes"`
	PeakRSS    int64   `json:"peakRSS"` // bytes
	// CommitMs is the median time of a one-row INSERT committed after each
	// timed run (PostgreSQL rounds of tripgraph's worker only), left out
	// of Seconds and CPUSeconds.
	CommitMs float64 `json:"commitMs,omitempty"`
}

// cpuTime is the CPU time the process has used, user and system, on all
// its threads.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSS reads the process's peak resident set size (VmHWM) from
// /proc/self/status. getrusage would not do: Linux carries ru_maxrss across
// execve, so a child started by a big parent reports the parent's peak.
func peakRSS() (int64, error) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, fmt.Errorf("reading the peak RSS: %w", err)
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("reading the peak RSS from %q: %w", line, err)
			}
			return kib << 10, nil
		}
	}
	return 0, errors.New("reading the peak RSS: no VmHWM in /proc/self/status")
}

// dump is the final state of every thread of the workload and of the long
// thread, as read back from the saver.
type dump struct {
	Threads []nodes.State `json:"threads"`
	Long    *nodes.State  `json:"long,omitempty"` // absent when the dump left it out
}

// saverFor opens the saver a round uses and returns a function that gives
// the id of a new thread, creating its row where the saver needs one.
type saverFor struct {
	cp        graph.Checkpointer
	newThread func(context.Context) (string, error)
	close     func()
	probe     *commitProbe // PostgreSQL's: times a commit between runs
}

// commitProbe times one-row INSERTs, each its own transaction, on the
// round's database with the cluster's settings (fsync and
// synchronous_commit on), one after each timed run: each waits for its
// WAL to reach the disk, so it is the least time a durable commit takes
// in the same process, on the same cluster and under the same load as the
// runs beside it. A sequential run that commits k times cannot go faster
// than one per k of them.
type commitProbe struct {
	pool    *pgxpool.Pool
	samples []float64     // ms
	cpu     time.Duration // the CPU its commits took, to leave out of the runs'
}

// prepare creates the probe's table, for a sync round.
func (p *commitProbe) prepare(ctx context.Context, durability graph.Durability) error {
	if p == nil || durability != graph.DurabilitySync {
		return nil
	}
	if _, err := p.pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS commit_probe (n int NOT NULL)`); err != nil {
		return fmt.Errorf("creating the commit probe's table: %w", err)
	}
	return nil
}

// reset forgets the samples so far (the warm-up's).
func (p *commitProbe) reset() {
	if p != nil {
		p.samples, p.cpu = p.samples[:0], 0
	}
}

// takeCPU returns the CPU the commits took since it was last called.
func (p *commitProbe) takeCPU() time.Duration {
	if p == nil {
		return 0
	}
	cpu := p.cpu
	p.cpu = 0
	return cpu
}

// sample times one commit, and returns how long it took.
func (p *commitProbe) sample(ctx context.Context) (time.Duration, error) {
	if p == nil {
		return 0, nil
	}
	cpuBefore, start := cpuTime(), time.Now()
	_, err := p.pool.Exec(ctx, `INSERT INTO commit_probe VALUES ($1)`, len(p.samples))
	took := time.Since(start)
	p.cpu += cpuTime() - cpuBefore
	if err != nil {
		return took, fmt.Errorf("timing a commit: %w", err)
	}
	p.samples = append(p.samples, float64(took)/float64(time.Millisecond))
	return took, nil
}

func openSaver(ctx context.Context, kind, dbURL string) (*saverFor, error) {
	switch kind {
	case saverMemory:
		return &saverFor{
			cp:        graph.NewMemorySaver(),
			newThread: func(context.Context) (string, error) { return uuid.NewString(), nil },
			close:     func() {},
		}, nil
	case saverPostgres:
		st, err := store.Open(ctx, dbURL)
		if err != nil {
			return nil, err
		}
		owner, err := st.Accounts.EnsureUser(ctx, "peer-bench")
		if err != nil {
			st.Close()
			return nil, fmt.Errorf("creating the benchmark's user: %w", err)
		}
		return &saverFor{
			probe: &commitProbe{pool: st.Pool},
			cp:    st.Checkpoints,
			newThread: func(ctx context.Context) (string, error) {
				t, err := st.ForOwner(owner.ID).CreateThread(ctx, store.NewThread{})
				return t.ID, err
			},
			close: st.Close,
		}, nil
	}
	return nil, fmt.Errorf("unknown saver %q: want %s or %s", kind, saverMemory, saverPostgres)
}

// pass runs the first turns of the workload once on new threads: every
// thread's turn 0, then every thread's turn 1, and so on. It returns the
// thread ids and the time spent in runs (creating threads and the commit
// probe's samples are not counted).
func pass(ctx context.Context, w *workload, g *graph.Compiled[nodes.State, nodes.Update], s *saverFor, turns int, durability graph.Durability) ([]string, time.Duration, error) {
	threads := make([]string, len(w.Schedule))
	for i := range threads {
		id, err := s.newThread(ctx)
		if err != nil {
			return nil, 0, fmt.Errorf("creating a thread: %w", err)
		}
		threads[i] = id
	}
	start := time.Now()
	for turn := range turns {
		for t, id := range threads {
			cfg := graph.RunConfig[nodes.Update]{ThreadID: id, Input: w.input(w.Schedule[t][turn], turn), Durability: durability}
			if _, err := g.Invoke(ctx, cfg); err != nil {
				return nil, 0, fmt.Errorf("thread %d, turn %d: %w", t, turn, err)
			}
			probed, err := s.probe.sample(ctx)
			if err != nil {
				return nil, 0, err
			}
			start = start.Add(probed)
		}
	}
	return threads, time.Since(start), nil
}

// runRound is one round: a pass to warm up (the whole workload in memory,
// its first warmTurnsPostgres turns on PostgreSQL), then timed passes of
// the whole workload until seconds have been spent in runs (at least one).
// Memory rounds use a new saver for each pass, so that what a pass keeps is
// what the process holds at its peak.
func runRound(ctx context.Context, w *workload, kind, dbURL string, seconds float64, durability graph.Durability) (roundResult, error) {
	var res roundResult
	s, err := openSaver(ctx, kind, dbURL)
	if err != nil {
		return res, err
	}
	defer s.close()
	if err := s.probe.prepare(ctx, durability); err != nil {
		return res, err
	}
	if durability != graph.DurabilitySync {
		s.probe = nil // the bound it serves is sync's
	}
	var spent, cpu time.Duration
	for i := 0; i < 2 || spent.Seconds() < seconds; i++ { // a warm-up pass, then at least one timed pass
		if kind == saverMemory {
			s.cp = graph.NewMemorySaver()
		}
		g, err := tripGraph(w, s.cp)
		if err != nil {
			return res, err
		}
		turns := len(w.Schedule[0])
		if i == 0 && kind == saverPostgres {
			turns = warmTurnsPostgres
		}
		cpuBefore := cpuTime()
		threads, took, err := pass(ctx, w, g, s, turns, durability)
		if err != nil {
			return res, err
		}
		if i == 0 { // the warm-up pass
			s.probe.reset()
			continue
		}
		spent += took
		cpu += cpuTime() - cpuBefore - s.probe.takeCPU()
		res.Runs += len(threads) * turns
		res.Passes++
	}
	res.Seconds, res.CPUSeconds = spent.Seconds(), cpu.Seconds()
	if s.probe != nil {
		res.CommitMs = median(s.probe.samples)
	}
	res.PeakRSS, err = peakRSS()
	return res, err
}

// runDump runs the workload, and the long thread unless short, on a saver
// and reads every final state back from it.
func runDump(ctx context.Context, w *workload, kind, dbURL string, short bool) (dump, error) {
	var d dump
	s, err := openSaver(ctx, kind, dbURL)
	if err != nil {
		return d, err
	}
	defer s.close()
	g, err := tripGraph(w, s.cp)
	if err != nil {
		return d, err
	}
	threads, _, err := pass(ctx, w, g, s, len(w.Schedule[0]), graph.DurabilitySync)
	if err != nil {
		return d, err
	}
	for _, id := range threads {
		st, _, err := g.GetState(ctx, id, "")
		if err != nil {
			return d, fmt.Errorf("reading thread %s back: %w", id, err)
		}
		d.Threads = append(d.Threads, st)
	}
	if short {
		return d, nil
	}
	long, err := runLong(ctx, w, g, s)
	d.Long = &long
	return d, err
}

// runLong runs the long thread and reads its final state back.
func runLong(ctx context.Context, w *workload, g *graph.Compiled[nodes.State, nodes.Update], s *saverFor) (nodes.State, error) {
	id, err := s.newThread(ctx)
	if err != nil {
		return nodes.State{}, fmt.Errorf("creating the long thread: %w", err)
	}
	for turn, r := range w.longThread() {
		if _, err := g.Invoke(ctx, graph.RunConfig[nodes.Update]{ThreadID: id, Input: w.input(r, turn)}); err != nil {
			return nodes.State{}, fmt.Errorf("long thread, turn %d: %w", turn, err)
		}
	}
	st, _, err := g.GetState(ctx, id, "")
	if err != nil {
		return st, fmt.Errorf("reading the long thread back: %w", err)
	}
	return st, nil
}

// runStorage writes the long thread to PostgreSQL and returns its final
// state as read back.
func runStorage(ctx context.Context, w *workload, dbURL string) (nodes.State, error) {
	s, err := openSaver(ctx, saverPostgres, dbURL)
	if err != nil {
		return nodes.State{}, err
	}
	defer s.close()
	g, err := tripGraph(w, s.cp)
	if err != nil {
		return nodes.State{}, err
	}
	return runLong(ctx, w, g, s)
}

func printJSON(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding the output: %w", err)
	}
	return append(data, '\n'), nil
}
