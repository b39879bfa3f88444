package offline

import (
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/model/intent"
)

// An open question is answered with destinations to choose from, never
// a search, and leaves the trip with no place; a named destination beside
// the same words is a search. Once the trip has its place, only asking
// for ideas in so many words is an open question.
func TestOpenQuestions(t *testing.T) {
	today := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		turns    []string
		wish     bool
		location string
	}{
		{[]string{"Somewhere warm in December?"}, true, ""},
		{[]string{"praia perto de SP pra um fim de semana"}, true, ""},
		{[]string{"hotel in Lisbon, 3 nights from May 4", "any ideas for somewhere sunny in March?"}, true, ""},
		{[]string{"Lisbon in May, 2 of us", "any good beaches?"}, false, "Lisbon"},
		{[]string{"we live in Porto. somewhere warm in December?"}, true, ""},
		{[]string{"flying from Lisbon, somewhere warm in December?"}, true, ""},
		{[]string{"somewhere warm in December?", "who won the match yesterday?"}, false, ""},
		{[]string{"where's sunny in November?"}, true, ""},
		{[]string{"cheap city break in April?"}, true, ""},
		{[]string{"suggest somewhere with nature in October"}, true, ""},
		{[]string{"lugar mais fresco em agosto?"}, true, ""},
		{[]string{"beach hotel in Salvador in March"}, false, "Salvador"},
		{[]string{"Somewhere warm in December?", "Salvador then, 5 nights"}, false, "Salvador"},
	}
	for _, tt := range tests {
		e := Understand(tt.turns, today)
		if (e.Wish != nil) != tt.wish || e.Location != tt.location {
			t.Errorf("Understand(%q): wish %v, location %q; want wish %v, location %q", tt.turns, e.Wish != nil, e.Location, tt.wish, tt.location)
		}
		if tt.wish && e.Intent != intent.Other {
			t.Errorf("Understand(%q): intent %q, want other (no search)", tt.turns, e.Intent)
		}
	}
}
