package seed

import (
	"context"
	"fmt"
	"iter"
	"math/rand/v2"
	"time"

	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/tripdata"
)

// BulkAlbumSize is how many photos each generated archive album holds.
const BulkAlbumSize = 10_000

var landmarks = []string{"catedral", "mercado", "museu", "praia", "parque", "castelo", "ponte", "porto", "old town",
	"harbour", "market", "museum", "cathedral", "beach", "park", "castle", "bridge", "festival", "estádio", "jardim"}

var moments = []string{"aniversário da %s", "%s's birthday", "casamento de %s", "jantar com %s", "%s na praia",
	"road trip with %s", "churrasco com %s", "%s's graduation", "piquenique com %s", "concert with %s"}

// bulkPhotos tops the user's photos up to total with archive albums of
// generated photos, copied in with COPY.
func bulkPhotos(ctx context.Context, st *store.Store, userID string, total int, cities []City, progress func(string, ...any)) error {
	if len(cities) == 0 {
		return fmt.Errorf("seeding %d photos: no cities to place them in", total)
	}
	have := 0
	for _, t := range trips {
		have += t.photos
	}
	for k := 0; have < total; k++ {
		name := fmt.Sprintf("Arquivo %04d", k+1)
		albumID, err := st.Catalog.EnsureAlbum(ctx, userID, id("bulk-album", userID, k), name, "Fotos antigas digitalizadas")
		if err != nil {
			return err
		}
		want := min(BulkAlbumSize, total-have)
		stored, err := st.Catalog.CountPhotos(ctx, albumID)
		if err != nil {
			return err
		}
		if stored < want {
			n, err := st.Catalog.CopyPhotos(ctx, bulkAlbum(userID, albumID, k, stored, want, cities))
			if err != nil {
				return fmt.Errorf("seeding album %s: %w", name, err)
			}
			progress("%s: %d new photos", name, n)
		}
		have += want
	}
	return nil
}

// bulkAlbum yields photos from..to of archive album k.
func bulkAlbum(userID, albumID string, k, from, to int, cities []City) iter.Seq[tripdata.NewPhoto] {
	return func(yield func(tripdata.NewPhoto) bool) {
		base := time.Date(2005, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, k*7)
		for i := from; i < to; i++ {
			r := rand.New(rand.NewPCG(uint64(k), uint64(i)))
			c := cities[r.IntN(min(len(cities), 500))]
			place := pick(r, landmarks) + " " + c.Name
			desc := fmt.Sprintf(pick(r, moments), pick(r, people))
			if r.IntN(2) == 0 {
				desc = caption(r, spot{name: c.Name})
			}
			lat, lng := near(r, c, 8)
			pid := id("bulk-photo", albumID, i)
			if !yield(tripdata.NewPhoto{ID: pid, AlbumID: albumID, UserID: userID, Description: desc, LocationName: place,
				TakenAt: base.AddDate(0, 0, r.IntN(365)), Lat: &lat, Lng: &lng, Path: PhotoPath(userID, albumID, pid)}) {
				return
			}
		}
	}
}
