// Package suggest proposes destinations for a destination wish
// (intent.DestinationWish: "somewhere warm in December?", "praia perto de
// SP pra um fds"): three to five cities the catalog covers, ranked by how
// well their climate in the month and their kind fit the wish and by
// their distance from where the traveller starts, each with what makes
// it fit.
//
// The entry point is For: a Query (the wish, the month, the place to
// start from) gives ranked Destinations. The wish is read by package
// intent, and the reply is written by the model; this package only
// ranks.
package suggest

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/intent"
	"github.com/tripgraph/tripgraph/tripdata"
)

// Query is what suggestions are for.
type Query struct {
	// Wish is what the traveller asked of the place. Its climates and
	// kinds rank the destinations; a place to be near (Near) or a stay of
	// a weekend (Nights up to 3) asks for somewhere close to From; a
	// cheap one weighs the distance more.
	Wish  intent.DestinationWish
	Month time.Month // of the trip
	// From is where the trip starts: the place the wish is near, or where
	// the traveller lives; nil when unknown.
	From *gazetteer.City
	// Country keeps to one country (ISO code) when the traveller named it.
	Country string
}

// Destination is a suggested city with what makes it fit.
type Destination struct {
	Name, Country string             // English name and ISO code, as the gazetteer and catalog name it
	Kinds         []intent.PlaceKind // of the table: beach, island, ski, mountain, lake, nature, city
	// Kind is the one it is proposed for: the first the wish asked for,
	// else the first it has of beach, snow in its cold season, nature,
	// city; "" for none of those.
	Kind       intent.PlaceKind
	Month      time.Month // of the trip
	High       int        // mean daily high in the month, °C
	From       string     // Query.From's English name, "" when unknown
	DistanceKm float64    // from From; 0 when unknown
	coldSeason bool       // the month is among the place's four coldest
	score      float64
}

// minSuggestions is how few destinations a list may have before the
// wish for somewhere near is let go ("snow near São Paulo" finds none).
const minSuggestions = 3

// For returns up to n destinations for q, best first; if somewhere near
// gives fewer than three, farther ones too. It returns none when the
// wish asks nothing the destinations are ranked by ("where should we
// go?", "somewhere romantic") and names no country.
func For(q Query, n int) []Destination {
	if !ranks(q) {
		return nil
	}
	near := q.Wish.Near != "" || q.Wish.Nights > 0 && q.Wish.Nights <= 3
	out := ranked(q, near, n)
	if len(out) < minSuggestions && near {
		out = ranked(q, false, n)
	}
	return out
}

// tableKinds are the kinds climateTable tags places with.
var tableKinds = []intent.PlaceKind{intent.Beach, intent.Island, intent.Ski, intent.Mountain, intent.Lake, intent.Nature, intent.City}

// asTable are the kinds of the table a wish's kinds are: countryside is
// nature, culture a city; food, nightlife, romance and families are not
// in the table.
var asTable = map[intent.PlaceKind]intent.PlaceKind{
	intent.Beach: intent.Beach, intent.Island: intent.Island, intent.Ski: intent.Ski, intent.Mountain: intent.Mountain,
	intent.Lake: intent.Lake, intent.Nature: intent.Nature, intent.Countryside: intent.Nature,
	intent.City: intent.City, intent.Culture: intent.City,
}

