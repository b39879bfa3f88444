package offline

import (
	"fmt"
	"strings"

	"github.com/tripgraph/tripgraph/model/gazetteer"
)

// placeName is how a reply names the trip's city, given by its English
// name: its canonical name in the reply's language ("Lisboa", "Nova
// York" in Portuguese), never the traveller's spelling ("lisbia",
// "nova iorque").
func placeName(city, lang string) string {
	return gazetteer.CityName(city, lang)
}

// Misspelling is a place of the trip read from a misspelt name.
type Misspelling struct {
	City    string // the place's English name
	Written string // as the traveller wrote it
}

// misspellings are the trip's places (its location or a leg) that m read
// from misspelt names.
func misspellings(m gazetteer.Mention, e *Extraction) []Misspelling {
	var out []Misspelling
	for _, c := range m.Cities {
		if !c.Fuzzy || !e.isTripPlace(c.Name) {
			continue
		}
		out = append(out, Misspelling{City: c.Name, Written: c.Written})
	}
	return out
}

// isTripPlace reports whether a city is the trip's location or a leg.
func (e *Extraction) isTripPlace(city string) bool {
	if city == e.Location {
		return true
	}
	for _, l := range e.Legs {
		if l.Location == city {
			return true
		}
	}
	return false
}

// withSpellings names, in a reply, each place read from a misspelt name
// with what the traveller wrote, so that a wrong guess shows at once:
// "Kraków (you wrote krakov)". The place's first mention carries the
// note; a reply that does not name the place starts with it.
func withSpellings(reply string, e Extraction) string {
	for _, m := range e.Misspelt {
		name := placeName(m.City, e.Language)
		note := fmt.Sprintf(say(e.Language, "%s (you wrote %s)", "%s (você escreveu %s)"), name, m.Written)
		if strings.Contains(reply, name) {
			reply = strings.Replace(reply, name, note, 1)
		} else {
			reply = note + ": " + reply
		}
	}
	return reply
}
