// Package tripdata holds the records tripgraph's tools read and write: the
// catalog's cities, places to stay and to eat, bookings, and the users'
// albums and photos. The PostgreSQL store, the in-memory tool backend and
// the seed generator all speak in these types, so that none of them
// depends on another.
package tripdata

import (
	"math"
	"time"
)

// Limits of a stay, the same for the planner that asks the traveller and
// for the tools that answer: a trip the planner accepts is one the tools
// will look up.
const (
	MaxGuests    = 20  // travellers in one party
	MaxNights    = 90  // nights of one stay
	MaxDaysAhead = 730 // how far ahead of today a stay may start
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

// DistanceKm is the great-circle distance between two points, in km.
func DistanceKm(lat1, lng1, lat2, lng2 float64) float64 {
	const earthKm = 6371.0
	rad := math.Pi / 180
	dlat, dlng := (lat2-lat1)*rad, (lng2-lng1)*rad
	a := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dlng/2)*math.Sin(dlng/2)
	return 2 * earthKm * math.Asin(math.Min(1, math.Sqrt(a)))
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

// Catalog is a batch of cities with their accommodations and restaurants.
type Catalog struct {
	Cities         []City
	Accommodations []Accommodation
	Restaurants    []Restaurant
}

// Booking is a stay a user booked at an accommodation, from the night of
// StartDate to the morning of EndDate.
type Booking struct {
	ID              string
	UserID          string
	AccommodationID string
	StartDate       time.Time
	EndDate         time.Time
	Guests          int
	NightlyPrice    float64
	TotalPrice      float64
	Currency        string
	IdempotencyKey  string
	CreatedAt       time.Time
}

// Overlaps reports whether the stay from start to end shares a night with
// the booking: [StartDate, EndDate) and [start, end) intersect.
func (b Booking) Overlaps(start, end time.Time) bool {
	return start.Before(b.EndDate) && b.StartDate.Before(end)
}

// Album is a user's photo album with figures computed from its photos.
type Album struct {
	ID          string
	UserID      string
	Name        string
	Description string
	StartDate   time.Time // the first photo's day; zero when the album is empty
	EndDate     time.Time // the last photo's day; zero when the album is empty
	PhotoCount  int
	Locations   []string // the most frequent location names, most frequent first
	CoverID     string   // the earliest photo's id; "" when the album is empty
}

// Photo is one photo of an album.
type Photo struct {
	ID           string
	AlbumID      string
	AlbumName    string
	UserID       string
	Description  string
	LocationName string
	TakenAt      time.Time
	Lat, Lng     *float64
	Path         string // relative to the media root
}

// NewPhoto is a photo to store.
type NewPhoto struct {
	ID           string
	AlbumID      string
	UserID       string
	Description  string
	LocationName string
	TakenAt      time.Time
	Lat, Lng     *float64
	Path         string
}

// PhotoSearch is a search for photos by a term in their description or
// location name.
type PhotoSearch struct {
	UserID  string
	AlbumID string // "" searches all of the user's albums
	Term    string // matched as a substring, ignoring case and accents
	Limit   int
}

// MaxSearchCount caps the total a photo search counts, and is how many
// matches it reads at most: counting, or sorting by date, every match of a
// common word in a million photos would cost more than the search.
const MaxSearchCount = 1000

// PhotoSearchResult is what a photo search found.
type PhotoSearchResult struct {
	// Photos are the newest Limit of the matches read, newest first. When
	// More is false these are all the matches, so Photos are the newest
	// matching photos overall; when it is true they are the newest of the
	// first MaxSearchCount matches found, in no particular order of date.
	Photos []Photo
	// Total is how many photos match, counted up to MaxSearchCount.
	Total int
	// More reports that more than MaxSearchCount photos match: Total is a
	// lower bound.
	More bool
}

// TripStats sums up an album: its photos, where and when they were taken.
type TripStats struct {
	AlbumID     string
	Name        string
	TotalPhotos int
	Locations   []LocationCount // most photographed first
	StartDate   time.Time       // zero when the album is empty
	EndDate     time.Time
}

// LocationCount is how many photos of an album were taken at a place.
type LocationCount struct {
	Name  string
	Count int
}

// StayQuery asks for a city's places to stay that hold Guests people and
// are free from Start to End (no booking shares a night with the stay).
type StayQuery struct {
	CityID     string
	Guests     int
	Start, End time.Time
}

// RestaurantFilter narrows a city's restaurants; empty fields match all.
type RestaurantFilter struct {
	CityID string
	// Cuisines: a restaurant matches when its cuisine contains one of
	// them, ignoring case and accents.
	Cuisines   []string
	PriceRange string // $ to $$$$, exactly
}
