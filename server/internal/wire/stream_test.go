package wire

import (
	"encoding/json"
	"testing"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
)

func TestStreamParts(t *testing.T) {
	type ev = graph.Event[nodes.State, nodes.Update]
	comp := nodes.UIComponent{ID: "u1", Name: nodes.ComponentTripDetails, Props: json.RawMessage(`{"location":"Lisbon"}`), MessageID: "m1"}
	tests := []struct {
		name      string
		in        ev
		wantEvent string
		wantData  string
	}{
		{"checkpoint is values", ev{Kind: graph.CheckpointSaved, Checkpoint: &graph.Checkpoint{State: json.RawMessage(`{"messages":[]}`)}},
			"values", `{"messages":[]}`},
		{"node update", ev{Kind: graph.NodeFinished, Node: "classify", Update: nodes.Update{Intent: nodes.IntentTrip}},
			"updates", `{"classify":{"intent":"trip"}}`},
		{"ui component", ev{Kind: graph.Custom, RunID: "r1", Name: "ui", Payload: comp},
			"custom", `{"type":"ui","id":"u1","name":"trip-details","props":{"location":"Lisbon"},"metadata":{"message_id":"m1","run_id":"r1"}}`},
		{"other custom payload", ev{Kind: graph.Custom, Name: "progress", Payload: map[string]int{"done": 2}},
			"custom", `{"done":2}`},
		{"token", ev{Kind: graph.Token, RunID: "r1", ThreadID: "t1", Node: "callTools", Step: 3, Token: "Hel", MessageID: "m2"},
			"messages", `[{"type":"AIMessageChunk","id":"m2","content":"Hel"},{"langgraph_node":"callTools","langgraph_step":3,"run_id":"r1","thread_id":"t1"}]`},
		{"interrupt", ev{Kind: graph.Interrupted, Interrupt: &graph.PendingInterrupt{ID: "i1", Node: "callTools", Payload: json.RawMessage(`{"confirm":true}`)}},
			"updates", `{"__interrupt__":[{"id":"i1","value":{"confirm":true}}]}`},
		{"run started", ev{Kind: graph.RunStarted}, "", ""},
		{"node started", ev{Kind: graph.NodeStarted, Node: "classify"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, err := StreamParts(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantEvent == "" {
				if len(parts) != 0 {
					t.Fatalf("parts %+v, want none", parts)
				}
				return
			}
			if len(parts) != 1 || parts[0].Event != tt.wantEvent || string(parts[0].Data) != tt.wantData {
				t.Fatalf("parts %s %s, want %s %s", parts[0].Event, parts[0].Data, tt.wantEvent, tt.wantData)
			}
		})
	}
}
