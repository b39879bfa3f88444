package mcpserver

import (
	"context"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tripgraph/tripgraph/media"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/tripdata"
)

var testURL string

func TestMain(m *testing.M) {
	os.Exit(pgtest.Run(m, "mcpserver", &testURL, func() {
		if testFixture != nil {
			testFixture.st.Close()
		}
	}))
}

// serveHTTP serves srv over HTTP with opts until the test ends, then
// closes the sessions its clients left open, so that none outlives the
// test.
func serveHTTP(t testing.TB, srv *mcp.Server, opts HTTPOptions) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(NewHTTPHandler(srv, opts))
	t.Cleanup(func() {
		ts.Close()
		for ss := range srv.Sessions() {
			ss.Close()
		}
	})
	return ts
}

// fixture is the data the tests share: ana's album with three photos, an
// album of bob's, and Lisbon in the catalog.
type fixture struct {
	st         *store.Store
	ana, bob   accounts.User
	anaAlbum   string
	bobAlbum   string
	small, big string // accommodations in Lisbon for 2 and 6 guests
}

var testFixture *fixture

func setup(t testing.TB) *fixture {
	t.Helper()
	pgtest.Skip(t)
	if testFixture != nil {
		return testFixture
	}
	ctx := context.Background()
	if err := migrations.Up(ctx, testURL); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{st: st}
	f.ana, _ = st.Accounts.EnsureUser(ctx, "ana")
	f.bob, _ = st.Accounts.EnsureUser(ctx, "bob")
	f.anaAlbum = addAlbum(t, st, f.ana.ID, "Lisboa 2024", "11111111-0000-0000-0000-000000000001", []photo{
		{"aniversário da Vivi na praia", "Praia de Carcavelos", "2024-07-02"},
		{"sunset at Belém tower", "Belém", "2024-07-01"},
		{"pastéis de nata", "Belém", "2024-07-01"},
	})
	f.bobAlbum = addAlbum(t, st, f.bob.ID, "Roma", "22222222-0000-0000-0000-000000000001", []photo{{"Colosseo", "Roma", "2023-05-01"}})
	f.small, f.big = "33333333-0000-0000-0000-000000000001", "33333333-0000-0000-0000-000000000002"
	_, err = st.Catalog.AddCatalog(ctx, tripdata.Catalog{
		Cities: []tripdata.City{{ID: "lisbon-pt", Name: "Lisbon", GeoName: "Lisboa", Country: "PT", Population: 500000, Rank: 1, Lat: 38.7, Lng: -9.1}},
		Accommodations: []tripdata.Accommodation{
			{ID: f.small, CityID: "lisbon-pt", Name: "Casa Pequena", Kind: "apartment", NightlyPrice: 80.5, Currency: "EUR", Rating: 4.6, Capacity: 2, Lat: 38.7, Lng: -9.1},
			{ID: f.big, CityID: "lisbon-pt", Name: "Hotel Grande", Kind: "hotel", NightlyPrice: 150, Currency: "EUR", Rating: 4.2, Capacity: 6, Lat: 38.7, Lng: -9.1},
		},
		Restaurants: []tripdata.Restaurant{
			{ID: "44444444-0000-0000-0000-000000000001", CityID: "lisbon-pt", Name: "Tasca do Zé", Cuisine: "Portuguese", PriceRange: "$", Rating: 4.7, DistanceKm: 0.8, OpeningHours: "12:00–23:00", Popular: true, Lat: 38.7, Lng: -9.1},
			{ID: "44444444-0000-0000-0000-000000000002", CityID: "lisbon-pt", Name: "Sushi Tejo", Cuisine: "Japanese", PriceRange: "$$$", Rating: 4.4, DistanceKm: 2.1, OpeningHours: "19:00–23:30", Lat: 38.7, Lng: -9.1},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	testFixture = f
	return f
}

type photo struct{ description, location, day string }

func addAlbum(t testing.TB, st *store.Store, user, name, id string, photos []photo) string {
	t.Helper()
	ctx := context.Background()
	id, err := st.Catalog.EnsureAlbum(ctx, user, id, name, "")
	if err != nil {
		t.Fatal(err)
	}
	var list []tripdata.NewPhoto
	for i, p := range photos {
		day, _ := time.Parse(time.DateOnly, p.day)
		pid := id[:len(id)-1] + string(rune('a'+i))
		list = append(list, tripdata.NewPhoto{ID: pid, AlbumID: id, UserID: user, Description: p.description,
			LocationName: p.location, TakenAt: day, Path: "photos/" + pid + ".png"})
	}
	if _, err := st.Catalog.AddPhotos(ctx, list); err != nil {
		t.Fatal(err)
	}
	return id
}

func testConfig(f *fixture, user string) Config {
	return Config{
		Backend: f.st.Catalog,
		URLs:    media.URLs{Base: "http://tripgraph.test", Secret: []byte("0123456789abcdef"), TTL: time.Hour},
		Resolve: func(place string) (Place, bool) {
			if place == "Lisbon, Portugal" {
				return Place{Name: "Lisbon", Country: "PT", Lat: 38.72, Lng: -9.13, Names: []string{"Lisbon", "Lisboa"}, End: len(place)}, true
			}
			return Place{}, false
		},
		Now:  func() time.Time { return time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC) },
		User: user,
	}
}
