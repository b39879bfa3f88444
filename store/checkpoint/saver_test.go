package checkpoint

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
)

func newID() string { return uuid.Must(uuid.NewV7()).String() }

func TestCheckpointerReadsBack(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	owner, thread := newThread(t, s, "cp-basic")
	cp := New(s.Pool, Options{})

	if _, err := cp.Latest(ctx, thread); !errors.Is(err, graph.ErrNotFound) || errcode.Of(err) != errcode.NotFound {
		t.Fatalf("Latest of an empty thread = %v, want ErrNotFound and NOT_FOUND", err)
	}
	var saved []graph.Checkpoint
	state := chatState{}
	r := rand.New(rand.NewPCG(1, 2))
	parent := ""
	for turn := range 5 {
		for i, u := range chatTurn(r, turn, time.Unix(1_700_000_000, 0).UTC()) {
			state = reduceChat(state, u)
			c := graph.Checkpoint{ThreadID: thread, ID: newID(), ParentID: parent, Step: len(saved),
				Node: fmt.Sprint("node", i), State: mustJSON(t, state), Update: mustJSON(t, u),
				Next: []string{"next"}, Metadata: graph.Metadata{Source: graph.SourceLoop, RunID: "0190a5b0-0000-7000-8000-000000000001"},
				CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
			if err := cp.Put(ctx, c, parent); err != nil {
				t.Fatal(err)
			}
			saved, parent = append(saved, c), c.ID
		}
	}
	latest, err := cp.Latest(ctx, thread)
	if err != nil {
		t.Fatal(err)
	}
	assertCheckpoint(t, latest, saved[len(saved)-1])

	cold := New(s.Pool, Options{}) // nothing cached
	for _, want := range saved {
		got, err := cold.Get(ctx, thread, want.ID)
		if err != nil {
			t.Fatal(err)
		}
		assertCheckpoint(t, got, want)
	}

	tests := []struct {
		name   string
		opts   graph.ListOptions
		wantIx []int // indexes into saved, newest first
	}{
		{"all", graph.ListOptions{}, reversed(0, len(saved))},
		{"limit", graph.ListOptions{Limit: 3}, reversed(len(saved)-3, len(saved))},
		{"before", graph.ListOptions{Before: saved[5].ID, Limit: 2}, []int{4, 3}},
		{"before the first", graph.ListOptions{Before: saved[0].ID}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list, err := cold.List(ctx, thread, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != len(tt.wantIx) {
				t.Fatalf("List returned %d checkpoints, want %d", len(list), len(tt.wantIx))
			}
			for i, ix := range tt.wantIx {
				assertCheckpoint(t, list[i], saved[ix])
			}
		})
	}

	t.Run("errors", func(t *testing.T) {
		errTests := []struct {
			name string
			err  error
			code errcode.Code
		}{
			{"get missing", second(cp.Get(ctx, thread, newID())), errcode.NotFound},
			{"get malformed id", second(cp.Get(ctx, thread, "nope")), errcode.BadRequest},
			{"get uppercase id", second(cp.Get(ctx, thread, strings.ToUpper(saved[0].ID))), errcode.BadRequest},
			{"latest malformed thread", second(cp.Latest(ctx, "nope")), errcode.BadRequest},
			{"list malformed cursor", second(cp.List(ctx, thread, graph.ListOptions{Before: "x"})), errcode.BadRequest},
			{"put malformed run id", cp.Put(ctx, graph.Checkpoint{ThreadID: thread, ID: newID(), State: []byte(`{}`), Metadata: graph.Metadata{RunID: "r1"}}, saved[len(saved)-1].ID), errcode.BadRequest},
			{"put malformed head", cp.Put(ctx, graph.Checkpoint{ThreadID: thread, ID: newID(), State: []byte(`{}`)}, "head"), errcode.BadRequest},
			{"put into a missing thread", cp.Put(ctx, graph.Checkpoint{ThreadID: uuid.NewString(), ID: newID(), State: []byte(`{}`)}, ""), errcode.NotFound},
			{"put an old id again", cp.Put(ctx, saved[0], saved[len(saved)-1].ID), errcode.BadRequest},
			{"put the head again", cp.Put(ctx, saved[len(saved)-1], saved[len(saved)-1].ID), errcode.BadRequest},
			{"other owner's latest", second(cp.ForOwner(uuid.NewString()).Latest(ctx, thread)), errcode.NotFound},
			{"other owner's put", cp.ForOwner(uuid.NewString()).Put(ctx, graph.Checkpoint{ThreadID: thread, ID: newID(), State: []byte(`{}`)}, saved[len(saved)-1].ID), errcode.NotFound},
		}
		for _, tt := range errTests {
			if errcode.Of(tt.err) != tt.code {
				t.Errorf("%s: error %v, want %s", tt.name, tt.err, tt.code)
			}
			if tt.code == errcode.BadRequest && !errors.Is(tt.err, graph.ErrInvalidID) {
				t.Errorf("%s: error %v does not match graph.ErrInvalidID", tt.name, tt.err)
			}
		}
		if list, err := cp.ForOwner(uuid.NewString()).List(ctx, thread, graph.ListOptions{}); err != nil || len(list) != 0 {
			t.Errorf("another owner listed %d checkpoints (%v)", len(list), err)
		}
		if _, err := cp.ForOwner(owner).Latest(ctx, thread); err != nil {
			t.Errorf("the owner cannot read: %v", err)
		}
	})
}

// The Postgres checkpointer reads back what MemorySaver holds, for random
// histories with forks, updates that replace arrays, new and dropped keys,
// states that are not objects, pending interrupts, and snapshot spacing
// from tiny to default; both refuse the same stale heads and ids behind the
// head. A third of the histories go through a scoped checkpointer on a
// thread id that has no row yet.
func TestCheckpointerMatchesMemorySaver(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	options := []Options{
		{},
		{SnapshotRatio: 0.01, MaxChain: 3},
		{MaxChain: 1},
		{FullState: true},
	}
	for seed := range uint64(12) {
		opts := options[seed%uint64(len(options))]
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			owner, thread := newThread(t, s, fmt.Sprintf("prop-%d", seed))
			var pg graph.Checkpointer = New(s.Pool, opts)
			mem := graph.NewMemorySaver()
			if seed%3 == 1 { // scoped, on a thread id with no row yet
				pg, thread = New(s.Pool, opts).ForOwner(owner), uuid.NewString()
			}
			r := rand.New(rand.NewPCG(seed, 7))
			randomHistory(t, r, thread, 150, pg, mem)
			compareSavers(t, thread, New(s.Pool, opts), mem) // cold cache
			compareSavers(t, thread, pg, mem)
		})
	}
	_ = ctx
}

