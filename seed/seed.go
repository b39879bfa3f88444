// Package seed fills tripgraph's database with deterministic demo data: an
// accommodation and restaurant catalog for the most populous cities, and a
// demo user's travel albums. The same options always give the same rows,
// and seeding again adds only what is missing.
package seed

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"unicode"

	"github.com/google/uuid"
	"golang.org/x/text/unicode/norm"

	"github.com/tripgraph/tripgraph/store"
)

// City is a city to put in the catalog.
type City struct {
	Name       string // English name
	GeoName    string // local name; Name when empty
	Country    string // ISO 3166-1 alpha-2
	Population int
	Lat, Lng   float64
}

// How many places to stay and to eat a city of the catalog has, unless
// Options say otherwise.
const (
	AccommodationsPerCity = 12
	RestaurantsPerCity    = 10
)

// Options says what to seed.
type Options struct {
	// Cities are the catalog's cities, most populous first.
	Cities            []City
	AccommodationsPer int // per city; default AccommodationsPerCity
	RestaurantsPer    int // per city; default RestaurantsPerCity
	DemoUser          string
	Photos            int // total photos wanted for the demo user; the demo albums alone have about 1,500
	Progress          func(format string, args ...any)
}

// Run seeds the catalog and the demo user's albums.
func Run(ctx context.Context, st *store.Store, o Options) error {
	if o.AccommodationsPer == 0 {
		o.AccommodationsPer = AccommodationsPerCity
	}
	if o.RestaurantsPer == 0 {
		o.RestaurantsPer = RestaurantsPerCity
	}
	if o.DemoUser == "" {
		o.DemoUser = "demo"
	}
	if o.Progress == nil {
		o.Progress = func(string, ...any) {}
	}
	added, err := st.Catalog.AddCatalog(ctx, Catalog(o.Cities, o.AccommodationsPer, o.RestaurantsPer))
	if err != nil {
		return fmt.Errorf("seeding the catalog: %w", err)
	}
	o.Progress("catalog: %d cities (%d new)", len(o.Cities), added)
	user, err := st.Accounts.EnsureUser(ctx, o.DemoUser)
	if err != nil {
		return fmt.Errorf("seeding the demo user: %w", err)
	}
	n, err := DemoAlbums(ctx, st, user.ID)
	if err != nil {
		return err
	}
	o.Progress("demo albums of %s: %d new photos", user.Name, n)
	if o.Photos > 0 {
		if err := bulkPhotos(ctx, st, user.ID, o.Photos, o.Cities, o.Progress); err != nil {
			return err
		}
	}
	return nil
}

// id is a stable UUID for a name, so that seeding twice gives the same rows.
func id(parts ...any) string {
	return uuid.NewSHA1(uuid.NameSpaceOID, []byte("tripgraph/"+fmt.Sprint(parts...))).String()
}

// rng is a generator seeded by a name.
func rng(parts ...any) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprint(h, parts...)
	s := h.Sum64()
	return rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))
}

func pick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

// Slug is the lower-case ASCII form of a name: "São Paulo" is "sao-paulo".
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range norm.NFD.String(strings.ToLower(name)) {
		switch {
		case unicode.Is(unicode.Mn, c):
		case c < 128 && (unicode.IsLetter(c) || unicode.IsDigit(c)):
			b.WriteRune(c)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// CityID is a city's key in the catalog: "lisbon-pt".
func CityID(c City) string { return Slug(c.Name) + "-" + strings.ToLower(c.Country) }
