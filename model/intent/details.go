package intent

import (
	"strings"

	"github.com/tripgraph/tripgraph/locale"
)

// cuisines maps folded words to the cuisine passed to list-restaurants.
var cuisines = map[string]string{
	"sushi": "sushi", "ramen": "ramen", "pizza": "pizza", "pizzaria": "pizza", "pizzeria": "pizza",
	"tapas": "tapas", "seafood": "seafood", "frutos": "seafood", "peixe": "seafood", "fish": "seafood",
	"steak": "steakhouse", "steakhouse": "steakhouse", "churrascaria": "steakhouse", "churrasco": "steakhouse", "bbq": "barbecue", "barbecue": "barbecue",
	"vegan": "vegan", "vegano": "vegan", "vegana": "vegan", "vegetarian": "vegetarian", "vegetariano": "vegetarian", "vegetariana": "vegetarian",
	"japanese": "japanese", "japonesa": "japanese", "japones": "japanese",
	"italian": "italian", "italiana": "italian", "italiano": "italian",
	"mexican": "mexican", "mexicana": "mexican", "mexicano": "mexican",
	"french": "french", "francesa": "french", "frances": "french",
	"thai": "thai", "tailandesa": "thai", "chinese": "chinese", "chinesa": "chinese",
	"indian": "indian", "indiana": "indian", "korean": "korean", "coreana": "korean",
	"portuguese": "portuguese", "portuguesa": "portuguese", "brazilian": "brazilian", "brasileira": "brazilian",
	"greek": "greek", "grega": "greek", "spanish": "spanish", "espanhola": "spanish",
	"arabic": "arabic", "arabe": "arabic", "lebanese": "lebanese", "libanesa": "lebanese",
	"peruvian": "peruvian", "peruana": "peruvian", "burger": "burgers", "burgers": "burgers", "hamburguer": "burgers",
	"mineira": "brazilian", "nordestina": "brazilian", "baiana": "brazilian",
	// Portuguese plurals: "restaurantes japoneses".
	"japoneses": "japanese", "italianos": "italian", "mexicanos": "mexican", "franceses": "french",
	"tailandeses": "thai", "chineses": "chinese", "indianos": "indian", "coreanos": "korean",
	"portugueses": "portuguese", "brasileiros": "brazilian", "gregos": "greek", "espanhois": "spanish",
	"arabes": "arabic", "libaneses": "lebanese", "peruanos": "peruvian", "veganos": "vegan", "vegetarianos": "vegetarian",
}

// peopleWords can describe people as well as food ("amigos italianos"):
// they name a cuisine only after a word about eating.
var peopleWords = map[string]bool{
	"italiano": true, "frances": true, "japones": true, "italianos": true, "franceses": true, "japoneses": true,
	"mexicanos": true, "chineses": true, "indianos": true, "coreanos": true, "portugueses": true,
	"brasileiros": true, "gregos": true, "espanhois": true, "arabes": true, "libaneses": true, "peruanos": true,
	"tailandeses": true,
}

// eatingWords introduce a cuisine.
var eatingWords = map[string]bool{"restaurante": true, "restaurantes": true, "comida": true, "cozinha": true, "lugar": true, "lugares": true}

// Cuisine returns the cuisine a message asks for ("comida japonesa" →
// "japanese"), or "".
func Cuisine(text string) string {
	return cuisine(text, false)
}

// CuisineFollowUp reads a cuisine in a follow-up to a restaurant search,
// where a word that may also describe people can only mean the food: "e
// italianos?".
func CuisineFollowUp(text string) string {
	return cuisine(text, true)
}

func cuisine(text string, food bool) string {
	w := words(text)
	for i, s := range w {
		c, ok := cuisines[s]
		if !ok {
			continue
		}
		if s == "frutos" && at(w, i+2) != "mar" {
			continue
		}
		if peopleWords[s] && !food && !eatingWords[at(w, i-1)] {
			continue // a person, not a cuisine
		}
		return c
	}
	return ""
}

// PriceRange returns "$" to "$$$$" when a message states a budget, or "".
func PriceRange(text string) string {
	w := words(text)
	for i, s := range w {
		switch s {
		case "cheap", "cheaper", "budget", "inexpensive", "affordable", "barato", "barata", "baratos", "baratas", "economico", "economicos", "em conta":
			return "$"
		case "moderate", "mid", "midrange", "medio", "razoavel":
			if s != "mid" || at(w, i+1) == "range" || at(w, i+1) == "priced" {
				return "$$"
			}
		case "upscale", "fancy", "nice", "chique", "chiques", "sofisticado", "sofisticados", "elegant", "elegante", "caro", "caros", "romantic", "romantico":
			if s == "nice" {
				continue
			}
			return "$$$"
		case "luxury", "luxurious", "luxo", "michelin", "gourmet", "estrelado", "estrelados":
			return "$$$$"
		case "fine":
			if at(w, i+1) == "dining" {
				return "$$$$"
			}
		}
	}
	return ""
}

// cuisinesPT name cuisines in Portuguese, as a reply says them ("cozinha
// japonesa"); keys are the folded English names.
var cuisinesPT = map[string]string{
	"american": "americana", "argentinian": "argentina", "brazilian": "brasileira", "british": "britânica",
	"chinese": "chinesa", "egyptian": "egípcia", "french": "francesa", "german": "alemã", "greek": "grega",
	"indian": "indiana", "indonesian": "indonésia", "italian": "italiana", "japanese": "japonesa",
	"korean": "coreana", "lebanese": "libanesa", "mediterranean": "mediterrânea", "mexican": "mexicana",
	"nigerian": "nigeriana", "pakistani": "paquistanesa", "peruvian": "peruana", "portuguese": "portuguesa",
	"russian": "russa", "seafood": "frutos do mar", "spanish": "espanhola", "steakhouse": "churrascaria",
	"thai": "tailandesa", "turkish": "turca", "vegetarian": "vegetariana", "vegan": "vegana",
	"vietnamese": "vietnamita", "arabic": "árabe", "barbecue": "churrasco", "burgers": "hambúrguer",
}

// CuisineName is a cuisine's name in the reply's language: the English
// name in lower case, or its Portuguese name ("japanese" → "japonesa").
// A cuisine without a Portuguese name keeps its English one.
func CuisineName(c, lang string) string {
	k := strings.ToLower(c)
	if lang == locale.Portuguese {
		if n, ok := cuisinesPT[k]; ok {
			return n
		}
	}
	return k
}
