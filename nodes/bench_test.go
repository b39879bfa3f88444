package nodes

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/model/offline"
)

// benchTools answer like the real tools do, with a dozen places per list.
func benchTools() FuncTools {
	places := func(kind string) []map[string]any {
		var out []map[string]any
		for i := range 12 {
			out = append(out, map[string]any{"id": fmt.Sprint(kind, i), "name": fmt.Sprint("Place ", i), "nightlyPrice": 80 + i,
				"totalPrice": 320 + 4*i, "currency": "EUR", "rating": 4.5, "capacity": 4, "imageUrl": "/media/x.png",
				"cuisine": "portuguese", "priceRange": "$$"})
		}
		return out
	}
	return FuncTools{
		{Tool: Tool{Name: "list-accommodations", Card: card.Accommodations}, Run: func(context.Context, json.RawMessage) (any, error) {
			return map[string]any{"location": "Lisbon", "covered": true, "accommodations": places("h")}, nil
		}},
		{Tool: Tool{Name: "list-restaurants", Card: card.Restaurants}, Run: func(context.Context, json.RawMessage) (any, error) {
			return map[string]any{"location": "Lisbon", "covered": true, "restaurants": places("r")}, nil
		}},
	}
}

// BenchmarkOfflineTurn is one whole trip-planner run in memory on the
// offline model: extraction, two tool calls, the answer, four checkpoints.
// It reports the median and p99 of a run besides the mean.
func BenchmarkOfflineTurn(b *testing.B) {
	m, err := offline.New(offline.WithClock(fixedNow))
	if err != nil {
		b.Fatal(err)
	}
	g, err := bound(Deps{Model: m, Now: fixedNow}, Traveller{Tools: benchTools()}, graph.NewMemorySaver())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var took []time.Duration
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		start := time.Now()
		s, err := g.Invoke(ctx, graph.RunConfig[Update]{ThreadID: uuid.NewString(),
			Input: Update{Messages: []Message{{ID: "m", Type: Human, Content: "4 nights in Lisbon in May, 3 of us"}}}})
		took = append(took, time.Since(start))
		if err != nil || len(s.UI) != 3 {
			b.Fatalf("run: %v, %d components", err, len(s.UI))
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(took[len(took)*99/100].Nanoseconds()), "p99-ns")
}

// BenchmarkStateAppendJSON encodes a state the size of a ten-turn thread's
// (20 messages, some in Portuguese, and 10 cards of five places each), as
// the engine does at every step.
func BenchmarkStateAppendJSON(b *testing.B) {
	answer, _ := benchTools()[0].Run(context.Background(), nil)
	props, err := json.Marshal(answer)
	if err != nil {
		b.Fatal(err)
	}
	var s State
	for i := range 10 {
		id := fmt.Sprint("ai-", i)
		s = Reduce(s, Update{
			Messages: []Message{
				{ID: fmt.Sprint("human-", i), Type: Human, Content: "Quero ficar em São Paulo de 3 a 9 de maio, somos três pessoas."},
				{ID: id, Type: AI, Content: "Here are 5 places to stay in Lisbon from 2027-05-01 to 2027-05-05 for 2 guests."},
			},
			UI:        []UIUpsert{{UIComponent: UIComponent{ID: fmt.Sprint("call-", i), Name: card.Accommodations, Props: props, MessageID: id}}},
			Timestamp: int64(i),
		})
	}
	s.TripDetails, s.Intent, s.Language = &TripDetails{Location: "Lisbon", StartDate: "2027-05-01", EndDate: "2027-05-05", NumberOfGuests: 2}, IntentAccommodations, "pt"
	b.ReportAllocs()
	for b.Loop() {
		data, err := s.AppendJSON(nil)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(data)))
	}
}
