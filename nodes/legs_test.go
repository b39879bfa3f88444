package nodes

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/model/offline"
)

func TestResolveLegs(t *testing.T) {
	today := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		args extractArgs
		want []Leg
	}{
		{"own dates",
			extractArgs{StartDate: "2027-05-03", EndDate: "2027-05-09", Legs: []legArgs{{Location: "Lisbon", StartDate: "2027-05-03", EndDate: "2027-05-06"}, {Location: "Porto", StartDate: "2027-05-06", EndDate: "2027-05-09"}}},
			[]Leg{{Location: "Lisbon", StartDate: "2027-05-03", EndDate: "2027-05-06"}, {Location: "Porto", StartDate: "2027-05-06", EndDate: "2027-05-09"}}},
		{"the trip's nights shared, the first leg taking the extra one",
			extractArgs{StartDate: "2027-05-03", Nights: 7, Legs: []legArgs{{Location: "Rome"}, {Location: "Florence"}}},
			[]Leg{{Location: "Rome", StartDate: "2027-05-03", EndDate: "2027-05-07"}, {Location: "Florence", StartDate: "2027-05-07", EndDate: "2027-05-10"}}},
		{"each leg's nights from the trip's start",
			extractArgs{StartDate: "2027-05-03", Nights: 5, Legs: []legArgs{{Location: "Rome", Nights: 2}, {Location: "Naples", Nights: 3}}},
			[]Leg{{Location: "Rome", StartDate: "2027-05-03", EndDate: "2027-05-05"}, {Location: "Naples", StartDate: "2027-05-05", EndDate: "2027-05-08"}}},
		{"nights said, no date: from the planner's default start",
			extractArgs{Nights: 5, Legs: []legArgs{{Location: "Rome", Nights: 2}, {Location: "Naples", Nights: 3}}},
			[]Leg{{Location: "Rome", StartDate: "2026-12-19", EndDate: "2026-12-21"}, {Location: "Naples", StartDate: "2026-12-21", EndDate: "2026-12-24"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.args.Location = "Elsewhere"
			td, q := resolveTrip(tt.args, today, "en")
			if q != "" {
				t.Fatalf("unexpected question %q", q)
			}
			if !slices.Equal(td.Legs, tt.want) {
				t.Fatalf("legs = %+v, want %+v", td.Legs, tt.want)
			}
			last := tt.want[len(tt.want)-1]
			if td.Location != tt.want[0].Location || td.StartDate != tt.want[0].StartDate || td.EndDate != last.EndDate {
				t.Fatalf("trip = %s %s..%s, want the legs' %s %s..%s", td.Location, td.StartDate, td.EndDate, tt.want[0].Location, tt.want[0].StartDate, last.EndDate)
			}
			if err := validate.Struct(td); err != nil {
				t.Fatalf("resolved details do not validate: %v", err)
			}
		})
	}
}

