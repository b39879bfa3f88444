// Package memory is an mcpserver.Backend that holds everything in memory:
// a catalog and users' albums given to it (the seed generator's, for
// `tripgraph run`), and the bookings made while it runs. It answers as the
// PostgreSQL store does, in the same order, with the same errors; the
// behaviour suite of package mcpserver/backendtest runs on both.
package memory

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/textfold"
	"github.com/tripgraph/tripgraph/tripdata"
)

// Album is one of a user's albums with its photos, to load.
type Album struct {
	ID, UserID, Name, Description string
	Photos                        []tripdata.NewPhoto
}

// Backend is the in-memory backend. It is safe for concurrent use.
type Backend struct {
	cities         []tripdata.City // most populous first
	accommodations []tripdata.Accommodation
	byID           map[string]tripdata.Accommodation
	restaurants    []tripdata.Restaurant
	albums         []*album

	mu       sync.Mutex
	bookings []tripdata.Booking
}

type album struct {
	tripdata.Album
	photos []tripdata.Photo // in the order they were taken, then by id
	texts  []string         // each photo's folded description and location name, as searches match them
}

// New returns a backend holding the catalog and the albums.
func New(c tripdata.Catalog, albums []Album) *Backend {
	b := &Backend{cities: slices.Clone(c.Cities), byID: map[string]tripdata.Accommodation{},
		restaurants: slices.Clone(c.Restaurants)}
	slices.SortStableFunc(b.cities, func(x, y tripdata.City) int { return cmp.Or(cmp.Compare(x.Rank, y.Rank), strings.Compare(x.ID, y.ID)) })
	names := map[string]string{}
	for _, city := range c.Cities {
		names[city.ID] = city.Name
	}
	for _, a := range c.Accommodations {
		a.City = names[a.CityID]
		b.accommodations = append(b.accommodations, a)
		b.byID[a.ID] = a
	}
	for _, a := range albums {
		b.albums = append(b.albums, newAlbum(a))
	}
	return b
}

func newAlbum(a Album) *album {
	out := &album{Album: tripdata.Album{ID: a.ID, UserID: a.UserID, Name: a.Name, Description: a.Description, Locations: []string{}}}
	for _, p := range a.Photos {
		out.photos = append(out.photos, tripdata.Photo{ID: p.ID, AlbumID: a.ID, AlbumName: a.Name, UserID: p.UserID,
			Description: p.Description, LocationName: p.LocationName, TakenAt: p.TakenAt, Lat: p.Lat, Lng: p.Lng, Path: p.Path})
	}
	slices.SortFunc(out.photos, byTakenThenID)
	for _, p := range out.photos {
		out.texts = append(out.texts, textfold.Fold(p.Description+"\x1f"+p.LocationName))
	}
	out.PhotoCount = len(out.photos)
	if len(out.photos) > 0 {
		out.StartDate, out.EndDate = out.photos[0].TakenAt, out.photos[len(out.photos)-1].TakenAt
		out.CoverID = out.photos[0].ID
	}
	for i, l := range locationCounts(out.photos) {
		if i == 10 {
			break
		}
		out.Locations = append(out.Locations, l.Name)
	}
	return out
}

func byTakenThenID(x, y tripdata.Photo) int {
	return cmp.Or(x.TakenAt.Compare(y.TakenAt), strings.Compare(x.ID, y.ID))
}

// locationCounts counts the photos of each named place, most first, then
// by name.
func locationCounts(photos []tripdata.Photo) []tripdata.LocationCount {
	n := map[string]int{}
	for _, p := range photos {
		if p.LocationName != "" {
			n[p.LocationName]++
		}
	}
	out := make([]tripdata.LocationCount, 0, len(n))
	for name, c := range n {
		out = append(out, tripdata.LocationCount{Name: name, Count: c})
	}
	slices.SortFunc(out, func(x, y tripdata.LocationCount) int {
		return cmp.Or(cmp.Compare(y.Count, x.Count), strings.Compare(x.Name, y.Name))
	})
	return out
}

// Cities returns every city of the catalog, most populous first.
func (b *Backend) Cities(context.Context) ([]tripdata.City, error) {
	return slices.Clone(b.cities), nil
}

