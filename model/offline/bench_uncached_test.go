package offline

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkUnderstandUncached reads every conversation of the corpus and
// the typed blind set without the cache of recent readings, as a new
// message is read, and reports the median and the 99th percentile of one
// reading.
func BenchmarkUnderstandUncached(b *testing.B) {
	var convs [][]string
	for _, path := range []string{"../../testdata/requests.jsonl", "testdata/typed.jsonl"} {
		for _, c := range loadCases(b, path) {
			convs = append(convs, c.Turns)
		}
	}
	today, _ := time.Parse("2006-01-02", corpusToday)
	lat := make([]time.Duration, 0, len(convs))
	for b.Loop() {
		lat = lat[:0]
		for _, turns := range convs {
			start := time.Now()
			understand(turns, today)
			lat = append(lat, time.Since(start))
		}
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
}
