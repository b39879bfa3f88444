// Package catalog is the data behind tripgraph's MCP tools: the cities,
// accommodations and restaurants, the bookings, and each user's travel
// albums and photos, with the trigram and word-start searches over them.
// It is the PostgreSQL implementation of the tool server's backend.
package catalog

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/tripdata"
)

// citiesFresh is how long Cities serves the cities it read before it reads
// them again: the catalog changes only when it is seeded, and every tool
// call that names a place needs all of them.
const citiesFresh = time.Minute

// Cities returns every city of the catalog, most populous first. It reads
// them at most once per citiesFresh (and after AddCatalog in this
// process), so cities another process adds show up within that. The
// slice is shared: callers must not change it.
func (s *Store) Cities(ctx context.Context) ([]tripdata.City, error) {
	s.citiesMu.Lock()
	defer s.citiesMu.Unlock()
	if s.cities != nil && time.Since(s.citiesRead) < citiesFresh {
		return s.cities, nil
	}
	cities, err := s.readCities(ctx)
	if err != nil {
		return nil, err
	}
	s.cities, s.citiesRead = cities, time.Now()
	return cities, nil
}

// forgetCities makes the next Cities read them again.
func (s *Store) forgetCities() {
	s.citiesMu.Lock()
	defer s.citiesMu.Unlock()
	s.cities = nil
}

func (s *Store) readCities(ctx context.Context) ([]tripdata.City, error) {
	rows, err := s.Pool.Query(ctx, `
		SELECT id, name, geo_name, country, population, rank, lat, lng
		FROM catalog_cities ORDER BY rank, id`)
	if err != nil {
		return nil, fmt.Errorf("listing the catalog's cities: %w", err)
	}
	cities, err := pgx.CollectRows(rows, pgx.RowToStructByPos[tripdata.City])
	if err != nil {
		return nil, fmt.Errorf("reading the catalog's cities: %w", err)
	}
	return cities, nil
}

// CountCities returns how many cities the catalog covers.
func (s *Store) CountCities(ctx context.Context) (int, error) {
	var n int
	if err := s.Pool.QueryRow(ctx, `SELECT count(*) FROM catalog_cities`).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting the catalog's cities: %w", err)
	}
	return n, nil
}

const accommodationColumns = `a.id, a.city_id, c.name, a.name, a.kind, a.nightly_price, a.currency, a.rating, a.capacity, a.lat, a.lng`

func scanAccommodation(row pgx.CollectableRow) (tripdata.Accommodation, error) {
	var a tripdata.Accommodation
	err := row.Scan(&a.ID, &a.CityID, &a.City, &a.Name, &a.Kind, &a.NightlyPrice, &a.Currency, &a.Rating, &a.Capacity, &a.Lat, &a.Lng)
	return a, err
}

// Accommodations returns the accommodations of a city that hold at least
// q.Guests people and that no booking holds for any night from q.Start to
// q.End (the overlap the bookings' exclusion constraint forbids), best
// rated first.
func (s *Store) Accommodations(ctx context.Context, q tripdata.StayQuery) ([]tripdata.Accommodation, error) {
	rows, err := s.Pool.Query(ctx, `SELECT `+accommodationColumns+`
		FROM accommodations a JOIN catalog_cities c ON c.id = a.city_id
		WHERE a.city_id = $1 AND a.capacity >= $2
		  AND NOT EXISTS (SELECT 1 FROM bookings b /* any owner: booking */ WHERE b.accommodation_id = a.id
		                  AND daterange(b.start_date, b.end_date) && daterange($3::date, $4::date))
		ORDER BY a.rating DESC, a.nightly_price, a.id`, q.CityID, q.Guests, q.Start, q.End)
	if err != nil {
		return nil, fmt.Errorf("listing accommodations in %s: %w", q.CityID, err)
	}
	list, err := pgx.CollectRows(rows, scanAccommodation)
	if err != nil {
		return nil, fmt.Errorf("reading accommodations in %s: %w", q.CityID, err)
	}
	return list, nil
}

// AccommodationByID returns one accommodation, or NOT_FOUND.
func (s *Store) AccommodationByID(ctx context.Context, id string) (tripdata.Accommodation, error) {
	notFound := errcode.New(errcode.NotFound, "no accommodation with id %q", id)
	if uuid.Validate(id) != nil {
		return tripdata.Accommodation{}, notFound
	}
	rows, err := s.Pool.Query(ctx, `SELECT `+accommodationColumns+`
		FROM accommodations a JOIN catalog_cities c ON c.id = a.city_id WHERE a.id = $1`, id)
	if err != nil {
		return tripdata.Accommodation{}, fmt.Errorf("reading accommodation %s: %w", id, err)
	}
	a, err := pgx.CollectExactlyOneRow(rows, scanAccommodation)
	if isNoRows(err) {
		return tripdata.Accommodation{}, notFound
	}
	if err != nil {
		return tripdata.Accommodation{}, fmt.Errorf("reading accommodation %s: %w", id, err)
	}
	return a, nil
}

