// Package checkpointtest is the behaviour every graph.Checkpointer must
// have, as one suite: history and paging, copies, the id rule,
// compare-and-set on the thread head under many goroutines, forks and
// updates from older checkpoints, pending interrupts, and runs that start
// from a head known without reading it. Each saver's tests
// call Run.
package checkpointtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/graph"
)

// Writers is how many goroutines race on one thread.
const Writers = 16

// Run runs the suite. newSaver returns the saver under test; any new thread
// id (a fresh UUID) may be written to it.
func Run(t *testing.T, newSaver func(t *testing.T) graph.Checkpointer) {
	tests := []struct {
		name string
		fn   func(*testing.T, graph.Checkpointer)
	}{
		{"history and paging", testHistory},
		{"every field round-trips", testRoundTrip},
		{"callers get copies", testCopies},
		{"ids must be canonical UUIDs", testIDRule},
		{"one writer wins a race on the head", testRace},
		{"racing writers that retry lose nothing", testRetryingWriters},
		{"a fork from an older checkpoint is stored", testFork},
		{"several checkpoints stored at once", testPutAll},
		{"graph runs race, fork and update", testGraph},
		{"a run starts from a known head, and again from a stale one", testKnownHead},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, newSaver(t)) })
	}
}

func newID() string { return uuid.Must(uuid.NewV7()).String() }

// chain puts n checkpoints on a new thread, each the child of the one
// before, and returns them oldest first.
func chain(t *testing.T, s graph.Checkpointer, n int) []graph.Checkpoint {
	t.Helper()
	thread := newID()
	var out []graph.Checkpoint
	parent := ""
	for i := range n {
		cp := graph.Checkpoint{ThreadID: thread, ID: newID(), ParentID: parent, Step: i, Node: "n",
			State: json.RawMessage(fmt.Sprintf(`{"step":%d}`, i)), Next: []string{"n"},
			Metadata: graph.Metadata{Source: graph.SourceLoop}, CreatedAt: now()}
		if err := s.Put(context.Background(), cp, parent); err != nil {
			t.Fatalf("putting checkpoint %d: %v", i, err)
		}
		out = append(out, cp)
		parent = cp.ID
	}
	return out
}

// now is the current time at the microsecond, the precision savers keep.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

func ids(list []graph.Checkpoint) []string {
	out := make([]string, len(list))
	for i, cp := range list {
		out[i] = cp.ID
	}
	return out
}

func list(t *testing.T, s graph.Checkpointer, thread string, opts graph.ListOptions) []graph.Checkpoint {
	t.Helper()
	got, err := s.List(context.Background(), thread, opts)
	if err != nil {
		t.Fatalf("listing thread %s: %v", thread, err)
	}
	return got
}

func testHistory(t *testing.T, s graph.Checkpointer) {
	ctx := context.Background()
	cps := chain(t, s, 5)
	other := chain(t, s, 1)
	c := ids(cps)
	thread := cps[0].ThreadID
	pages := []struct {
		name string
		opts graph.ListOptions
		want []string
	}{
		{"all, newest first", graph.ListOptions{}, []string{c[4], c[3], c[2], c[1], c[0]}},
		{"limit", graph.ListOptions{Limit: 2}, []string{c[4], c[3]}},
		{"before", graph.ListOptions{Before: c[3]}, []string{c[2], c[1], c[0]}},
		{"before and limit", graph.ListOptions{Before: c[3], Limit: 1}, []string{c[2]}},
		{"before the first", graph.ListOptions{Before: c[0]}, nil},
	}
	for _, p := range pages {
		if got := ids(list(t, s, thread, p.opts)); !slices.Equal(got, p.want) && !(len(got) == 0 && len(p.want) == 0) {
			t.Errorf("%s: List(%+v) = %v, want %v", p.name, p.opts, got, p.want)
		}
	}
	if latest, err := s.Latest(ctx, thread); err != nil || latest.ID != c[4] {
		t.Errorf("Latest = %s, %v; want %s", latest.ID, err, c[4])
	}
	if cp, err := s.Get(ctx, thread, c[2]); err != nil || cp.Step != 2 {
		t.Errorf("Get = step %d, %v; want step 2", cp.Step, err)
	}
	if got := list(t, s, newID(), graph.ListOptions{}); len(got) != 0 {
		t.Errorf("an unknown thread lists %d checkpoints", len(got))
	}
	missing := map[string]func() error{
		"latest of an unknown thread":          func() error { _, err := s.Latest(ctx, newID()); return err },
		"unknown checkpoint":                   func() error { _, err := s.Get(ctx, thread, newID()); return err },
		"another thread's checkpoint":          func() error { _, err := s.Get(ctx, other[0].ThreadID, c[0]); return err },
		"a checkpoint of an unknown thread id": func() error { _, err := s.Get(ctx, newID(), c[0]); return err },
	}
	for name, call := range missing {
		if err := call(); !errors.Is(err, graph.ErrNotFound) {
			t.Errorf("%s: got %v, want ErrNotFound", name, err)
		}
	}
}

