package checkpoint

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/testing/sqllog"
)

// teeSaver writes every checkpoint to the Postgres checkpointer and, once
// that succeeded, to a MemorySaver; it reads from Postgres only, so the
// engine resumes and forks from what Postgres gives back.
type teeSaver struct {
	*Saver
	mem *graph.MemorySaver

	mu        sync.Mutex
	committed []string // ids of the checkpoints Put returned for
}

func (t *teeSaver) Put(ctx context.Context, cp graph.Checkpoint, head string) error {
	if err := t.Saver.Put(ctx, cp, head); err != nil {
		return err
	}
	t.mu.Lock()
	t.committed = append(t.committed, cp.ID)
	t.mu.Unlock()
	return t.mem.Put(ctx, cp, head)
}

// PutAll is Put for checkpoints the saver stores together.
func (t *teeSaver) PutAll(ctx context.Context, cps []graph.Checkpoint, head string) (int, error) {
	n, err := t.Saver.PutAll(ctx, cps, head)
	for _, cp := range cps[:n] {
		t.mu.Lock()
		t.committed = append(t.committed, cp.ID)
		t.mu.Unlock()
		if merr := t.mem.Put(ctx, cp, head); merr != nil {
			return n, merr
		}
		head = cp.ID
	}
	return n, err
}

// tripGraph is the 4-node test graph: route → classify | extraction →
// tools → END. block, when set, is called at the start of tools.
func tripGraph(t testing.TB, cp graph.Checkpointer, block func(context.Context, chatState)) *graph.Compiled[chatState, chatUpdate] {
	t.Helper()
	at := func(s chatState) *time.Time {
		ts := time.Unix(1_700_000_000+int64(len(s.Messages)), 0).UTC()
		return &ts
	}
	g := graph.New(reduceChat)
	g.AddNode("route", func(_ context.Context, s chatState) (chatUpdate, error) {
		return chatUpdate{Timestamp: at(s)}, nil
	})
	g.AddNode("classify", func(_ context.Context, s chatState) (chatUpdate, error) {
		return chatUpdate{Timestamp: at(s), TripDetails: &tripDetails{Location: cities[len(s.Messages)%len(cities)], NumberOfGuests: 2}}, nil
	})
	g.AddNode("extraction", func(_ context.Context, s chatState) (chatUpdate, error) {
		return chatUpdate{Timestamp: at(s), TripDetails: &tripDetails{Location: "Porto", StartDate: "2026-07-01", NumberOfGuests: 3}}, nil
	})
	g.AddNode("tools", func(ctx context.Context, s chatState) (chatUpdate, error) {
		if block != nil {
			block(ctx, s)
		}
		r := rand.New(rand.NewPCG(uint64(len(s.Messages)), 1))
		id := fmt.Sprintf("a%d", len(s.Messages))
		city := "Lisboa"
		if s.TripDetails != nil {
			city = s.TripDetails.Location
		}
		return chatUpdate{Timestamp: at(s),
			Messages: []chatMessage{{ID: id, Role: "ai", Content: aiAnswer(r, city)}},
			UI:       []uiRecord{{ID: "ui" + id, Name: "accommodations-list", Props: accommodationProps(r, city), MessageID: id}}}, nil
	})
	g.AddEdge(graph.START, "route")
	g.AddConditionalEdges("route", func(s chatState) string {
		if len(s.Messages)%4 < 2 {
			return "classify"
		}
		return "extraction"
	}, "classify", "extraction")
	g.AddEdge("classify", "tools")
	g.AddEdge("extraction", "tools")
	g.AddEdge("tools", graph.END)
	c, err := g.Compile(cp)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// aiAnswer is a reply of a few hundred characters, as a model writes.
func aiAnswer(r *rand.Rand, city string) string {
	sentences := []string{
		"I found several places to stay in " + city + " that match your dates and group size.",
		"The first is a short walk from the old town and includes breakfast.",
		"Prices shown are per night, taxes included, and can change until you book.",
		"If you would rather be near the river or the station, tell me and I will narrow the list.",
		"Two of them offer free cancellation up to two days before arrival.",
		"Would you like restaurant suggestions nearby as well?",
	}
	n := 2 + r.IntN(4)
	start := r.IntN(len(sentences))
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sentences[(start+i)%len(sentences)])
	}
	return b.String()
}

// humanInput is a turn's input: one human message.
func humanInput(turn int) chatUpdate {
	return chatUpdate{Messages: []chatMessage{{ID: fmt.Sprintf("h%d", turn), Role: "human",
		Content: fmt.Sprintf("Turn %d: find me somewhere to stay near the river, please.", turn)}}}
}

