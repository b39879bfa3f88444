package checkpoint

import (
	"cmp"
	"context"
	"testing"

	"github.com/tripgraph/tripgraph/graph"
)

// The cache never holds more than its byte budget, keeps the newest
// checkpoint when it fits (so a run's next step reads nothing back), and
// holds nothing when turned off.
func TestCacheStaysWithinBytes(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	steps := chatCheckpoints(t, 50) // states up to ~50 KB
	tests := []struct {
		name       string
		cacheBytes int64
		wantMax    int64 // the most the cache may hold
		keepsLast  bool  // whether the newest checkpoint stays cached
	}{
		{"default", 0, DefaultCacheBytes, true},
		{"256 KiB", 256 << 10, 256 << 10, true},
		{"smaller than one late state", 20 << 10, 20 << 10, false},
		{"off", -1, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, thread := newThread(t, s, "cache")
			cp := New(s.Pool, Options{CacheBytes: tt.cacheBytes})
			parent := ""
			for i, c := range steps {
				c.ThreadID, c.ID, c.ParentID = thread, newID(), parent
				if err := cp.Put(ctx, c, parent); err != nil {
					t.Fatal(err)
				}
				parent = c.ID
				entries, bytes := cp.cache.size()
				if bytes > tt.wantMax || bytes < 0 {
					t.Fatalf("after step %d the cache holds %d B in %d entries, over %d B", i, bytes, entries, tt.wantMax)
				}
			}
			_, cached := cp.cache.get(thread, parent)
			if cached != tt.keepsLast {
				t.Errorf("newest checkpoint cached = %v, want %v", cached, tt.keepsLast)
			}
			if latest, err := cp.Latest(ctx, thread); err != nil || string(latest.State) != string(steps[len(steps)-1].State) {
				t.Fatalf("Latest read back wrong: %v", err)
			}
		})
	}
}

// A chain is charged at least its state's JSON size, whether it was
// written (sharing its parent's elements) or parsed.
func TestFootprintCoversState(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	_, thread := newThread(t, s, "footprint")
	cp := New(s.Pool, Options{})
	parent := ""
	for _, c := range chatCheckpoints(t, 10) {
		c.ThreadID, c.ID, c.ParentID = thread, newID(), parent
		if err := cp.Put(ctx, c, parent); err != nil {
			t.Fatal(err)
		}
		parent = c.ID
		ch, ok := cp.cache.get(thread, c.ID)
		if !ok {
			t.Fatalf("checkpoint %s is not cached", c.ID)
		}
		if ch.footprint() < int64(len(c.State)) {
			t.Fatalf("checkpoint %s is charged %d B for a %d B state", c.ID, ch.footprint(), len(c.State))
		}
	}
}

// A checkpoint whose chain (or its parent's) is cached is read as one row:
// with the rows its delta chain starts from gone, the saver that wrote the
// thread still reads its newest checkpoint, and the one another process
// wrote over it, as one that rebuilds the whole chain read them before.
func TestCachedChainsAreReadAsOneRow(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	steps := chatCheckpoints(t, 12)
	writer, thread, cps := putThread(t, s, "one-row", steps[:len(steps)-1])
	mine := cps[len(cps)-1]
	theirs := steps[len(steps)-1] // written over it by another process
	theirs.ThreadID, theirs.ID, theirs.ParentID = thread, newID(), mine.ID
	if err := New(s.Pool, Options{}).Put(ctx, theirs, mine.ID); err != nil {
		t.Fatal(err)
	}
	fresh := New(s.Pool, Options{})
	want := map[string]graph.Checkpoint{}
	for _, id := range []string{mine.ID, "", theirs.ID} {
		cp, err := fresh.Get(ctx, thread, cmp.Or(id, theirs.ID))
		if err != nil {
			t.Fatal(err)
		}
		want[id] = cp
	}
	var deltas int
	if err := s.Pool.QueryRow(ctx, `SELECT count(*) FROM checkpoints WHERE thread_id = $1 AND delta IS NOT NULL`, thread).Scan(&deltas); err != nil || deltas < 2 {
		t.Fatalf("the thread holds %d deltas (%v); the test needs a chain", deltas, err)
	}
	// Delete all but the two newest rows: a full read cannot rebuild them.
	if _, err := s.Pool.Exec(ctx, `DELETE FROM checkpoints WHERE thread_id = $1 AND id < $2`, thread, mine.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := New(s.Pool, Options{}).Latest(ctx, thread); err == nil {
		t.Fatal("a saver without the chain cached read the newest checkpoint without its chain; the test proves nothing")
	}
	// Its own first: reading theirs caches theirs as the thread's newest.
	for _, id := range []string{mine.ID, "", theirs.ID} {
		w := want[id]
		var got graph.Checkpoint
		var err error
		if id == "" {
			got, err = writer.Latest(ctx, thread)
		} else {
			got, err = writer.Get(ctx, thread, id)
		}
		if err != nil {
			t.Fatalf("reading %q with its chain cached: %v", id, err)
		}
		assertCheckpoint(t, got, w)
	}
}

// The cache keeps one chain per thread, its newest checkpoint's: the steps
// a thread has moved past are not kept, and reading an older checkpoint
// does not put it in the newest one's place.
func TestCacheKeepsEachThreadsNewest(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	steps := chatCheckpoints(t, 3)
	saver, a, inA := putThread(t, s, "newest-a", steps)
	_, b := newThread(t, s, "newest-b") // a second thread, on the same saver
	putAll(t, saver, b, steps)
	if entries, _ := saver.cache.size(); entries != 2 {
		t.Errorf("the cache holds %d entries for 2 threads", entries)
	}
	newest, older := inA[len(inA)-1], inA[len(inA)-3]
	if _, ok := saver.cache.get(a, older.ID); ok {
		t.Errorf("a checkpoint thread %s has moved past is still cached", a)
	}
	got, err := saver.Get(ctx, a, older.ID)
	if err != nil {
		t.Fatal(err)
	}
	assertCheckpoint(t, got, older)
	if _, ok := saver.cache.get(a, newest.ID); !ok {
		t.Error("reading an older checkpoint put it in place of the thread's newest")
	}
}