func testRoundTrip(t *testing.T, s graph.Checkpointer) {
	ctx := context.Background()
	first := chain(t, s, 1)[0]
	in := graph.Checkpoint{
		ThreadID: first.ThreadID, ID: newID(), ParentID: first.ID, Step: 1, Node: "book",
		State:     json.RawMessage(`{"log":["a","b"],"n":1}`),
		Update:    json.RawMessage(`{"log":["b"]}`),
		Next:      []string{"book"},
		Metadata:  graph.Metadata{Source: graph.SourceLoop, RunID: newID()},
		CreatedAt: now(),
		Interrupts: []graph.PendingInterrupt{{ID: newID(), Node: "book",
			Payload: json.RawMessage(`{"place":"Casa Azul","total":360}`),
			Answers: []json.RawMessage{json.RawMessage(`{"confirmed":true}`), json.RawMessage(`"yes"`)}}},
	}
	if err := s.Put(ctx, in, first.ID); err != nil {
		t.Fatal(err)
	}
	latest, err := s.Latest(ctx, in.ThreadID)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, in.ThreadID, in.ID)
	if err != nil {
		t.Fatal(err)
	}
	listed := list(t, s, in.ThreadID, graph.ListOptions{Limit: 1})
	for name, cp := range map[string]graph.Checkpoint{"Latest": latest, "Get": got, "List": listed[0]} {
		if diff := compare(in, cp); diff != "" {
			t.Errorf("%s changed the checkpoint: %s", name, diff)
		}
	}
	if len(first.Interrupts) != 0 {
		t.Fatal("the test's first checkpoint has interrupts")
	}
	if back, _ := s.Get(ctx, first.ThreadID, first.ID); len(back.Interrupts) != 0 {
		t.Errorf("a checkpoint without interrupts came back with %d", len(back.Interrupts))
	}
}

// compare describes how got differs from want; JSON is compared by value.
func compare(want, got graph.Checkpoint) string {
	var diffs []string
	check := func(name string, ok bool, w, g any) {
		if !ok {
			diffs = append(diffs, fmt.Sprintf("%s = %v, want %v", name, g, w))
		}
	}
	check("ThreadID", want.ThreadID == got.ThreadID, want.ThreadID, got.ThreadID)
	check("ID", want.ID == got.ID, want.ID, got.ID)
	check("ParentID", want.ParentID == got.ParentID, want.ParentID, got.ParentID)
	check("Step", want.Step == got.Step, want.Step, got.Step)
	check("Node", want.Node == got.Node, want.Node, got.Node)
	check("State", sameJSON(want.State, got.State), string(want.State), string(got.State))
	check("Update", sameJSON(want.Update, got.Update), string(want.Update), string(got.Update))
	check("Next", slices.Equal(want.Next, got.Next), want.Next, got.Next)
	check("Metadata", want.Metadata == got.Metadata, want.Metadata, got.Metadata)
	check("CreatedAt", want.CreatedAt.Equal(got.CreatedAt), want.CreatedAt, got.CreatedAt)
	w, _ := json.Marshal(want.Interrupts)
	g, _ := json.Marshal(got.Interrupts)
	check("Interrupts", sameJSON(w, g), string(w), string(g))
	return fmt.Sprint(diffs)[1 : len(fmt.Sprint(diffs))-1]
}

func sameJSON(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	xs, _ := json.Marshal(x)
	ys, _ := json.Marshal(y)
	return bytes.Equal(xs, ys)
}

