package demotools

import (
	"cmp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/textfold"
	"github.com/tripgraph/tripgraph/tripdata"
)

type albumsOut struct {
	Albums []nodes.Album `json:"albums"`
}

type photosOut struct {
	AlbumID string        `json:"albumId,omitempty"`
	Query   string        `json:"query,omitempty"`
	Date    string        `json:"date,omitempty"`
	Total   int           `json:"total"`
	Photos  []nodes.Photo `json:"photos"`
}

type tripStatsOut struct {
	AlbumID     string                `json:"albumId"`
	Name        string                `json:"name"`
	TotalPhotos int                   `json:"totalPhotos"`
	Locations   []nodes.LocationCount `json:"locations"`
	StartDate   string                `json:"startDate"`
	EndDate     string                `json:"endDate"`
	Days        int                   `json:"days"`
}

// contains reports whether s contains term, ignoring case and accents.
func contains(s, term string) bool { return textfold.Contains(s, term) }

func searchTerm(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || utf8.RuneCountInString(s) > mcpserver.MaxTermLen || strings.ContainsRune(s, 0) {
		return "", errcode.New(errcode.BadRequest, "a search term must have 1 to %d characters and no NUL", mcpserver.MaxTermLen)
	}
	return s, nil
}

func (d *demo) album(id string) (seed.DemoAlbum, error) {
	for _, a := range d.albums {
		if a.ID == id {
			return a, nil
		}
	}
	return seed.DemoAlbum{}, errcode.New(errcode.NotFound, "no album with id %q", id)
}

func albumOf(a seed.DemoAlbum) nodes.Album {
	out := nodes.Album{ID: a.ID, Name: a.Name, Description: a.Description, PhotoCount: len(a.Photos)}
	first, last := span(a.Photos)
	out.StartDate, out.EndDate = first.Format(time.DateOnly), last.Format(time.DateOnly)
	for _, l := range places(a.Photos) {
		out.Locations = append(out.Locations, l.Name)
	}
	return out
}

func photoOf(p tripdata.NewPhoto, albumName string) nodes.Photo {
	out := nodes.Photo{ID: p.ID, AlbumID: p.AlbumID, AlbumName: albumName, URL: "/media/" + p.Path,
		ThumbnailURL: "/media/" + p.Path, Description: p.Description, LocationName: p.LocationName,
		TakenAt: p.TakenAt.Format(time.DateOnly)}
	if p.Lat != nil && p.Lng != nil {
		out.Lat, out.Lng = *p.Lat, *p.Lng
	}
	return out
}

// span returns the first and last days photos were taken.
func span(photos []tripdata.NewPhoto) (time.Time, time.Time) {
	if len(photos) == 0 {
		return time.Time{}, time.Time{}
	}
	first, last := photos[0].TakenAt, photos[0].TakenAt
	for _, p := range photos {
		if p.TakenAt.Before(first) {
			first = p.TakenAt
		}
		if p.TakenAt.After(last) {
			last = p.TakenAt
		}
	}
	return first, last
}

// places counts photos by place, most photographed first.
func places(photos []tripdata.NewPhoto) []nodes.LocationCount {
	counts := map[string]int{}
	for _, p := range photos {
		if p.LocationName != "" {
			counts[p.LocationName]++
		}
	}
	var out []nodes.LocationCount
	for name, n := range counts {
		out = append(out, nodes.LocationCount{Name: name, Count: n})
	}
	slices.SortFunc(out, func(a, b nodes.LocationCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// newestFirst returns up to limit of the photos that match, newest first.
func newestFirst(photos []nodes.Photo, limit int) photosOut {
	slices.SortStableFunc(photos, func(a, b nodes.Photo) int { return cmp.Compare(b.TakenAt, a.TakenAt) })
	return photosOut{Total: len(photos), Photos: photos[:min(limit, len(photos))]}
}

func (d *demo) getUserAlbums(in struct {
	Limit int `json:"limit"`
}) (any, error) {
	out := albumsOut{Albums: []nodes.Album{}}
	for _, a := range d.albums[:min(clampLimit(in.Limit), len(d.albums))] {
		out.Albums = append(out.Albums, albumOf(a))
	}
	return out, nil
}

func (d *demo) getAlbumByName(in struct {
	Name string `json:"name"`
}) (any, error) {
	name, err := searchTerm(in.Name)
	if err != nil {
		return nil, err
	}
	out := albumsOut{Albums: []nodes.Album{}}
	for _, a := range d.albums {
		if contains(a.Name, name) {
			out.Albums = append(out.Albums, albumOf(a))
		}
	}
	return out, nil
}

func (d *demo) getAlbumPhotos(in struct {
	AlbumID string `json:"albumId"`
	Limit   int    `json:"limit"`
}) (any, error) {
	return d.albumPhotos(in.AlbumID, clampLimit(in.Limit), func(tripdata.NewPhoto) bool { return true })
}

func (d *demo) getPhotosByDate(in struct {
	AlbumID string `json:"albumId"`
	Date    string `json:"date"`
}) (any, error) {
	day, err := parseDay("date", in.Date)
	if err != nil {
		return nil, err
	}
	out, err := d.albumPhotos(in.AlbumID, mcpserver.MaxLimit, func(p tripdata.NewPhoto) bool { return p.TakenAt.Equal(day) })
	out.Date = in.Date
	return out, err
}

func (d *demo) getPhotosByLocation(in struct {
	AlbumID string `json:"albumId"`
	Query   string `json:"query"`
	Limit   int    `json:"limit"`
}) (any, error) {
	q, err := searchTerm(in.Query)
	if err != nil {
		return nil, err
	}
	out, err := d.albumPhotos(in.AlbumID, clampLimit(in.Limit), func(p tripdata.NewPhoto) bool {
		return contains(p.LocationName, q) || contains(p.Description, q)
	})
	out.Query = q
	return out, err
}

// albumPhotos returns up to limit photos of an album that keep says to.
func (d *demo) albumPhotos(albumID string, limit int, keep func(tripdata.NewPhoto) bool) (photosOut, error) {
	a, err := d.album(albumID)
	if err != nil {
		return photosOut{}, err
	}
	photos := []nodes.Photo{}
	for _, p := range a.Photos {
		if keep(p) {
			photos = append(photos, photoOf(p, a.Name))
		}
	}
	out := newestFirst(photos, limit)
	out.AlbumID = albumID
	return out, nil
}

func (d *demo) searchPhotosAcrossAlbums(in struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}) (any, error) {
	q, err := searchTerm(in.Query)
	if err != nil {
		return nil, err
	}
	photos := []nodes.Photo{}
	for _, a := range d.albums {
		for _, p := range a.Photos {
			if contains(p.LocationName, q) || contains(p.Description, q) {
				photos = append(photos, photoOf(p, a.Name))
			}
		}
	}
	out := newestFirst(photos, clampLimit(in.Limit))
	out.Query = q
	return out, nil
}

func (d *demo) getTripStats(in struct {
	AlbumID string `json:"albumId"`
}) (any, error) {
	a, err := d.album(in.AlbumID)
	if err != nil {
		return nil, err
	}
	first, last := span(a.Photos)
	return tripStatsOut{AlbumID: a.ID, Name: a.Name, TotalPhotos: len(a.Photos), Locations: places(a.Photos),
		StartDate: first.Format(time.DateOnly), EndDate: last.Format(time.DateOnly),
		Days: int(last.Sub(first).Hours()/24) + 1}, nil
}
