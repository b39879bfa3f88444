package checkpoint

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/graph"
)

// insertCounter is a pgx tracer that counts the statements of batches
// that insert checkpoints.
type insertCounter struct{ inserts atomic.Int64 }

func (c *insertCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return ctx
}

func (c *insertCounter) TraceBatchQuery(_ context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	if strings.Contains(d.SQL, "INSERT INTO checkpoints") {
		c.inserts.Add(1)
	}
}

func (c *insertCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

func (c *insertCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}

func (c *insertCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// A batch of a thread's checkpoints in order is one insert statement,
// which moves the thread's head once, to the last of them; each is stored
// and reads back as Put would have stored it, snapshot or delta, for the
// unscoped saver, an owner's (whose first write creates the thread) and a
// run's under its fence. A batch out of order is one statement a row, so
// that the first refused is the one named.
func TestPutAllIsOneInsert(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	cfg, err := pgxpool.ParseConfig(testURL)
	if err != nil {
		t.Fatal(err)
	}
	counter := &insertCounter{}
	cfg.ConnConfig.Tracer = counter
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	saver := New(pool, Options{})

	owner, thread := newThread(t, s, "putall")
	ownedThread := newID()
	fenced := saver.ForOwner(owner).ForRun(runFence(t, s, thread), nil)
	for _, tc := range []struct {
		name   string
		thread string
		cp     graph.Checkpointer
	}{
		{"unscoped", thread, saver},
		{"owned, creating the thread", ownedThread, saver.ForOwner(owner)},
		{"a run's, fenced", thread, fenced},
	} {
		head := ""
		if latest, err := tc.cp.Latest(ctx, tc.thread); err == nil {
			head = latest.ID
		}
		cps := chatSteps(tc.thread, head, 4)
		before := counter.inserts.Load()
		n, err := tc.cp.(graph.BatchPutter).PutAll(ctx, cps, head)
		if err != nil || n != len(cps) {
			t.Fatalf("%s: PutAll = %d, %v; want %d, nil", tc.name, n, err, len(cps))
		}
		if got := counter.inserts.Load() - before; got != 1 {
			t.Errorf("%s: PutAll of %d checkpoints sent %d inserts, want 1", tc.name, len(cps), got)
		}
		var stored, deltas int
		var moved string
		err = s.Pool.QueryRow(ctx, `SELECT count(*), count(delta), (SELECT head::text FROM threads WHERE id = $1)
			FROM checkpoints WHERE thread_id = $1 AND id = ANY($2::uuid[])`, tc.thread, ids(cps)).Scan(&stored, &deltas, &moved)
		if err != nil {
			t.Fatal(err)
		}
		if stored != len(cps) || deltas == 0 || moved != cps[len(cps)-1].ID {
			t.Errorf("%s: %d rows stored (%d deltas), head %s; want %d, some deltas, head %s", tc.name, stored, deltas, moved, len(cps), cps[len(cps)-1].ID)
		}
		fresh := New(s.Pool, Options{CacheBytes: -1}) // reads the rows, not the writer's cache
		for _, want := range cps {
			got, err := fresh.Get(ctx, tc.thread, want.ID)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if string(got.State) != string(want.State) || string(got.Update) != string(want.Update) || got.ParentID != want.ParentID {
				t.Errorf("%s: checkpoint %s reads back as %s, want %s", tc.name, want.ID, got.State, want.State)
			}
		}
	}

	latest, err := saver.Latest(ctx, thread)
	if err != nil {
		t.Fatal(err)
	}
	unordered := chatSteps(thread, latest.ID, 3)
	unordered[2].ID = unordered[0].ID
	before := counter.inserts.Load()
	n, err := saver.PutAll(ctx, unordered, latest.ID)
	if n != 2 || err == nil {
		t.Errorf("PutAll with its third id out of order = %d, %v; want 2 and an error", n, err)
	}
	if got := counter.inserts.Load() - before; got != 3 {
		t.Errorf("PutAll out of order sent %d inserts, want one a row (3)", got)
	}
}

// chatSteps returns n checkpoints of thread after head, each a chat step
// over the one before it, with their states growing.
func chatSteps(thread, head string, n int) []graph.Checkpoint {
	out := make([]graph.Checkpoint, n)
	msgs := []string{`"hello"`}
	for i := range out {
		msgs = append(msgs, `"message `+strings.Repeat("x", 40*i)+`"`)
		out[i] = graph.Checkpoint{ThreadID: thread, ID: newID(), ParentID: head, Step: i, Node: "n",
			State:    []byte(`{"messages":[` + strings.Join(msgs, ",") + `],"turn":` + string(rune('0'+i)) + `}`),
			Update:   []byte(`{"messages":[` + msgs[len(msgs)-1] + `]}`),
			Metadata: graph.Metadata{Source: graph.SourceLoop}}
		head = out[i].ID
	}
	return out
}

func ids(cps []graph.Checkpoint) []string {
	out := make([]string, len(cps))
	for i, cp := range cps {
		out[i] = cp.ID
	}
	return out
}

// The saver keeps none of the bytes it is given: a caller may write over
// a checkpoint's state and update once Put returns, and the thread's head
// as the writer's cache knows it, and the parent the next write's delta is
// made from, are still those stored. The first step is a snapshot, the
// others deltas (a parent's state that no longer matches would make them
// snapshots: a delta is stored only when it rebuilds the state).
func TestSaverKeepsNoCallerBytes(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	_, thread := newThread(t, s, "reuse")
	saver := New(s.Pool, Options{})
	steps := chatSteps(thread, "", 4)
	head := ""
	for i, cp := range steps {
		given := cp
		given.State, given.Update = slices.Clone(cp.State), slices.Clone(cp.Update)
		if err := saver.Put(ctx, given, head); err != nil {
			t.Fatal(err)
		}
		for j := range given.State {
			given.State[j] = 'x'
		}
		for j := range given.Update {
			given.Update[j] = 'x'
		}
		head = cp.ID
		got, ok := saver.KnownHead(thread)
		if !ok || string(got.State) != string(cp.State) || string(got.Update) != string(cp.Update) {
			t.Fatalf("step %d: after its caller wrote over what it gave, the known head is %s %s (%v), want %s %s",
				i, got.State, got.Update, ok, cp.State, cp.Update)
		}
	}
	var deltas int
	if err := s.Pool.QueryRow(ctx, `SELECT count(delta) FROM checkpoints WHERE thread_id = $1`, thread).Scan(&deltas); err != nil {
		t.Fatal(err)
	}
	if deltas != len(steps)-1 {
		t.Errorf("%d of the %d steps after the first are stored as deltas, want all", deltas, len(steps)-1)
	}
	fresh := New(s.Pool, Options{CacheBytes: -1})
	for _, cp := range steps {
		got, err := fresh.Get(ctx, thread, cp.ID)
		if err != nil {
			t.Fatal(err)
		}
		if string(got.State) != string(cp.State) || string(got.Update) != string(cp.Update) {
			t.Errorf("checkpoint %d is stored as %s %s, want %s %s", cp.Step, got.State, got.Update, cp.State, cp.Update)
		}
	}
}

// A checkpoint's next nodes are stored as encoding/json writes them,
// whether or not their names hold bytes it escapes.
func TestNextIsStoredAsJSONWritesIt(t *testing.T) {
	for _, next := range [][]string{
		{"callTools"}, {"a", "b_c", "d-e", "f.g h"}, {""}, {`say "hi"`}, {`back\slash`}, {"<tag"}, {"a&b"}, {"x>y"}, {"ok", "a&b"},
		{"tab\there", "line\nbreak"}, {"café", "東京"}, {"\u2028"}, {"\xff"}, {"~", " ", "!"},
	} {
		got, err := encodeNext(next)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(next)
		if got != string(want) {
			t.Errorf("next %q is stored as %s, want %s", next, got, want)
		}
	}
	if got, err := encodeNext(nil); got != nil || err != nil {
		t.Errorf("no next nodes are stored as %v, %v; want NULL", got, err)
	}
}
