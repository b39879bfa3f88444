package wire

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
)

func TestStreamParts(t *testing.T) {
	type ev = graph.Event[nodes.State, nodes.Update]
	comp := nodes.UIComponent{ID: "u1", Name: card.TripDetails, Props: json.RawMessage(`{"location":"Lisbon"}`), MessageID: "m1"}
	tests := []struct {
		name string
		in   ev
		want []string // event: data
	}{
		{"checkpoint is values", ev{Kind: graph.CheckpointSaved, Checkpoint: &graph.Checkpoint{State: json.RawMessage(`{"messages":null,"ui":[{"id":"u1","name":"trip-details","props":{},"messageId":"m1"}]}`)}},
			[]string{`values: {"messages":[],"ui":[{"type":"ui","id":"u1","name":"trip-details","props":{},"metadata":{"message_id":"m1"}}]}`}},
		{"an input still pending makes no values", ev{Kind: graph.CheckpointSaved, Checkpoint: &graph.Checkpoint{State: json.RawMessage(`{}`), Next: []string{graph.START}}}, nil},
		{"node update", ev{Kind: graph.NodeFinished, Node: "classify", Update: nodes.Update{Intent: nodes.IntentTrip}},
			[]string{`updates: {"classify":{"intent":"trip"}}`}},
		{"node update with components", ev{Kind: graph.NodeFinished, Node: "callTools", Update: nodes.Update{UI: []nodes.UIUpsert{{UIComponent: comp, Merge: true}}}},
			[]string{`updates: {"callTools":{"ui":[{"type":"ui","id":"u1","name":"trip-details","props":{"location":"Lisbon"},"metadata":{"merge":true,"message_id":"m1"}}]}}`}},
		{"node update with components and more", ev{Kind: graph.NodeFinished, Node: "call\"Tools", Update: nodes.Update{
			Messages: []nodes.Message{{ID: "m1", Type: nodes.AI, Content: "Here <3"}}, UI: []nodes.UIUpsert{{UIComponent: comp}}, Timestamp: 7}},
			[]string{`updates: {"call\"Tools":{"ui":[{"type":"ui","id":"u1","name":"trip-details","props":{"location":"Lisbon"},"metadata":{"message_id":"m1"}}],"messages":[{"id":"m1","type":"ai","content":"Here \u003c3"}],"timestamp":7}}`}},
		{"ui component", ev{Kind: graph.Custom, RunID: "r1", Name: "ui", Payload: comp},
			[]string{`custom: {"type":"ui","id":"u1","name":"trip-details","props":{"location":"Lisbon"},"metadata":{"message_id":"m1","run_id":"r1"}}`}},
		{"other custom payload", ev{Kind: graph.Custom, Name: "progress", Payload: map[string]int{"done": 2}},
			[]string{`custom: {"done":2}`}},
		{"token", ev{Kind: graph.Token, RunID: "r1", ThreadID: "t1", Node: "callTools", Step: 3, Token: "Hel", MessageID: "m2"},
			[]string{`messages: [{"type":"AIMessageChunk","id":"m2","content":"Hel"},{"langgraph_node":"callTools","langgraph_step":3,"run_id":"r1","thread_id":"t1"}]`}},
		{"interrupt, in updates and in values", ev{Kind: graph.Interrupted, Interrupt: &graph.PendingInterrupt{ID: "i1", Node: "callTools", Payload: json.RawMessage(`{"confirm":true}`)}},
			[]string{`updates: {"__interrupt__":[{"id":"i1","value":{"confirm":true}}]}`, `values: {"__interrupt__":[{"id":"i1","value":{"confirm":true}}]}`}},
		{"run started", ev{Kind: graph.RunStarted}, nil},
		{"node started", ev{Kind: graph.NodeStarted, Node: "classify"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, err := StreamParts(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range parts {
				got = append(got, p.Event+": "+string(p.Data))
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("parts\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// Parts adds the debug and events parts a run asked for, after the parts
// every run stores, and none it did not ask for.
func TestPartsDebugAndEvents(t *testing.T) {
	type ev = graph.Event[nodes.State, nodes.Update]
	at := time.Date(2027, 5, 1, 10, 0, 0, 0, time.UTC)
	all := Parts{Graph: "trip-planner", Modes: []string{ModeDebug, ModeEvents}, Now: func() time.Time { return at }}
	task := uuid.NewSHA1(taskSpace, []byte("r1/2/classify")).String()
	model := uuid.NewSHA1(taskSpace, []byte("r1/message/m2")).String()
	cp := &graph.Checkpoint{ThreadID: "t1", ID: "c2", ParentID: "c1", Step: 2, Node: "classify", CreatedAt: at,
		State: json.RawMessage(`{"messages":[]}`), Update: json.RawMessage(`{"intent":"trip"}`), Next: []string{"callTools"},
		Metadata: graph.Metadata{Source: graph.SourceLoop, RunID: "r1"}}
	nodeMeta := `"metadata":{"graph_id":"trip-planner","langgraph_node":"classify","langgraph_step":2,"run_id":"r1","thread_id":"t1"}`
	rootMeta := `"metadata":{"graph_id":"trip-planner","run_id":"r1","thread_id":"t1"}`
	tests := []struct {
		name string
		in   ev
		want []string // event: data, after the parts StreamParts makes
	}{
		{"run started", ev{Kind: graph.RunStarted, RunID: "r1", ThreadID: "t1"}, []string{
			`events: {"event":"on_chain_start","name":"trip-planner","run_id":"r1","tags":[],` + rootMeta + `,"parent_ids":[],"data":{}}`}},
		{"node started", ev{Kind: graph.NodeStarted, RunID: "r1", ThreadID: "t1", Step: 2, Node: "classify", State: nodes.State{Language: "pt"}}, []string{
			`debug: {"type":"task","timestamp":"2027-05-01T10:00:00Z","step":2,"payload":{"id":"` + task + `","name":"classify","input":{"messages":[],"ui":[],"timestamp":0,"language":"pt"},"triggers":["branch:to:classify"],"interrupts":[]}}`,
			`events: {"event":"on_chain_start","name":"classify","run_id":"` + task + `","tags":[],` + nodeMeta + `,"parent_ids":["r1"],"data":{"input":{"messages":[],"ui":[],"timestamp":0,"language":"pt"}}}`}},
		{"node finished", ev{Kind: graph.NodeFinished, RunID: "r1", ThreadID: "t1", Step: 2, Node: "classify", Update: nodes.Update{Intent: nodes.IntentTrip, Language: "pt"}}, []string{
			`debug: {"type":"task_result","timestamp":"2027-05-01T10:00:00Z","step":2,"payload":{"id":"` + task + `","name":"classify","error":null,"result":{"intent":"trip","language":"pt"},"interrupts":[]}}`,
			`events: {"event":"on_chain_end","name":"classify","run_id":"` + task + `","tags":[],` + nodeMeta + `,"parent_ids":["r1"],"data":{"output":{"intent":"trip","language":"pt"}}}`}},
		{"checkpoint", ev{Kind: graph.CheckpointSaved, RunID: "r1", ThreadID: "t1", Step: 2, Node: "classify", Checkpoint: cp}, []string{
			`debug: {"type":"checkpoint","timestamp":"2027-05-01T10:00:00Z","step":2,"payload":{"config":{"configurable":{"thread_id":"t1","checkpoint_id":"c2"}},"parent_config":{"configurable":{"thread_id":"t1","checkpoint_id":"c1"}},"values":{"messages":[]},"metadata":{"parents":{},"run_id":"r1","source":"loop","step":2,"thread_id":"t1","writes":{"classify":{"intent":"trip"}}},"next":["callTools"],"tasks":[{"id":"` +
				uuid.NewSHA1(taskSpace, []byte("c2/callTools")).String() + `","name":"callTools","path":["__pregel_pull","callTools"],"error":null,"interrupts":[],"checkpoint":null,"state":null,"result":null}],` +
				`"checkpoint":{"thread_id":"t1","checkpoint_ns":"","checkpoint_id":"c2","checkpoint_map":null},"parent_checkpoint":{"thread_id":"t1","checkpoint_ns":"","checkpoint_id":"c1","checkpoint_map":null}}}`}},
		{"token", ev{Kind: graph.Token, RunID: "r1", ThreadID: "t1", Step: 2, Node: "classify", Token: "Ol", MessageID: "m2"}, []string{
			`events: {"event":"on_chat_model_start","name":"model","run_id":"` + model + `","tags":[],` + nodeMeta + `,"parent_ids":["r1","` + task + `"],"data":{"input":{"messages":[[]]}}}`,
			`events: {"event":"on_chat_model_stream","name":"model","run_id":"` + model + `","tags":[],` + nodeMeta + `,"parent_ids":["r1","` + task + `"],"data":{"chunk":{"type":"AIMessageChunk","id":"m2","content":"Ol"}}}`}},
		{"custom", ev{Kind: graph.Custom, RunID: "r1", ThreadID: "t1", Step: 2, Node: "classify", Name: "progress", Payload: map[string]int{"done": 1}}, []string{
			`events: {"event":"on_custom_event","name":"progress","run_id":"` + task + `","tags":[],` + nodeMeta + `,"parent_ids":["r1"],"data":{"done":1}}`}},
		{"interrupted", ev{Kind: graph.Interrupted, RunID: "r1", ThreadID: "t1", Step: 2, Node: "classify", Interrupt: &graph.PendingInterrupt{ID: "i1", Node: "classify", Payload: json.RawMessage(`{"confirm":true}`)}}, []string{
			`debug: {"type":"task_result","timestamp":"2027-05-01T10:00:00Z","step":2,"payload":{"id":"` + task + `","name":"classify","error":null,"result":{},"interrupts":[{"id":"i1","value":{"confirm":true}}]}}`,
			`events: {"event":"on_chain_stream","name":"trip-planner","run_id":"r1","tags":[],` + rootMeta + `,"parent_ids":[],"data":{"chunk":{"__interrupt__":[{"id":"i1","value":{"confirm":true}}]}}}`,
			`events: {"event":"on_chain_end","name":"trip-planner","run_id":"r1","tags":[],` + rootMeta + `,"parent_ids":[],"data":{"output":{"messages":[],"ui":[],"timestamp":0}}}`}},
		{"stopped by a breakpoint", ev{Kind: graph.Interrupted, RunID: "r1", ThreadID: "t1", Step: 2, Node: "callTools"}, []string{
			`events: {"event":"on_chain_end","name":"trip-planner","run_id":"r1","tags":[],` + rootMeta + `,"parent_ids":[],"data":{"output":{"messages":[],"ui":[],"timestamp":0}}}`}},
		{"finished", ev{Kind: graph.RunFinished, RunID: "r1", ThreadID: "t1"}, []string{
			`events: {"event":"on_chain_end","name":"trip-planner","run_id":"r1","tags":[],` + rootMeta + `,"parent_ids":[],"data":{"output":{"messages":[],"ui":[],"timestamp":0}}}`}},
		{"failed", ev{Kind: graph.RunFailed, RunID: "r1", ThreadID: "t1"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, err := StreamParts(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []Parts{{Graph: "trip-planner"}, all} {
				parts, err := p.Of(tt.in)
				if err != nil {
					t.Fatal(err)
				}
				want := tt.want
				if !slices.Contains(p.Modes, ModeDebug) {
					want = nil
				}
				if len(parts) != len(base)+len(want) {
					t.Fatalf("%+v made %d parts, want %d", p, len(parts), len(base)+len(want))
				}
				for i, w := range want {
					if got := parts[len(base)+i].Event + ": " + string(parts[len(base)+i].Data); got != w {
						t.Errorf("part %d:\n got %s\nwant %s", i, got, w)
					}
				}
			}
		})
	}
}

// A run's end makes a part of its own only in the events mode (the run's
// on_chain_end): a run of any other modes has nothing to write once its
// last checkpoint is saved.
func TestEndMakesParts(t *testing.T) {
	for _, m := range ModeNames() {
		p := &Parts{Graph: "g", Modes: []string{m}}
		want := m == ModeEvents
		if got := p.EndMakesParts(); got != want {
			t.Errorf("mode %s: EndMakesParts = %v, want %v", m, got, want)
		}
		parts, err := p.Of(graph.Event[nodes.State, nodes.Update]{Kind: graph.RunFinished, RunID: "r"})
		if err != nil || (len(parts) > 0) != want {
			t.Errorf("mode %s: a run's end made %d parts (%v), want some: %v", m, len(parts), err, want)
		}
	}
}
