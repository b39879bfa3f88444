// Package intent tells what a traveller's message asks for: places to
// stay, restaurants, a whole trip or their own photo albums, and in which
// language (English or Portuguese) it is written. It also reads the details
// tools need: cuisine, price range, and what to search photos for.
package intent

import (
	"strings"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// Intent is what a message asks for.
type Intent string

// The intents, as the extract tool reports them.
const (
	None           Intent = ""
	Accommodations Intent = "accommodations"
	Restaurants    Intent = "restaurants"
	Trip           Intent = "trip"
	Photos         Intent = "photos"
	Other          Intent = "other"
)

var (
	stayWords = set(`hotel hotels hostel hostels stay stays staying accommodation
accommodations accomodation accomodations lodging lodge airbnb airbnbs bnb
apartment apartments flat flats room rooms resort resorts inn inns motel
villa villas guesthouse sleep hospedagem hospedagens hospedar hospedado pousada
pousadas acomodacao acomodacoes apartamento apartamentos quarto quartos
hoteis albergue dormir ficar crash estadia chale cabana cabin ryokan hostal
accomodations`)
	// bookWords ask for a place to stay unless food is mentioned too.
	bookWords = set(`book booking reserve reservation reserva reservar reservas`)
	foodWords = set(`restaurant restaurants eat eating food foods dinner dinners
lunch brunch dining dine cuisine sushi pizza pizzeria ramen tapas steakhouse
bistro bistros seafood vegan vegetarian bbq barbecue burger burgers
restaurante restaurantes comer comida comidas jantar jantares almoco almocar
gastronomia churrascaria rodizio pizzaria frutos lanchonete boteco botecos
tasca tascas petiscos culinaria vegano vegetariano hamburguer foodie michelin
eats kebab tacos paella janto jantamos jantarmos almocamos comemos
comermos lanchar mesa table`)
	photoWords = set(`photo photos pic pics picture pictures album albums foto fotos
album albuns imagens images selfie selfies snapshots`)
	statWords = set(`stats statistics estatisticas estatistica resumo summary`)
	tripWords = set(`trip travel travelling traveling vacation holiday holidays
visit visiting getaway plan planning itinerary viagem viajar ferias passeio
visitar conhecer roteiro escapada`)
	smallTalk = set(`thanks thank thx obrigado obrigada valeu hi hello hey oi ola
bye tchau ok okay great perfect otimo perfeito legal vlw obg brigado brigada
blz beleza thx ty tysm cheers cool`)
)

// Detect returns what one message asks for: None when it asks nothing new
// (so an earlier message's intent stands), Other for small talk.
func Detect(text string) Intent {
	w := words(text)
	stay, food, photo, trip, talk, book := false, false, false, false, false, false
	for i, s := range w {
		switch {
		case bookWords[s]:
			book = true
		case photoWords[s]:
			photo = true
		case statWords[s] && (has(w, "trip", "viagem", "album", "albuns", "albums")):
			photo = true
		case stayWords[s] && !stayException(w, i), hasPrefix(s, "hotel", "hosped", "acomod", "accom"):
			stay = true
		case foodWords[s] && liking(w, i):
			trip = true // "and we love ramen": a taste, not a search for restaurants alone
		case foodWords[s] && !foodException(w, i), hasPrefix(s, "restaur"):
			food = true
		case misspelt(s, stayKeys):
			stay = true // "hotle", "hostal", "pousda"
		case misspelt(s, foodKeys):
			food = true // "restuarants", "restaurnte"
		case tripWords[s]:
			trip = true
		case smallTalk[s]:
			talk = true
		}
	}
	stay = stay || book && !food
	if !stay && !food && (History(text) != NoAsk || showsTrip(w)) {
		photo = true
	}
	if !stay && !food && !photo && !book && !trip && (offTopic(w) || offTopicQuestion(w) || identity(w) || howAreYou(w) || greeting(w)) {
		return Other
	}
	switch {
	case photo:
		return Photos
	case stay && food:
		return Trip
	case stay:
		return Accommodations
	case food:
		return Restaurants
	case trip:
		return Trip
	case talk:
		return Other
	}
	return None
}

// showsTrip reads "show me the Porto trip", "me mostra a viagem do
// Porto": a trip that was is shown from its album.
func showsTrip(w []string) bool {
	for i, s := range w {
		switch s {
		case "show", "mostra", "mostre", "mostrar":
			for j := i + 1; j < len(w) && j <= i+4; j++ {
				switch w[j] {
				case "trip", "vacation", "holiday", "viagem", "ferias":
					return true
				case "hotel", "hotels", "hoteis", "restaurants", "restaurantes", "options", "opcoes":
					return false
				}
			}
		}
	}
	return false
}

// stayException filters "ficar" and "stay" used for other things.
func stayException(w []string, i int) bool {
	switch w[i] {
	case "ficar", "stay", "staying", "dormir", "sleep", "crash":
		// "where (can we) stay", "lugar pra ficar" count; "stay for 3
		// nights" alone is a trip.
		for j := max(0, i-4); j < i; j++ {
			switch w[j] {
			case "where", "onde", "place", "places", "lugar", "lugares", "somewhere", "algum":
				return false
			}
		}
		if i == 0 && (at(w, 1) == "in" || at(w, 1) == "at" || at(w, 1) == "near") {
			return false // "stay in Paris until…"
		}
		if w[i] == "stay" && stayNounBefore[at(w, i-1)] {
			return false // "a cheap stay in NYC", "our stay": the noun
		}
		return !(at(w, i-1) == "to" || at(w, i+1) == "num" || at(w, i+1) == "numa" || at(w, i+1) == "in" && at(w, i+2) == "a")
	case "room", "rooms", "quarto", "quartos":
		return at(w, i+1) == "for" && at(w, i+2) == "dessert"
	}
	return false
}

// stayNounBefore make "stay" the noun, a place to stay: "a cheap stay",
// "a short stay", "our stay".
var stayNounBefore = set(`a cheap budget affordable luxury luxurious short quick cozy cosy comfy nice
our my good decent`)

// stayKeys and foodKeys are the words of a request for stays or
// restaurants that travellers misspell: one letter dropped, doubled,
// swapped or wrong is still the word (two in the long ones).
var (
	stayKeys = []string{"hotel", "hotels", "hostel", "hostels", "pousada", "pousadas", "hospedagem", "accommodation", "apartment", "airbnb"}
	foodKeys = []string{"restaurant", "restaurants", "restaurante", "restaurantes"}
)

// misspelt reports a word of five letters or more one edit from a key
// (two for keys of ten letters or more) and no word the model knows.
func misspelt(s string, keys []string) bool {
	if len(s) < 5 || stayWords[s] || foodWords[s] || tripWords[s] || commonNear[s] {
		return false
	}
	for _, k := range keys {
		if s[0] != k[0] && s[1] != k[0] {
			continue
		}
		limit := 1
		if len(k) >= 10 {
			limit = 2
		}
		if d := editDistance(s, k, limit); d > 0 && d <= limit {
			return true
		}
	}
	return false
}

// commonNear are words one edit from a key that mean something else.
var commonNear = set(`hostels hotels motel motels hovel hovels hostal pousar`)

// editDistance is the optimal string alignment distance of a and b, or
// limit+1 when it is more than limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			best = min(best, cur[j])
		}
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// liking reports a food word said as a taste of the travellers' ("we
// love ramen", "adoramos frutos do mar"), not as what to search for.
func liking(w []string, i int) bool {
	for j := i - 1; j >= max(0, i-3); j-- {
		switch w[j] {
		case "love", "loves", "like", "likes", "enjoy", "adoro", "adoramos", "amo", "amamos", "gosto", "gostamos", "curtimos", "curto":
			return has(w, "trip", "viagem", "week", "semana", "nights", "noites", "of", "somos") && !has(w, "restaurant", "restaurants", "restaurante", "restaurantes", "eat", "comer", "dinner", "jantar")
		}
	}
	return false
}

// foodException filters food words that are not about restaurants.
func foodException(w []string, i int) bool {
	return w[i] == "frutos" && at(w, i+2) != "mar"
}

func hasPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func words(text string) []string {
	ws := textnorm.Words(text)
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Fold
	}
	return out
}

func at(w []string, i int) string {
	if i < 0 || i >= len(w) {
		return ""
	}
	return w[i]
}

func has(w []string, any ...string) bool {
	for _, s := range w {
		for _, a := range any {
			if s == a {
				return true
			}
		}
	}
	return false
}

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}
