package mcpserver

import (
	"context"
	"time"

	"github.com/tripgraph/tripgraph/tripdata"
)

// Backend is what the tools read and write. *store.Store (PostgreSQL) and
// the in-memory backend of package mcpserver/memory are the two; one
// behaviour suite (package mcpserver/backendtest) runs the tools on both.
//
// A backend answers for what it holds; the rules (limits, dates, place and
// cuisine resolution, idempotency) are the tools'. Missing or foreign
// albums and accommodations are errcode NOT_FOUND errors; a booking that
// shares a night with another booking of the place is a CONFLICT.
type Backend interface {
	// Cities returns every city of the catalog, most populous first.
	Cities(ctx context.Context) ([]tripdata.City, error)
	// Accommodations returns a city's places that hold q.Guests and are
	// free from q.Start to q.End, best rated, then cheapest, first.
	Accommodations(ctx context.Context, q tripdata.StayQuery) ([]tripdata.Accommodation, error)
	AccommodationByID(ctx context.Context, id string) (tripdata.Accommodation, error)
	// Booked reports whether a booking of the place shares a night with
	// the stay from start to end.
	Booked(ctx context.Context, accommodationID string, start, end time.Time) (bool, error)
	// Book stores a booking, or returns the user's booking with the same
	// idempotency key as it is, with created false.
	Book(ctx context.Context, b tripdata.Booking) (_ tripdata.Booking, created bool, err error)
	// Restaurants returns a city's restaurants that pass the filter,
	// popular first, then best rated.
	Restaurants(ctx context.Context, f tripdata.RestaurantFilter) ([]tripdata.Restaurant, error)
	// Cuisines returns the cuisines of a city's restaurants, sorted.
	Cuisines(ctx context.Context, cityID string) ([]string, error)

	// UserAlbums returns up to limit of the user's albums, newest trip
	// first.
	UserAlbums(ctx context.Context, userID string, limit int) ([]tripdata.Album, error)
	// AlbumsMatching returns up to limit of the user's albums whose name,
	// description or a photo's location name contains one of terms,
	// newest trip first.
	AlbumsMatching(ctx context.Context, userID string, terms []string, limit int) ([]tripdata.Album, error)
	// AlbumPhotos returns a page of an album's photos in the order they
	// were taken, and how many it has.
	AlbumPhotos(ctx context.Context, userID, albumID string, limit, offset int) ([]tripdata.Photo, int, error)
	PhotosByDate(ctx context.Context, userID, albumID string, day time.Time, limit int) ([]tripdata.Photo, error)
	// SearchPhotosPage finds photos whose description or location name
	// contains the term; see tripdata.PhotoSearchResult.
	SearchPhotosPage(ctx context.Context, q tripdata.PhotoSearch) (tripdata.PhotoSearchResult, error)
	AlbumStats(ctx context.Context, userID, albumID string) (tripdata.TripStats, error)
}

// Place is a place as the gazetteer resolved a traveller's words: a city
// (with its US state, for the United States) or a country, and every name
// it is known by.
type Place struct {
	Name        string
	Region      string
	Country     string // ISO 3166-1 alpha-2
	CountryName string
	Lat, Lng    float64
	Names       []string // English, local and Portuguese names
	IsCountry   bool
	Start, End  int // byte offsets of the name in the text resolved
}
