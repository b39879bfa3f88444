package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
)

// The planner's deterministic stand-ins for a model. The LangGraph.js
// program (js/peer.mjs) implements the same rules; the dump comparison
// proves that both reach the same states.
const (
	hotelsPerList = 5
	leadDays      = 28 // no dates: the trip starts four weeks from today
	stayDays      = 7  // and lasts a week; one date given: the other is a week away
	defaultGuests = 2
)

// Each node stamps the state with the planner's clock: the epoch, a minute
// per message so far, and the node's ordinal.
const (
	ordinalClassify = iota + 1
	ordinalExtraction
	ordinalCallTools
)

var (
	askLocation = map[string]string{"en": "Where would you like to go?", "pt": "Para onde você gostaria de ir?"}
	hotelNames  = [hotelsPerList]string{"Grand Hotel", "Riverside Apartments", "Old Town Guesthouse", "Central Hostel", "Harbour View Hotel"}
	hotelKinds  = [hotelsPerList]string{"hotel", "apartment", "guesthouse", "hostel", "hotel"}
)

// planner holds the workload the nodes read requests from.
type planner struct {
	w *workload
}

// tripGraph is the trip planner's graph with the planner's deterministic
// nodes, on the real state, reducer and routers of package nodes.
func tripGraph(w *workload, cp graph.Checkpointer) (*graph.Compiled[nodes.State, nodes.Update], error) {
	p := planner{w: w}
	g := graph.New(nodes.Reduce)
	g.AddNode(nodes.NodeClassify, p.classify)
	g.AddNode(nodes.NodeExtraction, p.extraction)
	g.AddNode(nodes.NodeCallTools, p.callTools)
	g.AddConditionalEdges(graph.START, nodes.RouteStart, nodes.NodeClassify, nodes.NodeExtraction)
	g.AddConditionalEdges(nodes.NodeClassify, nodes.RouteAfterClassifying, nodes.NodeExtraction, nodes.NodeCallTools)
	g.AddConditionalEdges(nodes.NodeExtraction, nodes.RouteAfterExtraction, nodes.NodeCallTools, graph.END)
	g.AddEdge(nodes.NodeCallTools, graph.END)
	return g.Compile(cp)
}

func (p planner) clock(s nodes.State, ordinal int64) int64 {
	return p.w.EpochMs + 60_000*int64(len(s.Messages)) + ordinal
}

// classify keeps the trip details unless the latest request names a
// different destination, date or number of guests.
func (p planner) classify(_ context.Context, s nodes.State) (nodes.Update, error) {
	if s.TripDetails == nil {
		return nodes.Update{}, nil
	}
	r, err := p.w.lookup(s.LastHuman())
	if err != nil {
		return nodes.Update{}, err
	}
	td := s.TripDetails
	changed := r.Location != "" && r.Location != td.Location ||
		r.StartDate != "" && r.StartDate != td.StartDate ||
		r.EndDate != "" && r.EndDate != td.EndDate ||
		r.Guests != 0 && r.Guests != td.NumberOfGuests
	return nodes.Update{Timestamp: p.clock(s, ordinalClassify), ClearTripDetails: changed}, nil
}

// extraction reads the trip from the whole conversation: a request naming
// a destination starts the trip over, later ones change its dates or
// guests. With no destination it asks for one and the run ends.
func (p planner) extraction(_ context.Context, s nodes.State) (nodes.Update, error) {
	latest, err := p.w.lookup(s.LastHuman())
	if err != nil {
		return nodes.Update{}, err
	}
	u := nodes.Update{Timestamp: p.clock(s, ordinalExtraction), Intent: latest.Intent, Language: latest.Language}
	var said request
	for _, m := range s.Messages {
		if m.Type != nodes.Human {
			continue
		}
		r, err := p.w.lookup(m.Content)
		if err != nil {
			return nodes.Update{}, err
		}
		said = said.amend(*r)
	}
	if said.Location == "" {
		u.Messages = []nodes.Message{{ID: fmt.Sprintf("ai-%d", len(s.Messages)), Type: nodes.AI, Content: askLocation[latest.Language]}}
		return u, nil
	}
	td, err := p.resolve(said)
	if err != nil {
		return nodes.Update{}, err
	}
	u.TripDetails = &td
	return u, nil
}

// amend applies a later request to what was said so far.
func (r request) amend(later request) request {
	if later.Location != "" {
		return request{Location: later.Location, StartDate: later.StartDate, EndDate: later.EndDate, Guests: later.Guests}
	}
	if later.StartDate != "" {
		r.StartDate = later.StartDate
	}
	if later.EndDate != "" {
		r.EndDate = later.EndDate
	}
	if later.Guests != 0 {
		r.Guests = later.Guests
	}
	return r
}

