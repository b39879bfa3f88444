package gazetteer

import (
	"fmt"
	"strings"
)

// place is a City as the index keeps it: a hundred thousand of them live
// as long as the process, and the garbage collector's heap goal is twice
// what stays live, so each takes 48 bytes instead of City's 112. Its
// strings but the name are small codes of shared tables, and its English
// name, when an alias gives it one, is apart (renamed).
type place struct {
	name       string // GeoNames name
	lat, lon   float64
	population int32
	admin1     uint16 // index in places.codes
	country    [2]byte
	kind       uint8 // index in places.kinds; 0 for a populated place
	renamed    bool  // the English name differs: see places.english
	word       bool
}

// places are the gazetteer's cities, by index.
type places struct {
	all     []place
	codes   []string          // first-level division codes, "" first
	codeAt  map[string]uint16 // code → index in codes, while loading
	kinds   []string          // landmark kinds, "" first
	english map[int32]string  // English names of the renamed places
}

func newPlaces(capacity int) places {
	return places{all: make([]place, 0, capacity), codes: []string{""}, codeAt: map[string]uint16{"": 0},
		kinds: []string{""}, english: map[int32]string{}}
}

func (p *places) len() int { return len(p.all) }

// add appends c and returns its index.
func (p *places) add(c City) (int32, error) {
	if len(c.Country) != 2 {
		return 0, fmt.Errorf("%s: country code %q is not two letters", c.Name, c.Country)
	}
	if c.Population > 1<<31-1 || c.Population < 0 {
		return 0, fmt.Errorf("%s: population %d out of range", c.Name, c.Population)
	}
	a, ok := p.codeAt[c.Admin1]
	if !ok {
		if len(p.codes) > 1<<16-1 {
			return 0, fmt.Errorf("%s: more than %d division codes", c.Name, 1<<16)
		}
		a = uint16(len(p.codes))
		p.codes = append(p.codes, strings.Clone(c.Admin1))
		p.codeAt[c.Admin1] = a
	}
	k := -1
	for i, s := range p.kinds {
		if s == c.Kind {
			k = i
		}
	}
	if k < 0 {
		k = len(p.kinds)
		p.kinds = append(p.kinds, c.Kind)
	}
	i := int32(len(p.all))
	p.all = append(p.all, place{name: c.GeoName, lat: c.Lat, lon: c.Lon, population: int32(c.Population),
		admin1: a, country: [2]byte{c.Country[0], c.Country[1]}, kind: uint8(k), word: c.Word})
	if c.Name != c.GeoName {
		p.rename(i, c.Name)
	}
	return i, nil
}

// rename gives place i an English name of its own.
func (p *places) rename(i int32, english string) {
	p.all[i].renamed = english != p.all[i].name
	if p.all[i].renamed {
		p.english[i] = english
	} else {
		delete(p.english, i)
	}
}

// doneLoading drops what only adding needs.
func (p *places) doneLoading() { p.codeAt = nil }

// city is place i as a City.
func (p *places) city(i int32) City {
	s := &p.all[i]
	c := City{Name: s.name, GeoName: s.name, Country: countryCode(s.country), Admin1: p.codes[s.admin1],
		Population: int(s.population), Lat: s.lat, Lon: s.lon, Word: s.word, Kind: p.kinds[s.kind]}
	if s.renamed {
		c.Name = p.english[i]
	}
	return c
}

// population is place i's, without building its City.
func (p *places) population(i int32) int { return int(p.all[i].population) }

// inCountry reports whether place i is in the country of ISO code cc.
func (p *places) inCountry(i int32, cc string) bool {
	c := p.all[i].country
	return len(cc) == 2 && cc[0] == c[0] && cc[1] == c[1]
}

// countryCode is the shared string of a two-letter code, so that building
// a City allocates nothing.
func countryCode(c [2]byte) string {
	if c[0] >= 'A' && c[0] <= 'Z' && c[1] >= 'A' && c[1] <= 'Z' {
		return countryStrings[int(c[0]-'A')*26+int(c[1]-'A')]
	}
	return string(c[:])
}

// countryStrings are the strings of the codes of two capital letters,
// made once.
var countryStrings = func() (out [26 * 26]string) {
	for i := range out {
		out[i] = string([]byte{byte('A' + i/26), byte('A' + i%26)})
	}
	return out
}()
