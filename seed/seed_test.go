package seed

import (
	"context"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/tripdata"
)

var testURL string

func TestMain(m *testing.M) {
	os.Exit(pgtest.Run(m, "seed", &testURL))
}

var testCities = []City{
	{Name: "Tokyo", Country: "JP", Population: 37_000_000, Lat: 35.68, Lng: 139.69},
	{Name: "São Paulo", Country: "BR", Population: 22_000_000, Lat: -23.55, Lng: -46.63},
	{Name: "Lisbon", GeoName: "Lisboa", Country: "PT", Population: 550_000, Lat: 38.72, Lng: -9.14},
}

func TestRunIsIdempotent(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	if err := migrations.Up(ctx, testURL); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opts := Options{Cities: testCities, Photos: 1515 + 2500}
	counts := func() [5]int {
		var c [5]int
		for i, table := range []string{"catalog_cities", "accommodations", "restaurants", "albums", "photos"} {
			st.Pool.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&c[i])
		}
		return c
	}
	if err := Run(ctx, st, opts); err != nil {
		t.Fatal(err)
	}
	first := counts()
	if want := [5]int{3, 36, 30, 12 + 1, 1515 + 2500}; first != want {
		t.Fatalf("counts after seeding = %v, want %v", first, want)
	}
	if err := Run(ctx, st, opts); err != nil {
		t.Fatal(err)
	}
	if again := counts(); again != first {
		t.Fatalf("seeding again changed the counts from %v to %v", first, again)
	}

	demo, err := st.Accounts.UserByName(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	photos, _, err := st.Catalog.SearchPhotos(ctx, tripdata.PhotoSearch{UserID: demo.ID, Term: "aniversario da vivi", Limit: 200})
	if err != nil || len(photos) == 0 {
		t.Fatalf("searching the demo albums for aniversario da vivi = %d, %v", len(photos), err)
	}
	var bad int
	st.Pool.QueryRow(ctx, `SELECT count(*) FROM photos WHERE description LIKE '%!(%' OR description = ''`).Scan(&bad)
	if bad != 0 {
		t.Errorf("%d photo descriptions are badly formatted", bad)
	}
	cities, err := st.Catalog.Cities(ctx)
	if err != nil || !slices.ContainsFunc(cities, func(c tripdata.City) bool { return c.ID == "sao-paulo-br" }) {
		t.Errorf("Cities = %v, %v; want São Paulo among them", cities, err)
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"São Paulo": "sao-paulo", "Köln": "koln", "New York City": "new-york-city", "Xi'an": "xi-an"} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCaptionsMixLanguages(t *testing.T) {
	var pt, en int
	for _, p := range tripPhotos(trips[0], "u", "a") {
		if strings.Contains(p.Description, " em ") || strings.Contains(p.Description, " de ") {
			pt++
		} else {
			en++
		}
	}
	if pt == 0 || en == 0 {
		t.Errorf("captions: %d Portuguese, %d English; want both", pt, en)
	}
}

func TestRestaurantNamesFitTheirCuisine(t *testing.T) {
	owner := map[string]string{} // kind of place → its cuisine
	for cuisine, n := range eatNames {
		for _, k := range n.kinds {
			if other, ok := owner[k]; ok {
				t.Errorf("%q names both %s and %s restaurants", k, other, cuisine)
			}
			owner[k] = cuisine
		}
	}
	var cities []City
	for country := range localCuisine {
		cities = append(cities, City{Name: "Town " + country, Country: country, Population: 100_000})
	}
	cities = append(cities, testCities...)
	c := Catalog(cities, 0, 40)
	seen := map[string]bool{}
	for _, r := range c.Restaurants {
		seen[r.Cuisine] = true
		kind := ""
		for k := range owner {
			if strings.HasPrefix(r.Name, k+" ") && len(k) > len(kind) {
				kind = k
			}
		}
		if owner[kind] != r.Cuisine {
			t.Errorf("%q serves %s food, but its name is of a %s place", r.Name, r.Cuisine, or(owner[kind], "no known"))
		}
	}
	for _, cuisine := range append(slices.Clone(cuisines), slices.Collect(maps.Values(localCuisine))...) {
		if _, ok := eatNames[cuisine]; !ok {
			t.Errorf("no names for %s restaurants", cuisine)
		}
	}
	if len(seen) < 20 {
		t.Errorf("only %d cuisines in %d restaurants", len(seen), len(c.Restaurants))
	}
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
