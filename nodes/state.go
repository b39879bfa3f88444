// Package nodes is the trip planner: its state, reducer, routers and the
// classify, extraction and callTools nodes, wired into a graph.Compiled by
// Build. It talks to a language model through langchaingo's llms.Model and
// to tools through the small Tools interface; it knows nothing of HTTP or
// SQL.
package nodes

import (
	"encoding/json"
	"maps"
	"slices"
)

// State is the trip planner's state. Once checkpointed it never changes:
// Reduce returns a new State and never writes into the one it was given.
type State struct {
	Messages    []Message     `json:"messages"`
	UI          []UIComponent `json:"ui"`
	Timestamp   int64         `json:"timestamp"` // Unix milliseconds of the last update
	TripDetails *TripDetails  `json:"tripDetails,omitempty"`
	Intent      Intent        `json:"intent,omitempty"`   // what the last extraction understood
	Language    string        `json:"language,omitempty"` // one of locale.All: the traveller's language
	Assumed     []string      `json:"assumed,omitempty"`  // trip fields filled in by default, not stated (Field*)
	// Recalled is what the trip took from the traveller's profile.
	Recalled *Recalled `json:"recalled,omitempty"`
	// Forgotten: the traveller asked to be forgotten in this conversation,
	// which is not remembered from then on.
	Forgotten bool `json:"forgotten,omitempty"`

	// Enrichments are the results of the traveller's own tools fetched
	// before answering, each with the message it informed.
	Enrichments []Enrichment `json:"enrichments,omitempty"`
	// BookingRequest is a booking the traveller asked for directly (a Book
	// button), waiting for callTools to confirm it; nil once handled.
	BookingRequest *BookingRequest `json:"bookingRequest,omitempty"`
	// SetAside are booking requests the traveller moved on from before
	// answering their confirmation (see Reduce), waiting for the next node
	// to show them as not made; nil once shown.
	SetAside []BookingRequest `json:"setAside,omitempty"`
}

// TripDetails is what the planner knows of the trip. A trip of several
// cities has legs, in order, each with its own dates; its Location is then
// the first leg's city and its dates the whole trip's. Threads saved
// before legs existed read as trips of one city.
type TripDetails struct {
	Location       string `json:"location" validate:"required,max=200"`
	Country        string `json:"country,omitempty" validate:"max=100"`
	StartDate      string `json:"startDate" validate:"required,datetime=2006-01-02"`
	EndDate        string `json:"endDate" validate:"required,datetime=2006-01-02"`
	NumberOfGuests int    `json:"numberOfGuests" validate:"required,min=1,max=20"` // tripdata.MaxGuests
	Legs           []Leg  `json:"legs,omitempty" validate:"omitempty,min=2,max=10,dive"`
}

// Equal reports whether two trips are the same, legs included.
func (td TripDetails) Equal(o TripDetails) bool {
	return td.Location == o.Location && td.Country == o.Country && td.StartDate == o.StartDate &&
		td.EndDate == o.EndDate && td.NumberOfGuests == o.NumberOfGuests && slices.Equal(td.Legs, o.Legs)
}

// Leg is one city of a trip of several, from the night of StartDate to the
// morning of EndDate.
type Leg struct {
	Location  string `json:"location" validate:"required,max=200"`
	Country   string `json:"country,omitempty" validate:"max=100"`
	StartDate string `json:"startDate" validate:"required,datetime=2006-01-02"`
	EndDate   string `json:"endDate" validate:"required,datetime=2006-01-02"`
}

// Intent is what the traveller asked for.
type Intent string

// The intents the planner tells apart.
const (
	IntentAccommodations Intent = "accommodations"
	IntentRestaurants    Intent = "restaurants"
	IntentTrip           Intent = "trip" // both accommodations and restaurants
	IntentPhotos         Intent = "photos"
	IntentOther          Intent = "other"
	IntentForget         Intent = "forget" // forget what is remembered of the traveller
)

// Message roles, named as LangGraph names them.
const (
	Human = "human"
	AI    = "ai"
)

// Message is one turn of the conversation.
type Message struct {
	ID      string `json:"id"`
	Type    string `json:"type"` // Human or AI
	Content string `json:"content"`
}

// UIComponent is a typed component shown with an assistant message. Name is
// one of the Component* constants and says which props type Props holds.
type UIComponent struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Props     json.RawMessage `json:"props"`
	MessageID string          `json:"messageId"`
}

// UIUpsert adds a component, or replaces the one with the same ID. With
// Merge, the new props' top-level fields are merged into the old props.
type UIUpsert struct {
	UIComponent
	Merge bool `json:"merge,omitempty"`
}

// Update is what a node returns; Reduce folds it into the state.
type Update struct {
	Messages         []Message    `json:"messages,omitempty"` // appended, or replacing the message with the same ID
	UI               []UIUpsert   `json:"ui,omitempty"`       // upserted by ID
	Timestamp        int64        `json:"timestamp,omitempty"`
	TripDetails      *TripDetails `json:"tripDetails,omitempty"` // set when not nil
	Assumed          []string     `json:"assumed,omitempty"`     // set with TripDetails
	Recalled         *Recalled    `json:"recalled,omitempty"`    // set with TripDetails
	Forgotten        bool         `json:"forgotten,omitempty"`   // sets Forgotten
	ClearTripDetails bool         `json:"clearTripDetails,omitempty"`
	Intent           Intent       `json:"intent,omitempty"` // set when not empty
	Language         string       `json:"language,omitempty"`
	Enrichments      []Enrichment `json:"enrichments,omitempty"` // appended
	// BookingRequest is set when not nil; ClearBookingRequest removes it.
	BookingRequest      *BookingRequest `json:"bookingRequest,omitempty"`
	ClearBookingRequest bool            `json:"clearBookingRequest,omitempty"`
	// ClearSetAside removes the set-aside requests, once they are shown.
	ClearSetAside bool `json:"clearSetAside,omitempty"`
}

