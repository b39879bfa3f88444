package suggest

import (
	"time"

	"github.com/tripgraph/tripgraph/model/dates"
	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// wishWords are the words that ask for a kind of destination, in English
// and Portuguese, folded.
var wishWords = map[string]Wish{
	"warm": Warm, "warmer": Warm, "hot": Warm, "sun": Warm, "sunny": Warm, "sunshine": Warm, "tropical": Warm,
	"quente": Warm, "calor": Warm, "calorzinho": Warm, "sol": Warm, "ensolarado": Warm,
	"beach": Beach, "beaches": Beach, "seaside": Beach, "praia": Beach, "praias": Beach, "litoral": Beach,
	"snow": Snow, "ski": Snow, "skiing": Snow, "neve": Snow, "esqui": Snow, "esquiar": Snow,
	"cool": Cool, "mild": Cool, "fresco": Cool, "friozinho": Cool, "ameno": Cool,
	"city": City, "museums": City, "museus": City, "cidade": City,
	"nature": Nature, "hiking": Nature, "hike": Nature, "waterfalls": Nature, "mountains": Nature,
	"natureza": Nature, "trilha": Nature, "trilhas": Nature, "cachoeira": Nature, "cachoeiras": Nature, "serra": Nature, "montanha": Nature,
	"cheap": Cheap, "budget": Cheap, "affordable": Cheap, "barato": Cheap, "barata": Cheap, "economico": Cheap, "economica": Cheap,
}

// nearWords ask for somewhere close: "perto de SP", "a weekend".
var nearWords = map[string]bool{"near": true, "close": true, "nearby": true, "perto": true, "proximo": true,
	"weekend": true, "fds": true, "bate": true, "getaway": true}

// openWords mark a question open to any destination: "somewhere",
// "algum lugar", "where should we go".
var openWords = map[string]bool{"somewhere": true, "anywhere": true, "where": true, "suggest": true, "ideas": true,
	"recommend": true, "lugar": true, "onde": true, "sugere": true, "sugestao": true, "sugestoes": true, "indica": true, "dica": true}

// Read takes a query from a message that asks for a kind of destination
// rather than naming one: its wishes, its month (else the month in four
// weeks, when a trip with no dates starts), the place named as a
// starting point ("perto de SP", "near Lisbon") and whether it asks for
// somewhere near. ok is false when the message has no wish, or names a
// destination other than as a starting point.
func Read(text, lang string, today time.Time) (q Query, ok bool) {
	words := textnorm.Words(text)
	if !anyWish(words) {
		return Query{}, false
	}
	m := gazetteer.Find(text)
	open := false
	for _, w := range words {
		if inPlace(m, w) {
			continue // "Quebec City", "Praia do Forte" name places, not wishes
		}
		if wish, ok := wishWords[w.Fold]; ok && !containsWish(q.Wishes, wish) {
			q.Wishes = append(q.Wishes, wish)
		}
		q.Near = q.Near || nearWords[w.Fold]
		open = open || openWords[w.Fold]
	}
	if len(q.Wishes) == 0 && !open {
		return Query{}, false
	}
	for _, c := range m.Cities {
		if !startingPoint(text, c) {
			return Query{}, false // a destination is named: no suggestion needed
		}
		city := c.City
		q.From = &city
	}
	if len(m.Countries) == 1 && len(m.Cities) == 0 {
		q.Country = m.Countries[0]
	}
	if len(q.Wishes) == 0 && q.Country == "" {
		return Query{}, false // "where should we go?" alone says nothing to rank by
	}
	q.Open = open
	q.Month = today.AddDate(0, 0, 28).Month()
	if d := dates.Parse(text, lang, today); d.HasStart() {
		q.Month = d.Start.Month()
	}
	return q, true
}

// startingPoint reports a place named as where the trip starts or what
// it should be near: "perto de SP", "near Lisbon", "from Porto".
func startingPoint(text string, c gazetteer.Match) bool {
	before := textnorm.Words(text[:c.Start])
	j := len(before) - 1
	if j >= 1 {
		switch before[j].Fold {
		case "de", "da", "do", "to", "of":
			j-- // "perto de", "close to"
		}
	}
	if j >= 0 {
		switch before[j].Fold {
		case "perto", "near", "close", "proximo", "proxima", "from", "saindo", "partindo", "around":
			return true
		}
	}
	return c.Origin || c.Role == gazetteer.Origin
}

// inPlace reports a word that is part of a place's name in m.
func inPlace(m gazetteer.Mention, w textnorm.Word) bool {
	for _, c := range m.Cities {
		if w.Start >= c.Start && w.End <= c.End {
			return true
		}
	}
	return false
}

func containsWish(ws []Wish, w Wish) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// Choice reads a follow-up that picks one of n suggestions by its number
// or its order ("the second one", "a 3", "opção 2", "#1"); it returns
// the index from 0, or false.
func Choice(text string, n int) (int, bool) {
	words := textnorm.Words(text)
	if len(words) == 0 || len(words) > 6 {
		return 0, false
	}
	for _, w := range words {
		i, ok := ordinals[w.Fold]
		if !ok || i > n {
			continue
		}
		if len(w.Fold) == 1 && len(words) > 3 {
			continue // "we are 2 adults" counts people; "the 2", "opção 2" pick
		}
		return i - 1, true
	}
	return 0, false
}

var ordinals = map[string]int{
	"1": 1, "2": 2, "3": 3, "4": 4, "5": 5,
	"1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "1o": 1, "2o": 2, "3o": 3, "4o": 4, "5o": 5, "1a": 1, "2a": 2, "3a": 3, "4a": 4, "5a": 5,
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
	"primeiro": 1, "primeira": 1, "segundo": 2, "segunda": 2, "terceiro": 3, "terceira": 3, "quarto": 4, "quarta": 4, "quinto": 5, "quinta": 5,
}

// anyWish reports a word that asks for a kind of place or a suggestion.
func anyWish(words []textnorm.Word) bool {
	for _, w := range words {
		if _, ok := wishWords[w.Fold]; ok || openWords[w.Fold] {
			return true
		}
	}
	return false
}
