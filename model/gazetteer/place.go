package gazetteer

import (
	"slices"
	"strings"
	"sync"

	"github.com/tripgraph/tripgraph/locale"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// Place is the city or country a name means, with the names it is known by
// in English, locally and in Portuguese, so that a search can match any of
// them.
type Place struct {
	Name        string // English name ("Paris", "Japan")
	Region      string // the US state's code ("TX") of a city in the United States
	Country     string // ISO 3166-1 alpha-2 code
	CountryName string // English name of the country
	Lat, Lng    float64
	Names       []string // every name of the place, the English one first
	IsCountry   bool     // the name is a country's, not a city's
	Start, End  int      // byte offsets of the name (and its qualifier) in the text
}

// Resolve returns the place a text names: the city it is most likely
// about (a country or US state after the name picks the namesake there:
// "Paris, Texas"), else the first country it names. A text of one name that
// Find would not take for a place on its own ("paris" in lower case) still
// resolves to the most populous city of that name.
func Resolve(text string) (Place, bool) {
	x, err := load()
	if err != nil {
		return Place{}, false
	}
	if m, ok := Find(text).Destination(); ok {
		return x.cityPlace(x.indexOf(m.City), m.Start, m.End), true
	}
	if p, ok := x.countryIn(text); ok {
		return p, true
	}
	k := textnorm.Key(text)
	if i, _, ok := x.candidate(k); ok {
		return x.cityPlace(i, 0, len(text)), true
	}
	return Place{}, false
}

// indexOf returns the index of a city of the gazetteer.
func (x *index) indexOf(c City) int32 {
	for _, i := range x.byName.get(textnorm.Key(c.GeoName)) {
		if x.places.city(i) == c {
			return i
		}
	}
	i, _ := x.find(c.GeoName, c.Country)
	return i
}

func (x *index) cityPlace(i int32, start, end int) Place {
	c := x.places.city(i)
	region := ""
	if c.Country == "US" {
		region = c.Admin1
	}
	return Place{Name: c.Name, Region: region, Country: c.Country, CountryName: CountryName(c.Country, locale.English),
		Lat: c.Lat, Lng: c.Lon, Names: x.cityNames(i), Start: start, End: end}
}

// countryIn finds the first country named in text, by up to three words.
func (x *index) countryIn(text string) (Place, bool) {
	words := textnorm.Words(text)
	var key strings.Builder
	for i := range words {
		for n := min(3, len(words)-i); n >= 1; n-- {
			k := joinFolds(words[i:i+n], &key)
			if cc, ok := x.countries[k]; ok && x.isCountry(words[i:i+n], k, cc) {
				return Place{Name: CountryName(cc, locale.English), Country: cc, CountryName: CountryName(cc, locale.English),
					Names: x.countryNames(cc), IsCountry: true, Start: words[i].Start, End: words[i+n-1].End}, true
			}
		}
	}
	return Place{}, false
}

var (
	namesOnce sync.Once
	aliasesOf map[int32][]string // city → its aliases, folded
	countryOf map[string][]string
)

func (x *index) reverseNames() {
	namesOnce.Do(func() {
		aliasesOf = map[int32][]string{}
		for k, i := range x.alias {
			aliasesOf[i] = append(aliasesOf[i], k)
		}
		countryOf = map[string][]string{}
		for k, cc := range x.countries {
			countryOf[cc] = append(countryOf[cc], k)
		}
		for _, m := range []map[int32][]string{aliasesOf} {
			for _, v := range m {
				slices.Sort(v)
			}
		}
		for _, v := range countryOf {
			slices.Sort(v)
		}
	})
}

func (x *index) cityNames(i int32) []string {
	x.reverseNames()
	c := x.places.city(i)
	return dedupe(append([]string{c.Name, c.GeoName}, aliasesOf[i]...))
}

func (x *index) countryNames(cc string) []string {
	x.reverseNames()
	n := x.names[cc]
	return dedupe(append([]string{n[0], n[1]}, countryOf[cc]...))
}

// dedupe drops names that fold to one already listed, keeping the first.
func dedupe(names []string) []string {
	seen := map[string]bool{}
	out := names[:0]
	for _, n := range names {
		if k := textnorm.Key(n); k != "" && !seen[k] {
			seen[k] = true
			out = append(out, n)
		}
	}
	return out
}
