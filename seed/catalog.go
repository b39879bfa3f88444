package seed

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/tripgraph/tripgraph/tripdata"
)

// currency is the currency of a country's prices and how many of its
// units a euro is worth (tripdata's table: this is demo data).
func currency(country string) (string, float64) {
	code := tripdata.CurrencyOf(country)
	rate, _ := tripdata.PerEuro(code)
	return code, rate
}

// localCuisine is the cuisine a country's restaurants are most often.
var localCuisine = map[string]string{
	"PT": "Portuguese", "BR": "Brazilian", "ES": "Spanish", "FR": "French", "IT": "Italian", "JP": "Japanese",
	"CN": "Chinese", "IN": "Indian", "MX": "Mexican", "US": "American", "GB": "British", "TH": "Thai",
	"KR": "Korean", "TR": "Turkish", "GR": "Greek", "AR": "Argentinian", "PE": "Peruvian", "VN": "Vietnamese",
	"DE": "German", "EG": "Egyptian", "NG": "Nigerian", "ID": "Indonesian", "PK": "Pakistani", "RU": "Russian",
}

var (
	cuisines   = []string{"Italian", "Japanese", "French", "Indian", "Mexican", "Chinese", "Lebanese", "Vegetarian", "Seafood", "Steakhouse", "Thai", "Mediterranean"}
	stayKinds  = []string{"hotel", "hotel", "apartment", "guesthouse", "hostel", "apartment"}
	stayFirst  = []string{"Grand", "Casa", "Villa", "Hotel", "Pousada", "Residence", "Loft", "Palácio", "Garden", "Harbour", "Old Town", "Sky"}
	staySecond = []string{"Central", "Azul", "do Rio", "Plaza", "Boutique", "Suites", "View", "Park", "Lumière", "Jardim", "Riverside", "Terrace"}
	hours      = []string{"12:00–15:00, 19:00–23:00", "08:00–18:00", "18:30–00:00", "11:30–23:30", "12:00–22:00", "07:00–15:00"}
)

// Catalog generates the accommodations and restaurants of cities; cities
// are ranked in the order given.
func Catalog(cities []City, accommodationsPer, restaurantsPer int) tripdata.Catalog {
	var c tripdata.Catalog
	for rank, city := range cities {
		cid := CityID(city)
		geo := city.GeoName
		if geo == "" {
			geo = city.Name
		}
		c.Cities = append(c.Cities, tripdata.City{ID: cid, Name: city.Name, GeoName: geo, Country: city.Country,
			Population: city.Population, Rank: rank + 1, Lat: city.Lat, Lng: city.Lng})
		r := rng("catalog", cid)
		code, rate := currency(city.Country)
		for i := range accommodationsPer {
			c.Accommodations = append(c.Accommodations, accommodation(r, city, cid, i, code, rate))
		}
		for i := range restaurantsPer {
			c.Restaurants = append(c.Restaurants, restaurant(r, city, cid, i))
		}
	}
	return c
}

func accommodation(r *rand.Rand, city City, cid string, i int, code string, rate float64) tripdata.Accommodation {
	kind := pick(r, stayKinds)
	base := map[string]float64{"hotel": 110, "apartment": 85, "guesthouse": 60, "hostel": 28}[kind]
	capacity := []int{1, 2, 2, 2, 3, 4, 4, 5, 6, 8}[r.IntN(10)]
	if kind == "hostel" {
		capacity = 1 + r.IntN(2)
	}
	price := base * (0.6 + 1.2*r.Float64()) * (1 + 0.15*float64(capacity-2)) * rate
	lat, lng := near(r, city, 4)
	return tripdata.Accommodation{
		ID: id("accommodation", cid, i), CityID: cid, Name: fmt.Sprintf("%s %s %s", pick(r, stayFirst), pick(r, staySecond), city.Name),
		Kind: kind, NightlyPrice: roundPrice(price, rate), Currency: code, Rating: round1(3.4 + 1.6*r.Float64()),
		Capacity: max(capacity, 1), Lat: lat, Lng: lng,
	}
}

func restaurant(r *rand.Rand, city City, cid string, i int) tripdata.Restaurant {
	cuisine := pick(r, cuisines)
	if local, ok := localCuisine[city.Country]; ok && i%3 == 0 {
		cuisine = local
	}
	lat, lng := near(r, city, 6)
	return tripdata.Restaurant{
		ID: id("restaurant", cid, i), CityID: cid, Name: restaurantName(r, cuisine),
		Cuisine: cuisine, PriceRange: []string{"$", "$$", "$$", "$$$", "$$$$"}[r.IntN(5)],
		Rating: round1(3.5 + 1.5*r.Float64()), DistanceKm: round1(0.2 + 6*r.Float64()),
		OpeningHours: pick(r, hours), Popular: i < 3, Lat: lat, Lng: lng,
	}
}

// near returns a point within about km of the city centre.
func near(r *rand.Rand, c City, km float64) (lat, lng float64) {
	dlat := (r.Float64()*2 - 1) * km / 111
	dlng := (r.Float64()*2 - 1) * km / (111 * math.Max(0.2, math.Cos(c.Lat*math.Pi/180)))
	return round5(c.Lat + dlat), round5(c.Lng + dlng)
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }
func round5(x float64) float64 { return math.Round(x*1e5) / 1e5 }

// roundPrice rounds to whole units, or to cents for strong currencies.
func roundPrice(p, rate float64) float64 {
	if rate > 20 {
		return math.Round(p)
	}
	return math.Round(p*100) / 100
}

// restaurantName names a restaurant of a cuisine after a kind of place of
// that cuisine: "Trattoria Luna" serves Italian food.
func restaurantName(r *rand.Rand, cuisine string) string {
	n := eatNames[cuisine]
	return pick(r, n.kinds) + " " + pick(r, n.words)
}
