package demotools

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/tripdata"
)

type accommodationsIn struct {
	Location  string `json:"location"`
	StartDate string `json:"startDate"`
	EndDate   string `json:"endDate"`
	Guests    int    `json:"guests"`
}

type accommodationsOut struct {
	Location       string                `json:"location"`
	Covered        bool                  `json:"covered"`
	Message        string                `json:"message,omitempty"`
	StartDate      string                `json:"startDate"`
	EndDate        string                `json:"endDate"`
	Nights         int                   `json:"nights"`
	Guests         int                   `json:"guests"`
	Accommodations []nodes.Accommodation `json:"accommodations"`
}

// catalog generates a city's catalog as tripgraph seed would.
func catalog(location string) (tripdata.Catalog, string, bool) {
	c, ok := gazetteer.Lookup(location)
	if !ok {
		return tripdata.Catalog{}, location, false
	}
	city := seed.City{Name: c.Name, GeoName: c.GeoName, Country: c.Country, Population: c.Population, Lat: c.Lat, Lng: c.Lon}
	return seed.Catalog([]seed.City{city}, accommodationsPerCity, restaurantsPerCity), c.Name, true
}

func notCovered(location string) string {
	return fmt.Sprintf("%q is not a city the demo catalog knows", location)
}

func (d *demo) listAccommodations(in accommodationsIn) (any, error) {
	start, err := parseDay("startDate", in.StartDate)
	if err != nil {
		return nil, err
	}
	end, err := parseDay("endDate", in.EndDate)
	if err != nil {
		return nil, err
	}
	if !end.After(start) {
		return nil, errcode.New(errcode.BadRequest, "endDate %s must come after startDate %s", in.EndDate, in.StartDate)
	}
	if in.Guests < 1 || in.Guests > mcpserver.MaxGuests {
		return nil, errcode.New(errcode.BadRequest, "guests must be between 1 and %d, not %d", mcpserver.MaxGuests, in.Guests)
	}
	nights := int(end.Sub(start).Hours() / 24)
	cat, name, ok := catalog(in.Location)
	out := accommodationsOut{Location: name, Covered: ok, StartDate: in.StartDate, EndDate: in.EndDate,
		Nights: nights, Guests: in.Guests, Accommodations: []nodes.Accommodation{}}
	if !ok {
		out.Message = notCovered(in.Location)
		return out, nil
	}
	for _, a := range cat.Accommodations {
		if a.Capacity < in.Guests {
			continue
		}
		out.Accommodations = append(out.Accommodations, nodes.Accommodation{ID: a.ID, Name: a.Name, Kind: a.Kind,
			NightlyPrice: a.NightlyPrice, Currency: a.Currency, TotalPrice: a.NightlyPrice * float64(nights),
			Rating: a.Rating, Capacity: a.Capacity, Lat: a.Lat, Lng: a.Lng})
	}
	slices.SortStableFunc(out.Accommodations, func(a, b nodes.Accommodation) int { return int(b.Rating*10) - int(a.Rating*10) })
	return out, nil
}

type restaurantsIn struct {
	Location   string `json:"location"`
	Cuisine    string `json:"cuisine"`
	PriceRange string `json:"priceRange"`
}

type restaurantsOut struct {
	Location    string             `json:"location"`
	Covered     bool               `json:"covered"`
	Message     string             `json:"message,omitempty"`
	Restaurants []nodes.Restaurant `json:"restaurants"`
}

func (d *demo) listRestaurants(in restaurantsIn) (any, error) {
	if in.PriceRange != "" && strings.Trim(in.PriceRange, "$") != "" || len(in.PriceRange) > 4 {
		return nil, errcode.New(errcode.BadRequest, "priceRange must be $, $$, $$$ or $$$$, not %q", in.PriceRange)
	}
	cat, name, ok := catalog(in.Location)
	out := restaurantsOut{Location: name, Covered: ok, Restaurants: []nodes.Restaurant{}}
	if !ok {
		out.Message = notCovered(in.Location)
		return out, nil
	}
	for _, r := range cat.Restaurants {
		if in.Cuisine != "" && !contains(r.Cuisine, in.Cuisine) || in.PriceRange != "" && r.PriceRange != in.PriceRange {
			continue
		}
		out.Restaurants = append(out.Restaurants, nodes.Restaurant{ID: r.ID, Name: r.Name, Cuisine: r.Cuisine,
			PriceRange: r.PriceRange, Rating: r.Rating, DistanceKm: r.DistanceKm, OpeningHours: r.OpeningHours, Popular: r.Popular})
	}
	if len(out.Restaurants) == 0 && in.Cuisine != "" {
		out.Message = fmt.Sprintf("no %s restaurants in %s", in.Cuisine, name)
	}
	return out, nil
}