// BookingRequest asks to book one stay without asking the model which
// tool to call: the arguments of book-accommodation. It still goes through
// the traveller's confirmation like any booking.
type BookingRequest struct {
	AccommodationID string `json:"id" validate:"required,max=100"`
	StartDate       string `json:"startDate" validate:"required,datetime=2006-01-02"`
	EndDate         string `json:"endDate" validate:"required,datetime=2006-01-02"`
	Guests          int    `json:"guests" validate:"required,min=1,max=20"` // tripdata.MaxGuests
	// After is the newest message of the conversation when the request was
	// made, set by Reduce: its confirmation card is shown with that
	// message, and named after it (see bookingCardID).
	After string `json:"after,omitempty"`
}

// Reduce returns the state after update. It copies whatever it changes.
//
// New input abandons a booking confirmation that waits for its answer, as
// LangGraph's rule has it: an update that brings a person's message or
// another booking request sets the standing request aside (SetAside), for
// the next node to show as not made, and the conversation goes on from
// the new input.
func Reduce(s State, u Update) State {
	out := s
	if s.BookingRequest != nil && !u.ClearBookingRequest && (u.BookingRequest != nil || hasHuman(u.Messages)) {
		out.SetAside = append(slices.Clone(s.SetAside), *s.BookingRequest)
		out.BookingRequest = nil
	}
	if len(u.Messages) > 0 {
		out.Messages = addMessages(s.Messages, u.Messages)
	}
	if len(u.UI) > 0 {
		out.UI = upsertUI(s.UI, u.UI)
	}
	if u.Timestamp != 0 {
		out.Timestamp = u.Timestamp
	}
	if u.ClearTripDetails {
		out.TripDetails, out.Assumed, out.Recalled = nil, nil, nil
	}
	if u.TripDetails != nil {
		td := *u.TripDetails
		td.Legs = slices.Clone(td.Legs)
		out.TripDetails = &td
		out.Assumed = slices.Clone(u.Assumed)
		out.Recalled = nil
		if u.Recalled != nil {
			r := *u.Recalled
			out.Recalled = &r
		}
	}
	if u.Forgotten {
		out.Forgotten = true
	}
	if u.Intent != "" {
		out.Intent = u.Intent
	}
	if u.Language != "" {
		out.Language = u.Language
	}
	if len(u.Enrichments) > 0 {
		out.Enrichments = slices.Concat(s.Enrichments, u.Enrichments)
	}
	if u.ClearBookingRequest {
		out.BookingRequest = nil
	}
	if u.BookingRequest != nil {
		r := *u.BookingRequest
		if n := len(out.Messages); n > 0 {
			r.After = out.Messages[n-1].ID
		}
		out.BookingRequest = &r
	}
	if u.ClearSetAside {
		out.SetAside = nil
	}
	return out
}

// addMessages returns a new list with each message added as LangGraph's
// add_messages adds it: one whose ID is in the list already replaces that
// message where it is, any other is appended.
func addMessages(list, add []Message) []Message {
	out := withRoom(list, len(add))
	for _, m := range add {
		i := slices.IndexFunc(out, func(o Message) bool { return m.ID != "" && o.ID == m.ID })
		if i < 0 {
			out = append(out, m)
			continue
		}
		out[i] = m
	}
	return out
}

// withRoom returns a copy of list with room for n more, so that adding
// them allocates nothing more.
func withRoom[E any](list []E, n int) []E {
	return append(make([]E, 0, len(list)+n), list...)
}

// hasHuman reports whether msgs hold a person's message.
func hasHuman(msgs []Message) bool {
	return slices.ContainsFunc(msgs, func(m Message) bool { return m.Type == Human })
}

// upsertUI returns a new list with each upsert applied in order. It
// compacts the props it adds (a state's props are compact, so that its
// encoding need not check them again): props that are not JSON are kept as
// they are, and the update that brought them fails to encode.
func upsertUI(list []UIComponent, ups []UIUpsert) []UIComponent {
	out := withRoom(list, len(ups))
	for _, up := range ups {
		up.Props, _ = compactProps(up.Props)
		i := slices.IndexFunc(out, func(c UIComponent) bool { return c.ID == up.ID })
		switch {
		case i < 0:
			out = append(out, up.UIComponent)
		case up.Merge:
			merged := up.UIComponent
			merged.Props = mergeProps(out[i].Props, up.Props)
			out[i] = merged
		default:
			out[i] = up.UIComponent
		}
	}
	return out
}

// mergeProps merges the top-level fields of two JSON objects, the second
// winning. If either is not an object, the second replaces the first.
func mergeProps(old, add json.RawMessage) json.RawMessage {
	var a, b map[string]json.RawMessage
	if json.Unmarshal(old, &a) != nil || json.Unmarshal(add, &b) != nil || a == nil || b == nil {
		return add
	}
	merged := maps.Clone(a)
	maps.Copy(merged, b)
	data, err := json.Marshal(merged)
	if err != nil {
		return add
	}
	return data
}

// LastHuman returns the content of the last human message, or "".
func (s State) LastHuman() string {
	for i := len(s.Messages) - 1; i >= 0; i-- {
		if s.Messages[i].Type == Human {
			return s.Messages[i].Content
		}
	}
	return ""
}