// randomHistory writes n random checkpoints into every saver.
func randomHistory(t *testing.T, r *rand.Rand, thread string, n int, savers ...graph.Checkpointer) {
	t.Helper()
	type node struct {
		id    string
		state chatState
	}
	var nodes []node
	head := ""
	now := time.Unix(1_700_000_000, 0).UTC()
	for i := range n {
		var parent node
		switch {
		case len(nodes) == 0 || r.IntN(40) == 0: // a new root
		case r.IntN(6) == 0: // a fork
			parent = nodes[r.IntN(len(nodes))]
		default:
			parent = nodes[len(nodes)-1]
		}
		ups := chatTurn(r, i, now)
		u := ups[r.IntN(len(ups))]
		u.Clear = r.IntN(25) == 0
		st := reduceChat(parent.state, u)
		cp := graph.Checkpoint{ThreadID: thread, ID: newID(), ParentID: parent.id, Step: i,
			Node: "n", State: mustJSON(t, st), Update: mustJSON(t, u),
			Metadata: graph.Metadata{Source: graph.SourceLoop}, CreatedAt: now}
		switch r.IntN(30) {
		case 0:
			cp.State = []byte(`[1,2,3]`) // not an object
		case 1:
			cp.State = []byte("{\"messages\": [] }") // not compact
		case 2:
			cp.Update = nil
		}
		if r.IntN(8) == 0 {
			cp.Interrupts = randomInterrupts(r, i)
		}
		if r.IntN(8) == 0 && len(nodes) > 0 { // a writer that lost a race
			stale := ""
			if k := r.IntN(len(nodes) + 1); k < len(nodes) && nodes[k].id != head {
				stale = nodes[k].id
			}
			putStale(t, cp, stale, head, savers)
		}
		if r.IntN(10) == 0 && len(nodes) > 0 { // an id that does not sort after the head
			behind := cp
			behind.ID = nodes[r.IntN(len(nodes))].id
			for i, s := range savers {
				if err := s.Put(context.Background(), behind, head); !errors.Is(err, graph.ErrInvalidID) {
					t.Fatalf("saver %d: Put of %s at head %s: %v, want graph.ErrInvalidID", i, behind.ID, head, err)
				}
			}
		}
		for _, s := range savers {
			if err := s.Put(context.Background(), cp, head); err != nil {
				t.Fatal(err)
			}
		}
		head = cp.ID
		nodes = append(nodes, node{cp.ID, st})
	}
}

