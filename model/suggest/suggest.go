// Package suggest proposes destinations to a traveller who gives a
// season, a climate or a kind of place but no city ("somewhere warm in
// December?", "praia perto de SP pra um fds"): three to five cities the
// catalog covers, ranked by how well their climate in the month and
// their kind fit the wish and by their distance from where the traveller
// starts, each with its reason.
//
// The entry point is For: a Query (the month, the wishes, the place to
// start from) gives ranked Destinations. Read takes a Query from a
// message.
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

	"github.com/tripgraph/tripgraph/locale"
	"github.com/tripgraph/tripgraph/model/gazetteer"
)

// Wish is something a traveller wants of a destination.
type Wish string

// The wishes suggestions know.
const (
	Warm   Wish = "warm"   // hot weather
	Beach  Wish = "beach"  // the sea and a beach, warm enough for it
	Snow   Wish = "snow"   // snow, skiing
	Cool   Wish = "cool"   // mild weather, away from the heat
	City   Wish = "city"   // a city break
	Nature Wish = "nature" // hiking, waterfalls, landscapes
	Cheap  Wish = "cheap"  // a low cost: a short journey
)

// Query is what suggestions are for.
type Query struct {
	Month  time.Month
	Wishes []Wish
	// From is where the traveller starts (a place named "perto de SP",
	// or where they live); Near asks for somewhere close to it (a
	// weekend, "perto").
	From *gazetteer.City
	Near bool
	// Country keeps to one country (ISO code) when the traveller named it.
	Country string
	// Open is set when the message asks for ideas in so many words
	// ("somewhere", "where should we go", "algum lugar").
	Open bool
}

// Destination is a suggested city with what makes it fit.
type Destination struct {
	Name, Country string  // English name and ISO code, as the gazetteer and catalog name it
	High          int     // mean daily high in the month, °C
	Kinds         []Wish  // beach, snow, city, nature
	DistanceKm    float64 // from Query.From; 0 when unknown
	coldSeason    bool    // the month is among the place's four coldest
	from          string  // the starting place's English name
	month         time.Month
	score         float64
}

// minSuggestions is how few destinations a list may have before the
// wish for somewhere near is let go ("snow near São Paulo" finds none).
const minSuggestions = 3

// For returns up to n destinations for q, best first; if somewhere near
// gives fewer than three, farther ones too.
func For(q Query, n int) []Destination {
	out := ranked(q, n)
	if len(out) < minSuggestions && q.Near {
		q.Near = false
		out = ranked(q, n)
	}
	return out
}

// ranked returns up to n destinations for q, best first.
func ranked(q Query, n int) []Destination {
	var out []Destination
	for _, p := range places() {
		if q.Country != "" && p.country != q.Country {
			continue
		}
		d := Destination{Name: p.name, Country: p.country, High: p.highs[q.Month-1], Kinds: p.kinds, month: q.Month,
			coldSeason: p.coldest(q.Month)}
		if q.From != nil {
			d.DistanceKm = distanceKm(q.From.Lat, q.From.Lon, p.lat, p.lon)
			d.from = q.From.Name
			if d.DistanceKm < 30 {
				continue // the starting place itself
			}
		}
		if s, ok := score(q, d); ok {
			d.score = s
			out = append(out, d)
		}
	}
	slices.SortStableFunc(out, func(a, b Destination) int { return cmp.Compare(b.score, a.score) })
	if q.Country == "" && !q.Near {
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

// score says how well d fits q; ok false when it does not fit at all (a
// beach in the cold, snow in the heat, too far for a weekend).
func score(q Query, d Destination) (float64, bool) {
	s := 0.0
	for _, w := range q.Wishes {
		switch w {
		case Warm:
			if d.High < 24 {
				return 0, false
			}
			s += min(float64(d.High-20), 10) / 10
		case Beach:
			if !d.is(Beach) || d.High < 25 {
				return 0, false
			}
			s += 1 + min(float64(d.High-25), 6)/12
		case Snow:
			if !d.is(Snow) || !d.coldSeason {
				return 0, false
			}
			s += 1 + float64(20-d.High)/40
		case Cool:
			if d.High < 10 || d.High > 24 {
				return 0, false
			}
			s += 1 - math.Abs(float64(d.High-18))/8
		case City, Nature:
			if !d.is(w) {
				return 0, false
			}
			s++
		}
	}
	if d.DistanceKm > 0 {
		limit, weight := 20000.0, 1/8000.0
		if q.Near {
			limit, weight = 800, 1/400.0
		}
		if slices.Contains(q.Wishes, Cheap) {
			weight *= 2
		}
		if d.DistanceKm > limit {
			return 0, false
		}
		s -= d.DistanceKm * weight
	}
	return s, true
}

func (d Destination) is(w Wish) bool { return slices.Contains(d.Kinds, w) }

// Reason says in lang (one of locale.All) why d fits: its kind, its
// weather in the month and how far it is: "beaches, about 30 °C in
// December, 420 km from São Paulo".
func (d Destination) Reason(lang string) string {
	var parts []string
	if d.is(Beach) {
		parts = append(parts, pick(lang, "beaches", "praias"))
	} else if d.is(Snow) && d.coldSeason {
		parts = append(parts, pick(lang, "snow and skiing", "neve e esqui"))
	} else if d.is(Nature) {
		parts = append(parts, pick(lang, "nature", "natureza"))
	} else if d.is(City) {
		parts = append(parts, pick(lang, "a city break", "passeio urbano"))
	}
	month := monthName(d.month, lang)
	parts = append(parts, fmt.Sprintf(pick(lang, "about %d °C in %s", "cerca de %d °C em %s"), d.High, month))
	if d.DistanceKm > 0 {
		km := strconv.Itoa(int(math.Round(d.DistanceKm/10) * 10))
		from := gazetteer.CityName(d.from, lang)
		parts = append(parts, fmt.Sprintf(pick(lang, "%s km from %s", "a %s km de %s"), km, from))
	}
	return strings.Join(parts, ", ")
}

func pick(lang, en, pt string) string {
	if lang == locale.Portuguese {
		return pt
	}
	return en
}

var monthsPT = [...]string{"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"}

func monthName(m time.Month, lang string) string {
	if lang == locale.Portuguese {
		return monthsPT[m-1]
	}
	return m.String()
}

// distanceKm is the great-circle distance between two points.
func distanceKm(lat1, lon1, lat2, lon2 float64) float64 {
	const r = 6371
	rad := math.Pi / 180
	dlat, dlon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dlon/2)*math.Sin(dlon/2)
	return 2 * r * math.Asin(math.Sqrt(a))
}

// place is a line of climateTable with the city's coordinates.
type place struct {
	name, country string
	kinds         []Wish
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
			p.kinds = append(p.kinds, Wish(k))
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