// A state saved before trips had legs reads as a trip of one city, and a
// trip with legs keeps them through a checkpoint's JSON.
func TestTripDetailsJSON(t *testing.T) {
	var old State
	if err := json.Unmarshal([]byte(`{"messages":[],"ui":[],"timestamp":1,"tripDetails":{"location":"Lisbon","startDate":"2027-05-03","endDate":"2027-05-07","numberOfGuests":2}}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.TripDetails == nil || old.TripDetails.Legs != nil || old.TripDetails.Location != "Lisbon" {
		t.Fatalf("old state = %+v", old.TripDetails)
	}
	if data, _ := json.Marshal(old.TripDetails); strings.Contains(string(data), "legs") {
		t.Fatalf("a trip of one city writes legs: %s", data)
	}
	td := TripDetails{Location: "Lisbon", StartDate: "2027-05-03", EndDate: "2027-05-09", NumberOfGuests: 2,
		Legs: []Leg{{Location: "Lisbon", StartDate: "2027-05-03", EndDate: "2027-05-06"}, {Location: "Porto", StartDate: "2027-05-06", EndDate: "2027-05-09"}}}
	data, err := json.Marshal(td)
	if err != nil {
		t.Fatal(err)
	}
	var back TripDetails
	if err := json.Unmarshal(data, &back); err != nil || !back.Equal(td) {
		t.Fatalf("round trip = %+v (%v), want %+v", back, err, td)
	}
	s := Reduce(State{}, Update{TripDetails: &td})
	s.TripDetails.Legs[0].Location = "Changed"
	if td.Legs[0].Location != "Lisbon" {
		t.Fatal("Reduce shares the update's legs")
	}
}

// A guess from the last message is asked about, in one short question with
// the best guess and what else was said, before any search; the trip is
// not recorded until the traveller answers.
func TestUnsureIsAsked(t *testing.T) {
	tests := []struct {
		extract, want string
	}{
		{`{"location":"Florence","startDate":"2027-03-14","endDate":"2027-03-17","numberOfGuests":2,"intent":"trip","language":"en","unsure":["location"]}`,
			"Just to check: Florence, 14–17 March, 2 of you?"},
		{`{"location":"Florence","startDate":"2027-03-14","endDate":"2027-03-17","intent":"trip","language":"pt","unsure":["location"]}`,
			"Só para confirmar: Florença, de 14 a 17 de março?"},
		{`{"location":"Lisbon","numberOfGuests":4,"intent":"accommodations","language":"pt","unsure":["numberOfGuests"]}`,
			"Só para confirmar: Lisboa, 4 pessoas?"},
		{`{"location":"Lisbon","intent":"trip","language":"en","unsure":["location"],"legs":[{"location":"Lisbon","nights":3},{"location":"Porto","nights":3}]}`,
			"Just to check: Lisbon then Porto?"},
	}
	for _, tt := range tests {
		var toolCalls []string
		m := &scripted{replies: []llms.ContentChoice{calls("extract", tt.extract)}}
		r := runTurn(t, newPlanner(t, m, testTools(&toolCalls)), uuid.NewString(), "a trip")
		if got := lastAI(r.state); got != tt.want {
			t.Errorf("question = %q, want %q", got, tt.want)
		}
		if r.state.TripDetails != nil || len(toolCalls) != 0 || !slices.Equal(r.nodes, []string{NodeExtraction}) {
			t.Errorf("after the question: trip %+v, tool calls %v, nodes %v", r.state.TripDetails, toolCalls, r.nodes)
		}
	}
}

// On the offline model: a trip of two cities is recorded with its legs
// and each leg is searched; a misspelt city two places compete for
// ("hoston": Houston or Boston) is asked about first, and the answer
// lets the planning go on with the city asked about.
func TestOfflineLegsAndGuess(t *testing.T) {
	m, err := offline.New(offline.WithClock(fixedNow))
	if err != nil {
		t.Fatal(err)
	}
	var toolCalls []string
	g := newPlanner(t, m, testTools(&toolCalls))
	r := runTurn(t, g, uuid.NewString(), "hotels in Lisbon then Porto, May 3-9, 2 of us")
	want := []Leg{{Location: "Lisbon", Country: "Portugal", StartDate: "2027-05-03", EndDate: "2027-05-06"}, {Location: "Porto", Country: "Portugal", StartDate: "2027-05-06", EndDate: "2027-05-09"}}
	if r.state.TripDetails == nil || !slices.Equal(r.state.TripDetails.Legs, want) {
		t.Fatalf("trip = %+v, want legs %+v", r.state.TripDetails, want)
	}
	if len(toolCalls) != 2 || !strings.Contains(toolCalls[0], `"location":"Lisbon, Portugal"`) || !strings.Contains(toolCalls[1], `"location":"Porto, Portugal"`) {
		t.Fatalf("tool calls = %v, want one per leg", toolCalls)
	}

	toolCalls = nil
	thread := uuid.NewString()
	r = runTurn(t, g, thread, "hotel in hoston May 3-7 for 2")
	asked := ""
	for _, city := range []string{"Houston", "Boston"} {
		if lastAI(r.state) == "Just to check: "+city+", 3–7 May, 2 of you?" {
			asked = city
		}
	}
	if asked == "" || len(toolCalls) != 0 {
		t.Fatalf("first answer %q, tool calls %v; want Houston or Boston asked about, nothing searched", lastAI(r.state), toolCalls)
	}
	r = runTurn(t, g, thread, "yes")
	if r.state.TripDetails == nil || r.state.TripDetails.Location != asked || len(toolCalls) != 1 {
		t.Fatalf("after yes: trip %+v, tool calls %v; want the trip to %s searched", r.state.TripDetails, toolCalls, asked)
	}
}
