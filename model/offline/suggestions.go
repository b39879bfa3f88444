package offline

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/locale"
	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/intent"
	"github.com/tripgraph/tripgraph/model/suggest"
)

// Suggestions: an open question (Extraction.Wish: "somewhere warm in
// December?", "praia perto de SP pra um fds") gets destinations to pick
// from (package suggest), and the next message may pick one by its name
// or its number. When none can be suggested, wishReply answers.

// maxSuggestions is how many destinations a reply proposes.
const maxSuggestions = 5

// withSuggestions reads suggestions into e once the profile is in (where
// the traveller lives is where a trip starts): destinations proposed for
// the last message, or the one it picks from those proposed before it.
func (e Extraction) withSuggestions(users []string, today time.Time, p *Profile) Extraction {
	n := len(users)
	if e.Wish != nil {
		e.Suggested = suggestionsFor(e, today)
		return e
	}
	if n < 2 || e.Injection || e.Intent == intent.Photos {
		return e
	}
	if _, named := gazetteer.Find(users[n-1]).Destination(); named {
		return e // a place named is picked by its name
	}
	before := Understand(users[:n-1], today)
	if before.Wish == nil {
		return e
	}
	list := suggestionsFor(before.withProfile(p, users[:n-1]), today)
	if i, ok := suggest.Choice(users[n-1], len(list)); ok {
		d := list[i]
		e.Location, e.Country, e.cc = d.Name, gazetteer.CountryName(d.Country, locale.English), d.Country
		if e.Intent == intent.Other || e.Intent == intent.None {
			e.Intent = intent.Trip
		}
	}
	return e
}

// suggestionsFor proposes destinations for e's open question: for the
// trip's month (its dates, else the month in four weeks, when a trip
// with no dates starts), from the city the question names, else from
// where the traveller lives, within the country it names.
func suggestionsFor(e Extraction, today time.Time) []suggest.Destination {
	if e.Wish == nil {
		return nil
	}
	q := suggest.Query{Wish: *e.Wish, Month: today.AddDate(0, 0, 28).Month(), From: e.from, Country: e.cc}
	if e.Dates.HasStart() {
		q.Month = e.Dates.Start.Month() // "Lisbon in May" then "somewhere warmer?": in May
	}
	if q.From == nil && e.HomeCity != "" {
		if c, ok := gazetteer.Lookup(e.HomeCity); ok {
			q.From = &c
		}
	}
	return suggest.For(q, maxSuggestions)
}

// suggestionReply lists the destinations proposed, numbered, each with
// its reason, and asks which one.
func suggestionReply(e Extraction) string {
	var b strings.Builder
	b.WriteString(say(e.Language, "Here are a few ideas:", "Algumas ideias:"))
	for i, d := range e.Suggested {
		fmt.Fprintf(&b, " %d. %s (%s);", i+1, placeName(d.Name, e.Language), reason(d, e.Language))
	}
	text := strings.TrimSuffix(b.String(), ";") + "."
	return text + say(e.Language, " Which one? Reply with its name or number.", " Qual delas? Responda com o nome ou o número.")
}

// kindReasons name what a destination is proposed for, English and
// Portuguese.
var kindReasons = map[intent.PlaceKind][2]string{
	intent.Beach: {"beaches", "praias"}, intent.Island: {"an island", "ilha"}, intent.Ski: {"snow and skiing", "neve e esqui"},
	intent.Mountain: {"mountains", "montanhas"}, intent.Lake: {"a lake", "lago"}, intent.Nature: {"nature", "natureza"},
	intent.City: {"a city break", "passeio urbano"},
}

// reason says in lang why d fits: its kind, its weather in the month and
// how far it is: "beaches, about 30 °C in December, 420 km from São
// Paulo".
func reason(d suggest.Destination, lang string) string {
	var parts []string
	if k, ok := kindReasons[d.Kind]; ok {
		parts = append(parts, say(lang, k[0], k[1]))
	}
	parts = append(parts, say(lang, fmt.Sprintf("about %d °C in %s", d.High, d.Month), fmt.Sprintf("cerca de %d °C em %s", d.High, ptMonths[d.Month])))
	if d.DistanceKm > 0 {
		km, from := int(math.Round(d.DistanceKm/10)*10), placeName(d.From, lang)
		parts = append(parts, say(lang, fmt.Sprintf("%d km from %s", km, from), fmt.Sprintf("a %d km de %s", km, from)))
	}
	return strings.Join(parts, ", ")
}
