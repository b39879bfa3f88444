package store

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/tripgraph/tripgraph/store/quota"
	"github.com/tripgraph/tripgraph/testing/sqllog"
)

// One owner's run creations under way at once go in fewer batches than
// there are creations, each batch locking the owner's row once, and every
// one of them is created.
func TestCreationsOfOneOwnerGoTogether(t *testing.T) {
	ctx := context.Background()
	rec := &sqllog.Recorder{}
	s := openQueueStoresWith(t, 1, Options{Tracer: rec})[0]
	u, err := s.Accounts.EnsureUser(ctx, "creator")
	if err != nil {
		t.Fatal(err)
	}
	o := s.ForOwner(u.ID)
	const n = 16
	start := make(chan struct{})
	errs := make(chan error, n)
	var wg sync.WaitGroup
	rec.Start()
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := o.CreateRunOnNewThread(ctx, NewThread{}, NewRun{})
			errs <- err
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	trips := rec.Stop()
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	locks := 0
	for _, tr := range trips {
		if strings.HasPrefix(tr.SQL, quota.LockUser) {
			locks++
		}
	}
	if locks == 0 || locks >= n {
		t.Errorf("%d creations locked their owner's row %d times, want once per batch, fewer than the creations", n, locks)
	}
	if threads, err := o.CountThreads(ctx, ThreadQuery{}); err != nil || threads != n {
		t.Errorf("the owner has %d threads (%v), want one per run, %d", threads, err, n)
	}
}