func testCopies(t *testing.T, s graph.Checkpointer) {
	ctx := context.Background()
	cp := graph.Checkpoint{ThreadID: newID(), ID: newID(), State: json.RawMessage(`{"a":1}`), Update: json.RawMessage(`{"a":1}`), Next: []string{"x"},
		Metadata: graph.Metadata{Source: graph.SourceInput}, CreatedAt: now(),
		Interrupts: []graph.PendingInterrupt{{ID: newID(), Node: "x", Payload: json.RawMessage(`{"a":1}`)}}}
	if err := s.Put(ctx, cp, ""); err != nil {
		t.Fatal(err)
	}
	// A child, which a checkpointer may store against its parent.
	parent := cp
	cp.ID, cp.ParentID, cp.State, cp.Update = newID(), parent.ID, json.RawMessage(`{"a":1}`), json.RawMessage(`{"a":1}`)
	cp.Next, cp.Interrupts[0].Payload = []string{"x"}, json.RawMessage(`{"a":1}`)
	if err := s.Put(ctx, cp, parent.ID); err != nil {
		t.Fatal(err)
	}
	cp.State[2], cp.Update[2], cp.Next[0], cp.Interrupts[0].Payload[2] = 'b', 'b', "y", 'b'
	for range 2 {
		got, err := s.Latest(ctx, cp.ThreadID)
		if err != nil {
			t.Fatal(err)
		}
		got.State[2], got.Update[2], got.Next[0], got.Interrupts[0].Payload[2] = 'c', 'c', "z", 'c'
	}
	again, _ := s.Latest(ctx, cp.ThreadID)
	if !sameJSON(again.State, []byte(`{"a":1}`)) || !sameJSON(again.Update, []byte(`{"a":1}`)) || again.Next[0] != "x" ||
		!sameJSON(again.Interrupts[0].Payload, []byte(`{"a":1}`)) {
		t.Fatalf("a stored checkpoint changed through a caller's copy: %s %s %v %s", again.State, again.Update, again.Next, again.Interrupts[0].Payload)
	}
}

func testIDRule(t *testing.T, s graph.Checkpointer) {
	ctx := context.Background()
	base := chain(t, s, 1)[0]
	good := func() graph.Checkpoint {
		return graph.Checkpoint{ThreadID: base.ThreadID, ID: newID(), ParentID: base.ID, Step: 1,
			State: json.RawMessage(`{}`), Metadata: graph.Metadata{Source: graph.SourceLoop}, CreatedAt: now()}
	}
	upper := func(id string) string { return string(bytes.ToUpper([]byte(id))) }
	bad := []string{"t", "r1", upper(newID()), "{" + newID() + "}", "urn:uuid:" + newID(), newID()[:35], " " + newID()}
	for _, id := range bad {
		puts := map[string]func() error{
			"thread id":     func() error { cp := good(); cp.ThreadID = id; return s.Put(ctx, cp, base.ID) },
			"checkpoint id": func() error { cp := good(); cp.ID = id; return s.Put(ctx, cp, base.ID) },
			"parent id":     func() error { cp := good(); cp.ParentID = id; return s.Put(ctx, cp, base.ID) },
			"run id":        func() error { cp := good(); cp.Metadata.RunID = id; return s.Put(ctx, cp, base.ID) },
			"head":          func() error { return s.Put(ctx, good(), id) },
			"Latest":        func() error { _, err := s.Latest(ctx, id); return err },
			"Get thread":    func() error { _, err := s.Get(ctx, id, base.ID); return err },
			"Get id":        func() error { _, err := s.Get(ctx, base.ThreadID, id); return err },
			"List thread":   func() error { _, err := s.List(ctx, id, graph.ListOptions{}); return err },
			"List cursor":   func() error { _, err := s.List(ctx, base.ThreadID, graph.ListOptions{Before: id}); return err },
		}
		for name, call := range puts {
			if err := call(); !errors.Is(err, graph.ErrInvalidID) {
				t.Errorf("%s %q: got %v, want ErrInvalidID", name, id, err)
			}
		}
	}
	older := good()
	older.ID = "00000000-0000-7000-8000-000000000000" // sorts before the head
	if err := s.Put(ctx, older, base.ID); !errors.Is(err, graph.ErrInvalidID) {
		t.Errorf("an id that does not sort after the head: got %v, want ErrInvalidID", err)
	}
	if got := ids(list(t, s, base.ThreadID, graph.ListOptions{})); !slices.Equal(got, []string{base.ID}) {
		t.Errorf("refused writes stored something: the thread holds %v", got)
	}
}

