package mcpbridge

import (
	"context"

	"github.com/tripgraph/tripgraph/graph"
)

// The custom events a tool call emits inside a graph run.
const (
	EventCalling  = "mcp_calling"
	EventProgress = "mcp_progress"
	EventComplete = "mcp_complete"
)

// Each payload names its event in Type (EventCalling, EventProgress or
// EventComplete), so that a client reading the run's custom stream, where
// events travel without their names, can tell them apart.

// Calling is the payload of mcp_calling: a call has started.
type Calling struct {
	Type   string `json:"type"`
	Server string `json:"server"`
	Tool   string `json:"tool"`
	Card   string `json:"card,omitempty"` // the card that will show the result
}

// Progress is the payload of mcp_progress: the server reported progress.
type Progress struct {
	Type     string  `json:"type"`
	Server   string  `json:"server"`
	Tool     string  `json:"tool"`
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
}

// Complete is the payload of mcp_complete: how many items came back, or
// the error code, and how long the call took.
type Complete struct {
	Type       string  `json:"type"`
	Server     string  `json:"server"`
	Tool       string  `json:"tool"`
	Card       string  `json:"card,omitempty"` // the card that shows the result
	Items      *int    `json:"items,omitempty"`
	Error      string  `json:"error,omitempty"`
	DurationMs float64 `json:"durationMs"`
}

// emit sends a custom event when ctx belongs to a graph run; outside a
// run graph.Emit does nothing.
func emit(ctx context.Context, name string, payload any) {
	graph.Emit(ctx, name, payload)
}
