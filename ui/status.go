package ui

import (
	"context"

	"github.com/tripgraph/tripgraph/card"
)

// ToolStatus is what a tool call is doing, for the status line of the
// assistant message it serves: from the run's mcp_calling event (Done
// false) and then its mcp_complete event (Done true).
type ToolStatus struct {
	MessageID string // the assistant message the call serves
	Tool      string
	Card      string // the card that shows the tool's results; "" for none
	Place     string // the trip's destination, when known
	Done      bool
	Items     *int   // how many results came back, when known
	ErrorCode string // set when the call failed
}

// StatusDOMID is the element id of a message's tool status line: each new
// status replaces the last.
func StatusDOMID(messageID string) string {
	return MessageDOMID(messageID) + "-status"
}

// countKeys are the counted labels of each list component's items.
var countKeys = map[string]string{
	card.Accommodations: "n.stays",
	card.Restaurants:    "n.restaurants",
	card.Albums:         "n.albums",
	card.Photos:         "n.photos",
}

// statusText says what a call is doing or did: "Searching stays in
// Lisbon…", "Found 3 places to stay", "The search failed".
func statusText(ctx context.Context, s ToolStatus) string {
	kind := s.Card
	switch {
	case s.Done && s.ErrorCode != "":
		return text(ctx, "status.failed")
	case s.Done && s.Items != nil && countKeys[kind] != "":
		return text(ctx, "status.found", plural(ctx, countKeys[kind], *s.Items))
	case s.Done:
		return text(ctx, "status.done")
	case kind == card.Accommodations && s.Place != "":
		return text(ctx, "status.stays.in", cityName(ctx, s.Place))
	case kind == card.Restaurants && s.Place != "":
		return text(ctx, "status.restaurants.in", cityName(ctx, s.Place))
	case kind != "":
		return text(ctx, "status."+kind)
	}
	return text(ctx, "status.tool", s.Tool)
}
