package wire

import (
	"encoding/json"
	"fmt"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
)

// Stream modes, as clients ask for them in stream_mode. A run's events are
// stored under the SSE event name of their mode: "messages" for
// ModeMessagesTuple.
const (
	ModeValues        = "values"
	ModeUpdates       = "updates"
	ModeCustom        = "custom"
	ModeMessagesTuple = "messages-tuple"
)

// SSE event names that belong to no stream mode.
const (
	EventMetadata = "metadata"
	EventError    = "error"
	EventEnd      = "end"
	EventMessages = "messages"
)

// EventOfMode is the SSE event name a stream mode's parts go out under.
func EventOfMode(mode string) string {
	if mode == ModeMessagesTuple {
		return EventMessages
	}
	return mode
}

// StreamPart is one event of a run's stream: its SSE event name and data.
type StreamPart struct {
	Event string
	Data  json.RawMessage
}

// StreamError is the data of an error event.
type StreamError struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// RunMetadata is the data of a stream's first event.
type RunMetadata struct {
	RunID    string `json:"run_id"`
	ThreadID string `json:"thread_id"`
}

// UIMessage is a UI component as LangGraph's generative UI streams it in
// custom events.
type UIMessage struct {
	Type     string          `json:"type"` // "ui"
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Props    json.RawMessage `json:"props"`
	Metadata map[string]any  `json:"metadata"`
}

// MessageChunk is a piece of a streamed AI message in messages-tuple mode.
type MessageChunk struct {
	Type    string `json:"type"` // "AIMessageChunk"
	ID      string `json:"id"`
	Content string `json:"content"`
}

// messageMeta is the second member of a messages-tuple part.
type messageMeta struct {
	Node     string `json:"langgraph_node"`
	Step     int    `json:"langgraph_step"`
	RunID    string `json:"run_id"`
	ThreadID string `json:"thread_id"`
}

// interruptKey is where updates mode reports a pause, as LangGraph does.
const interruptKey = "__interrupt__"

// StreamParts converts one planner event into the stream parts it makes in
// each mode: values after each saved checkpoint, a node's update, custom
// events (UI components as UIMessage), streamed tokens as messages-tuple
// parts, and a pause as an update under "__interrupt__". Other events make
// none.
func StreamParts(ev graph.Event[nodes.State, nodes.Update]) ([]StreamPart, error) {
	var v any
	mode := ""
	switch ev.Kind {
	case graph.CheckpointSaved:
		if ev.Checkpoint == nil {
			return nil, nil
		}
		return []StreamPart{{Event: ModeValues, Data: ev.Checkpoint.State}}, nil
	case graph.NodeFinished:
		mode, v = ModeUpdates, map[string]nodes.Update{ev.Node: ev.Update}
	case graph.Custom:
		mode, v = ModeCustom, customData(ev)
	case graph.Token:
		mode = EventMessages
		v = []any{MessageChunk{Type: "AIMessageChunk", ID: ev.MessageID, Content: ev.Token},
			messageMeta{Node: ev.Node, Step: ev.Step, RunID: ev.RunID, ThreadID: ev.ThreadID}}
	case graph.Interrupted:
		if ev.Interrupt == nil {
			return nil, nil
		}
		mode = ModeUpdates
		v = map[string][]Interrupt{interruptKey: {{ID: ev.Interrupt.ID, Value: ev.Interrupt.Payload}}}
	default:
		return nil, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding a %s event of run %s: %w", ev.Kind, ev.RunID, err)
	}
	return []StreamPart{{Event: mode, Data: data}}, nil
}

// customData is what a custom event carries: a UI component as LangGraph's
// UI message, anything else as the node emitted it.
func customData(ev graph.Event[nodes.State, nodes.Update]) any {
	comp, ok := ev.Payload.(nodes.UIComponent)
	if !ok {
		return ev.Payload
	}
	return UIMessage{Type: "ui", ID: comp.ID, Name: comp.Name, Props: comp.Props,
		Metadata: map[string]any{"message_id": comp.MessageID, "run_id": ev.RunID}}
}