// randomGraph builds a random acyclic graph of 2 to 6 nodes whose routers
// look at the state, so that different histories take different paths.
func randomGraph(t *testing.T, r *rand.Rand, cp graph.Checkpointer) (*graph.Compiled[chatState, chatUpdate], []string) {
	t.Helper()
	n := 2 + r.IntN(5)
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("n%d", i)
	}
	g := graph.New(reduceChat)
	for i, name := range names {
		kind := r.IntN(4)
		g.AddNode(name, func(_ context.Context, s chatState) (chatUpdate, error) {
			ts := time.Unix(int64(1_700_000_000+len(s.Messages)*7+i), 0).UTC()
			u := chatUpdate{Timestamp: &ts}
			id := fmt.Sprintf("%s-%d", name, len(s.Messages))
			switch kind {
			case 0:
				u.Messages = []chatMessage{{ID: id, Role: "ai", Content: "answer " + id}}
			case 1:
				u.Messages = []chatMessage{{ID: id, Role: "tool", Content: "result"}}
				u.UI = []uiRecord{{ID: "ui-" + id, Name: "trip-stats", Props: []byte(`{"n":1}`), MessageID: id}}
			case 2:
				u.TripDetails = &tripDetails{Location: cities[len(s.Messages)%len(cities)]}
			case 3:
				u.Clear = len(s.Messages) > 12
				u.Messages = []chatMessage{{ID: id, Role: "ai", Content: "summary"}}
			}
			return u, nil
		})
	}
	g.AddEdge(graph.START, names[0])
	for i := range n - 1 {
		later := append(slices.Clone(names[i+2:]), graph.END)
		if r.IntN(2) == 0 {
			g.AddEdge(names[i], names[i+1])
			continue
		}
		targets := []string{names[i+1], later[r.IntN(len(later))]}
		if targets[1] == targets[0] {
			targets = targets[:1]
		}
		g.AddConditionalEdges(names[i], func(s chatState) string { return targets[len(s.Messages)%len(targets)] }, targets...)
	}
	g.AddEdge(names[n-1], graph.END)
	c, err := g.Compile(cp)
	if err != nil {
		t.Fatal(err)
	}
	return c, names
}

// Random graphs, random inputs, forks and state updates: every checkpoint
// reads back from Postgres as MemorySaver holds it for the same run.
func TestGraphRunsMatchMemorySaver(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	forks := 0
	for seed := range uint64(16) {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 42))
			_, thread := newThread(t, s, fmt.Sprintf("graph-%d", seed))
			opts := Options{}
			if seed%2 == 1 {
				opts = Options{SnapshotRatio: 0.05, MaxChain: 4}
			}
			tee := &teeSaver{Saver: New(s.Pool, opts), mem: graph.NewMemorySaver()}
			g, names := randomGraph(t, r, tee)
			for turn := range 12 {
				var fork string
				if turn > 0 && r.IntN(4) == 0 {
					fork = tee.committed[r.IntN(len(tee.committed))]
				}
				if turn > 0 && r.IntN(6) == 0 {
					as := append([]string{graph.START}, names...)[r.IntN(len(names)+1)]
					if _, err := g.UpdateState(ctx, thread, fork, humanInput(100+turn), as); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if _, err := g.Invoke(ctx, graph.RunConfig[chatUpdate]{ThreadID: thread, Input: humanInput(turn), CheckpointID: fork}); err != nil {
					t.Fatal(err)
				}
			}
			compareSavers(t, thread, New(s.Pool, opts), tee.mem)
			compareSavers(t, thread, tee.Saver, tee.mem)
			forks += forksIn(t, tee.mem, thread)
		})
	}
	if forks == 0 {
		t.Error("no history forked: the test exercised no branches")
	}
}

// forksIn checks that every checkpoint but the first has its parent in the
// thread, and returns how many checkpoints have more than one child.
func forksIn(t *testing.T, saver graph.Checkpointer, thread string) int {
	t.Helper()
	list, err := saver.List(context.Background(), thread, graph.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ids := make(map[string]bool)
	children := make(map[string]int)
	for _, cp := range list {
		ids[cp.ID] = true
		children[cp.ParentID]++
	}
	for _, cp := range list[:len(list)-1] {
		if !ids[cp.ParentID] {
			t.Fatalf("checkpoint %s has parent %q, which is not in the thread", cp.ID, cp.ParentID)
		}
	}
	n := 0
	for _, c := range children {
		if c > 1 {
			n++
		}
	}
	return n
}

// A run whose input is durable elsewhere (graph.RunConfig.InputDurable)
// makes one writing commit fewer on PostgreSQL, the input's two
// checkpoints going in the first node's transaction, and leaves the same
// history: the same steps, nodes, sources, next nodes, parents and states.
func TestInputDurableCommitsOnceLess(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	rec := &sqllog.Recorder{}
	cfg := s.Pool.Config().Copy()
	cfg.ConnConfig.Tracer = rec
	traced, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(traced.Close)
	g := tripGraph(t, New(traced, Options{}), nil)
	const runs = 3
	var shapes [2][]string
	var commits [2]int
	for i, durable := range []bool{false, true} {
		_, thread := newThread(t, s, fmt.Sprintf("input-durable-%v", durable))
		rec.Start()
		for turn := range runs {
			if _, err := g.Invoke(ctx, graph.RunConfig[chatUpdate]{ThreadID: thread, Input: humanInput(turn), InputDurable: durable}); err != nil {
				t.Fatal(err)
			}
		}
		for _, tr := range rec.Stop() { // the commits that write checkpoints
			if tr.Commit() && strings.Contains(tr.SQL, "INSERT INTO checkpoints") {
				commits[i]++
			}
		}
		list, err := New(s.Pool, Options{}).List(ctx, thread, graph.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for j, c := range list {
			chained := j+1 < len(list) && c.ParentID == list[j+1].ID || j+1 == len(list) && c.ParentID == ""
			shapes[i] = append(shapes[i], fmt.Sprintf("%d %s %s %v %v %s", c.Step, c.Node, c.Metadata.Source, c.Next, chained, c.State))
		}
	}
	if !slices.Equal(shapes[0], shapes[1]) {
		t.Errorf("histories differ:\nwithout: %q\nwith:    %q", shapes[0], shapes[1])
	}
	// 4 writing commits a run without (the input, then 3 nodes), 3 with.
	if commits[0] != 4*runs || commits[1] != 3*runs {
		t.Errorf("writing commits for %d runs: %d without InputDurable, %d with; want %d and %d", runs, commits[0], commits[1], 4*runs, 3*runs)
	}
}
