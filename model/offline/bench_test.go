package offline

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tmc/langchaingo/llms"
)

var extractOpts = []llms.CallOption{
	llms.WithTools([]llms.Tool{toolDef("extract")}),
	llms.WithToolChoice(llms.ToolChoice{Type: "function", Function: &llms.FunctionReference{Name: "extract"}}),
}

// BenchmarkUnderstand measures one request → extract call.
func BenchmarkUnderstand(b *testing.B) {
	m, err := New()
	if err != nil {
		b.Fatal(err)
	}
	msgs := conversationOf("Extract the trip details.\nToday: 2026-11-21", []string{"4 nights in Lisbon in May, 3 of us, hotels please"})
	ctx := context.Background()
	for b.Loop() {
		if _, err := m.GenerateContent(ctx, msgs, extractOpts...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCorpusLatency runs the extract call over 10,000 requests drawn
// in turn from the corpus and reports the median and 99th percentile.
func BenchmarkCorpusLatency(b *testing.B) {
	latency(b, "../../testdata/requests.jsonl", corpusToday)
}

// BenchmarkTypedLatency does the same over the typed blind set: messages
// as travellers type them, many misspelt, which the fuzzy gazetteer reads.
func BenchmarkTypedLatency(b *testing.B) {
	latency(b, "testdata/typed.jsonl", typedToday)
}

func latency(b *testing.B, path, today string) {
	m, err := New()
	if err != nil {
		b.Fatal(err)
	}
	cases := loadCases(b, path)
	convs := make([][]llms.MessageContent, len(cases))
	for i, c := range cases {
		convs[i] = conversationOf("Extract the trip details.\nToday: "+today, c.Turns)
	}
	ctx := context.Background()
	const n = 10000
	lat := make([]time.Duration, n)
	for b.Loop() {
		for i := range n {
			start := time.Now()
			if _, err := m.GenerateContent(ctx, convs[i%len(convs)], extractOpts...); err != nil {
				b.Fatal(err)
			}
			lat[i] = time.Since(start)
		}
	}
	percentiles(b, lat)
}

// BenchmarkUnderstandUncached reads every request of the corpus and the
// typed blind set, each on its set's clock, without the cache of
// readings (each read afresh, as a new message is), suggestions and the
// extract call's JSON included, and reports the median and 99th
// percentile time per request.
func BenchmarkUnderstandUncached(b *testing.B) {
	var turns [][]string
	var days []time.Time
	for _, s := range []struct{ path, today string }{{"../../testdata/requests.jsonl", corpusToday}, {"testdata/typed.jsonl", typedToday}} {
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
	percentiles(b, lat)
}

// percentiles reports the median and the 99th percentile of lat, and no
// time per loop (a loop is a whole set).
func percentiles(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
	b.ReportMetric(0, "ns/op")
}
