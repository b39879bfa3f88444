package catalog

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/tripdata"
)

// testID is a stable id, so that adding the test catalog twice adds nothing.
func testID(parts ...any) string {
	return uuid.NewSHA1(uuid.NameSpaceURL, []byte(fmt.Sprint(parts...))).String()
}

// addTestCatalog stores two cities, Lisbon and São Paulo, each with one
// small and one large accommodation and two restaurants.
func addTestCatalog(t *testing.T, s *testStore) tripdata.Catalog {
	t.Helper()
	c := tripdata.Catalog{Cities: []tripdata.City{
		{ID: "test-sao-paulo-br", Name: "São Paulo", GeoName: "São Paulo", Country: "BR", Population: 12000000, Rank: 1, Lat: -23.5, Lng: -46.6},
		{ID: "test-lisbon-pt", Name: "Lisbon", GeoName: "Lisboa", Country: "PT", Population: 500000, Rank: 2, Lat: 38.7, Lng: -9.1},
	}}
	for _, city := range c.Cities {
		for _, capacity := range []int{2, 6} {
			c.Accommodations = append(c.Accommodations, tripdata.Accommodation{ID: testID(city.ID, capacity), CityID: city.ID, Name: "Casa", Kind: "apartment",
				NightlyPrice: 80.5, Currency: "EUR", Rating: 4.5, Capacity: capacity, Lat: city.Lat, Lng: city.Lng})
		}
		for _, cuisine := range []string{"Portuguesa", "Japanese"} {
			c.Restaurants = append(c.Restaurants, tripdata.Restaurant{ID: testID(city.ID, cuisine), CityID: city.ID, Name: "Tasca", Cuisine: cuisine,
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
	cities, err := s.Cities(ctx)
	if err != nil || len(cities) != 2 || cities[0].Name != "São Paulo" || cities[1].GeoName != "Lisboa" {
		t.Errorf("Cities = %+v, %v; want São Paulo, then Lisbon", cities, err)
	}

	lisbon := c.Accommodations[2:4]
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	ana, _ := s.EnsureUser(ctx, "catalog-ana")
	if _, _, err := s.Book(ctx, tripdata.Booking{UserID: ana.ID, AccommodationID: lisbon[0].ID, StartDate: day("2030-01-10"),
		EndDate: day("2030-01-12"), Guests: 1, NightlyPrice: 80.5, TotalPrice: 161, Currency: "EUR", IdempotencyKey: "catalog"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		guests     int
		start, end string
		want       int
	}{
		{1, "2030-01-01", "2030-01-03", 2}, {3, "2030-01-01", "2030-01-03", 1}, {7, "2030-01-01", "2030-01-03", 0},
		{1, "2030-01-11", "2030-01-15", 1}, {1, "2030-01-05", "2030-01-10", 2}, {1, "2030-01-12", "2030-01-13", 2},
	} {
		list, err := s.Accommodations(ctx, tripdata.StayQuery{CityID: "test-lisbon-pt", Guests: tc.guests, Start: day(tc.start), End: day(tc.end)})
		if err != nil || len(list) != tc.want {
			t.Errorf("Accommodations(lisbon, %d guests, %s to %s) = %d, %v; want %d", tc.guests, tc.start, tc.end, len(list), err, tc.want)
		}
		booked, err := s.Booked(ctx, lisbon[0].ID, day(tc.start), day(tc.end))
		if err != nil || booked != (tc.guests == 1 && tc.want == 1) {
			t.Errorf("Booked(%s to %s) = %v, %v", tc.start, tc.end, booked, err)
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
		f    tripdata.RestaurantFilter
		want int
	}{
		{tripdata.RestaurantFilter{CityID: "test-lisbon-pt"}, 2},
		{tripdata.RestaurantFilter{CityID: "test-lisbon-pt", Cuisines: []string{"portugues"}}, 1},
		{tripdata.RestaurantFilter{CityID: "test-lisbon-pt", Cuisines: []string{"portugues", "JAPAN"}}, 2},
		{tripdata.RestaurantFilter{CityID: "test-lisbon-pt", Cuisines: []string{"100%"}}, 0},
		{tripdata.RestaurantFilter{CityID: "test-lisbon-pt", PriceRange: "$$$"}, 0},
		{tripdata.RestaurantFilter{CityID: "test-lisbon-pt", Cuisines: []string{"japanese"}, PriceRange: "$$"}, 1},
	} {
		list, err := s.Restaurants(ctx, tc.f)
		if err != nil || len(list) != tc.want {
			t.Errorf("Restaurants(%+v) = %d, %v; want %d", tc.f, len(list), err, tc.want)
		}
	}
	cuisines, err := s.Cuisines(ctx, "test-lisbon-pt")
	if err != nil || !slices.Equal(cuisines, []string{"Japanese", "Portuguesa"}) {
		t.Errorf("Cuisines = %v, %v", cuisines, err)
	}
	for _, tc := range []struct {
		kind, id string
		want     bool
	}{
		{"accommodation", c.Accommodations[0].ID, true}, {"restaurant", c.Restaurants[0].ID, true},
		{"restaurant", c.Accommodations[0].ID, false}, {"accommodation", uuid.NewString(), false},
		{"album", uuid.NewString(), false}, {"user", c.Accommodations[0].ID, false}, {"accommodation", "1234", false},
	} {
		if got, err := s.PictureExists(ctx, tc.kind, tc.id); err != nil || got != tc.want {
			t.Errorf("PictureExists(%s, %s) = %v, %v; want %v", tc.kind, tc.id, got, err, tc.want)
		}
	}
}

// Cities keeps what it read, and reads again once this process adds to
// the catalog.
func TestCitiesAreReadAgainAfterAddCatalog(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	before, err := s.Cities(ctx)
	if err != nil {
		t.Fatal(err)
	}
	city := tripdata.City{ID: "test-porto-pt-" + uuid.NewString(), Name: "Porto", GeoName: "Porto", Country: "PT", Population: 200000, Rank: 99, Lat: 41.1, Lng: -8.6}
	if _, err := s.AddCatalog(ctx, tripdata.Catalog{Cities: []tripdata.City{city}}); err != nil {
		t.Fatal(err)
	}
	after, err := s.Cities(ctx)
	if err != nil || len(after) != len(before)+1 || !slices.ContainsFunc(after, func(c tripdata.City) bool { return c.ID == city.ID }) {
		t.Errorf("after adding %s: %d cities (%v), want %d with it", city.ID, len(after), err, len(before)+1)
	}
}
