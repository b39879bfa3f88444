package checkpoint

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// storageFigures is what a conversation costs in checkpoint storage.
type storageFigures struct {
	checkpoints int
	state       int64 // JSON size of the final state
	storage     int64 // pg_total_relation_size of the checkpoint table, after VACUUM
}

func (f storageFigures) ratio() float64 { return float64(f.storage) / float64(f.state) }

// measureStorage runs a conversation of turns turns through the 4-node trip
// graph, in a database of its own, and measures its checkpoint storage.
func measureStorage(tb testing.TB, opts Options, turns int) storageFigures {
	tb.Helper()
	ctx := context.Background()
	url, drop, err := pgtest.NewDatabase(ctx, "storebench")
	if err != nil {
		tb.Fatal(err)
	}
	defer drop()
	if err := migrations.Up(ctx, url); err != nil {
		tb.Fatal(err)
	}
	s, err := openDB(ctx, url)
	if err != nil {
		tb.Fatal(err)
	}
	defer s.Close()
	_, thread := newThread(tb, s, "talker")
	cp := New(s.Pool, opts)
	g := tripGraph(tb, cp, nil)
	for turn := range turns {
		if _, err := g.Invoke(ctx, graph.RunConfig[chatUpdate]{ThreadID: thread, Input: humanInput(turn)}); err != nil {
			tb.Fatal(err)
		}
	}
	latest, err := cp.Latest(ctx, thread)
	if err != nil {
		tb.Fatal(err)
	}
	f := storageFigures{state: int64(len(latest.State))}
	if _, err := s.Pool.Exec(ctx, `VACUUM ANALYZE checkpoints`); err != nil {
		tb.Fatal(err)
	}
	err = s.Pool.QueryRow(ctx, `SELECT count(*), pg_total_relation_size('checkpoints') FROM checkpoints`).Scan(&f.checkpoints, &f.storage)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// After a 200-turn conversation (five checkpoints a turn: the input pending
// and applied, and three nodes), checkpoint storage is at most 2.8× the
// final state (3.1× when nothing is compressed), and it grows linearly:
// doubling the turns about doubles it.
func TestStorageGrowsLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 300 conversation turns")
	}
	short := measureStorage(t, Options{}, 100)
	long := measureStorage(t, Options{}, 200)
	t.Logf("100 turns: %d checkpoints, state %d B, storage %d B (%.2f×)", short.checkpoints, short.state, short.storage, short.ratio())
	t.Logf("200 turns: %d checkpoints, state %d B, storage %d B (%.2f×)", long.checkpoints, long.state, long.storage, long.ratio())
	if long.ratio() > 2.8 {
		t.Errorf("storage after 200 turns is %.2f× the final state, want at most 2.8×", long.ratio())
	}
	if growth := float64(long.storage) / float64(short.storage); growth > 2.6 {
		t.Errorf("doubling the turns multiplied storage by %.2f: not linear", growth)
	}
}

// BenchmarkStorage reports checkpoint storage over the final state's size
// for conversations of growing length, with deltas and with the full state
// at every step. Run it with -benchtime=1x.
func BenchmarkStorage(b *testing.B) {
	for _, mode := range []struct {
		name string
		opts Options
	}{{"delta", Options{}}, {"full", Options{FullState: true}}} {
		for _, turns := range []int{50, 100, 200} {
			b.Run(fmt.Sprintf("%s/turns=%d", mode.name, turns), func(b *testing.B) {
				var f storageFigures
				for range b.N {
					f = measureStorage(b, mode.opts, turns)
				}
				b.ReportMetric(float64(f.state), "state-B")
				b.ReportMetric(float64(f.storage), "storage-B")
				b.ReportMetric(f.ratio(), "storage/state")
				b.ReportMetric(float64(f.checkpoints), "checkpoints")
			})
		}
	}
}

// chatCheckpoints precomputes the checkpoints of a conversation of turns
// turns, as the trip graph would save them (ids are set at Put time).
func chatCheckpoints(b testing.TB, turns int) []graph.Checkpoint {
	r := rand.New(rand.NewPCG(3, 4))
	var out []graph.Checkpoint
	var st chatState
	now := time.Unix(1_700_000_000, 0).UTC()
	for turn := range turns {
		for i, u := range chatTurn(r, turn, now) {
			st = reduceChat(st, u)
			out = append(out, graph.Checkpoint{Step: len(out), Node: fmt.Sprint("node", i),
				State: mustJSON(b, st), Update: mustJSON(b, u), Next: []string{"next"},
				Metadata: graph.Metadata{Source: graph.SourceLoop, RunID: "0190a5b0-0000-7000-8000-000000000002"}, CreatedAt: now})
		}
	}
	return out
}

