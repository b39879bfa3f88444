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
	var hotels []string
	for i := range 5 {
		hotels = append(hotels, fmt.Sprintf(`{"id":"acc-%d","name":"Casa do Rio %d","city":"Lisbon","price":%d,"rating":4.%d,"description":"A quiet guest house by the river, ten minutes on foot from the old town","amenities":["free wifi","breakfast included"]}`, i, i, 90+i, i))
	}
	props := json.RawMessage(`{"location":"Lisbon","accommodations":[` + strings.Join(hotels, ",") + `]}`)
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
