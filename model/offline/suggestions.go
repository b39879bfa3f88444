package offline

import (
	"fmt"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/locale"
	"github.com/tripgraph/tripgraph/model/dates"
	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/intent"
	"github.com/tripgraph/tripgraph/model/suggest"
)

// Suggestions: a traveller who asks for a kind of place but names none
// ("somewhere warm in December?", "praia perto de SP pra um fds") gets
// destinations to pick from (package suggest), and may pick one by its
// name or its number in the next message.

// maxSuggestions is how many destinations a reply proposes.
const maxSuggestions = 5

// withSuggestions reads suggestions into e once the profile is in (where
// the traveller lives is where a trip starts): destinations proposed for
// the last message, or the one it picks from those proposed before it.
func (e Extraction) withSuggestions(users []string, today time.Time, p *Profile) Extraction {
	n := len(users)
	if n == 0 || e.Injection || e.Intent == intent.Photos {
		return e
	}
	if q, ok := readSuggestion(users[n-1], e, today); ok && (q.Open || !planned(users[:n-1], today)) {
		if list := suggest.For(q, maxSuggestions); len(list) > 0 {
			e.Suggested, e.Location, e.Country, e.Legs, e.Intent = list, "", "", nil, intent.Other
			return e
		}
	}
	if n < 2 {
		return e
	}
	if _, named := gazetteer.Find(users[n-1]).Destination(); named {
		return e // a place named is picked by its name
	}
	before := Understand(users[:n-1], today).withProfile(p, users[:n-1])
	list := suggestionsFor(users[n-2], before, today)
	if i, ok := suggest.Choice(users[n-1], len(list)); ok {
		d := list[i]
		e.Location, e.Country, e.cc = d.Name, gazetteer.CountryName(d.Country, locale.English), d.Country
		if e.Intent == intent.Other || e.Intent == intent.None {
			e.Intent = intent.Trip
		}
	}
	return e
}

// suggestionsFor proposes destinations for a message that asks for a
// kind of place and names no destination (a place it names is where the
// trip starts: "praia perto de SP"), from where the traveller lives when
// it names no starting point. A request for stays or meals gets none.
func suggestionsFor(text string, e Extraction, today time.Time) []suggest.Destination {
	q, ok := readSuggestion(text, e, today)
	if !ok {
		return nil
	}
	return suggest.For(q, maxSuggestions)
}

// readSuggestion reads what a message asks suggestions for, starting
// from where the traveller lives when it names no starting point.
func readSuggestion(text string, e Extraction, today time.Time) (suggest.Query, bool) {
	switch intent.Detect(text) {
	case intent.Accommodations, intent.Restaurants, intent.Photos:
		return suggest.Query{}, false // "a hotel near the beach in Lisbon" asks for stays, not places
	}
	q, ok := suggest.Read(text, e.Language, today)
	if !ok {
		return q, false
	}
	if q.From == nil && e.HomeCity != "" {
		if c, ok := gazetteer.Lookup(e.HomeCity); ok {
			q.From = &c
		}
	}
	if e.Dates.HasStart() && !dates.Parse(text, e.Language, today).HasStart() {
		q.Month = e.Dates.Start.Month() // "Lisbon in May" then "somewhere warmer?": in May
	}
	return q, true
}

// planned reports a trip the messages before already have a place for:
// then only a message that asks for ideas in so many words ("somewhere
// warmer?") is answered with suggestions, and a wish alone ("any good
// beaches?") leaves the trip as it is.
func planned(before []string, today time.Time) bool {
	return len(before) > 0 && Understand(before, today).Location != ""
}

// suggestionReply lists the destinations proposed, numbered, each with
// its reason, and asks which one.
func suggestionReply(e Extraction) string {
	var b strings.Builder
	b.WriteString(say(e.Language, "Here are a few ideas:", "Algumas ideias:"))
	for i, d := range e.Suggested {
		fmt.Fprintf(&b, " %d. %s (%s);", i+1, placeName(d.Name, e.Language), d.Reason(e.Language))
	}
	text := strings.TrimSuffix(b.String(), ";") + "."
	return text + say(e.Language, " Which one? Reply with its name or number.", " Qual delas? Responda com o nome ou o número.")
}

// asksForIdeas reports a message that asks for destinations in so many
// words ("somewhere warmer instead?"): after a trip it is no follow-up the
// results already answer.
func asksForIdeas(text, lang string, today time.Time) bool {
	q, ok := suggest.Read(text, lang, today)
	return ok && q.Open
}