// race has Writers goroutines put a child of head at once; it returns the
// errors, in no order, and the ids they tried.
func race(t *testing.T, s graph.Checkpointer, thread, head string) ([]error, []string) {
	t.Helper()
	var ready, wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, Writers)
	tried := make([]string, Writers)
	for i := range Writers {
		ready.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			cp := graph.Checkpoint{ThreadID: thread, ID: newID(), ParentID: head,
				State: json.RawMessage(fmt.Sprintf(`{"writer":%d}`, i)), Metadata: graph.Metadata{Source: graph.SourceLoop}, CreatedAt: now()}
			tried[i] = cp.ID
			ready.Done()
			<-start
			errs[i] = s.Put(context.Background(), cp, head)
		}()
	}
	ready.Wait()
	close(start)
	wg.Wait()
	return errs, tried
}

func testRace(t *testing.T, s graph.Checkpointer) {
	ctx := context.Background()
	before := chain(t, s, 3)
	thread := before[0].ThreadID
	for _, tt := range []struct {
		name, thread, head string
		prior              []string
	}{
		{"an empty thread", newID(), "", nil},
		{"a thread with history", thread, before[2].ID, ids(before)},
	} {
		errs, tried := race(t, s, tt.thread, tt.head)
		winner := ""
		for i, err := range errs {
			var ce *graph.ConflictError
			switch {
			case err == nil && winner != "":
				t.Fatalf("%s: two writers won: %s and %s", tt.name, winner, tried[i])
			case err == nil:
				winner = tried[i]
			case !errors.As(err, &ce) || !errors.Is(err, graph.ErrConflict):
				t.Fatalf("%s: a losing writer got %v, want a *graph.ConflictError", tt.name, err)
			case ce.ThreadID != tt.thread || ce.Expected != tt.head:
				t.Fatalf("%s: the conflict names thread %q and head %q, want %q and %q", tt.name, ce.ThreadID, ce.Expected, tt.thread, tt.head)
			}
		}
		if winner == "" {
			t.Fatalf("%s: no writer won", tt.name)
		}
		for _, err := range errs {
			var ce *graph.ConflictError
			if errors.As(err, &ce) && ce.Actual != winner && ce.Actual != tt.head {
				t.Fatalf("%s: a conflict reports head %q, neither the winner nor the old head", tt.name, ce.Actual)
			}
		}
		got := ids(list(t, s, tt.thread, graph.ListOptions{}))
		want := append([]string{winner}, reversed(tt.prior)...)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: the thread holds %v, want the winner over the old history %v", tt.name, got, want)
		}
		if latest, _ := s.Latest(ctx, tt.thread); latest.ID != winner {
			t.Fatalf("%s: Latest is %s, not the winner %s", tt.name, latest.ID, winner)
		}
	}
}

