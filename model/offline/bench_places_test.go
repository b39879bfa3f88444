package offline

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkUncachedLatency reads every request of the typed blind set and
// the corpus without the cache of readings (each request read afresh, as
// a new message is), suggestions included, and reports the median and
// 99th percentile time per request.
func BenchmarkUncachedLatency(b *testing.B) {
	var turns [][]string
	var days []time.Time
	for _, s := range []struct{ path, today string }{{"testdata/typed.jsonl", typedToday}, {"../../testdata/requests.jsonl", corpusToday}} {
		today, err := time.Parse(time.DateOnly, s.today)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range loadCases(b, s.path) {
			turns, days = append(turns, c.Turns), append(days, today)
		}
	}
	lat := make([]time.Duration, len(turns))
	for b.Loop() {
		for i, t := range turns {
			start := time.Now()
			e := understand(t, days[i]).withSuggestions(t, days[i], nil)
			_ = mustJSON(extractArgs(e))
			lat[i] = time.Since(start)
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
	b.ReportMetric(0, "ns/op")
}
