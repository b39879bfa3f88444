package wire

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/store"
)

func raw(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestChatStreamParts(t *testing.T) {
	three := 3
	token := func(id, text string) store.RunEvent {
		return store.RunEvent{Event: EventMessages, Data: raw(t, []any{MessageChunk{Type: "AIMessageChunk", ID: id, Content: text}, messageMeta{}})}
	}
	custom := func(v any) store.RunEvent { return store.RunEvent{Event: ModeCustom, Data: raw(t, v)} }
	for _, tc := range []struct {
		name   string
		events []store.RunEvent
		want   []ChatChunk
	}{
		{"tokens of two messages", []store.RunEvent{token("a", "Hi"), token("a", " there"), token("b", "Next")}, []ChatChunk{
			{Type: "text-start", ID: "a"}, {Type: "text-delta", ID: "a", Delta: "Hi"}, {Type: "text-delta", ID: "a", Delta: " there"},
			{Type: "text-end", ID: "a"}, {Type: "text-start", ID: "b"}, {Type: "text-delta", ID: "b", Delta: "Next"},
			{Type: "text-end", ID: "b"}}},
		{"tool calls answered oldest first", []store.RunEvent{
			custom(mcpbridge.Calling{Type: mcpbridge.EventCalling, Server: "trip", Tool: "list"}),
			custom(mcpbridge.Calling{Type: mcpbridge.EventCalling, Server: "trip", Tool: "list"}),
			custom(mcpbridge.Progress{Type: mcpbridge.EventProgress, Server: "trip", Tool: "list", Progress: 1}),
			custom(mcpbridge.Complete{Type: mcpbridge.EventComplete, Server: "trip", Tool: "list", Items: &three, DurationMs: 2}),
			custom(mcpbridge.Complete{Type: mcpbridge.EventComplete, Server: "trip", Tool: "list", Error: "UNAVAILABLE", DurationMs: 1}),
			custom(mcpbridge.Complete{Type: mcpbridge.EventComplete, Server: "trip", Tool: "other", DurationMs: 1}),
		}, []ChatChunk{
			{Type: "tool-input-available", ToolCallID: "call-1", ToolName: "list", Dynamic: true, Input: map[string]string{"server": "trip"}},
			{Type: "tool-input-available", ToolCallID: "call-2", ToolName: "list", Dynamic: true, Input: map[string]string{"server": "trip"}},
			{Type: "tool-output-available", ToolCallID: "call-1", Dynamic: true, Output: map[string]any{"items": &three, "durationMs": 2.0}},
			{Type: "tool-output-error", ToolCallID: "call-2", Dynamic: true, ErrorText: "UNAVAILABLE"},
		}},
		{"UI components as data parts", []store.RunEvent{
			custom(UIMessage{Type: "ui", ID: "c1", Name: "trip-details", Props: json.RawMessage(`{"nights":4}`)}),
			custom(map[string]string{"note": "other"}),
		}, []ChatChunk{{Type: "data-trip-details", ID: "c1", Data: json.RawMessage(`{"nights":4}`)}}},
		{"an error closes the text", []store.RunEvent{token("a", "Hi"), {Event: EventError, Data: raw(t, StreamError{Error: "INTERNAL", Message: "the run failed"})}},
			[]ChatChunk{{Type: "text-start", ID: "a"}, {Type: "text-delta", ID: "a", Delta: "Hi"}, {Type: "text-end", ID: "a"},
				{Type: "error", ErrorText: "the run failed"}}},
		{"values and updates make nothing", []store.RunEvent{{Event: ModeValues, Data: []byte(`{}`)}, {Event: ModeUpdates, Data: []byte(`{}`)}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cs ChatStream
			var got []ChatChunk
			for _, e := range tc.events {
				got = append(got, cs.Parts(e)...)
			}
			fin := cs.Finish()
			got = append(got, fin[:len(fin)-1]...)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %s\nwant %s", raw(t, got), raw(t, tc.want))
			}
			if fin[len(fin)-1].Type != "finish" {
				t.Fatalf("finish %v", fin)
			}
		})
	}
}
