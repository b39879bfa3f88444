package graph

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// The benchmark graph is the trip planner's shape: START routes to one of
// two nodes, both lead to a tool node, which ends. A run saves 4 checkpoints
// in a MemorySaver: its input pending and applied, then each of its 2 nodes'.
const benchSteps = 4

func BenchmarkRun(b *testing.B) {
	c := mustCompile(b, plannerGraph(), NewMemorySaver())
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if _, err := c.Invoke(ctx, benchRun(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunStreamed is BenchmarkRun as the server runs a graph: with a
// context that can be cancelled, every event read.
func BenchmarkRunStreamed(b *testing.B) {
	c := mustCompile(b, plannerGraph(), NewMemorySaver())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		for _, err := range c.Run(ctx, benchRun(i)) {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// benchRun is the i-th run of BenchmarkRun: on a new thread, to classify
// or extraction in turn.
func benchRun(i int) RunConfig[tupdate] {
	in := tupdate{Log: []string{"4 nights in Lisbon"}, Want: "classify"}
	if i%2 == 0 {
		in.Want = "extraction"
	}
	return RunConfig[tupdate]{ThreadID: newID(), Input: in}
}

// BenchmarkRunSerialization does only the JSON work of one BenchmarkRun run:
// encoding the state and update at each of its 4 steps. BenchmarkRun minus
// this is the engine's own overhead.
func BenchmarkRunSerialization(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s := tstate{}
		for _, u := range []tupdate{
			{Log: []string{"4 nights in Lisbon"}, Want: "classify"},
			{Log: []string{"classify"}, Tag: "classify"},
			{Log: []string{"callTools"}, Tag: "callTools"},
		} {
			s = reduce(s, u)
			if _, err := json.Marshal(s); err != nil {
				b.Fatal(err)
			}
			if _, err := json.Marshal(u); err != nil {
				b.Fatal(err)
			}
		}
		json.Marshal(s) // the input step encodes one more state
	}
}

// BenchmarkRunNoSerialization runs the same graph on a state whose JSON
// encoding is a constant, so the figure is the engine alone.
func BenchmarkRunNoSerialization(b *testing.B) {
	g := New(func(s constState, u constState) constState { return s + u })
	for _, n := range []string{"classify", "extraction", "callTools"} {
		g.AddNode(n, func(context.Context, constState) (constState, error) { return 1, nil })
	}
	g.AddConditionalEdges(START, func(s constState) string {
		if s%2 == 0 {
			return "classify"
		}
		return "extraction"
	}, "classify", "extraction")
	g.AddEdge("classify", "callTools").AddEdge("extraction", "callTools").AddEdge("callTools", END)
	c, err := g.Compile(NewMemorySaver())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if _, err := c.Invoke(ctx, RunConfig[constState]{ThreadID: newID(), Input: constState(i % 2)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchSteps, "ns/step")
}

// constState encodes to a fixed byte string, to keep JSON out of a benchmark.
type constState int

var constJSON = []byte("0")

func (constState) MarshalJSON() ([]byte, error) { return constJSON, nil }

// latencySaver is a MemorySaver whose writes take a fixed time, like a
// round trip to a database.
type latencySaver struct {
	*MemorySaver
	delay time.Duration
}

func (s latencySaver) Put(ctx context.Context, cp Checkpoint, head string) error {
	time.Sleep(s.delay)
	return s.MemorySaver.Put(ctx, cp, head)
}

// BenchmarkDurability runs the benchmark graph in each durability mode, on
// a MemorySaver and on one whose writes take 200 µs, with nodes that take
// 100 µs (a tool call).
func BenchmarkDurability(b *testing.B) {
	savers := []struct {
		name     string
		saver    func() Checkpointer
		nodeTime time.Duration
	}{
		{"memory", func() Checkpointer { return NewMemorySaver() }, 0},
		{"write200us-node100us", func() Checkpointer { return latencySaver{NewMemorySaver(), 200 * time.Microsecond} }, 100 * time.Microsecond},
	}
	for _, sv := range savers {
		for _, mode := range []Durability{DurabilitySync, DurabilityAsync, DurabilityExit} {
			b.Run(sv.name+"/"+string(mode), func(b *testing.B) {
				g := New(reduce)
				for _, n := range []string{"classify", "extraction", "callTools"} {
					g.AddNode(n, func(context.Context, tstate) (tupdate, error) {
						if sv.nodeTime > 0 {
							time.Sleep(sv.nodeTime)
						}
						return tupdate{Log: []string{n}, Tag: n}, nil
					})
				}
				g.AddConditionalEdges(START, routeWant, "classify", "extraction")
				g.AddEdge("classify", "callTools").AddEdge("extraction", "callTools").AddEdge("callTools", END)
				c := mustCompile(b, g, sv.saver())
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					in := tupdate{Log: []string{"4 nights in Lisbon"}, Want: "classify"}
					if _, err := c.Invoke(ctx, RunConfig[tupdate]{ThreadID: newID(), Input: in, Durability: mode}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
