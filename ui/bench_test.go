package ui_test

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/ui"
)

// BenchmarkConversation renders a 20-turn conversation with a trip, 8
// stays and 12 restaurants on every answer: what a page load or a replay
// step costs to render.
func BenchmarkConversation(b *testing.B) {
	var s nodes.State
	for turn := range 20 {
		h, a := fmt.Sprint("h", turn), fmt.Sprint("a", turn)
		s.Messages = append(s.Messages, nodes.Message{ID: h, Type: nodes.Human, Content: "4 nights in Lisbon in May, 3 of us"},
			nodes.Message{ID: a, Type: nodes.AI, Content: "Here are places to stay and restaurants."})
		var accs []nodes.Accommodation
		for i := range 8 {
			accs = append(accs, nodes.Accommodation{ID: fmt.Sprint(i), Name: "Casa Azul", NightlyPrice: 92.5, Currency: "EUR", Rating: 4.5, ImageURL: "/m/x.jpg"})
		}
		var rs []nodes.Restaurant
		for i := range 12 {
			rs = append(rs, nodes.Restaurant{ID: fmt.Sprint(i), Name: "Tasca", Cuisine: fmt.Sprint("c", i%5), PriceRange: "€€", OpeningHours: "12–23"})
		}
		s.UI = append(s.UI,
			component(b, "td"+h, card.TripDetails, nodes.TripDetailsProps{TripDetails: lisbon, Nights: 4}),
			component(b, "acc"+a, card.Accommodations, stays(accs...)),
			component(b, "r"+a, card.Restaurants, eats(rs...)))
		s.UI[len(s.UI)-3].MessageID = h
		s.UI[len(s.UI)-2].MessageID = a
		s.UI[len(s.UI)-1].MessageID = a
	}
	ctx := ui.WithLanguage(context.Background(), "en")
	b.ReportAllocs()
	for b.Loop() {
		if err := ui.Conversation(s).Render(ctx, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
