package offline

import (
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/model/dates"
	"github.com/tripgraph/tripgraph/model/gazetteer"
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