// putStale puts cp with a head that is not the thread's, into every saver:
// each must refuse with the same conflict.
func putStale(t *testing.T, cp graph.Checkpoint, stale, head string, savers []graph.Checkpointer) {
	t.Helper()
	want := graph.ConflictError{ThreadID: cp.ThreadID, Expected: stale, Actual: head}
	for i, s := range savers {
		err := s.Put(context.Background(), cp, stale)
		var conflict *graph.ConflictError
		if !errors.As(err, &conflict) || *conflict != want || !errors.Is(err, graph.ErrConflict) {
			t.Fatalf("saver %d: Put with head %q when the head is %q: %v, want %+v", i, stale, head, err, want)
		}
	}
}

// randomInterrupts returns one to three pending interrupts with payloads of
// several JSON shapes, some not compact.
func randomInterrupts(r *rand.Rand, step int) []graph.PendingInterrupt {
	values := []string{`{"place":"Lisboa","nights":3,"total":412.5}`, `"confirm?"`, `[1, 2,  3]`, `null`, `{ "spaced" : true }`, `"ação \u00e9 \"quoted\""`, ``}
	raw := func() json.RawMessage {
		if v := values[r.IntN(len(values))]; v != "" {
			return json.RawMessage(v)
		}
		return nil
	}
	list := make([]graph.PendingInterrupt, 1+r.IntN(3))
	for i := range list {
		list[i] = graph.PendingInterrupt{ID: newID(), Node: fmt.Sprintf("node%d", step%3), Payload: raw()}
		for range r.IntN(3) {
			if a := raw(); a != nil {
				list[i].Answers = append(list[i].Answers, a)
			}
		}
	}
	return list
}

