package nodes

import (
	"fmt"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/locale"
	"github.com/tripgraph/tripgraph/model/gazetteer"
)

// resolveLegs gives each leg of a trip of several cities its dates: its
// own when the extract call gave them; else from the end of the leg before
// (the first from the trip's start), for its own nights or its share of
// the trip's, the first legs taking a night left over. The trip's city is
// the first leg's, and its dates the legs' together.
func resolveLegs(a extractArgs, td *TripDetails) {
	if len(a.Legs) < 2 {
		return
	}
	start, _ := parseDate(td.StartDate)
	end, _ := parseDate(td.EndDate)
	total := int(end.Sub(start).Hours() / 24)
	known, unknown := 0, 0
	for _, l := range a.Legs {
		switch n := legNights(l); {
		case n > 0:
			known += n
		default:
			unknown++
		}
	}
	share, extra := 0, 0
	if unknown > 0 {
		share, extra = max(1, (total-known)/unknown), max(0, (total-known)%unknown)
	}
	td.Legs = make([]Leg, 0, len(a.Legs))
	at := start
	for _, l := range a.Legs {
		s, ok := parseDate(l.StartDate)
		if !ok {
			s = at
		}
		n := legNights(l)
		if n == 0 {
			n = share
			if extra > 0 {
				n, extra = n+1, extra-1
			}
		}
		e := s.AddDate(0, 0, n)
		td.Legs = append(td.Legs, Leg{Location: l.Location, Country: l.Country, StartDate: s.Format(time.DateOnly), EndDate: e.Format(time.DateOnly)})
		at = e
	}
	first, last := td.Legs[0], td.Legs[len(td.Legs)-1]
	td.Location, td.Country, td.StartDate, td.EndDate = first.Location, first.Country, first.StartDate, last.EndDate
}

// legNights is a leg's length as the extract call gave it: its dates, or
// its nights; 0 when neither was said.
func legNights(l legArgs) int {
	s, ok1 := parseDate(l.StartDate)
	e, ok2 := parseDate(l.EndDate)
	if ok1 && ok2 && e.After(s) {
		return int(e.Sub(s).Hours() / 24)
	}
	return max(0, l.Nights)
}

// confirmQuestion asks, in one short question, whether a reading guessed
// from the traveller's last message is right, with the best guess and
// what else they said: "Just to check: Florence, 14–17 March, 2 of you?"
func confirmQuestion(a extractArgs, td TripDetails, lang string) string {
	var places []string
	if len(td.Legs) > 0 {
		for _, l := range td.Legs {
			places = append(places, gazetteer.CityName(l.Location, lang))
		}
	} else {
		places = []string{gazetteer.CityName(td.Location, lang)}
	}
	parts := []string{strings.Join(places, map[bool]string{true: " e depois ", false: " then "}[lang == locale.Portuguese])}
	if _, ok := parseDate(a.StartDate); ok {
		parts = append(parts, spanPhrase(td.StartDate, td.EndDate, lang))
	}
	if a.NumberOfGuests > 0 {
		n := a.NumberOfGuests
		switch {
		case lang == locale.Portuguese && n == 1:
			parts = append(parts, "1 pessoa")
		case lang == locale.Portuguese:
			parts = append(parts, fmt.Sprintf("%d pessoas", n))
		case n == 1:
			parts = append(parts, "just you")
		default:
			parts = append(parts, fmt.Sprintf("%d of you", n))
		}
	}
	return reply(lang, "confirm", strings.Join(parts, ", "))
}
