package gazetteer

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unsafe"
)

// place is a City as the index keeps it: a hundred thousand of them live
// as long as the process, and the garbage collector's heap goal is twice
// what stays live, so each takes 24 bytes instead of City's 112. Its name
// is a range of one block of names (places.names), its coordinates whole
// hundred-thousandths of a degree (which give back the very float64 the
// decimal was read as), its other strings small codes of shared tables,
// and its English name, when an alias gives it one, is apart (renamed).
type place struct {
	nameAt     uint32 // GeoNames name: names[nameAt:nameAt+nameLen]
	lat, lon   int32  // hundred-thousandths of a degree
	population int32
	admin1     uint16 // index in places.codes
	country    [2]byte
	nameLen    uint8
	kind       uint8 // index in places.kinds; 0 for a populated place
	renamed    bool  // the English name differs: see places.english
	word       bool
}

// coordScale is how many steps a degree is kept in.
const coordScale = 100_000

// places are the gazetteer's cities, by index.
type places struct {
	all     []place
	names   []byte            // the places' names, one after another; only ever appended to
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
	lat, okLat := toSteps(c.Lat)
	lon, okLon := toSteps(c.Lon)
	if !okLat || !okLon {
		return 0, fmt.Errorf("%s: coordinates %v, %v are not whole hundred-thousandths of a degree", c.Name, c.Lat, c.Lon)
	}
	if len(c.GeoName) > 255 {
		return 0, fmt.Errorf("%s: name longer than 255 bytes", c.GeoName)
	}
	if len(p.names)+len(c.GeoName) > 1<<32-1 {
		return 0, fmt.Errorf("%s: more than 4 GiB of names", c.GeoName)
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
	p.all = append(p.all, place{nameAt: uint32(len(p.names)), nameLen: uint8(len(c.GeoName)), lat: lat, lon: lon,
		population: int32(c.Population), admin1: a, country: [2]byte{c.Country[0], c.Country[1]}, kind: uint8(k), word: c.Word})
	p.names = append(p.names, c.GeoName...)
	if c.Name != c.GeoName {
		p.rename(i, c.Name)
	}
	return i, nil
}

// rename gives place i an English name of its own.
func (p *places) rename(i int32, english string) {
	p.all[i].renamed = english != p.name(i)
	if p.all[i].renamed {
		p.english[i] = english
	} else {
		delete(p.english, i)
	}
}

// doneLoading drops what only adding needs, and copies what adding grew
// to its size. The names that cities already built point into stay
// valid: the block they point into is kept while they live.
func (p *places) doneLoading() {
	p.codeAt = nil
	p.all = slices.Clone(p.all)
	p.names = slices.Clone(p.names)
}

// name is place i's GeoNames name. It shares the block of names and
// allocates nothing.
func (p *places) name(i int32) string {
	s := &p.all[i]
	if s.nameLen == 0 {
		return ""
	}
	// The bytes of names[:len(names)] are never written again: add only
	// appends, and a copy made when the block grows leaves the old one
	// unchanged for the names still pointing into it.
	return unsafe.String(&p.names[s.nameAt], int(s.nameLen))
}

// toSteps is a coordinate in hundred-thousandths of a degree, and
// whether it is whole in them, so that fromSteps gives it back bit for
// bit (not so for -0, which would come back as 0).
func toSteps(deg float64) (int32, bool) {
	v := math.Round(deg * coordScale)
	if math.Abs(v) > 200*coordScale {
		return 0, false
	}
	return int32(v), math.Float64bits(fromSteps(int32(v))) == math.Float64bits(deg)
}

// fromSteps is a coordinate kept in hundred-thousandths of a degree, as
// the float64 nearest the decimal: a division of two float64s that are
// whole numbers is rounded once, to the float64 nearest the quotient.
func fromSteps(v int32) float64 { return float64(v) / coordScale }

// city is place i as a City.
func (p *places) city(i int32) City {
	s := &p.all[i]
	name := p.name(i)
	c := City{Name: name, GeoName: name, Country: countryCode(s.country), Admin1: p.codes[s.admin1],
		Population: int(s.population), Lat: fromSteps(s.lat), Lon: fromSteps(s.lon), Word: s.word, Kind: p.kinds[s.kind]}
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
