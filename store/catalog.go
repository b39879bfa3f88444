package store

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/errcode"
)

// City is a city the accommodation and restaurant catalog covers.
type City struct {
	ID         string // stable key, such as "lisbon-pt"
	Name       string // English name
	GeoName    string // local (GeoNames) name
	Country    string // ISO 3166-1 alpha-2
	Population int
	Rank       int // 1 for the most populous city of the catalog
	Lat, Lng   float64
}

// Accommodation is a place to stay, in one city of the catalog.
type Accommodation struct {
	ID           string
	CityID       string
	City         string // the city's English name
	Name         string
	Kind         string // hotel, apartment, guesthouse, hostel
	NightlyPrice float64
	Currency     string
	Rating       float64
	Capacity     int
	Lat, Lng     float64
}

// Restaurant is a place to eat, in one city of the catalog.
type Restaurant struct {
	ID           string
	CityID       string
	Name         string
	Cuisine      string
	PriceRange   string // $ to $$$$
	Rating       float64
	DistanceKm   float64 // from the city centre
	OpeningHours string
	Popular      bool
	Lat, Lng     float64
}

// CityNamed returns the catalog city whose English or local name is name,
// ignoring case and accents; country, when not "", narrows the choice.
// Several matches mean the most populous one.
func (s *Store) CityNamed(ctx context.Context, name, country string) (City, error) {
	var c City
	err := s.Pool.QueryRow(ctx, `
		SELECT id, name, geo_name, country, population, rank, lat, lng FROM catalog_cities
		WHERE (tg_fold(name) = tg_fold($1) OR tg_fold(geo_name) = tg_fold($1))
		  AND ($2 = '' OR country = upper($2))
		ORDER BY rank LIMIT 1`, name, country).
		Scan(&c.ID, &c.Name, &c.GeoName, &c.Country, &c.Population, &c.Rank, &c.Lat, &c.Lng)
	if isNoRows(err) {
		return City{}, errcode.New(errcode.NotFound, "the catalog does not cover %q", name)
	}
	if err != nil {
		return City{}, fmt.Errorf("finding city %q: %w", name, err)
	}
	return c, nil
}

// TopCities returns the n most populous cities of the catalog.
func (s *Store) TopCities(ctx context.Context, n int) ([]City, error) {
	rows, err := s.Pool.Query(ctx, `
		SELECT id, name, geo_name, country, population, rank, lat, lng
		FROM catalog_cities ORDER BY rank LIMIT $1`, n)
	if err != nil {
		return nil, fmt.Errorf("listing the catalog's cities: %w", err)
	}
	cities, err := pgx.CollectRows(rows, pgx.RowToStructByPos[City])
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

func scanAccommodation(row pgx.CollectableRow) (Accommodation, error) {
	var a Accommodation
	err := row.Scan(&a.ID, &a.CityID, &a.City, &a.Name, &a.Kind, &a.NightlyPrice, &a.Currency, &a.Rating, &a.Capacity, &a.Lat, &a.Lng)
	return a, err
}

// Accommodations returns the accommodations of a city that hold at least
// guests people, best rated first.
func (s *Store) Accommodations(ctx context.Context, cityID string, guests int) ([]Accommodation, error) {
	rows, err := s.Pool.Query(ctx, `SELECT `+accommodationColumns+`
		FROM accommodations a JOIN catalog_cities c ON c.id = a.city_id
		WHERE a.city_id = $1 AND a.capacity >= $2
		ORDER BY a.rating DESC, a.nightly_price, a.id`, cityID, guests)
	if err != nil {
		return nil, fmt.Errorf("listing accommodations in %s: %w", cityID, err)
	}
	list, err := pgx.CollectRows(rows, scanAccommodation)
	if err != nil {
		return nil, fmt.Errorf("reading accommodations in %s: %w", cityID, err)
	}
	return list, nil
}

// AccommodationByID returns one accommodation, or NOT_FOUND.
func (s *Store) AccommodationByID(ctx context.Context, id string) (Accommodation, error) {
	notFound := errcode.New(errcode.NotFound, "no accommodation with id %q", id)
	if uuid.Validate(id) != nil {
		return Accommodation{}, notFound
	}
	rows, err := s.Pool.Query(ctx, `SELECT `+accommodationColumns+`
		FROM accommodations a JOIN catalog_cities c ON c.id = a.city_id WHERE a.id = $1`, id)
	if err != nil {
		return Accommodation{}, fmt.Errorf("reading accommodation %s: %w", id, err)
	}
	a, err := pgx.CollectExactlyOneRow(rows, scanAccommodation)
	if isNoRows(err) {
		return Accommodation{}, notFound
	}
	if err != nil {
		return Accommodation{}, fmt.Errorf("reading accommodation %s: %w", id, err)
	}
	return a, nil
}

// RestaurantFilter narrows a city's restaurants; "" fields match all.
type RestaurantFilter struct {
	CityID     string
	Cuisine    string // matched ignoring case and accents
	PriceRange string // $ to $$$$, exactly
}

// Restaurants returns a city's restaurants that pass the filter, popular
// and best rated first.
func (s *Store) Restaurants(ctx context.Context, f RestaurantFilter) ([]Restaurant, error) {
	rows, err := s.Pool.Query(ctx, `
		SELECT id, city_id, name, cuisine, price_range, rating, distance_km, opening_hours, popular, lat, lng
		FROM restaurants
		WHERE city_id = $1
		  AND ($2 = '' OR tg_fold(cuisine) LIKE tg_fold($2))
		  AND ($3 = '' OR price_range = $3)
		ORDER BY popular DESC, rating DESC, id`, f.CityID, likeOrEmpty(f.Cuisine), f.PriceRange)
	if err != nil {
		return nil, fmt.Errorf("listing restaurants in %s: %w", f.CityID, err)
	}
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Restaurant])
	if err != nil {
		return nil, fmt.Errorf("reading restaurants in %s: %w", f.CityID, err)
	}
	return list, nil
}

func likeOrEmpty(term string) string {
	if term == "" {
		return ""
	}
	return containsPattern(term)
}

// Catalog is a batch of cities with their accommodations and restaurants.
type Catalog struct {
	Cities         []City
	Accommodations []Accommodation
	Restaurants    []Restaurant
}

// AddCatalog stores a catalog, in one transaction, leaving alone every
// city, accommodation and restaurant whose id is already stored. It
// returns how many cities were new.
func (s *Store) AddCatalog(ctx context.Context, c Catalog) (int, error) {
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
	return added, nil
}
