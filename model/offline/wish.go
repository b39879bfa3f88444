package offline

import (
	"fmt"
	"strings"

	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/intent"
	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// openQuestion reads a message that asks for destinations to be
// suggested: it wishes for a climate, a kind of place or just somewhere,
// and names no destination besides a place to be near, one it leaves
// from or where the traveller lives, a place named in passing, or a
// country to keep to. Once the trip has its place (placed), only a
// message that asks for ideas in so many words ("somewhere warmer
// instead?") is one; a wish alone ("any good beaches?") is about the
// trip. It returns nil for any other message, else the wish and the city
// the trip starts from when the message names one (the place to be
// near: "praia perto de SP"; to leave from: "flying from Lisbon"; where
// the traveller lives).
func openQuestion(t string, m gazetteer.Mention, placed bool) (*intent.DestinationWish, *gazetteer.City) {
	w, ok := intent.ReadDestinationWish(t)
	asks := intent.AsksSuggestion(t)
	if !ok || placed && !asks || intent.ReadTalk(t) == intent.Unrelated && !asks {
		return nil, nil
	}
	switch intent.Detect(t) {
	case intent.Photos:
		return nil, nil
	case intent.Accommodations, intent.Restaurants:
		if !asks {
			return nil, nil // "hotel near the beach", "restaurants near Lisbon": a search
		}
	}
	var from *gazetteer.City
	if c, found := m.Destination(); found {
		switch {
		case c.Fuzzy && wishWord(t[c.Start:c.End]):
			return &w, nil // "nature", "fresco" are the wish, not Natore or Frisco misspelt
		case nearPlace(t[c.Start:c.End], w.Near):
			w.Near = t[c.Start:c.End] // the whole name: "Rio de Janeiro", not "Rio"
		case c.Origin, c.Role == gazetteer.Origin:
			// "flying from Lisbon", "we live in Porto": where the trip starts
		case c.Role.Passing():
			return &w, nil // a trip that was, a stop on the way
		default:
			return nil, nil // "a beach hotel in Salvador": a search
		}
		from = &c.City
	}
	return &w, from
}

// wishWord reports a single word an open question reads as a climate or
// a kind of place ("nature"; not "campo grannde", a misspelt Campo
// Grande).
func wishWord(name string) bool {
	if len(textnorm.Words(name)) != 1 {
		return false
	}
	w, _ := intent.ReadDestinationWish(name)
	return len(w.Climates) > 0 || len(w.Kinds) > 0
}

// nearPlace reports whether a place named is the one the destination
// should be near ("perto de SP").
func nearPlace(name, near string) bool {
	n, p := textnorm.Key(name), textnorm.Key(near)
	return near != "" && (strings.Contains(p, n) || strings.HasPrefix(n, p))
}

// wishReply answers an open question no destination can be suggested
// for (it asks nothing they are ranked by, or none fits): it says what
// was understood and asks the traveller to name a destination.
func wishReply(e Extraction) string {
	w := *e.Wish
	var parts []string
	en := e.Language != "pt"
	if len(w.Kinds) > 0 {
		parts = append(parts, joinWords(kindNames(w.Kinds, en), en))
	}
	if len(w.Climates) > 0 {
		parts = append(parts, joinWords(climateNames(w.Climates, en), en))
	}
	if w.Near != "" {
		parts = append(parts, say(e.Language, "near "+w.Near, "perto de "+w.Near))
	}
	when := wishWhen(e)
	what := strings.Join(parts, ", ")
	switch {
	case what != "" && when != "":
		return say(e.Language,
			fmt.Sprintf("You're looking for somewhere %s, %s. Which destination would you like? Tell me a city and I'll look for places to stay.", what, when),
			fmt.Sprintf("Você procura um lugar %s, %s. Qual destino você prefere? Diga uma cidade e eu busco hospedagem.", what, when))
	case what != "":
		return say(e.Language,
			fmt.Sprintf("You're looking for somewhere %s. Which destination would you like? Tell me a city and I'll look for places to stay.", what),
			fmt.Sprintf("Você procura um lugar %s. Qual destino você prefere? Diga uma cidade e eu busco hospedagem.", what))
	}
	return say(e.Language,
		"Which destination would you like? Tell me a city and I'll look for places to stay and restaurants.",
		"Qual destino você prefere? Diga uma cidade e eu busco hospedagem e restaurantes.")
}

func kindNames(ks []intent.PlaceKind, en bool) []string {
	pt := map[intent.PlaceKind]string{intent.Beach: "com praia", intent.Island: "numa ilha", intent.Mountain: "na montanha",
		intent.Ski: "para esquiar", intent.Lake: "com lago", intent.Countryside: "no interior", intent.Nature: "com natureza",
		intent.City: "numa cidade", intent.Culture: "com cultura", intent.Food: "com boa gastronomia", intent.Nightlife: "com vida noturna",
		intent.Romantic: "romântico", intent.Family: "para a família"}
	enN := map[intent.PlaceKind]string{intent.Beach: "by the beach", intent.Island: "on an island", intent.Mountain: "in the mountains",
		intent.Ski: "to ski", intent.Lake: "by a lake", intent.Countryside: "in the countryside", intent.Nature: "in nature",
		intent.City: "in a city", intent.Culture: "with culture", intent.Food: "with good food", intent.Nightlife: "with nightlife",
		intent.Romantic: "romantic", intent.Family: "for the family"}
	var out []string
	for _, k := range ks {
		if en {
			out = append(out, enN[k])
		} else {
			out = append(out, pt[k])
		}
	}
	return out
}

func climateNames(cs []intent.Climate, en bool) []string {
	pt := map[intent.Climate]string{intent.Warm: "quente", intent.Cold: "frio", intent.Snow: "com neve", intent.Mild: "de clima ameno",
		intent.Dry: "seco", intent.Sunny: "com sol"}
	enN := map[intent.Climate]string{intent.Warm: "warm", intent.Cold: "cold", intent.Snow: "with snow", intent.Mild: "mild",
		intent.Dry: "dry", intent.Sunny: "sunny"}
	var out []string
	for _, c := range cs {
		if en {
			out = append(out, enN[c])
		} else {
			out = append(out, pt[c])
		}
	}
	return out
}

// joinWords joins "a, b and c" / "a, b e c".
func joinWords(ws []string, en bool) string {
	and := " e "
	if en {
		and = " and "
	}
	if len(ws) <= 1 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + and + ws[len(ws)-1]
}

// wishWhen says when an open question's trip is: its dates, a month
// alone, or a season, in the reply's language.
func wishWhen(e Extraction) string {
	d := e.Dates
	switch {
	case d.HasStart() && d.HasEnd():
		return dateSpan(TripDetails{StartDate: isoDate(d.Start), EndDate: isoDate(d.End)}, e.Language)
	case d.HasStart() && len(e.Wish.Months) > 0:
		return say(e.Language, "in "+d.Start.Month().String(), "em "+ptMonths[d.Start.Month()])
	case e.Wish.Season != "":
		pt := map[intent.Season]string{intent.Spring: "na primavera", intent.Summer: "no verão", intent.Autumn: "no outono", intent.Winter: "no inverno"}
		return say(e.Language, "in "+string(e.Wish.Season), pt[e.Wish.Season])
	case d.Nights > 0:
		return say(e.Language, fmt.Sprintf("for %d nights", d.Nights), fmt.Sprintf("por %d noites", d.Nights))
	}
	return ""
}