// BenchmarkCheckpointPut measures one step's save as a run makes it: the
// checkpoints of 200-turn conversations, one after another, with the
// latency's p50 and p99.
func BenchmarkCheckpointPut(b *testing.B) {
	s := openTestStore(b)
	steps := chatCheckpoints(b, 200)
	for _, mode := range []struct {
		name string
		opts Options
	}{{"delta", Options{}}, {"full", Options{FullState: true}}} {
		b.Run(mode.name, func(b *testing.B) {
			ctx := context.Background()
			cp := New(s.Pool, mode.opts)
			var thread, parent string
			durations := make([]time.Duration, 0, b.N)
			for i := 0; b.Loop(); i++ {
				c := steps[i%len(steps)]
				if i%len(steps) == 0 {
					b.StopTimer()
					_, thread = newThread(b, s, "putter")
					parent = ""
					b.StartTimer()
				}
				c.ThreadID, c.ID, c.ParentID = thread, newID(), parent
				start := time.Now()
				if err := cp.Put(ctx, c, parent); err != nil {
					b.Fatal(err)
				}
				durations = append(durations, time.Since(start))
				parent = c.ID
			}
			reportPercentiles(b, durations)
		})
	}
}

func reportPercentiles(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	at := func(p float64) float64 { return float64(d[int(p*float64(len(d)-1))].Microseconds()) / 1000 }
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

// BenchmarkRuns measures whole runs of the 4-node trip graph (input, route,
// classify or extraction, tools: four checkpoints), with the in-memory and
// the Postgres saver. A thread takes 20 turns, then a new one starts.
func BenchmarkRuns(b *testing.B) {
	s := openTestStore(b)
	for _, mode := range []string{"memory", "postgres"} {
		b.Run(mode, func(b *testing.B) {
			ctx := context.Background()
			var cp graph.Checkpointer = graph.NewMemorySaver()
			if mode == "postgres" {
				cp = New(s.Pool, Options{})
			}
			g := tripGraph(b, cp, nil)
			var thread string
			for i := 0; b.Loop(); i++ {
				if i%20 == 0 {
					b.StopTimer()
					_, thread = newThread(b, s, "bench-runs")
					b.StartTimer()
				}
				if _, err := g.Invoke(ctx, graph.RunConfig[chatUpdate]{ThreadID: thread, Input: humanInput(i)}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
		})
	}
}

// BenchmarkLatest reads the newest checkpoint of a 200-turn conversation.
func BenchmarkLatest(b *testing.B) {
	ctx := context.Background()
	s := openTestStore(b)
	_, thread := newThread(b, s, "reader")
	cp := New(s.Pool, Options{})
	parent := ""
	for _, c := range chatCheckpoints(b, 200) {
		c.ThreadID, c.ID, c.ParentID = thread, newID(), parent
		if err := cp.Put(ctx, c, parent); err != nil {
			b.Fatal(err)
		}
		parent = c.ID
	}
	cold := New(s.Pool, Options{})
	for b.Loop() {
		if _, err := cold.Latest(ctx, thread); err != nil {
			b.Fatal(err)
		}
	}
}

// Reading a thread's latest checkpoint uses the (thread_id, id) primary key, scanned backward,
// at 10,000 checkpoints per thread, among other threads.
func TestLatestUsesIndex(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	var threads []string
	var owner string
	for i := range 5 {
		o, th := newThread(t, s, fmt.Sprintf("many-%d", i))
		threads = append(threads, th)
		owner = o
	}
	// Rows written directly: the plan, not the states, is under test. Every
	// 100th row is a snapshot; the others are deltas that keep the state.
	_, err := s.Pool.Exec(ctx, `
		INSERT INTO checkpoints (thread_id, id, parent_id, base_id, step, source, state, delta, created_at)
		SELECT t, id, lag(id) OVER w, first_value(id) OVER (PARTITION BY t, n / 100 ORDER BY n), n, 'loop',
			CASE WHEN n % 100 = 0 THEN '{"m":[]}'::bytea END, CASE WHEN n % 100 <> 0 THEN '[0,0]'::bytea END, now()
		FROM unnest($1::uuid[]) t, generate_series(0, 9999) n,
			LATERAL (SELECT (lpad(to_hex(n), 12, '0') || '7000800000000000' || lpad(to_hex(n % 16), 4, '0'))::uuid) AS x(id)
		WINDOW w AS (PARTITION BY t ORDER BY n)`, threads)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Pool.Exec(ctx, `ANALYZE checkpoints`); err != nil {
		t.Fatal(err)
	}
	latest, err := New(s.Pool, Options{}).Latest(ctx, threads[2])
	if err != nil || latest.Step != 9999 || string(latest.State) != `{"m":[]}` {
		t.Fatalf("Latest = step %d %s, %v; want step 9999", latest.Step, latest.State, err)
	}
	for _, tt := range []struct {
		name string
		cp   *saver
	}{
		{"latest", New(s.Pool, Options{}).saver},
		{"latest for an owner", New(s.Pool, Options{}).ForOwner(owner).saver},
	} {
		q, args := tt.cp.readSQL(threads[2], "", "", 1)
		rows, err := s.Pool.Query(ctx, `EXPLAIN (COSTS OFF) `+q, args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var line string
			rows.Scan(&line)
			plan = append(plan, line)
		}
		text := strings.Join(plan, "\n")
		t.Logf("%s:\n%s", tt.name, text)
		if strings.Contains(text, "Seq Scan on checkpoints") || strings.Count(text, "checkpoints_pkey") < 2 {
			t.Errorf("%s: the plan does not read checkpoints through checkpoints_pkey:\n%s", tt.name, text)
		}
	}
}

// BenchmarkDurability measures whole runs of the 4-node trip graph on the
// Postgres saver in each durability mode: sync writes each of a run's 4
// checkpoints before the next step, async writes them while the next steps
// run, exit writes only the run's last one; sync with the input durable
// elsewhere (graph.RunConfig.InputDurable) writes the input's two with the
// first node's. The tool node either returns at once or takes 5 ms, as a
// tool call would. A thread takes 20 turns, then a new one starts.
// commits/run counts the transactions that wrote (each waits for its WAL
// to reach the disk), those that create the threads left out.
func BenchmarkDurability(b *testing.B) {
	s := openTestStore(b)
	for _, tool := range []time.Duration{0, 5 * time.Millisecond} {
		for _, mode := range []graph.Durability{graph.DurabilitySync, graph.DurabilityAsync, graph.DurabilityExit} {
			b.Run(fmt.Sprintf("tool=%v/%s", tool, mode), func(b *testing.B) { benchDurability(b, s, mode, false, tool) })
		}
		b.Run(fmt.Sprintf("tool=%v/sync-input-durable", tool), func(b *testing.B) { benchDurability(b, s, graph.DurabilitySync, true, tool) })
	}
}

// benchDurability runs BenchmarkDurability for one mode and tool time.
func benchDurability(b *testing.B, s *testDB, mode graph.Durability, inputDurable bool, tool time.Duration) {
	ctx := context.Background()
	cp := New(s.Pool, Options{})
	var work func(context.Context, chatState)
	if tool > 0 {
		work = func(context.Context, chatState) { time.Sleep(tool) }
	}
	g := tripGraph(b, cp, work)
	var thread string
	written, threads := 0, 0
	xids := writingCommits(b, s)
	for i := 0; b.Loop(); i++ {
		if i%20 == 0 {
			b.StopTimer()
			if thread != "" {
				written += countCheckpoints(b, s, thread)
			}
			_, thread = newThread(b, s, "bench-durability")
			threads++
			b.StartTimer()
		}
		cfg := graph.RunConfig[chatUpdate]{ThreadID: thread, Input: humanInput(i), Durability: mode, InputDurable: inputDurable}
		if _, err := g.Invoke(ctx, cfg); err != nil {
			b.Fatal(err)
		}
	}
	commits := writingCommits(b, s) - xids - int64(threads)
	written += countCheckpoints(b, s, thread)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
	b.ReportMetric(float64(written)/float64(b.N), "checkpoints/run")
	b.ReportMetric(float64(commits)/float64(b.N), "commits/run")
}

// writingCommits is the count of transactions that have written on the
// cluster: the next transaction id, read without taking one.
func writingCommits(b testing.TB, s *testDB) int64 {
	var n int64
	if err := s.Pool.QueryRow(context.Background(), `SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint`).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}

func countCheckpoints(b *testing.B, s *testDB, thread string) int {
	var n int
	if err := s.Pool.QueryRow(context.Background(), `SELECT count(*) FROM checkpoints WHERE thread_id = $1`, thread).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}

// BenchmarkPrepare measures the saver's CPU for one step of a 200-turn
// conversation, without the database: the row of the checkpoint over its
// parent's cached chain (snapshot or delta, compressed) and its statement.
func BenchmarkPrepare(b *testing.B) {
	ctx := context.Background()
	steps := chatCheckpoints(b, 200)
	thread := newID()
	ids := make([]string, len(steps))
	for i := range ids {
		ids[i] = newID()
	}
	c := New(nil, Options{})
	var prev *chain
	for i := 0; b.Loop(); i++ {
		j := i % len(steps)
		cp := steps[j]
		cp.ThreadID, cp.ID, cp.ParentID = thread, ids[j], ""
		head := ""
		if j > 0 {
			cp.ParentID, head = ids[j-1], ids[j-1]
		} else {
			prev = nil
		}
		row, err := c.prepare(ctx, cp, head, prev)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := c.insertSQL(ctx, []newRow{row}); err != nil {
			b.Fatal(err)
		}
		prev = row.chain
	}
}
