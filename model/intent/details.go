package intent

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
}

// Cuisine returns the cuisine a message asks for ("comida japonesa" →
// "japanese"), or "".
func Cuisine(text string) string {
	w := words(text)
	for i, s := range w {
		c, ok := cuisines[s]
		if !ok {
			continue
		}
		if s == "frutos" && at(w, i+2) != "mar" {
			continue
		}
		if (s == "italiano" || s == "frances" || s == "japones") && at(w, i-1) != "restaurante" && at(w, i-1) != "comida" {
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
