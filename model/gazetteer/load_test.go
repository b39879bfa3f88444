package gazetteer

import (
	"runtime"
	"testing"
)

// BenchmarkBuild decodes the embedded data as the first use does, and
// reports the heap the index keeps live (live-MiB), measured after a
// collection on either side of the build.
func BenchmarkBuild(b *testing.B) {
	var live uint64
	for b.Loop() {
		before := liveHeap()
		x, err := build()
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		live = liveHeap() - before
		runtime.KeepAlive(x)
		b.StartTimer()
	}
	b.ReportMetric(float64(live)/(1<<20), "live-MiB")
}

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
