package intent

import (
	"slices"
	"time"

	"github.com/tripgraph/tripgraph/model/internal/numwords"
	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// Words of an open question, folded, by what they ask of a destination.
var (
	climateWords = map[string]Climate{
		"warm": Warm, "warmer": Warm, "hot": Warm, "hotter": Warm, "heat": Warm, "tropical": Warm, "calor": Warm, "quente": Warm, "quentinho": Warm, "calorzinho": Warm,
		"cold": Cold, "colder": Cold, "cool": Cold, "cooler": Cold, "chilly": Cold, "frio": Cold, "friozinho": Cold, "fresco": Cold,
		"snow": Snow, "snowy": Snow, "neve": Snow, "nevando": Snow,
		"mild": Mild, "pleasant": Mild, "ameno": Mild, "agradavel": Mild,
		"dry": Dry, "seco": Dry,
		"sunny": Sunny, "sunnier": Sunny, "sunshine": Sunny, "sun": Sunny, "sol": Sunny, "ensolarado": Sunny,
	}
	kindWords = map[string]PlaceKind{
		"beach": Beach, "beaches": Beach, "seaside": Beach, "coast": Beach, "coastal": Beach, "praia": Beach, "praias": Beach, "litoral": Beach, "mar": Beach,
		"island": Island, "islands": Island, "ilha": Island, "ilhas": Island,
		"mountain": Mountain, "mountains": Mountain, "hiking": Mountain, "hike": Mountain, "montanha": Mountain, "montanhas": Mountain, "serra": Mountain, "trilha": Mountain, "trilhas": Mountain,
		"ski": Ski, "skiing": Ski, "esqui": Ski, "esquiar": Ski,
		"lake": Lake, "lakes": Lake, "lago": Lake, "lagos": Lake,
		"countryside": Countryside, "village": Countryside, "rural": Countryside, "interior": Countryside, "campo": Countryside, "roca": Countryside, "sitio": Countryside,
		"nature": Nature, "waterfall": Nature, "waterfalls": Nature, "natureza": Nature, "cachoeira": Nature, "cachoeiras": Nature, "parque": Nature,
		"city": City, "cities": City, "cidade": City, "urban": City,
		"culture": Culture, "museums": Culture, "history": Culture, "historic": Culture, "cultura": Culture, "museus": Culture, "historia": Culture, "historica": Culture,
		"food": Food, "foodie": Food, "wine": Food, "gastronomia": Food, "vinho": Food, "vinhos": Food,
		"nightlife": Nightlife, "party": Nightlife, "parties": Nightlife, "balada": Nightlife, "baladas": Nightlife, "festa": Nightlife,
		"romantic": Romantic, "honeymoon": Romantic, "romantico": Romantic, "romantica": Romantic,
		"family": Family, "kids": Family, "familia": Family, "criancas": Family,
	}
	budgetWords = map[string]Budget{
		"cheap": Cheap, "budget": Cheap, "affordable": Cheap, "inexpensive": Cheap, "barato": Cheap, "barata": Cheap, "economico": Cheap, "economica": Cheap,
		"luxury": Luxury, "luxurious": Luxury, "upscale": Luxury, "fancy": Luxury, "luxo": Luxury, "chique": Luxury, "luxuoso": Luxury,
	}
	seasonWords = map[string]Season{
		"spring": Spring, "primavera": Spring, "summer": Summer, "verao": Summer,
		"autumn": Autumn, "fall": Autumn, "outono": Autumn, "winter": Winter, "inverno": Winter,
	}
	monthWords = map[string]time.Month{
		"january": 1, "janeiro": 1, "february": 2, "fevereiro": 2, "march": 3, "marco": 3, "april": 4, "abril": 4,
		"may": 5, "maio": 5, "june": 6, "junho": 6, "july": 7, "julho": 7, "august": 8, "agosto": 8,
		"september": 9, "setembro": 9, "october": 10, "outubro": 10, "november": 11, "novembro": 11, "december": 12, "dezembro": 12,
	}
	// suggestWords ask for a place to be chosen: "somewhere", "where
	// should we go", "alguma sugestão", "pra onde".
	suggestWords = set(`somewhere anywhere someplace suggest suggestion suggestions ideas idea
destination destinations recommend recommendation lugar lugares destino destinos
sugestao sugestoes sugere sugira indica indique dica dicas ideia ideias`)
	// nearWords introduce the place a destination should be near.
	nearWords = set(`near close nearby around perto proximo proxima arredores from de`)
)

// ReadDestinationWish reads what an open question asks of a destination.
// ok reports whether the message asks for suggestions at all: a word
// asking for a place to be chosen ("somewhere", "onde ir", "alguma
// sugestão") or a kind of place or climate wished for ("a beach near
// SP", "praia perto de SP pra um fds"). Whether a city is named besides
// the place to be near is for the caller, who has the gazetteer.
func ReadDestinationWish(text string) (DestinationWish, bool) {
	ws := textnorm.Words(text)
	var w DestinationWish
	asks := asksSuggestion(ws)
	for i, x := range ws {
		f := x.Fold
		switch {
		case climateWords[f] != "" && !(f == "sun" && wf(ws, i-1) != "the"):
			w.Climates = appendOnce(w.Climates, climateWords[f])
		case kindWords[f] != "":
			w.Kinds = appendOnce(w.Kinds, kindWords[f])
		case budgetWords[f] != "":
			w.Budget = budgetWords[f]
		case seasonWords[f] != "" && !(f == "fall" && wf(ws, i-1) != "the" && wf(ws, i-1) != "in"):
			w.Season = seasonWords[f]
		case monthWords[f] != 0 && !(f == "may" && wf(ws, i-1) != "in"):
			w.Months = appendOnce(w.Months, monthWords[f])
		case f == "abroad" || f == "overseas" || f == "exterior" || f == "internacional" || f == "fora" && wf(ws, i+1) == "do" && wf(ws, i+2) == "pais":
			w.Scope = Abroad
		case f == "nacional" || f == "domestic" || f == "sem" && wf(ws, i+1) == "sair":
			w.Scope = Domestic
		}
	}
	w.Near = near(text, ws)
	w.Nights = wishNights(ws)
	if c, ok := ReadPriceCap(text); ok {
		w.Cap = c
	}
	// A city alone is no wish ("city break", "meico city in October": a
	// name the gazetteer missed) unless it is to be near somewhere or at
	// a price: "a cheap city break in April?".
	citied := w.Near != "" || w.Budget != ""
	return w, asks || len(w.Climates) > 0 || len(w.Kinds) > 0 && (citied || !slices.Contains(w.Kinds, City))
}

// AsksSuggestion reports a message that asks for a place to be chosen:
// "somewhere", "where should we go", "where's sunny", "alguma sugestão",
// "pra onde".
func AsksSuggestion(text string) bool {
	return asksSuggestion(textnorm.Words(text))
}

func asksSuggestion(ws []textnorm.Word) bool {
	for i, x := range ws {
		f := x.Fold
		if suggestWords[f] || f == "where" && (wf(ws, i+1) == "should" || wf(ws, i+1) == "to" || wheresClimate(ws, i+1)) ||
			f == "onde" && (wf(ws, i+1) == "ir" || wf(ws, i-1) == "pra" || wf(ws, i-1) == "para") {
			return true
		}
	}
	return false
}

// wheresClimate reports "is warm", "'s sunny", "is it cold" at ws[i]:
// after "where", a question for a place by its weather.
func wheresClimate(ws []textnorm.Word, i int) bool {
	if f := wf(ws, i); f != "is" && f != "s" {
		return false
	}
	if wf(ws, i+1) == "it" {
		i++
	}
	return climateWords[wf(ws, i+1)] != ""
}

// nearStops end the name of the place to be near.
var nearStops = set(`for por this next pra para with com and e or ou`)

// near reads the place a destination should be near, as written: the
// words after "near", "close to", "perto de", "a short drive from",
// "saindo de", up to punctuation, a preposition or a time word.
func near(text string, ws []textnorm.Word) string {
	for i, x := range ws {
		f := x.Fold
		if !nearWords[f] {
			continue
		}
		j := i + 1
		switch {
		case f == "close" && (wf(ws, j) == "to"), f == "perto" && (wf(ws, j) == "de" || wf(ws, j) == "da" || wf(ws, j) == "do"),
			(f == "proximo" || f == "proxima") && (wf(ws, j) == "a" || wf(ws, j) == "de" || wf(ws, j) == "da" || wf(ws, j) == "do"):
			j++
		case f == "from" && (wf(ws, i-1) == "drive" || wf(ws, i-1) == "hours" || wf(ws, i-1) == "far"),
			f == "de" && (wf(ws, i-1) == "saindo" || wf(ws, i-1) == "longe"):
		case f == "near" || f == "nearby" || f == "around":
		default:
			continue
		}
		e := j
		for e < len(ws) && e < j+3 && !preps[ws[e].Fold] && !nearStops[ws[e].Fold] && monthWords[ws[e].Fold] == 0 &&
			(kindWords[ws[e].Fold] == "" || ws[e].Cap) && !(e > j && breaks(text, ws[e-1], ws[e])) {
			e++
		}
		if e > j {
			return span(text, ws[j:e])
		}
	}
	return ""
}

// wishNights reads the length an open question gives: "a weekend", "pra
// um fds", "a week", "5 nights".
func wishNights(ws []textnorm.Word) int {
	for i, x := range ws {
		switch f := x.Fold; f {
		case "weekend", "fds":
			if wf(ws, i-1) == "long" {
				return 3
			}
			return 2
		case "fim", "final":
			if wf(ws, i+1) == "de" && wf(ws, i+2) == "semana" {
				return 2
			}
		case "week", "semana":
			if wf(ws, i-1) == "a" || wf(ws, i-1) == "uma" || wf(ws, i-1) == "one" {
				return 7
			}
		case "nights", "noites", "days", "dias":
			if i > 0 {
				if n, ok := numwords.Read([]string{ws[i-1].Fold}); ok && !n.Weak {
					return n.Value
				}
				if n, ok := number(ws[i-1].Fold); ok {
					return int(n)
				}
			}
		}
	}
	return 0
}

func appendOnce[T comparable](list []T, v T) []T {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}