// resolve fills in default dates and guests.
func (p planner) resolve(r request) (nodes.TripDetails, error) {
	start, end, err := parseDates(r.StartDate, r.EndDate)
	if err != nil {
		return nodes.TripDetails{}, err
	}
	switch {
	case start.IsZero() && end.IsZero():
		start, end = p.w.today.AddDate(0, 0, leadDays), p.w.today.AddDate(0, 0, leadDays+stayDays)
	case end.IsZero():
		end = start.AddDate(0, 0, stayDays)
	case start.IsZero():
		start = end.AddDate(0, 0, -stayDays)
	}
	td := nodes.TripDetails{
		Location:       r.Location,
		Country:        p.w.Places[r.Location].Country,
		StartDate:      start.Format(time.DateOnly),
		EndDate:        end.Format(time.DateOnly),
		NumberOfGuests: r.Guests,
	}
	if td.NumberOfGuests == 0 {
		td.NumberOfGuests = defaultGuests
	}
	return td, nil
}

func parseDates(dates ...string) (start, end time.Time, err error) {
	var out [2]time.Time
	for i, d := range dates {
		if d == "" {
			continue
		}
		if out[i], err = time.Parse(time.DateOnly, d); err != nil {
			return start, end, fmt.Errorf("reading the date %q: %w", d, err)
		}
	}
	return out[0], out[1], nil
}

// callTools "lists accommodations": it appends an assistant message and an
// accommodations-list component with five hotels.
func (p planner) callTools(_ context.Context, s nodes.State) (nodes.Update, error) {
	td := s.TripDetails
	if td == nil {
		return nodes.Update{}, errors.New("callTools ran without trip details")
	}
	n := len(s.Messages)
	msgID, callID := fmt.Sprintf("ai-%d", n), fmt.Sprintf("call-%d", n)
	props := nodes.AccommodationsListProps{
		ToolProps:      nodes.ToolProps{ToolCallID: callID, Tool: "list-accommodations", TripDetails: td},
		Location:       td.Location,
		Covered:        true,
		StartDate:      td.StartDate,
		EndDate:        td.EndDate,
		Nights:         td.Nights(),
		Guests:         td.NumberOfGuests,
		Accommodations: p.hotels(*td),
	}
	data, err := json.Marshal(props)
	if err != nil {
		return nodes.Update{}, fmt.Errorf("encoding the accommodations: %w", err)
	}
	return nodes.Update{
		Messages:  []nodes.Message{{ID: msgID, Type: nodes.AI, Content: answer(s.Language, *td)}},
		UI:        []nodes.UIUpsert{{UIComponent: nodes.UIComponent{ID: callID, Name: card.Accommodations, Props: data, MessageID: msgID}}},
		Timestamp: p.clock(s, ordinalCallTools),
	}, nil
}

func (p planner) hotels(td nodes.TripDetails) []nodes.Accommodation {
	at := p.w.Places[td.Location]
	slug := strings.ReplaceAll(strings.ToLower(td.Location), " ", "-")
	out := make([]nodes.Accommodation, hotelsPerList)
	for i := range out {
		id := fmt.Sprintf("%s-%d", slug, i+1)
		nightly := float64(80 + 25*i + 5*td.NumberOfGuests)
		out[i] = nodes.Accommodation{
			ID:           id,
			Name:         td.Location + " " + hotelNames[i],
			Kind:         hotelKinds[i],
			NightlyPrice: nightly,
			Currency:     "EUR",
			TotalPrice:   nightly * float64(td.Nights()),
			Rating:       float64(45-2*i) / 10,
			ImageURL:     "https://images.invalid/hotels/" + id + ".jpg",
			Capacity:     td.NumberOfGuests + i,
			Lat:          at.Lat + float64(i)/100,
			Lng:          at.Lng - float64(i)/100,
		}
	}
	return out
}

func answer(lang string, td nodes.TripDetails) string {
	if lang == "pt" {
		return fmt.Sprintf("Aqui estão %d lugares para ficar em %s de %s a %s para %d pessoas.", hotelsPerList, td.Location, td.StartDate, td.EndDate, td.NumberOfGuests)
	}
	return fmt.Sprintf("Here are %d places to stay in %s from %s to %s for %d guests.", hotelsPerList, td.Location, td.StartDate, td.EndDate, td.NumberOfGuests)
}
