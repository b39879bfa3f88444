package checkpoint

import (
	"context"
	"testing"
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
			_, cached := cp.cache.get(parent)
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
		ch, ok := cp.cache.get(c.ID)
		if !ok {
			t.Fatalf("checkpoint %s is not cached", c.ID)
		}
		if ch.footprint() < int64(len(c.State)) {
			t.Fatalf("checkpoint %s is charged %d B for a %d B state", c.ID, ch.footprint(), len(c.State))
		}
	}
}
