package offline

import (
	"cmp"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/model/dates"
	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/intent"
	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// readPhoto reads a photo request or a question about a past trip. An
// album is found by the place the traveller names, as they wrote it
// ("Londres", "Cidade do Cabo"): the album tool matches names across
// languages.
func (e *Extraction) readPhoto(t, lang string, today time.Time) {
	p := intent.ParsePhoto(t)
	ask := intent.History(t)
	place := placeAsWritten(t, lang)
	switch {
	case place != "" && p.Kind == intent.Album && within(place, p.Album):
		p.Album = place
	case place != "" && (ask != intent.NoAsk || p.Stats) && p.Kind != intent.Album:
		p = intent.PhotoRequest{Kind: intent.Album, Album: place, Stats: p.Stats}
	case ask == intent.AskTrips && p.Kind != intent.Album:
		p = intent.PhotoRequest{Kind: intent.ListAlbums}
	}
	switch ask {
	case intent.AskStats:
		p.Stats = true
	case intent.AskPhotos:
		p.Stats = false
	}
	if p.Kind != intent.Album && p.Stats && e.Photo.Kind == intent.Album {
		p.Kind, p.Album, p.Query = intent.Album, e.Photo.Album, "" // "and the stats of that trip?"
	}
	e.Photo, e.Within, e.PhotoPlace = p, "", place
	if p.Kind == intent.SearchAll && place != "" && timeOnly(intent.Besides(cmp.Or(p.Asked, p.Query), place), lang, today) {
		// "the pics from New York at Christmas": the album of the place;
		// the time names the trip, not what was photographed.
		e.Photo = intent.PhotoRequest{Kind: intent.Album, Album: place}
	} else if who, where, ok := intent.SplitSubject(p.Query); ok && place == "" && !timeOnly(where, lang, today) {
		// "fotos da Vivi no Farol da Barra": the place's photos, told how
		// many show the person.
		e.Photo.Query, e.Photo.Asked, e.Within = intent.SearchForm(where), where, who
	}
	e.PhotoDay, _ = dates.Day(t, lang, today)
	if !e.PhotoDay.IsZero() && p.Kind != intent.Album && !p.Stats && ask != intent.AskTrips {
		e.Photo = intent.PhotoRequest{Kind: intent.OnDay} // "the photos from 2025-02-13"
	}
	e.PhotoYear = yearIn(t)
}

// followsUp reports whether a message with no intent of its own carries
// on a photo request: it narrows the search ("only the ones with Vivi") or
// names a day ("e no dia 3 de janeiro?").
func followsUp(t, lang string, today time.Time) bool {
	if _, ok := intent.Narrowing(t); ok {
		return true
	}
	_, ok := dates.Day(t, lang, today)
	return ok
}

// narrow applies a follow-up to the photo request before it: a search
// within the same album, or, across albums, a search for the new term
// whose results the summary keeps to those matching the earlier one.
func (e *Extraction) narrow(t, lang string, today time.Time) {
	if term, ok := intent.Narrowing(t); ok {
		if e.Photo.Kind == intent.Album {
			e.Photo.Query, e.Photo.Stats, e.PhotoDay = term, false, time.Time{}
			return
		}
		e.Within = cmp.Or(e.Photo.Asked, e.Photo.Query)
		e.Photo = intent.PhotoRequest{Kind: intent.SearchAll, Query: term}
		return
	}
	if d, ok := dates.Day(t, lang, today); ok {
		e.PhotoDay, e.Photo.Stats, e.Photo.Query = d, false, ""
	}
}

// placeAsWritten is the destination a message names, as written, else
// the country it names, in the message's language.
func placeAsWritten(t, lang string) string {
	m := gazetteer.Find(t)
	if c, ok := m.Destination(); ok {
		return t[c.Start:c.End]
	}
	if len(m.Countries) > 0 {
		return gazetteer.CountryName(m.Countries[0], lang)
	}
	return ""
}

// within reports whether an album name read from the words is the start
// of the place's name ("Cidade" of "Cidade do Cabo"), or the place itself.
func within(place, name string) bool {
	p, n := textnorm.Fold(place), textnorm.Fold(name)
	return n != "" && strings.HasPrefix(p, n)
}

// yearIn is a year from 1990 to 2099 written in the text, or 0.
func yearIn(t string) int {
	for _, w := range textnorm.Words(t) {
		if len(w.Fold) == 4 && (strings.HasPrefix(w.Fold, "19") || strings.HasPrefix(w.Fold, "20")) {
			y := 0
			for _, c := range w.Fold {
				if c < '0' || c > '9' {
					y = -1
					break
				}
				y = y*10 + int(c-'0')
			}
			if y >= 1990 {
				return y
			}
		}
	}
	return 0
}

// timeOnly reports a rest of a search term that only says when: "at
// Christmas", "in July", "em dezembro".
func timeOnly(rest, lang string, today time.Time) bool {
	ws := textnorm.Words(rest)
	if len(ws) == 0 || len(ws) > 4 {
		return false
	}
	return !dates.Parse(rest, lang, today).Empty()
}
