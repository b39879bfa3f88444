package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
)

// testID is a stable id, so that adding the test catalog twice adds nothing.
func testID(parts ...any) string {
	return uuid.NewSHA1(uuid.NameSpaceURL, []byte(fmt.Sprint(parts...))).String()
}

// addTestCatalog stores two cities, Lisbon and São Paulo, each with one
// small and one large accommodation and two restaurants.
func addTestCatalog(t *testing.T, s *Store) Catalog {
	t.Helper()
	c := Catalog{Cities: []City{
		{ID: "test-sao-paulo-br", Name: "São Paulo", GeoName: "São Paulo", Country: "BR", Population: 12000000, Rank: 1, Lat: -23.5, Lng: -46.6},
		{ID: "test-lisbon-pt", Name: "Lisbon", GeoName: "Lisboa", Country: "PT", Population: 500000, Rank: 2, Lat: 38.7, Lng: -9.1},
	}}
	for _, city := range c.Cities {
		for _, capacity := range []int{2, 6} {
			c.Accommodations = append(c.Accommodations, Accommodation{ID: testID(city.ID, capacity), CityID: city.ID, Name: "Casa", Kind: "apartment",
				NightlyPrice: 80.5, Currency: "EUR", Rating: 4.5, Capacity: capacity, Lat: city.Lat, Lng: city.Lng})
		}
		for _, cuisine := range []string{"Portuguesa", "Japanese"} {
			c.Restaurants = append(c.Restaurants, Restaurant{ID: testID(city.ID, cuisine), CityID: city.ID, Name: "Tasca", Cuisine: cuisine,
				PriceRange: "$$", Rating: 4.2, DistanceKm: 1.5, OpeningHours: "12:00–23:00", Popular: cuisine == "Japanese", Lat: city.Lat, Lng: city.Lng})
		}
	}
	if _, err := s.AddCatalog(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCatalog(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	c := addTestCatalog(t, s)
	if added, err := s.AddCatalog(ctx, c); err != nil || added != 0 {
		t.Fatalf("adding the catalog again added %d cities, %v; want 0", added, err)
	}
	for _, tc := range []struct{ name, country, want string }{
		{"lisbon", "", "test-lisbon-pt"},
		{"LISBOA", "", "test-lisbon-pt"},
		{"sao paulo", "", "test-sao-paulo-br"},
		{"São Paulo", "br", "test-sao-paulo-br"},
		{"São Paulo", "PT", ""},
		{"Atlantis", "", ""},
	} {
		city, err := s.CityNamed(ctx, tc.name, tc.country)
		if tc.want == "" {
			if errcode.Of(err) != errcode.NotFound {
				t.Errorf("CityNamed(%q, %q) = %v, %v; want NOT_FOUND", tc.name, tc.country, city, err)
			}
			continue
		}
		if err != nil || city.ID != tc.want {
			t.Errorf("CityNamed(%q, %q) = %v, %v; want %s", tc.name, tc.country, city.ID, err, tc.want)
		}
	}
	top, err := s.TopCities(ctx, 1)
	if err != nil || len(top) != 1 || top[0].Name != "São Paulo" {
		t.Errorf("TopCities(1) = %v, %v", top, err)
	}

	for _, tc := range []struct{ guests, want int }{{1, 2}, {3, 1}, {7, 0}} {
		list, err := s.Accommodations(ctx, "test-lisbon-pt", tc.guests)
		if err != nil || len(list) != tc.want {
			t.Errorf("Accommodations(lisbon, %d guests) = %d, %v; want %d", tc.guests, len(list), err, tc.want)
		}
	}
	a, err := s.AccommodationByID(ctx, c.Accommodations[0].ID)
	if err != nil || a.NightlyPrice != 80.5 || a.City != "São Paulo" {
		t.Errorf("AccommodationByID = %+v, %v", a, err)
	}
	for _, id := range []string{uuid.NewString(), "nope"} {
		if _, err := s.AccommodationByID(ctx, id); errcode.Of(err) != errcode.NotFound {
			t.Errorf("AccommodationByID(%q) = %v, want NOT_FOUND", id, err)
		}
	}

	for _, tc := range []struct {
		f    RestaurantFilter
		want int
	}{
		{RestaurantFilter{CityID: "test-lisbon-pt"}, 2},
		{RestaurantFilter{CityID: "test-lisbon-pt", Cuisine: "portugues"}, 1},
		{RestaurantFilter{CityID: "test-lisbon-pt", PriceRange: "$$$"}, 0},
		{RestaurantFilter{CityID: "test-lisbon-pt", Cuisine: "japanese", PriceRange: "$$"}, 1},
	} {
		list, err := s.Restaurants(ctx, tc.f)
		if err != nil || len(list) != tc.want {
			t.Errorf("Restaurants(%+v) = %d, %v; want %d", tc.f, len(list), err, tc.want)
		}
	}
}
