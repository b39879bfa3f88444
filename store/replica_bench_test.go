package store

import (
	"context"
	"testing"

	"github.com/tripgraph/tripgraph/store/replica"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// BenchmarkReplicaReads is an owner's search of threads served by the
// primary of a store without a replica, and by the replica of a store
// with one (the primary's position, the replica's replay check, the
// search), one reader at a time and many at once, in one run.
// replica-share is the share of reads the replica served.
func BenchmarkReplicaReads(b *testing.B) {
	ctx := context.Background()
	url := migratedDatabase(b)
	rep := pgtest.NewReplica(b, "bench")
	plain, err := OpenWith(ctx, url, Options{MaxConns: 8})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(plain.Close)
	replicated, err := OpenWith(ctx, url, Options{MaxConns: 8, ReplicaURL: rep.URL(pgtest.DatabaseName(b, url))})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(replicated.Close)
	owner, _ := newThread(b, plain, "bench-reader")
	for range 49 {
		if _, err := plain.ForOwner(owner).CreateThread(ctx, NewThread{}); err != nil {
			b.Fatal(err)
		}
	}
	waitForReplica(b, replicated, replicated.ForOwner(owner))
	search := func(b *testing.B, st *Store) {
		if list, err := st.ForOwner(owner).SearchThreads(ctx, ThreadQuery{Limit: 20}); err != nil || len(list) != 20 {
			b.Errorf("searching: %d threads, %v", len(list), err) // not Fatal: RunParallel's goroutines call it
		}
	}
	for _, c := range []struct {
		name string
		st   *Store
	}{{"primary", plain}, {"replica", replicated}} {
		share := func(b *testing.B, before [2]uint64) {
			r := c.st.Reads()
			byReplica := r.Served(replica.ByReplica) - before[1]
			all := byReplica + r.Served(replica.ByPrimary) - before[0]
			b.ReportMetric(float64(byReplica)/float64(max(all, 1)), "replica-share")
		}
		counts := func() [2]uint64 {
			return [2]uint64{c.st.Reads().Served(replica.ByPrimary), c.st.Reads().Served(replica.ByReplica)}
		}
		b.Run(c.name, func(b *testing.B) {
			before := counts()
			for b.Loop() {
				search(b, c.st)
			}
			share(b, before)
		})
		b.Run(c.name+"-parallel", func(b *testing.B) {
			before := counts()
			b.SetParallelism(4)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					search(b, c.st)
				}
			})
			share(b, before)
		})
	}
}
