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
// and names no destination besides a place to be near. It returns nil
// for any other message.
func openQuestion(t string, m gazetteer.Mention) *intent.DestinationWish {
	w, ok := intent.ReadDestinationWish(t)
	if !ok || intent.ReadTalk(t) == intent.Unrelated && !intent.AsksSuggestion(t) {
		return nil
	}
	switch intent.Detect(t) {
	case intent.Photos:
		return nil
	case intent.Accommodations, intent.Restaurants:
		if !intent.AsksSuggestion(t) {
			return nil // "hotel near the beach", "restaurants near Lisbon": a search
		}
	}
	if c, found := m.Destination(); found {
		if !nearPlace(t[c.Start:c.End], w.Near) {
			return nil // "a beach hotel in Salvador": a search
		}
		w.Near = t[c.Start:c.End] // the whole name: "Rio de Janeiro", not "Rio"
	}
	if len(m.Countries) > 0 && w.Near == "" {
		return nil // "somewhere warm in Greece": the country is the destination
	}
	return &w
}

// nearPlace reports whether a place named is the one the destination
// should be near ("perto de SP").
func nearPlace(name, near string) bool {
	n, p := textnorm.Key(name), textnorm.Key(near)
	return near != "" && (strings.Contains(p, n) || strings.HasPrefix(n, p))
}

// wishReply answers an open question: it says what was understood and
// asks the traveller to name a destination. This is where destinations
// to suggest are to be given, once a suggester takes a DestinationWish.
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
