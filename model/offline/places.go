package offline

import (
	"slices"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/model/dates"
	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/intent"
)

// placeMark stands for a place's name in the text the readers of dates
// see: a word none of them knows, so that the words on either side stay
// apart ("5 em Porto Seguro em janeiro" is no "5 de janeiro").
const placeMark = "lugarx"

// withoutPlaces is the text with the city names of several words that
// read as dates replaced by placeMark, for the readers of dates: the "Domingo" of
// "Santo Domingo" is no Sunday. A name that is also a holiday ("Corpus
// Christi", "Natal") is left to the dates' own rules, which tell the
// holiday from the town.
func withoutPlaces(t string, m gazetteer.Mention, today time.Time) string {
	var b strings.Builder
	last := 0
	for _, c := range m.Cities {
		if c.Start < last || c.End > len(t) {
			continue
		}
		name := t[c.Start:c.End]
		if !strings.ContainsAny(strings.TrimSpace(name), " -") {
			continue // one word ("Mach", "Natal") is left to the dates' own rules
		}
		if dates.Parse(name, "en", today).Empty() && dates.Parse(name, "pt", today).Empty() || dates.NamesHoliday(name) {
			continue
		}
		b.WriteString(t[last:c.Start])
		b.WriteString(placeMark)
		last = c.End
	}
	if last == 0 {
		return t
	}
	b.WriteString(t[last:])
	return b.String()
}

// readPhotoPlace reads the place of a photo request: a city, never a
// region, island or park, which names an album ("my Bahia album") rather
// than a city to search in.
func (e *Extraction) readPhotoPlace(m gazetteer.Mention) {
	m.Cities = slices.DeleteFunc(slices.Clone(m.Cities), func(c gazetteer.Match) bool { return c.Kind != "" })
	e.readPlace(m)
}

// countryAsPlace makes a country named alone the trip's place: "Greece in
// June" is a trip to Greece, which the catalog answers with the cities it
// covers there. It takes a request (asked, said as a stay or a meal,
// with dates or a party, or in words of travel: "quero ir pra Tailândia"): a question that names a country ("is a 20%
// tip normal in the US?") plans nothing. Photo requests and talk keep
// only the country.
func (e *Extraction) countryAsPlace(asked intent.Intent, last string) {
	switch e.Intent {
	case intent.Trip, intent.Accommodations, intent.Restaurants:
	default:
		return
	}
	request := asked != intent.None || !e.Dates.Empty() || e.Guests > 0 || gazetteer.AboutTravel(last)
	if request && e.Location == "" && e.Country != "" && len(e.Legs) == 0 {
		e.Location = e.Country
	}
}
