package store

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/store/quota"
)

// unlimited lets one user queue as many runs as a benchmark needs.
var unlimited = Options{Limits: quota.Limits{ActiveRuns: math.MaxInt32}}

// BenchmarkClaimFinish measures the queue's throughput: workers in two
// processes claim pending runs (one per thread) and finish them.
func BenchmarkClaimFinish(b *testing.B) {
	ctx := context.Background()
	stores := openQueueStoresWith(b, 2, unlimited)
	owner, _ := newThread(b, stores[0], "bench")
	for range b.N {
		th, err := stores[0].ForOwner(owner).CreateThread(ctx, NewThread{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := stores[0].ForOwner(owner).CreateRun(ctx, th.ID, NewRun{}); err != nil {
			b.Fatal(err)
		}
	}
	var worker atomic.Int64
	b.SetParallelism(4)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		n := worker.Add(1)
		s, id := stores[n%2], fmt.Sprintf("w%d", n)
		for pb.Next() {
			r, ok, err := s.ClaimRun(ctx, id, time.Minute)
			if err != nil || !ok {
				b.Errorf("claim: %v, %v", ok, err)
				return
			}
			if _, err := s.FinishRun(ctx, r.Lease(), RunSuccess, ""); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkClaimBacklog measures one claim, alone, in one process, with
// a backlog of pending runs of many owners: 50 owners with 100 runs each,
// and more, one run a thread. Each run claimed is finished untimed.
func BenchmarkClaimBacklog(b *testing.B) {
	ctx := context.Background()
	st := openQueueStoresWith(b, 1, unlimited)[0]
	owners := make([]string, 50)
	for i := range owners {
		owners[i], _ = newThread(b, st, fmt.Sprintf("backlog%d", i))
	}
	for range 100 + b.N/len(owners) + 1 {
		for _, o := range owners {
			if _, err := st.ForOwner(o).CreateRunOnNewThread(ctx, NewThread{}, NewRun{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	if _, err := st.Pool.Exec(ctx, `ANALYZE runs; ANALYZE threads`); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		c, ok, err := st.ClaimRun(ctx, "w", time.Minute)
		if err != nil || !ok {
			b.Fatalf("claim: %v, %v", ok, err)
		}
		b.StopTimer()
		if _, err := st.FinishRun(ctx, c.Lease(), RunSuccess, ""); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