// Accommodations returns a city's places that hold the guests and are free
// for the stay, best rated, then cheapest, first.
func (b *Backend) Accommodations(_ context.Context, q tripdata.StayQuery) ([]tripdata.Accommodation, error) {
	var out []tripdata.Accommodation
	for _, a := range b.accommodations {
		if a.CityID == q.CityID && a.Capacity >= q.Guests && !b.booked(a.ID, q.Start, q.End) {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(x, y tripdata.Accommodation) int {
		return cmp.Or(cmp.Compare(y.Rating, x.Rating), cmp.Compare(x.NightlyPrice, y.NightlyPrice), strings.Compare(x.ID, y.ID))
	})
	return out, nil
}

// AccommodationByID returns one accommodation, or NOT_FOUND.
func (b *Backend) AccommodationByID(_ context.Context, id string) (tripdata.Accommodation, error) {
	a, ok := b.byID[id]
	if !ok {
		return tripdata.Accommodation{}, errcode.New(errcode.NotFound, "no accommodation with id %q", id)
	}
	return a, nil
}

// Booked reports whether a booking of the place shares a night with the
// stay.
func (b *Backend) Booked(_ context.Context, accommodationID string, start, end time.Time) (bool, error) {
	return b.booked(accommodationID, start, end), nil
}

func (b *Backend) booked(accommodationID string, start, end time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.overlapping(accommodationID, start, end)
}

// overlapping is booked with b.mu held.
func (b *Backend) overlapping(accommodationID string, start, end time.Time) bool {
	for _, x := range b.bookings {
		if x.AccommodationID == accommodationID && x.Overlaps(start, end) {
			return true
		}
	}
	return false
}

// Book stores a booking, or returns the user's booking with the same
// idempotency key, with created false. A stay that shares a night with
// another booking of the place is a CONFLICT.
func (b *Backend) Book(_ context.Context, nb tripdata.Booking) (tripdata.Booking, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, x := range b.bookings {
		if x.UserID == nb.UserID && x.IdempotencyKey == nb.IdempotencyKey {
			return x, false, nil
		}
	}
	if b.overlapping(nb.AccommodationID, nb.StartDate, nb.EndDate) {
		return tripdata.Booking{}, false, errcode.New(errcode.Conflict, "accommodation %s is already booked for some of the nights from %s to %s",
			nb.AccommodationID, nb.StartDate.Format(time.DateOnly), nb.EndDate.Format(time.DateOnly))
	}
	nb.ID, nb.CreatedAt = uuid.NewString(), time.Now().UTC()
	b.bookings = append(b.bookings, nb)
	return nb, true, nil
}

// Restaurants returns a city's restaurants that pass the filter, popular
// first, then best rated.
func (b *Backend) Restaurants(_ context.Context, f tripdata.RestaurantFilter) ([]tripdata.Restaurant, error) {
	var out []tripdata.Restaurant
	for _, r := range b.restaurants {
		if r.CityID == f.CityID && (f.PriceRange == "" || r.PriceRange == f.PriceRange) && cuisineMatches(r.Cuisine, f.Cuisines) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(x, y tripdata.Restaurant) int {
		return cmp.Or(boolDesc(x.Popular, y.Popular), cmp.Compare(y.Rating, x.Rating), strings.Compare(x.ID, y.ID))
	})
	return out, nil
}

func cuisineMatches(cuisine string, wanted []string) bool {
	if len(wanted) == 0 {
		return true
	}
	for _, w := range wanted {
		if textfold.Contains(cuisine, w) {
			return true
		}
	}
	return false
}

func boolDesc(x, y bool) int {
	switch {
	case x == y:
		return 0
	case x:
		return -1
	}
	return 1
}

// Cuisines returns the cuisines of a city's restaurants, sorted.
func (b *Backend) Cuisines(_ context.Context, cityID string) ([]string, error) {
	var out []string
	for _, r := range b.restaurants {
		if r.CityID == cityID && !slices.Contains(out, r.Cuisine) {
			out = append(out, r.Cuisine)
		}
	}
	slices.Sort(out)
	return out, nil
}

// UserAlbums returns up to limit of the user's albums, newest trip first.
func (b *Backend) UserAlbums(_ context.Context, userID string, limit int) ([]tripdata.Album, error) {
	return b.findAlbums(userID, limit, func(*album) bool { return true }), nil
}

// AlbumsMatching returns up to limit of the user's albums whose name,
// description or a photo's place one of terms matches (textfold.Matches).
func (b *Backend) AlbumsMatching(_ context.Context, userID string, terms []string, limit int) ([]tripdata.Album, error) {
	return b.findAlbums(userID, limit, func(a *album) bool {
		for _, t := range terms {
			if textfold.Matches(a.Name, t) || textfold.Matches(a.Description, t) ||
				slices.ContainsFunc(a.photos, func(p tripdata.Photo) bool { return textfold.Matches(p.LocationName, t) }) {
				return true
			}
		}
		return false
	}), nil
}

func (b *Backend) findAlbums(userID string, limit int, match func(*album) bool) []tripdata.Album {
	var out []tripdata.Album
	for _, a := range b.albums {
		if a.UserID == userID && match(a) {
			out = append(out, a.Album)
		}
	}
	slices.SortFunc(out, func(x, y tripdata.Album) int {
		switch {
		case x.StartDate.IsZero() != y.StartDate.IsZero():
			return boolDesc(!x.StartDate.IsZero(), !y.StartDate.IsZero())
		}
		return cmp.Or(y.StartDate.Compare(x.StartDate), strings.Compare(x.Name, y.Name))
	})
	return out[:min(limit, len(out))]
}

// album returns one of the user's albums; another user's is NOT_FOUND, as
// a missing one.
func (b *Backend) album(userID, albumID string) (*album, error) {
	for _, a := range b.albums {
		if a.ID == albumID && a.UserID == userID {
			return a, nil
		}
	}
	return nil, errcode.New(errcode.NotFound, "no album with id %q", albumID)
}

// AlbumPhotos returns a page of an album's photos in the order they were
// taken, and how many it has.
func (b *Backend) AlbumPhotos(_ context.Context, userID, albumID string, limit, offset int) ([]tripdata.Photo, int, error) {
	a, err := b.album(userID, albumID)
	if err != nil {
		return nil, 0, err
	}
	from := min(offset, len(a.photos))
	return slices.Clone(a.photos[from:min(from+limit, len(a.photos))]), len(a.photos), nil
}

// PhotosByDate returns up to limit of an album's photos taken on day.
func (b *Backend) PhotosByDate(_ context.Context, userID, albumID string, day time.Time, limit int) ([]tripdata.Photo, error) {
	a, err := b.album(userID, albumID)
	if err != nil {
		return nil, err
	}
	var out []tripdata.Photo
	for _, p := range a.photos {
		if p.TakenAt.Equal(day) && len(out) < limit {
			out = append(out, p)
		}
	}
	return out, nil
}

// SearchPhotosPage finds the user's photos whose description or location
// name the term matches (textfold.Matches), reading at most
// tripdata.MaxSearchCount+1 of them, and returns the newest q.Limit of
// those read.
func (b *Backend) SearchPhotosPage(_ context.Context, q tripdata.PhotoSearch) (tripdata.PhotoSearchResult, error) {
	if q.AlbumID != "" {
		if _, err := b.album(q.UserID, q.AlbumID); err != nil {
			return tripdata.PhotoSearchResult{}, err
		}
	}
	term := textfold.Fold(q.Term)
	var read []tripdata.Photo
	for _, a := range b.albums {
		if a.UserID != q.UserID || (q.AlbumID != "" && a.ID != q.AlbumID) {
			continue
		}
		for i, p := range a.photos {
			if len(read) <= tripdata.MaxSearchCount && textfold.MatchesFolded(a.texts[i], term) {
				read = append(read, p)
			}
		}
	}
	n := len(read)
	slices.SortFunc(read, func(x, y tripdata.Photo) int {
		return cmp.Or(y.TakenAt.Compare(x.TakenAt), strings.Compare(x.ID, y.ID))
	})
	return tripdata.PhotoSearchResult{Photos: read[:min(q.Limit, n)], Total: min(n, tripdata.MaxSearchCount),
		More: n > tripdata.MaxSearchCount}, nil
}

// AlbumStats sums up one of the user's albums.
func (b *Backend) AlbumStats(_ context.Context, userID, albumID string) (tripdata.TripStats, error) {
	a, err := b.album(userID, albumID)
	if err != nil {
		return tripdata.TripStats{}, err
	}
	locations := locationCounts(a.photos)
	return tripdata.TripStats{AlbumID: a.ID, Name: a.Name, TotalPhotos: a.PhotoCount,
		Locations: locations[:min(100, len(locations))], StartDate: a.StartDate, EndDate: a.EndDate}, nil
}
