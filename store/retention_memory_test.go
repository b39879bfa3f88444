package store

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/store/crons"
	"github.com/tripgraph/tripgraph/store/items"
)

// Retention covers the long-term store and crons: expired items and ended
// crons are pruned; a pruned thread takes its crons; a deleted user takes
// their items and crons.
func TestPruneMemory(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	owner, thread := newThread(t, s, "prune-memory")
	it, cr := s.Items.ForOwner(owner), s.Crons.ForOwner(owner)
	for _, k := range []string{"expired", "live"} {
		if err := it.Put(ctx, items.PutItem{Namespace: []string{"p"}, Key: k, Value: json.RawMessage(`{}`), TTL: time.Hour}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Pool.Exec(ctx, `UPDATE store_items SET expires_at = now() - interval '1 minute' WHERE key = 'expired'`); err != nil {
		t.Fatal(err)
	}
	job := json.RawMessage(`{}`)
	longAgo := time.Now().Add(-30 * 24 * time.Hour)
	ended, err := cr.Create(ctx, crons.NewCron{AssistantID: "trip-planner", Schedule: "@daily", Job: job, EndTime: &longAgo})
	if err != nil {
		t.Fatal(err)
	}
	live, err := cr.Create(ctx, crons.NewCron{AssistantID: "trip-planner", Schedule: "@daily", Job: job})
	if err != nil {
		t.Fatal(err)
	}
	onThread, err := cr.Create(ctx, crons.NewCron{ThreadID: thread, AssistantID: "trip-planner", Schedule: "@daily", Job: job})
	if err != nil {
		t.Fatal(err)
	}

	cutoff := time.Now().Add(-7 * 24 * time.Hour)
	if p, err := s.PruneMemory(ctx, cutoff, true); err != nil || p != (Pruned{Items: 1, Crons: 1}) {
		t.Fatalf("dry run: %+v (%v)", p, err)
	}
	if p, err := s.PruneMemory(ctx, cutoff, false); err != nil || p != (Pruned{Items: 1, Crons: 1}) {
		t.Fatalf("prune: %+v (%v)", p, err)
	}
	if _, err := cr.Get(ctx, ended.ID); err == nil {
		t.Error("the ended cron is kept")
	}
	if _, ok, _ := it.Get(ctx, []string{"p"}, "live", false); !ok {
		t.Error("the live item was pruned")
	}
	// The thread goes, and its cron with it; the other crons stay.
	if n, err := s.PruneThreads(ctx, time.Now().Add(time.Hour), PruneOptions{}); err != nil || n != 1 {
		t.Fatalf("pruned %d threads (%v)", n, err)
	}
	if _, err := cr.Get(ctx, onThread.ID); err == nil {
		t.Error("a pruned thread's cron is kept")
	}
	if _, err := cr.Get(ctx, live.ID); err != nil {
		t.Errorf("a cron without a thread went with the thread: %v", err)
	}
	// The user goes, with everything they had.
	if _, err := s.Pool.Exec(ctx, `DELETE FROM users WHERE id = $1`, owner); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := s.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM store_items WHERE user_id = $1) + (SELECT count(*) FROM crons WHERE user_id = $1)`, owner).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d items and crons of a deleted user are left (%v)", left, err)
	}
}
