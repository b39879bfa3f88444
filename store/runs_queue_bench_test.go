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