// compareSavers checks that got holds what want holds, checkpoint by
// checkpoint, through List and Get.
func compareSavers(t *testing.T, thread string, got, want graph.Checkpointer) {
	t.Helper()
	ctx := context.Background()
	wantList, err := want.List(ctx, thread, graph.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gotList, err := got.List(ctx, thread, graph.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(gotList) != len(wantList) {
		t.Fatalf("List: %d checkpoints, want %d", len(gotList), len(wantList))
	}
	for i := range wantList {
		assertCheckpoint(t, gotList[i], wantList[i])
		one, err := got.Get(ctx, thread, wantList[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		assertCheckpoint(t, one, wantList[i])
	}
	latest, err := got.Latest(ctx, thread)
	if err != nil {
		t.Fatal(err)
	}
	assertCheckpoint(t, latest, wantList[0])
}

func assertCheckpoint(t *testing.T, got, want graph.Checkpoint) {
	t.Helper()
	switch {
	case got.ID != want.ID || got.ParentID != want.ParentID || got.ThreadID != want.ThreadID:
		t.Fatalf("checkpoint %s (parent %q) read back as %s (parent %q)", want.ID, want.ParentID, got.ID, got.ParentID)
	case !bytes.Equal(got.State, want.State):
		t.Fatalf("checkpoint %s: state\n%s\nwant\n%s", want.ID, got.State, want.State)
	case !bytes.Equal(got.Update, want.Update):
		t.Fatalf("checkpoint %s: update %s, want %s", want.ID, got.Update, want.Update)
	case got.Step != want.Step || got.Node != want.Node || got.Metadata != want.Metadata:
		t.Fatalf("checkpoint %s: step, node, metadata = %d %q %+v, want %d %q %+v", want.ID,
			got.Step, got.Node, got.Metadata, want.Step, want.Node, want.Metadata)
	case !slices.Equal(got.Next, want.Next) || (got.Next == nil) != (len(want.Next) == 0):
		t.Fatalf("checkpoint %s: next %#v, want %#v", want.ID, got.Next, want.Next)
	case !got.CreatedAt.Equal(want.CreatedAt.Truncate(time.Microsecond)):
		t.Fatalf("checkpoint %s: created at %v, want %v", want.ID, got.CreatedAt, want.CreatedAt)
	case !slices.EqualFunc(got.Interrupts, want.Interrupts, equalInterrupt):
		t.Fatalf("checkpoint %s: interrupts %s, want %s", want.ID, mustJSON(t, got.Interrupts), mustJSON(t, want.Interrupts))
	}
}

func equalInterrupt(a, b graph.PendingInterrupt) bool {
	return a.ID == b.ID && a.Node == b.Node && bytes.Equal(a.Payload, b.Payload) && (a.Payload == nil) == (b.Payload == nil) &&
		slices.EqualFunc(a.Answers, b.Answers, func(x, y json.RawMessage) bool { return bytes.Equal(x, y) })
}

func reversed(from, to int) []int {
	var out []int
	for i := to - 1; i >= from; i-- {
		out = append(out, i)
	}
	return out
}

func second[T any](_ T, err error) error { return err }

// A checkpoint written under a fence is refused once the fence's worker no
// longer holds its run, and the thread's head stays where the run's new
// holder left it.
func TestFencedPut(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	owner, thread := newThread(t, s, "fenced")
	fence := runFence(t, s, thread)
	saver := New(s.Pool, Options{}).ForOwner(owner)
	first := graph.Checkpoint{ThreadID: thread, ID: newID(), State: []byte(`{"n":1}`)}
	held := saver.ForRun(fence, nil)
	if err := held.Put(ctx, first, ""); err != nil {
		t.Fatalf("a write under a held lease: %v", err)
	}
	if _, err := s.Pool.Exec(ctx, `UPDATE runs SET worker_id = 'w2', attempts = 2 WHERE id = $1`, fence.RunID); err != nil {
		t.Fatal(err)
	}
	late := graph.Checkpoint{ThreadID: thread, ID: newID(), ParentID: first.ID, State: []byte(`{"n":2}`)}
	if err := held.Put(ctx, late, first.ID); !errors.Is(err, ErrFenced) || errcode.Of(err) != errcode.Conflict {
		t.Fatalf("a write after the lease was lost: %v, want ErrFenced", err)
	}
	if head, err := saver.Latest(ctx, thread); err != nil || head.ID != first.ID {
		t.Fatalf("the head is %s (%v), want the checkpoint before the lease was lost", head.ID, err)
	}
	taken := saver.ForRun(Fence{RunID: fence.RunID, WorkerID: "w2", Attempt: 2}, nil)
	if err := taken.Put(ctx, late, first.ID); err != nil {
		t.Fatalf("the new holder's write: %v", err)
	}
	if err := saver.Put(ctx, graph.Checkpoint{ThreadID: thread, ID: newID(), ParentID: late.ID, State: []byte(`{}`)}, late.ID); err != nil {
		t.Fatalf("an unfenced write: %v", err)
	}
}
