package mcpserver

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tripgraph/tripgraph/textfold"
	"github.com/tripgraph/tripgraph/tripdata"
)

// sameCityKm is how far a catalog city may lie from the place the gazetteer
// resolved and still be that place: gazetteers put a city's centre in
// different spots, but namesakes are much farther apart.
const sameCityKm = 40

// nearbyCities is how many covered cities an uncovered place suggests.
const nearbyCities = 5

// PlaceOut is the place a location was understood as.
type PlaceOut struct {
	Name        string  `json:"name"`
	Region      string  `json:"region,omitempty" jsonschema:"the US state's code, for a city in the United States"`
	Country     string  `json:"country" jsonschema:"ISO 3166-1 alpha-2 code"`
	CountryName string  `json:"countryName"`
	Lat         float64 `json:"lat"`
	Lng         float64 `json:"lng"`
}

// NearbyCityOut is a covered city near a place the catalog does not cover.
type NearbyCityOut struct {
	Name       string  `json:"name"`
	Country    string  `json:"country"`
	DistanceKm float64 `json:"distanceKm"`
}

// CityOut is what a catalog tool says about the location it was asked for.
type CityOut struct {
	Location string          `json:"location" jsonschema:"the catalog city's English name when covered, else the location as asked"`
	Place    *PlaceOut       `json:"place,omitempty" jsonschema:"the place the location was understood as"`
	Covered  bool            `json:"covered" jsonschema:"false when the catalog has no such city"`
	Nearby   []NearbyCityOut `json:"nearby,omitempty" jsonschema:"when not covered: the covered cities nearest the place, those of its country first, nearest first"`
	Message  string          `json:"message,omitempty"`
}

// city finds the catalog city a traveller's location means. The gazetteer
// reads it first ("Paris, Texas" is not Paris, France); a catalog city
// counts only when it is that place: same country, a name in common, and
// close. A place the catalog does not cover is not an error: the answer
// says so and names the nearest covered cities.
func (t *tools) city(ctx context.Context, location string) (CityOut, tripdata.City, error) {
	cities, err := t.cfg.Backend.Cities(ctx)
	if err != nil {
		return CityOut{}, tripdata.City{}, err
	}
	out := CityOut{Location: location}
	if len(cities) == 0 {
		out.Message = fmt.Sprintf("tripgraph has no places for %q: its catalog is empty", location)
		return out, tripdata.City{}, nil
	}
	p, ok := t.cfg.Resolve(location)
	if !ok || p.IsCountry {
		return byName(cities, location)
	}
	out.Place = &PlaceOut{Name: p.Name, Region: p.Region, Country: p.Country, CountryName: p.CountryName, Lat: p.Lat, Lng: p.Lng}
	for _, c := range cities {
		if c.Country == p.Country && tripdata.DistanceKm(c.Lat, c.Lng, p.Lat, p.Lng) <= sameCityKm && namedAs(c, p.Names) {
			out.Location, out.Covered = c.Name, true
			return out, c, nil
		}
	}
	out.Nearby = nearest(cities, p.Country, p.Lat, p.Lng, nearbyCities)
	names := make([]string, len(out.Nearby))
	for i, n := range out.Nearby {
		names[i] = fmt.Sprintf("%s (%.0f km)", n.Name, n.DistanceKm)
	}
	out.Message = fmt.Sprintf("the catalog does not cover %s; the nearest cities it covers are %s", placeLabel(*out.Place), strings.Join(names, ", "))
	return out, tripdata.City{}, nil
}

// byName matches a location the gazetteer does not know against the
// catalog's own English and local names, the most populous first.
func byName(cities []tripdata.City, location string) (CityOut, tripdata.City, error) {
	names := []string{location}
	if before, _, cut := strings.Cut(location, ","); cut {
		names = append(names, strings.TrimSpace(before))
	}
	for _, c := range cities {
		if namedAs(c, names) {
			return CityOut{Location: c.Name, Covered: true}, c, nil
		}
	}
	return CityOut{Location: location, Message: fmt.Sprintf("%q is not a place tripgraph knows, and the catalog's %d cities do not include it",
		location, len(cities))}, tripdata.City{}, nil
}

func namedAs(c tripdata.City, names []string) bool {
	for _, n := range names {
		if f := textfold.Fold(n); f == textfold.Fold(c.Name) || f == textfold.Fold(c.GeoName) {
			return true
		}
	}
	return false
}

func placeLabel(p PlaceOut) string {
	parts := []string{p.Name}
	if p.Region != "" {
		parts = append(parts, p.Region)
	}
	return strings.Join(append(parts, p.CountryName), ", ")
}

// nearest returns the n cities closest to a point in a country: those of
// the country first, closest first, then those abroad, closest first. A
// traveller asking for Gramado wants Porto Alegre, not a city across a
// border that happens to be nearer.
func nearest(cities []tripdata.City, country string, lat, lng float64, n int) []NearbyCityOut {
	out := make([]NearbyCityOut, len(cities))
	for i, c := range cities {
		out[i] = NearbyCityOut{Name: c.Name, Country: c.Country, DistanceKm: math.Round(tripdata.DistanceKm(lat, lng, c.Lat, c.Lng))}
	}
	abroad := func(c NearbyCityOut) int {
		if c.Country == country {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out, func(a, b NearbyCityOut) int {
		return cmp.Or(cmp.Compare(abroad(a), abroad(b)), cmp.Compare(a.DistanceKm, b.DistanceKm), strings.Compare(a.Name, b.Name))
	})
	return out[:min(n, len(out))]
}

// centreKm is how near a city's centre a place counts as in it: its
// area is then "centre".
const centreKm = 1.0

// compass names the eight directions, clockwise from north.
var compass = [...]string{"north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"}

// whereInCity says where a place is in a city: its distance from the
// centre, in km to 0.1, and its area, "centre" within centreKm, else the
// direction from the centre. A city with no position (0, 0) gives none.
func whereInCity(city tripdata.City, lat, lng float64) (km float64, area string) {
	if city.Lat == 0 && city.Lng == 0 {
		return 0, ""
	}
	km = math.Round(tripdata.DistanceKm(city.Lat, city.Lng, lat, lng)*10) / 10
	if km < centreKm {
		return km, "centre"
	}
	rad := math.Pi / 180
	y := math.Sin((lng-city.Lng)*rad) * math.Cos(lat*rad)
	x := math.Cos(city.Lat*rad)*math.Sin(lat*rad) - math.Sin(city.Lat*rad)*math.Cos(lat*rad)*math.Cos((lng-city.Lng)*rad)
	bearing := math.Mod(math.Atan2(y, x)/rad+360, 360)
	return km, compass[int(math.Round(bearing/45))%8]
}

// cityByID is the catalog's city with this id; a zero City when there is
// none (the place is then shown without its area).
func (t *tools) cityByID(ctx context.Context, id string) (tripdata.City, error) {
	cities, err := t.cfg.Backend.Cities(ctx)
	if err != nil {
		return tripdata.City{}, err
	}
	for _, c := range cities {
		if c.ID == id {
			return c, nil
		}
	}
	return tripdata.City{}, nil
}