func reversed(s []string) []string {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

// Writers that retry on conflict, reading the head again, all get their
// writes in: one unbroken chain, nothing lost.
func testRetryingWriters(t *testing.T, s graph.Checkpointer) {
	const each = 10
	thread := newID()
	var wg sync.WaitGroup
	errs := make(chan error, Writers)
	for range Writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				if err := putRetrying(s, thread); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got := list(t, s, thread, graph.ListOptions{})
	if len(got) != Writers*each {
		t.Fatalf("the thread holds %d checkpoints, want %d", len(got), Writers*each)
	}
	for i := 0; i+1 < len(got); i++ {
		if got[i].ParentID != got[i+1].ID {
			t.Fatalf("checkpoint %d's parent is %s, not the checkpoint before it %s", i, got[i].ParentID, got[i+1].ID)
		}
	}
}

func putRetrying(s graph.Checkpointer, thread string) error {
	ctx := context.Background()
	for {
		head, err := s.Latest(ctx, thread)
		if err != nil && !errors.Is(err, graph.ErrNotFound) {
			return err
		}
		cp := graph.Checkpoint{ThreadID: thread, ID: newID(), ParentID: head.ID, State: json.RawMessage(`{}`),
			Metadata: graph.Metadata{Source: graph.SourceLoop}, CreatedAt: now()}
		err = s.Put(ctx, cp, head.ID)
		if !errors.Is(err, graph.ErrConflict) {
			return err
		}
	}
}

func testFork(t *testing.T, s graph.Checkpointer) {
	ctx := context.Background()
	cps := chain(t, s, 4)
	thread, head := cps[0].ThreadID, cps[3].ID
	fork := graph.Checkpoint{ThreadID: thread, ID: newID(), ParentID: cps[1].ID, Step: 2, State: json.RawMessage(`{"fork":true}`),
		Metadata: graph.Metadata{Source: graph.SourceFork}, CreatedAt: now()}
	stale := fork
	stale.ID = newID()
	var ce *graph.ConflictError
	if err := s.Put(ctx, stale, cps[1].ID); !errors.As(err, &ce) || ce.Actual != head {
		t.Fatalf("a fork written over a stale head: got %v, want a conflict naming head %s", err, head)
	}
	if err := s.Put(ctx, fork, head); err != nil {
		t.Fatalf("a fork from an older checkpoint over the current head: %v", err)
	}
	if latest, _ := s.Latest(ctx, thread); latest.ID != fork.ID || latest.ParentID != cps[1].ID {
		t.Fatalf("Latest is %s (parent %s), want the fork %s", latest.ID, latest.ParentID, fork.ID)
	}
	for _, cp := range cps {
		if _, err := s.Get(ctx, thread, cp.ID); err != nil {
			t.Fatalf("checkpoint %s of the old branch is gone: %v", cp.ID, err)
		}
	}
}

// successors returns n checkpoints of thread, each the child of the one
// before and the first of parent (at step), oldest first.
func successors(thread, parent string, step, n int) []graph.Checkpoint {
	var out []graph.Checkpoint
	for i := range n {
		cp := graph.Checkpoint{ThreadID: thread, ID: newID(), ParentID: parent, Step: step + i, Node: "n",
			State:    json.RawMessage(fmt.Sprintf(`{"step":%d,"log":["a","b","c"]}`, step+i)),
			Update:   json.RawMessage(fmt.Sprintf(`{"log":["%d"]}`, step+i)),
			Metadata: graph.Metadata{Source: graph.SourceLoop}, CreatedAt: now()}
		out = append(out, cp)
		parent = cp.ID
	}
	return out
}

// PutAll stores as Puts one after the other would, and says how many it
// stored: all of them over the head; none over a head that moved; and
// those it says when one of them is refused.
func testPutAll(t *testing.T, s graph.Checkpointer) {
	ctx := context.Background()
	thread := newID()
	cps := successors(thread, "", -1, 3)
	if n, err := graph.PutAll(ctx, s, cps, ""); err != nil || n != 3 {
		t.Fatalf("PutAll of 3 over an empty thread = %d, %v; want 3, nil", n, err)
	}
	got := list(t, s, thread, graph.ListOptions{})
	if !slices.Equal(ids(got), reversed(ids(cps))) {
		t.Fatalf("the thread holds %v, want %v", ids(got), reversed(ids(cps)))
	}
	for i, cp := range got {
		if d := compare(cps[len(cps)-1-i], cp); d != "" {
			t.Errorf("checkpoint %d read back differs: %s", i, d)
		}
	}

	// Over a head that moved: a conflict, and nothing stored.
	stale := successors(thread, cps[0].ID, 0, 2)
	n, err := graph.PutAll(ctx, s, stale, cps[0].ID)
	var conflict *graph.ConflictError
	if n != 0 || !errors.As(err, &conflict) || conflict.Actual != cps[2].ID {
		t.Fatalf("PutAll over a head that moved = %d, %v; want 0 and a conflict with the head %s", n, err, cps[2].ID)
	}
	if got := list(t, s, thread, graph.ListOptions{}); len(got) != 3 {
		t.Fatalf("after a refused PutAll the thread holds %d checkpoints, want 3", len(got))
	}

	// One that does not sort after the one before it is refused; what is
	// stored is what PutAll says.
	more := successors(thread, cps[2].ID, 2, 3)
	more[2].ID = more[0].ID
	n, err = graph.PutAll(ctx, s, more, cps[2].ID)
	if !errors.Is(err, graph.ErrInvalidID) {
		t.Fatalf("PutAll with an id out of order: %v, want ErrInvalidID", err)
	}
	if got := list(t, s, thread, graph.ListOptions{}); len(got) != 3+n {
		t.Fatalf("PutAll said it stored %d, and the thread holds %d checkpoints, want %d", n, len(got), 3+n)
	}
}
