package store

import (
	"context"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/store/crons"
	"github.com/tripgraph/tripgraph/testing/ownerkey"
)

// The store's own sweeps and counts, which the tenants' suite does not
// call (retention of threads, memory, tool outputs and run events, the
// queue's counts and lapsed leases, due crons), name their owner or
// thread, or say which deliberate exception they are: the rule of package
// testing/ownerkey, as for every statement the suite sends.
func TestMaintenanceStatementsNameTheirOwner(t *testing.T) {
	ctx := context.Background()
	url := migratedDatabase(t)
	seen := &ownerkey.Recorder{}
	s, err := OpenWith(ctx, url, Options{Tracer: seen})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	owner, thread := newThread(t, s, "maintenance")
	if _, err := s.ForOwner(owner).CreateRun(ctx, thread, NewRun{}); err != nil {
		t.Fatal(err)
	}
	long := time.Now().Add(-24 * time.Hour)
	for what, sweep := range map[string]func() error{
		"pruning threads":      func() error { _, err := s.PruneThreads(ctx, long, PruneOptions{}); return err },
		"pruning memory":       func() error { _, err := s.PruneMemory(ctx, long, false); return err },
		"pruning tool outputs": func() error { _, err := s.PruneToolOutputs(ctx, long); return err },
		"adding partitions":    func() error { _, err := s.EventPartitions.Add(ctx); return err },
		"pruning run events":   func() error { _, err := s.EventPartitions.Prune(ctx, long, false); return err },
		"reclaiming leases":    func() error { _, err := s.ReclaimExpired(ctx, 3); return err },
		"counting the queue":   func() error { _, err := s.RunQueueDepth(ctx); return err },
		"counting runs":        func() error { _, err := s.RunsByStatus(ctx); return err },
		"claiming a run":       func() error { _, _, err := s.ClaimRun(ctx, "w", time.Minute); return err },
		"firing due crons": func() error {
			_, err := s.FireCrons(ctx, 10, func(crons.Cron, time.Time) (CronRun, error) { return CronRun{}, nil })
			return err
		},
	} {
		if err := sweep(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	if len(seen.Statements()) < 10 {
		t.Fatalf("only %d statements recorded", len(seen.Statements()))
	}
	for _, p := range ownerkey.Check(seen.Statements()) {
		t.Errorf("a statement of the store %s", p)
	}
}
