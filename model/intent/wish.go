package intent

import "time"

// DestinationWish is an open question: a traveller who wants destinations
// suggested rather than a search in a city they name ("somewhere warm in
// December?", "praia perto de SP pra um fds", "cheap beach trip in
// March?"). It says what the traveller asked of the place; the suggester
// picks the destinations. Zero fields were not said.
//
// The fields are words, not places: Near is the place as written, for the
// gazetteer to resolve, and a Season is left to the suggester, since its
// months depend on the hemisphere of the place suggested.
type DestinationWish struct {
	// When: the months named ("in December", "em julho ou agosto"), a
	// season ("no inverno"), and the length of stay if said ("pra um fds"
	// is 2 nights, "a week" 7). The trip's own dates, when a message
	// gives them ("next weekend"), are the extraction's.
	Months []time.Month
	Season Season
	Nights int

	// What: the climate and the kinds of place asked for, in the order
	// written, each once.
	Climates []Climate
	Kinds    []PlaceKind

	// How much: a price level ("cheap", "barato", "luxury") and a cap if
	// one was stated ("under 100 euros a night").
	Budget Budget
	Cap    PriceCap

	// Where from: a place the destination should be near ("perto de SP",
	// "near Lisbon", "a short drive from Porto"), as written; and whether
	// the traveller wants to go abroad or stay in their country.
	Near  string
	Scope Scope
}

// Empty reports whether the wish asks nothing in particular ("where
// should I go?"): any destination would do.
func (w DestinationWish) Empty() bool {
	return len(w.Months) == 0 && w.Season == "" && w.Nights == 0 && len(w.Climates) == 0 &&
		len(w.Kinds) == 0 && w.Budget == "" && w.Cap.Amount == 0 && w.Near == "" && w.Scope == ""
}

// Season is a season of the year, as named.
type Season string

// The seasons.
const (
	Spring Season = "spring"
	Summer Season = "summer"
	Autumn Season = "autumn"
	Winter Season = "winter"
)

// Climate is the weather a traveller wishes for.
type Climate string

// The climates travellers ask for.
const (
	Warm  Climate = "warm"  // warm, warmer, hot, "calor", "quentinho"
	Cold  Climate = "cold"  // cold, cool, colder, "frio", "friozinho"
	Snow  Climate = "snow"  // snow, "neve"
	Mild  Climate = "mild"  // mild, pleasant, "ameno", "agradável"
	Dry   Climate = "dry"   // dry, not rainy, "sem chuva", "seco"
	Sunny Climate = "sunny" // sunshine above all: "sol", "ensolarado"
)

// PlaceKind is a kind of destination.
type PlaceKind string

// The kinds of destination travellers ask for.
const (
	Beach       PlaceKind = "beach"       // beach, seaside, coast, "praia", "litoral"
	Island      PlaceKind = "island"      // island, "ilha"
	Mountain    PlaceKind = "mountain"    // mountains, hiking, "serra", "montanha"
	Ski         PlaceKind = "ski"         // skiing, a ski resort, "esqui"
	Lake        PlaceKind = "lake"        // lake, "lago"
	Countryside PlaceKind = "countryside" // countryside, a quiet village, "interior", "roça", "campo"
	Nature      PlaceKind = "nature"      // nature, parks, waterfalls, "natureza", "cachoeira", "trilha"
	City        PlaceKind = "city"        // a city break, "cidade grande"
	Culture     PlaceKind = "culture"     // museums, history, architecture, "cultura", "história"
	Food        PlaceKind = "food"        // food, wine, "gastronomia", "vinho"
	Nightlife   PlaceKind = "nightlife"   // nightlife, parties, "balada", "noite"
	Romantic    PlaceKind = "romantic"    // romantic, a honeymoon, "romântico", "lua de mel"
	Family      PlaceKind = "family"      // family friendly, with kids, "com crianças"
)

// Budget is the price level a traveller asks for.
type Budget string

// The price levels.
const (
	Cheap  Budget = "cheap"  // cheap, budget, affordable, "barato", "em conta"
	Luxury Budget = "luxury" // luxury, upscale, "luxo", "chique"
)

// Scope is whether the traveller wants to go abroad or stay at home.
type Scope string

// The scopes.
const (
	Abroad   Scope = "abroad"   // abroad, overseas, "fora do país", "exterior", "internacional"
	Domestic Scope = "domestic" // in my country, "no Brasil", "nacional", "sem sair do país"
)
