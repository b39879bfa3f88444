package wire

import (
	"encoding/json"

	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/store"
)

// Part is a stored stream part read back into the values it was made
// from (StreamParts), for the views that render a run's stream to people:
// the browser's live region and the AI SDK's chat. It is the one place
// those parts are read; each view uses the fields it shows. At most one
// field is set; none for a part the views do not show.
type Part struct {
	// Token is a piece of a streamed message (messages-tuple).
	Token *MessageChunk
	// Component is a UI component (a custom part of type "ui").
	Component *nodes.UIComponent
	// Tool is a status event of the tool bridge (a custom part of type
	// mcp_calling, mcp_progress or mcp_complete): Type says which.
	Tool *ToolStatus
	// Interrupts are what a paused run shows a person, each as the
	// component it asks about (an updates part under "__interrupt__").
	Interrupts []nodes.UIComponent
	// State is the thread's state (a values part).
	State *nodes.State
	// Error is a failure's code and message (an error part).
	Error *StreamError
}

// ToolStatus is a status event of the tool bridge as a stream carries it:
// mcp_calling, mcp_progress or mcp_complete (mcpbridge.Calling, Progress,
// Complete), in one shape.
type ToolStatus struct {
	Type       string  `json:"type"`
	Server     string  `json:"server"`
	Tool       string  `json:"tool"`
	Card       string  `json:"card"`
	Items      *int    `json:"items"`
	Error      string  `json:"error"`
	DurationMs float64 `json:"durationMs"`
}

// ReadPart reads a stored part. A part it cannot read, or one the views
// do not show, is the zero Part.
func ReadPart(e store.RunEvent) Part {
	switch e.Event {
	case EventMessages:
		var tuple []json.RawMessage
		var chunk MessageChunk
		if json.Unmarshal(e.Data, &tuple) == nil && len(tuple) > 0 && json.Unmarshal(tuple[0], &chunk) == nil &&
			chunk.Content != "" && chunk.ID != "" {
			return Part{Token: &chunk}
		}
	case ModeCustom:
		return readCustom(e.Data)
	case ModeUpdates:
		return Part{Interrupts: readInterrupts(e.Data)}
	case ModeValues:
		if s, err := StateOf(e.Data); err == nil {
			return Part{State: &s}
		}
	case EventError:
		var se StreamError
		_ = json.Unmarshal(e.Data, &se)
		return Part{Error: &se}
	}
	return Part{}
}

// readCustom reads a custom part: a UIMessage, or a tool bridge event.
func readCustom(data json.RawMessage) Part {
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(data, &head) != nil {
		return Part{}
	}
	switch head.Type {
	case uiType:
		var m UIMessage
		if json.Unmarshal(data, &m) != nil || m.ID == "" || m.Name == "" {
			return Part{}
		}
		comp := nodes.UIComponent{ID: m.ID, Name: m.Name, Props: m.Props}
		comp.MessageID, _ = m.Metadata["message_id"].(string)
		return Part{Component: &comp}
	case mcpbridge.EventCalling, mcpbridge.EventProgress, mcpbridge.EventComplete:
		var status ToolStatus
		if json.Unmarshal(data, &status) != nil || status.Server == "" || status.Tool == "" {
			return Part{}
		}
		return Part{Tool: &status}
	}
	return Part{}
}

// readInterrupts reads the components a pause shows, from an updates
// part; none from any other update.
func readInterrupts(data json.RawMessage) []nodes.UIComponent {
	var u map[string][]Interrupt
	if json.Unmarshal(data, &u) != nil {
		return nil
	}
	var out []nodes.UIComponent
	for _, in := range u[interruptKey] {
		var c nodes.UIComponent
		if json.Unmarshal(in.Value, &c) == nil && c.ID != "" && c.Name != "" {
			out = append(out, c)
		}
	}
	return out
}
