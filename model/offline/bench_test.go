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
	slices.Sort(lat)
	b.ReportMetric(float64(lat[n/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[n*99/100].Nanoseconds()), "p99-ns")
	b.ReportMetric(0, "ns/op")
}
