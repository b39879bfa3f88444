package wire

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
)

// One run's events through one Parts, in the modes that keep what they
// have seen: messages mode shows each streamed message's metadata once,
// its whole text so far at each token and the message complete once the
// checkpoint holding it is saved (and the input's messages complete when it is applied);
// events mode opens and closes a chat model around a streamed message;
// tasks and checkpoints modes carry the debug payloads; a run continuing
// from a checkpoint shows that checkpoint first.
func TestPartsAcrossARun(t *testing.T) {
	type ev = graph.Event[nodes.State, nodes.Update]
	at := time.Date(2027, 5, 1, 10, 0, 0, 0, time.UTC)
	p := &Parts{Graph: "trip-planner", Modes: []string{ModeMessages, ModeEvents, ModeTasks, ModeCheckpoints}, Now: func() time.Time { return at }}
	input, _ := json.Marshal(nodes.Update{Messages: []nodes.Message{{ID: "h1", Type: nodes.Human, Content: "hi"}}})
	run := []ev{
		{Kind: graph.RunStarted, RunID: "r1", ThreadID: "t1"},
		{Kind: graph.CheckpointSaved, RunID: "r1", ThreadID: "t1", Checkpoint: &graph.Checkpoint{ThreadID: "t1", ID: "c0", Step: -1, State: json.RawMessage(`{}`), Update: input, Next: []string{graph.START}}},
		{Kind: graph.CheckpointSaved, RunID: "r1", ThreadID: "t1", Checkpoint: &graph.Checkpoint{ThreadID: "t1", ID: "c1", ParentID: "c0", Step: 0, State: json.RawMessage(`{"messages":[]}`), Update: input, Next: []string{"extraction"}, Metadata: graph.Metadata{Source: graph.SourceLoop}}},
		{Kind: graph.NodeStarted, RunID: "r1", ThreadID: "t1", Step: 1, Node: "extraction", State: nodes.State{Messages: []nodes.Message{{ID: "h1", Type: nodes.Human, Content: "hi"}}}},
		{Kind: graph.Token, RunID: "r1", ThreadID: "t1", Step: 1, Node: "extraction", MessageID: "a1", Token: "Where"},
		{Kind: graph.Token, RunID: "r1", ThreadID: "t1", Step: 1, Node: "extraction", MessageID: "a1", Token: " to?"},
		{Kind: graph.NodeFinished, RunID: "r1", ThreadID: "t1", Step: 1, Node: "extraction", Update: nodes.Update{Messages: []nodes.Message{{ID: "a1", Type: nodes.AI, Content: "Where to?"}}}},
		{Kind: graph.CheckpointSaved, RunID: "r1", ThreadID: "t1", Checkpoint: &graph.Checkpoint{ThreadID: "t1", ID: "c2", ParentID: "c1", Step: 1, Node: "extraction",
			State: json.RawMessage(`{"messages":[]}`), Update: json.RawMessage(`{"messages":[{"id":"a1","type":"ai","content":"Where to?"}]}`), Metadata: graph.Metadata{Source: graph.SourceLoop}}},
	}
	var got []string
	for _, e := range run {
		parts, err := p.Of(e)
		if err != nil {
			t.Fatal(err)
		}
		for _, part := range parts {
			var v struct {
				Event string `json:"event"`
			}
			json.Unmarshal(part.Data, &v)
			switch part.Event {
			case ModeEvents:
				got = append(got, "events:"+v.Event)
			case EventMessagesPartial, EventMessagesComplete, EventMessagesMetadata:
				got = append(got, part.Event+" "+string(part.Data))
			case ModeTasks, ModeCheckpoints:
				got = append(got, part.Event)
			}
		}
	}
	want := []string{
		"events:on_chain_start",
		"checkpoints",
		`messages/complete [{"type":"human","id":"h1","content":"hi"}]`, "checkpoints",
		"tasks", "events:on_chain_start",
		`messages/metadata {"a1":{"metadata":{"langgraph_node":"extraction","langgraph_step":1,"run_id":"r1","thread_id":"t1"}}}`,
		`messages/partial [{"type":"ai","id":"a1","content":"Where"}]`,
		"events:on_chat_model_start", "events:on_chat_model_stream",
		`messages/partial [{"type":"ai","id":"a1","content":"Where to?"}]`,
		"events:on_chat_model_stream",
		"tasks", "events:on_chat_model_end", "events:on_chain_end",
		`messages/complete [{"type":"ai","id":"a1","content":"Where to?"}]`, "checkpoints",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("parts\n got %q\nwant %q", got, want)
	}

	resumed := &Parts{Graph: "trip-planner", Modes: []string{ModeDebug}}
	from := &graph.Checkpoint{ThreadID: "t1", ID: "c1", Step: 0, State: json.RawMessage(`{}`), Next: []string{"extraction"}}
	parts, err := resumed.Of(ev{Kind: graph.RunStarted, RunID: "r2", ThreadID: "t1", Checkpoint: from})
	if err != nil {
		t.Fatal(err)
	}
	var frame struct {
		Type    string
		Payload DebugCheckpoint
	}
	if len(parts) != 1 || json.Unmarshal(parts[0].Data, &frame) != nil || frame.Type != "checkpoint" || frame.Payload.Checkpoint.CheckpointID != "c1" {
		t.Fatalf("a resumed run's first debug part %+v, want its starting checkpoint c1", parts)
	}
}
