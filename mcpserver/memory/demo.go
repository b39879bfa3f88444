package memory

import (
	"github.com/tripgraph/tripgraph/seed"
)

// NewDemo returns a backend holding what `tripgraph seed` stores: the
// generated catalog of the cities, and the demo albums for each user id.
// The same cities and ids give the same records, ids included, as in the
// database.
func NewDemo(cities []seed.City, userIDs ...string) *Backend {
	var albums []Album
	for _, user := range userIDs {
		for _, a := range seed.DemoData(user) {
			albums = append(albums, Album{ID: a.ID, UserID: user, Name: a.Name, Description: a.Description, Photos: a.Photos})
		}
	}
	return New(seed.Catalog(cities, seed.AccommodationsPerCity, seed.RestaurantsPerCity), albums)
}
