package wire

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
)

// BenchmarkUpdatePart is the updates part of a callTools step: a message
// and a card of five hotels.
func BenchmarkUpdatePart(b *testing.B) {
	props := fivePlaces()
	ev := graph.Event[nodes.State, nodes.Update]{Kind: graph.NodeFinished, Node: "callTools", Update: nodes.Update{
		Messages:  []nodes.Message{{ID: "m2", Type: nodes.AI, Content: "Here are five places to stay in Lisbon."}},
		UI:        []nodes.UIUpsert{{UIComponent: nodes.UIComponent{ID: "c1", Name: card.Accommodations, Props: props, MessageID: "m2"}}},
		Timestamp: 1700000000000,
	}}
	for b.Loop() {
		if _, err := StreamParts(ev); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValues is the values part of a step late in a conversation of
// ten turns: twenty messages, and per turn the trip's details and a card
// of five hotels.
func BenchmarkValues(b *testing.B) {
	var s nodes.State
	for turn := range 10 {
		human, ai := fmt.Sprintf("h%d", turn), fmt.Sprintf("a%d", turn)
		s.Messages = append(s.Messages,
			nodes.Message{ID: human, Type: nodes.Human, Content: "4 nights in Lisbon in May, 3 of us, \"something quiet\""},
			nodes.Message{ID: ai, Type: nodes.AI, Content: "Here are five places to stay in Lisbon."})
		s.UI = append(s.UI,
			nodes.UIComponent{ID: "trip-" + human, Name: card.TripDetails, Props: json.RawMessage(`{"location":"Lisbon","nights":4,"guests":3}`), MessageID: human},
			nodes.UIComponent{ID: "stays-" + ai, Name: card.Accommodations, Props: fivePlaces(), MessageID: ai})
	}
	raw, err := json.Marshal(s)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		Values(raw)
	}
}

// fivePlaces is an accommodation card's props: five hotels.
func fivePlaces() json.RawMessage {
	var hotels []string
	for i := range 5 {
		hotels = append(hotels, fmt.Sprintf(`{"id":"acc-%d","name":"Casa do Rio %d","city":"Lisbon","price":%d,"rating":4.%d,"description":"A quiet guest house by the river, ten minutes on foot from the old town","amenities":["free wifi","breakfast included"]}`, i, i, 90+i, i))
	}
	return json.RawMessage(`{"location":"Lisbon","accommodations":[` + strings.Join(hotels, ",") + `]}`)
}