// asked is what the wish asks of the table's kinds, each once; a wish
// for snow asks for ski slopes.
func asked(w intent.DestinationWish) []intent.PlaceKind {
	var out []intent.PlaceKind
	for _, k := range w.Kinds {
		if t, ok := asTable[k]; ok && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if slices.Contains(w.Climates, intent.Snow) && !slices.Contains(out, intent.Ski) {
		out = append(out, intent.Ski)
	}
	return out
}

// ranks reports whether q asks anything destinations are ranked by.
func ranks(q Query) bool {
	w := q.Wish
	return q.Country != "" || w.Budget == intent.Cheap || len(asked(w)) > 0 ||
		slices.ContainsFunc(w.Climates, func(c intent.Climate) bool { return c != intent.Dry })
}

// ranked returns up to n destinations for q, best first, near From if
// near is set.
func ranked(q Query, near bool, n int) []Destination {
	kinds := asked(q.Wish)
	var out []Destination
	for _, p := range places() {
		if q.Country != "" && p.country != q.Country {
			continue
		}
		d := Destination{Name: p.name, Country: p.country, Kinds: p.kinds, Month: q.Month, High: p.highs[q.Month-1],
			coldSeason: p.coldest(q.Month)}
		d.Kind = d.kind(kinds)
		if q.From != nil {
			d.DistanceKm = tripdata.DistanceKm(q.From.Lat, q.From.Lon, p.lat, p.lon)
			d.From = q.From.Name
			if d.DistanceKm < 30 {
				continue // the starting place itself
			}
		}
		if s, ok := score(q.Wish, kinds, near, d); ok {
			d.score = s
			out = append(out, d)
		}
	}
	slices.SortStableFunc(out, func(a, b Destination) int { return cmp.Compare(b.score, a.score) })
	if q.Country == "" && !near {
		out = varied(out, perCountry)
	}
	return out[:min(n, len(out))]
}

// perCountry is how many destinations of one country a list proposes,
// unless the traveller keeps to a country or to somewhere near.
const perCountry = 2

// varied keeps at most max destinations of each country, in order.
func varied(list []Destination, max int) []Destination {
	count := map[string]int{}
	return slices.DeleteFunc(list, func(d Destination) bool {
		count[d.Country]++
		return count[d.Country] > max
	})
}

// score says how well d fits the wish w, whose kinds of the table are
// kinds; ok false when it does not fit at all (a beach in the cold, snow
// in the heat, too far for a weekend).
func score(w intent.DestinationWish, kinds []intent.PlaceKind, near bool, d Destination) (float64, bool) {
	s := 0.0
	for _, c := range w.Climates {
		switch c {
		case intent.Warm, intent.Sunny:
			if d.High < 24 {
				return 0, false
			}
			s += min(float64(d.High-20), 10) / 10
		case intent.Mild:
			if d.High < 10 || d.High > 24 {
				return 0, false
			}
			s += 1 - math.Abs(float64(d.High-18))/8
		case intent.Cold:
			if d.High > 18 {
				return 0, false
			}
			s += min(float64(18-d.High), 12) / 12
		}
	}
	for _, k := range kinds {
		if !d.is(k) {
			return 0, false
		}
		switch k {
		case intent.Beach:
			if d.High < 25 {
				return 0, false // too cold to swim
			}
			s += 1 + min(float64(d.High-25), 6)/12
		case intent.Ski:
			if !d.coldSeason {
				return 0, false
			}
			s += 1 + float64(20-d.High)/40
		default:
			s++
		}
	}
	if d.DistanceKm > 0 {
		limit, weight := 20000.0, 1/8000.0
		if near {
			limit, weight = 800, 1/400.0
		}
		if w.Budget == intent.Cheap {
			weight *= 2
		}
		if d.DistanceKm > limit {
			return 0, false
		}
		s -= d.DistanceKm * weight
	}
	return s, true
}

func (d Destination) is(k intent.PlaceKind) bool { return slices.Contains(d.Kinds, k) }

// kind is what d is proposed for: the first of asked it has, else the
// first it has of beach, snow in its cold season, nature, city.
func (d Destination) kind(asked []intent.PlaceKind) intent.PlaceKind {
	for _, k := range append(slices.Clone(asked), intent.Beach, intent.Ski, intent.Nature, intent.City) {
		if d.is(k) && (k != intent.Ski || d.coldSeason) {
			return k
		}
	}
	return ""
}

// place is a line of climateTable with the city's coordinates.
type place struct {
	name, country string
	kinds         []intent.PlaceKind
	highs         [12]int
	lat, lon      float64
}

var (
	placesOnce sync.Once
	placeList  []place
	placesErr  error
)

// places parses climateTable once, placing each city with the gazetteer.
func places() []place {
	placesOnce.Do(func() { placeList, placesErr = parsePlaces() })
	return placeList
}

func parsePlaces() ([]place, error) {
	var out []place
	for _, line := range strings.Split(strings.TrimSpace(climateTable), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 4 {
			return nil, fmt.Errorf("climate line %q: want 4 fields", line)
		}
		p := place{name: f[0], country: f[1]}
		for _, k := range strings.Fields(f[2]) {
			if !slices.Contains(tableKinds, intent.PlaceKind(k)) {
				return nil, fmt.Errorf("climate line %q: no kind %q", line, k)
			}
			p.kinds = append(p.kinds, intent.PlaceKind(k))
		}
		temps := strings.Fields(f[3])
		if len(temps) != 12 {
			return nil, fmt.Errorf("climate line %q: want 12 temperatures", line)
		}
		for i, t := range temps {
			v, err := strconv.Atoi(t)
			if err != nil {
				return nil, fmt.Errorf("climate line %q: %w", line, err)
			}
			p.highs[i] = v
		}
		c, ok := gazetteer.LookupIn(p.name, p.country)
		if !ok {
			return nil, fmt.Errorf("climate line %q: no such city in the gazetteer", line)
		}
		p.name, p.lat, p.lon = c.Name, c.Lat, c.Lon
		out = append(out, p)
	}
	return out, nil
}

// coldest reports whether m is among the four coldest months of p: when
// a place with ski slopes nearby has snow.
func (p place) coldest(m time.Month) bool {
	colder := 0
	for _, h := range p.highs {
		if h < p.highs[m-1] {
			colder++
		}
	}
	return colder < 4
}