// Restaurants returns a city's restaurants that pass the filter, popular
// and best rated first.
func (s *Store) Restaurants(ctx context.Context, f tripdata.RestaurantFilter) ([]tripdata.Restaurant, error) {
	patterns := make([]string, len(f.Cuisines))
	for i, c := range f.Cuisines {
		patterns[i] = containsPattern(c)
	}
	rows, err := s.Pool.Query(ctx, `
		SELECT id, city_id, name, cuisine, price_range, rating, distance_km, opening_hours, popular, lat, lng
		FROM restaurants
		WHERE city_id = $1
		  AND (cardinality($2::text[]) = 0 OR tg_fold(cuisine) LIKE ANY (SELECT tg_fold(p) FROM unnest($2::text[]) p))
		  AND ($3 = '' OR price_range = $3)
		ORDER BY popular DESC, rating DESC, id`, f.CityID, patterns, f.PriceRange)
	if err != nil {
		return nil, fmt.Errorf("listing restaurants in %s: %w", f.CityID, err)
	}
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[tripdata.Restaurant])
	if err != nil {
		return nil, fmt.Errorf("reading restaurants in %s: %w", f.CityID, err)
	}
	return list, nil
}

// Cuisines returns the cuisines of a city's restaurants, in alphabetical
// order.
func (s *Store) Cuisines(ctx context.Context, cityID string) ([]string, error) {
	rows, err := s.Pool.Query(ctx, `SELECT DISTINCT cuisine FROM restaurants WHERE city_id = $1 ORDER BY cuisine`, cityID)
	if err != nil {
		return nil, fmt.Errorf("listing the cuisines of %s: %w", cityID, err)
	}
	list, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("reading the cuisines of %s: %w", cityID, err)
	}
	return list, nil
}

// AddCatalog stores a catalog, in one transaction, leaving alone every
// city, accommodation and restaurant whose id is already stored. It
// returns how many cities were new.
func (s *Store) AddCatalog(ctx context.Context, c tripdata.Catalog) (int, error) {
	tx, err := s.Pool.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("adding to the catalog: %w", err)
	}
	defer tx.Rollback(ctx)
	var b pgx.Batch
	for _, x := range c.Cities {
		b.Queue(`INSERT INTO catalog_cities (id, name, geo_name, country, population, rank, lat, lng)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
			x.ID, x.Name, x.GeoName, x.Country, x.Population, x.Rank, x.Lat, x.Lng)
	}
	for _, x := range c.Accommodations {
		b.Queue(`INSERT INTO accommodations (id, city_id, name, kind, nightly_price, currency, rating, capacity, lat, lng)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
			x.ID, x.CityID, x.Name, x.Kind, x.NightlyPrice, x.Currency, x.Rating, x.Capacity, x.Lat, x.Lng)
	}
	for _, x := range c.Restaurants {
		b.Queue(`INSERT INTO restaurants (id, city_id, name, cuisine, price_range, rating, distance_km, opening_hours, popular, lat, lng)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING`,
			x.ID, x.CityID, x.Name, x.Cuisine, x.PriceRange, x.Rating, x.DistanceKm, x.OpeningHours, x.Popular, x.Lat, x.Lng)
	}
	results := tx.SendBatch(ctx, &b)
	added := 0
	for i := range b.Len() {
		tag, err := results.Exec()
		if err != nil {
			results.Close()
			return 0, fmt.Errorf("adding catalog row %d: %w", i, err)
		}
		if i < len(c.Cities) {
			added += int(tag.RowsAffected())
		}
	}
	if err := results.Close(); err != nil {
		return 0, fmt.Errorf("adding to the catalog: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("committing the catalog: %w", err)
	}
	s.forgetCities()
	return added, nil
}

// pictureTables are the tables whose rows have generated pictures, by the
// kind of picture.
var pictureTables = map[string]string{"accommodation": "accommodations", "restaurant": "restaurants", "album": "albums"}

// PictureExists reports whether there is an accommodation, restaurant or
// album (kind) with this id.
func (s *Store) PictureExists(ctx context.Context, kind, id string) (bool, error) {
	table, ok := pictureTables[kind]
	if !ok || uuid.Validate(id) != nil {
		return false, nil
	}
	var exists bool
	if err := s.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+table+` WHERE id = $1)`, id).Scan(&exists); err != nil {
		return false, fmt.Errorf("looking up %s %s: %w", kind, id, err)
	}
	return exists, nil
}

// Store is the catalog on a PostgreSQL pool. It is safe for concurrent use.
type Store struct {
	Pool *pgxpool.Pool

	citiesMu   sync.Mutex
	cities     []tripdata.City // as read at citiesRead; nil: not read
	citiesRead time.Time

	statsMu   sync.Mutex
	stats     *searchStats // as read at statsRead; nil: not read
	statsRead time.Time
}

// New returns the catalog on pool.
func New(pool *pgxpool.Pool) *Store { return &Store{Pool: pool} }
