// Package card names the cards a conversation shows: the UI components
// that show the trip understood, the tools' results and a booking's
// confirmation. Each name is one templ component (package ui) and one
// props type (package nodes).
//
// A tool of our MCP server names the card that shows its results in its
// description's metadata, under Meta; the MCP bridge reads it from there,
// so the planner and the pages need no list of tools: a new tool whose
// results an existing card shows is its handler and its registration.
package card

// The cards.
const (
	TripDetails    = "trip-details"
	Accommodations = "accommodations-list"
	Restaurants    = "restaurants-list"
	Albums         = "album-list"
	Photos         = "photo-grid"
	TripStats      = "trip-stats"
	// BookingConfirmation asks the traveller to confirm a booking (the
	// payload of the run's interrupt), then shows what came of it.
	BookingConfirmation = "booking-confirmation"
)

// Results are the cards that show a tool's results: those a tool may name.
var Results = []string{Accommodations, Restaurants, Albums, Photos, TripStats, BookingConfirmation}

// Meta is the key, in a tool's _meta, of the card that shows its results.
const Meta = "tripgraph/card"
