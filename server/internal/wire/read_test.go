package wire

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/store"
)

// What StreamParts stores, ReadPart reads back as the values it was made
// from: a token, a component with its message, a tool's status, a pause's
// component, a state, an error; anything else reads as nothing.
func TestReadPartReadsWhatStreamPartsStore(t *testing.T) {
	comp := nodes.UIComponent{ID: "c1", Name: card.TripDetails, Props: json.RawMessage(`{"tripDetails":{"location":"Lisbon"}}`), MessageID: "m1"}
	items := 3
	booking := nodes.UIComponent{ID: "b1", Name: card.BookingConfirmation, Props: json.RawMessage(`{"status":"pending"}`), MessageID: "m2"}
	payload, _ := json.Marshal(booking)
	state, _ := json.Marshal(nodes.State{Messages: []nodes.Message{{ID: "m1", Type: nodes.AI, Content: "Here"}}, UI: []nodes.UIComponent{comp}})
	tests := []struct {
		name  string
		ev    graph.Event[nodes.State, nodes.Update]
		check func(Part) bool
	}{
		{"a token", graph.Event[nodes.State, nodes.Update]{Kind: graph.Token, MessageID: "m1", Token: "Lis"},
			func(p Part) bool { return p.Token != nil && p.Token.ID == "m1" && p.Token.Content == "Lis" }},
		{"a component", graph.Event[nodes.State, nodes.Update]{Kind: graph.Custom, Name: "ui", Payload: comp},
			func(p Part) bool {
				return p.Component != nil && p.Component.ID == "c1" && p.Component.MessageID == "m1" && string(p.Component.Props) == string(comp.Props)
			}},
		{"a tool's end", graph.Event[nodes.State, nodes.Update]{Kind: graph.Custom, Name: mcpbridge.EventComplete,
			Payload: mcpbridge.Complete{Type: mcpbridge.EventComplete, Server: "tripgraph", Tool: "list-accommodations", Items: &items}},
			func(p Part) bool {
				return p.Tool != nil && p.Tool.Type == mcpbridge.EventComplete && p.Tool.Tool == "list-accommodations" && *p.Tool.Items == 3
			}},
		{"a pause", graph.Event[nodes.State, nodes.Update]{Kind: graph.Interrupted, Interrupt: &graph.PendingInterrupt{ID: "i1", Node: nodes.NodeCallTools, Payload: payload}},
			func(p Part) bool {
				return len(p.Interrupts) == 1 && p.Interrupts[0].ID == "b1" && p.Interrupts[0].MessageID == "m2"
			}},
		{"a state", graph.Event[nodes.State, nodes.Update]{Kind: graph.CheckpointSaved, Checkpoint: &graph.Checkpoint{State: state}},
			func(p Part) bool {
				return p.State != nil && len(p.State.Messages) == 1 && len(p.State.UI) == 1 && p.State.UI[0].MessageID == "m1"
			}},
		{"a node's update", graph.Event[nodes.State, nodes.Update]{Kind: graph.NodeFinished, Node: nodes.NodeExtraction},
			func(p Part) bool { return p.Interrupts == nil && p.State == nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, err := StreamParts(tt.ev)
			if err != nil || len(parts) == 0 {
				t.Fatalf("StreamParts = %v, %v", parts, err)
			}
			if p := ReadPart(store.RunEvent{Event: parts[0].Event, Data: parts[0].Data}); !tt.check(p) {
				t.Fatalf("read back %+v from %s %s", p, parts[0].Event, parts[0].Data)
			}
		})
	}
	if p := ReadPart(store.RunEvent{Event: EventError, Data: []byte(`{"error":"UNAVAILABLE","message":"try again"}`)}); p.Error == nil || p.Error.Error != "UNAVAILABLE" {
		t.Fatalf("an error read back as %+v", p)
	}
	for _, junk := range []store.RunEvent{{Event: ModeCustom, Data: []byte(`{"type":"ui"}`)}, {Event: EventMessages, Data: []byte(`[1]`)},
		{Event: ModeCustom, Data: []byte(`{"type":"mcp_calling"}`)}, {Event: "debug", Data: []byte(`{}`)}} {
		if p := ReadPart(junk); !reflect.DeepEqual(p, Part{}) {
			t.Errorf("%s %s read back as %+v, want nothing", junk.Event, junk.Data, p)
		}
	}
}
