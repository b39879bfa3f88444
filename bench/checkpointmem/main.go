// Command checkpointmem measures the memory of a process that runs one long
// conversation on the PostgreSQL checkpointer: a 4-node chat graph (route →
// classify | extraction → tools), one run per turn, each turn adding a human
// message, an AI answer of a few sentences and a UI record listing hotels.
// It prints the peak RSS (VmHWM), the peak heap in use sampled after every
// run, the live heap after a final GC, and the runs per second.
//
// Run one configuration per process, so that the peak is its own:
//
//	DATABASE_URL=… go run ./bench/checkpointmem -turns 200 -cache-bytes 8388608
//
// It creates a user "checkpointmem" and one thread in that database, and
// deletes the thread at the end.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/store/checkpoint"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/store"
)

type message struct {
	ID      string `json:"id"`
	Role    string `json:"role"`
	Content string `json:"content"`
}

type component struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Props     json.RawMessage `json:"props"`
	MessageID string          `json:"messageId"`
}

type trip struct {
	Location string `json:"location"`
	Start    string `json:"startDate"`
	Guests   int    `json:"numberOfGuests"`
}

type state struct {
	Messages  []message   `json:"messages"`
	UI        []component `json:"ui"`
	Timestamp time.Time   `json:"timestamp"`
	Trip      *trip       `json:"tripDetails,omitempty"`
}

type update struct {
	Messages  []message   `json:"messages,omitempty"`
	UI        []component `json:"ui,omitempty"`
	Timestamp *time.Time  `json:"timestamp,omitempty"`
	Trip      *trip       `json:"tripDetails,omitempty"`
}

func reduce(s state, u update) state {
	s.Messages = append(slices.Clip(s.Messages), u.Messages...)
	s.UI = append(slices.Clip(s.UI), u.UI...)
	if u.Timestamp != nil {
		s.Timestamp = *u.Timestamp
	}
	if u.Trip != nil {
		s.Trip = u.Trip
	}
	return s
}

var cities = []string{"Lisboa", "Porto", "Paris", "Kyoto", "São Paulo", "Reykjavík", "Nairobi", "Montréal"}

func now(s state) *time.Time {
	t := time.Unix(1_700_000_000+int64(len(s.Messages)), 0).UTC()
	return &t
}

// build is the chat graph on cp.
func build(cp graph.Checkpointer) (*graph.Compiled[state, update], error) {
	g := graph.New(reduce)
	g.AddNode("route", func(_ context.Context, s state) (update, error) { return update{Timestamp: now(s)}, nil })
	g.AddNode("classify", func(_ context.Context, s state) (update, error) {
		return update{Timestamp: now(s), Trip: &trip{Location: cities[len(s.Messages)%len(cities)], Guests: 2}}, nil
	})
	g.AddNode("extraction", func(_ context.Context, s state) (update, error) {
		return update{Timestamp: now(s), Trip: &trip{Location: "Porto", Start: "2026-07-01", Guests: 3}}, nil
	})
	g.AddNode("tools", func(_ context.Context, s state) (update, error) {
		r := rand.New(rand.NewPCG(uint64(len(s.Messages)), 1))
		id := fmt.Sprintf("a%d", len(s.Messages))
		city := cities[r.IntN(len(cities))]
		return update{Timestamp: now(s),
			Messages: []message{{ID: id, Role: "ai", Content: answer(r, city)}},
			UI:       []component{{ID: "ui" + id, Name: "accommodations-list", Props: hotels(r, city), MessageID: id}}}, nil
	})
	g.AddEdge(graph.START, "route")
	g.AddConditionalEdges("route", func(s state) string {
		if len(s.Messages)%4 < 2 {
			return "classify"
		}
		return "extraction"
	}, "classify", "extraction")
	g.AddEdge("classify", "tools")
	g.AddEdge("extraction", "tools")
	g.AddEdge("tools", graph.END)
	return g.Compile(cp)
}

