package mcpserver

import (
	"strings"

	"github.com/tripgraph/tripgraph/textfold"
)

// cuisineNames lists each cuisine of the catalog with the words travellers
// use for it in English and Portuguese: the adjective in both genders,
// the country, and dishes that mean the cuisine.
var cuisineNames = map[string][]string{
	"American":      {"americana", "americano", "norte-americana", "usa", "burger", "burgers", "hamburguer", "hamburgueria"},
	"Argentinian":   {"argentine", "argentina", "argentino", "parrilla"},
	"Brazilian":     {"brazil", "brasileira", "brasileiro", "brasil", "feijoada", "churrasco"},
	"British":       {"english", "uk", "britanica", "britanico", "inglesa", "ingles", "pub"},
	"Chinese":       {"china", "chinesa", "chines", "dim sum"},
	"Egyptian":      {"egypt", "egipcia", "egipcio"},
	"French":        {"france", "francesa", "frances", "bistro", "brasserie"},
	"German":        {"germany", "alema", "alemao", "alemanha"},
	"Greek":         {"greece", "grega", "grego", "grecia"},
	"Indian":        {"india", "indiana", "indiano", "curry"},
	"Indonesian":    {"indonesia", "indonesio"},
	"Italian":       {"italy", "italiana", "italiano", "italia", "pizza", "pizzaria", "pizzeria", "pasta", "massa", "massas"},
	"Japanese":      {"japan", "japonesa", "japones", "japao", "sushi", "ramen"},
	"Korean":        {"korea", "coreana", "coreano", "coreia"},
	"Lebanese":      {"lebanon", "libanesa", "libanes", "libano", "arabic", "arabe"},
	"Mediterranean": {"mediterranea", "mediterraneo"},
	"Mexican":       {"mexico", "mexicana", "mexicano", "tacos", "taqueria"},
	"Nigerian":      {"nigeria", "nigeriana", "nigeriano"},
	"Pakistani":     {"pakistan", "paquistanesa", "paquistanes", "paquistao"},
	"Peruvian":      {"peru", "peruana", "peruano", "ceviche"},
	"Portuguese":    {"portugal", "portuguesa", "portugues", "tasca", "bacalhau"},
	"Russian":       {"russia", "russa", "russo"},
	"Seafood":       {"fish", "frutos do mar", "marisco", "mariscos", "marisqueira", "peixe", "peixes"},
	"Spanish":       {"spain", "espanhola", "espanhol", "espanha", "tapas"},
	"Steakhouse":    {"steak", "steaks", "grill", "churrascaria", "carne", "carnes"},
	"Thai":          {"thailand", "tailandesa", "tailandes", "tailandia"},
	"Turkish":       {"turkey", "turca", "turco", "turquia", "kebab"},
	"Vegetarian":    {"vegan", "veggie", "vegana", "vegano", "vegetariana", "vegetariano"},
	"Vietnamese":    {"vietnam", "vietnamita", "pho"},
}

// cuisineIndex maps every folded name of a cuisine to the cuisine.
var cuisineIndex = func() map[string]string {
	m := map[string]string{}
	for cuisine, names := range cuisineNames {
		m[textfold.Fold(cuisine)] = cuisine
		for _, n := range names {
			m[textfold.Fold(n)] = cuisine
		}
	}
	return m
}()

// cuisinesFor returns the cuisines a traveller's word means: "japonesa",
// "Japanese", "sushi" and "japoneses" are all Japanese. A word no cuisine
// is known by is matched as it is, as part of a cuisine's name.
func cuisinesFor(term string) []string {
	k := textfold.Fold(strings.TrimSpace(term))
	for _, try := range []string{k, strings.TrimSuffix(k, "s"), strings.TrimSuffix(k, "es")} {
		if c, ok := cuisineIndex[try]; ok {
			return []string{c}
		}
	}
	return []string{term}
}