func answer(r *rand.Rand, city string) string {
	sentences := []string{
		"I found several places to stay in " + city + " that match your dates and group size.",
		"The first is a short walk from the old town and includes breakfast.",
		"Prices shown are per night, taxes included, and can change until you book.",
		"If you would rather be near the river or the station, tell me and I will narrow the list.",
		"Two of them offer free cancellation up to two days before arrival.",
	}
	n := 2 + r.IntN(4)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = sentences[(i+r.IntN(2))%len(sentences)]
	}
	return strings.Join(parts, " ")
}

func hotels(r *rand.Rand, city string) json.RawMessage {
	type hotel struct {
		ID     int     `json:"id"`
		Name   string  `json:"name"`
		Price  int     `json:"price"`
		Rating float64 `json:"rating"`
		Image  string  `json:"image"`
	}
	list := make([]hotel, 3+r.IntN(3))
	for i := range list {
		id := r.IntN(100000)
		list[i] = hotel{ID: id, Name: fmt.Sprintf("Hotel %s %d", city, id), Price: 50 + r.IntN(400),
			Rating: float64(30+r.IntN(20)) / 10, Image: fmt.Sprintf("https://img.example.com/%d.jpg", id)}
	}
	b, _ := json.Marshal(map[string]any{"accommodations": list, "city": city, "currency": "EUR"})
	return b
}

func main() {
	cfg, err := config.Load(os.Environ(), "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	dbURL := flag.String("db", cfg.Database.URL, "the database (default $DATABASE_URL)")
	turns := flag.Int("turns", 200, "conversation turns (one run each)")
	cacheBytes := flag.Int64("cache-bytes", 0, "checkpoint.Options.CacheBytes (0: the default; -1: no cache)")
	flag.Parse()
	if err := run(context.Background(), *dbURL, *turns, *cacheBytes); err != nil {
		fmt.Fprintln(os.Stderr, "checkpointmem:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, dbURL string, turns int, cacheBytes int64) error {
	if err := migrations.Up(ctx, dbURL); err != nil {
		return err
	}
	st, err := store.Open(ctx, dbURL)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.Accounts.EnsureUser(ctx, "checkpointmem")
	if err != nil {
		return err
	}
	th, err := st.ForOwner(u.ID).CreateThread(ctx, store.NewThread{})
	if err != nil {
		return err
	}
	defer st.ForOwner(u.ID).DeleteThread(context.WithoutCancel(ctx), th.ID)
	g, err := build(checkpoint.New(st.Pool, checkpoint.Options{CacheBytes: cacheBytes}))
	if err != nil {
		return err
	}
	var peakHeap uint64
	var ms runtime.MemStats
	start := time.Now()
	var final state
	for turn := range turns {
		in := update{Messages: []message{{ID: fmt.Sprintf("h%d", turn), Role: "human",
			Content: fmt.Sprintf("Turn %d: find me somewhere to stay near the river, please.", turn)}}}
		if final, err = g.Invoke(ctx, graph.RunConfig[update]{ThreadID: th.ID, Input: in}); err != nil {
			return err
		}
		runtime.ReadMemStats(&ms)
		peakHeap = max(peakHeap, ms.HeapInuse)
	}
	elapsed := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&ms)
	size, _ := json.Marshal(final)
	fmt.Printf("turns=%d cache-bytes=%d final-state=%dB runs/s=%.0f peak-rss=%.1fMiB peak-heap-inuse=%.1fMiB live-heap-after-gc=%.1fMiB\n",
		turns, cacheBytes, len(size), float64(turns)/elapsed.Seconds(), float64(peakRSS())/(1<<20),
		float64(peakHeap)/(1<<20), float64(ms.HeapAlloc)/(1<<20))
	return nil
}

// peakRSS is the process's peak resident set size, in bytes, from
// /proc/self/status (0 where that is not available).
func peakRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		if _, err := fmt.Sscanf(sc.Text(), "VmHWM: %d kB", &kb); err == nil {
			return kb << 10
		}
	}
	return 0
}
