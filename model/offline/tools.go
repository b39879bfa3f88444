package offline

import (
	"cmp"
	"encoding/json"

	"github.com/tripgraph/tripgraph/toolname"

	"github.com/tmc/langchaingo/llms"
	"github.com/tripgraph/tripgraph/model/intent"
	"github.com/tripgraph/tripgraph/textfold"
)

// Tool names the offline model knows.
const (
	toolAccommodations = toolname.ListAccommodations
	toolRestaurants    = toolname.ListRestaurants
	toolUserAlbums     = toolname.UserAlbums
	toolAlbumByName    = toolname.AlbumByName
	toolAlbumPhotos    = toolname.AlbumPhotos
	toolPhotosByDate   = toolname.PhotosByDate
	toolPhotosByPlace  = toolname.PhotosByLocation
	toolSearchPhotos   = toolname.SearchPhotos
	toolTripStats      = toolname.TripStats
)

// useTools answers a callTools request: the next tool calls, or a summary
// once every tool wanted has answered. A trip of several cities is
// searched leg by leg.
func (m *Model) useTools(c conversation) *llms.ContentChoice {
	e := Understand(c.users, c.today).withProfile(c.profile, c.users).withSuggestions(c.users, c.today, c.profile)
	if e.Intent == intent.Photos && c.offersAlbums() {
		return m.photoStep(c, e)
	}
	want := tripTools(e.Intent)
	stops := tripOf(c, e).stops()
	var calls []llms.ToolCall
	answered := 0
	for _, td := range stops {
		for _, name := range want {
			if !c.tools[name] {
				continue
			}
			args := tripArgs(name, td, e)
			if res, done := c.resultOf(name, args, len(stops) == 1); done {
				if name == toolRestaurants && c.needsCuisines(e, res) {
					delete(args, "cuisine")
					calls = append(calls, m.call(name, args)) // to say which cuisines there are
					continue
				}
				answered++
				continue
			}
			calls = append(calls, m.call(name, args))
		}
	}
	switch {
	case len(calls) > 0:
		return m.withCalls("", calls...)
	case answered > 0:
		return textChoice(withSpellings(summariseTrip(c, e, want, stops), e))
	}
	return textChoice(smallTalk(c, e))
}

// resultOf is the answer to this turn's call of a tool with these
// arguments; for a trip of one city, any answer of the tool.
func (c conversation) resultOf(name string, args map[string]any, byName bool) (string, bool) {
	if res, ok := c.answer(name, args); ok {
		return res, true
	}
	if byName {
		res, ok := c.results[name]
		return res, ok
	}
	return "", false
}

// needsCuisines reports a first restaurant search for a cuisine that
// found nothing: the next one, without the cuisine, tells which there are.
func (c conversation) needsCuisines(e Extraction, res string) bool {
	p := parseResult(res)
	return e.Cuisine != "" && c.restaurantCalls() == 1 && p.total == 0 && p.err == "" && len(texts(p.object["cuisines"])) == 0
}

// restaurantCalls counts the list-restaurants calls of this turn.
func (c conversation) restaurantCalls() int {
	n := 0
	for _, tc := range c.calls {
		if tc.FunctionCall != nil && tc.FunctionCall.Name == toolRestaurants {
			n++
		}
	}
	return n
}

func (c conversation) offersAlbums() bool {
	for _, n := range []string{toolUserAlbums, toolAlbumByName, toolSearchPhotos} {
		if c.tools[n] {
			return true
		}
	}
	return false
}

func tripTools(it intent.Intent) []string {
	switch it {
	case intent.Accommodations:
		return []string{toolAccommodations}
	case intent.Restaurants:
		return []string{toolRestaurants}
	case intent.Trip:
		return []string{toolAccommodations, toolRestaurants}
	}
	return nil
}

// tripArgs builds list-accommodations and list-restaurants arguments for
// one stop of the trip: the Trip details line's, or the conversation's
// when it is missing.
func tripArgs(name string, td TripDetails, e Extraction) map[string]any {
	// The country tells the tool which of the places of that name is meant
	// ("Paris" in the United States is not the one in France).
	location := td.Location
	if td.Country != "" {
		location += ", " + td.Country
	}
	if name == toolRestaurants {
		args := map[string]any{"location": location}
		if e.Cuisine != "" {
			args["cuisine"] = e.Cuisine
		}
		if e.PriceRange != "" {
			args["priceRange"] = e.PriceRange
		}
		return args
	}
	args := map[string]any{"location": location, "startDate": td.StartDate, "endDate": td.EndDate, "guests": td.NumberOfGuests}
	if c := e.PriceCap; c.Amount > 0 {
		key := "maxNightlyPrice"
		if c.Total {
			key = "maxTotalPrice"
		}
		args[key] = c.Amount
		if c.Currency != "" {
			args["currency"] = c.Currency
		}
	}
	return args
}

// photoStep is the album tool flow of one photo request.
func (m *Model) photoStep(c conversation, e Extraction) *llms.ContentChoice {
	p := e.Photo
	switch p.Kind {
	case intent.Album:
		return m.albumStep(c, e)
	case intent.OnDay:
		return m.dayStep(c, e)
	case intent.SearchAll:
		if ok, step := m.namedAlbum(c, e); ok {
			return step
		}
		if res, done := c.results[toolSearchPhotos]; done {
			if ok, step := m.placeAlbum(c, e, res); ok {
				return step
			}
			return textChoice(summarisePhotoSearch(e, res))
		}
		if c.tools[toolSearchPhotos] {
			return m.withCalls("", m.call(toolSearchPhotos, map[string]any{"query": p.Query}))
		}
	}
	if res, done := c.results[toolUserAlbums]; done {
		return textChoice(summariseAlbums(e, res))
	}
	if c.tools[toolUserAlbums] {
		return m.withCalls("", m.call(toolUserAlbums, map[string]any{}))
	}
	return textChoice(smallTalk(c, e))
}

// namedAlbum answers a search with the album named like the term, if
// the traveller has one: "the photos from Vivi's birthday" means the album
// "Bahia: aniversário da Vivi", not the few captions that name the
// birthday. It asks getAlbumByName for the term first; that tool also
// matches descriptions and places, so only an album whose name matches
// the term at the start of a word counts. Otherwise (ok false) the search
// across albums goes on. A follow-up that narrows an earlier search keeps
// to searching.
func (m *Model) namedAlbum(c conversation, e Extraction) (bool, *llms.ContentChoice) {
	q := e.Photo.Query
	if e.Within != "" || !c.tools[toolAlbumByName] {
		return false, nil
	}
	found, done := c.answer(toolAlbumByName, map[string]any{"name": q})
	if !done {
		return true, m.withCalls("", m.call(toolAlbumByName, map[string]any{"name": q}))
	}
	a, ok := namedLike(albumsOf(found), q)
	if !ok || !namesMostOf(q, a.Name) {
		return false, nil
	}
	e.Photo = intent.PhotoRequest{Kind: intent.Album, Album: a.Name}
	if res, done := c.results[toolAlbumPhotos]; done || !c.tools[toolAlbumPhotos] {
		return true, textChoice(summariseAlbum(e, a, toolAlbumPhotos, res))
	}
	return true, m.withCalls("", m.call(toolAlbumPhotos, map[string]any{"albumId": a.ID}))
}

// placeAlbum carries on a search across albums that found nothing when
// the request names a place: captions and places name neighbourhoods,
// not the city, while the trip's album is named after it ("Lisboa 2024").
// It asks getAlbumByName for the place (unless that was the search term,
// already asked), then that album's photos (of what else the search
// named, if anything). When no album has the place's name either, the
// search's own "nothing found" stands.
func (m *Model) placeAlbum(c conversation, e Extraction, res string) (bool, *llms.ContentChoice) {
	if e.PhotoPlace == "" || !c.tools[toolAlbumByName] || parseResult(res).total > 0 || parseResult(res).err != "" {
		return false, nil
	}
	ask := map[string]any{"name": e.PhotoPlace}
	found, done := c.answer(toolAlbumByName, ask)
	if !done {
		return true, m.withCalls("", m.call(toolAlbumByName, ask))
	}
	if _, ok := firstAlbum(found, e.PhotoPlace); !ok {
		return false, nil
	}
	// What else the search named, as asked: the search's own form is cut
	// ("bueno air") and would not lose the place.
	rest := intent.Besides(cmp.Or(e.Photo.Asked, e.Photo.Query), e.PhotoPlace)
	e.Photo = intent.PhotoRequest{Kind: intent.Album, Album: e.PhotoPlace, Query: intent.SearchForm(rest)}
	return true, m.inAlbum(c, e, found)
}

// dayStep answers for a day named without an album: getPhotosByDate
// needs one, so getUserAlbums first, then the day in the album whose
// dates hold it.
func (m *Model) dayStep(c conversation, e Extraction) *llms.ContentChoice {
	all, done := c.results[toolUserAlbums]
	if !done {
		if !c.tools[toolUserAlbums] {
			return textChoice(smallTalk(c, e))
		}
		return m.withCalls("", m.call(toolUserAlbums, map[string]any{}))
	}
	day := isoDate(e.PhotoDay)
	a, ok := albumOn(parseResult(all).list, day)
	if !ok {
		return textChoice(noAlbumOn(e, all))
	}
	if res, done := c.results[toolPhotosByDate]; done || !c.tools[toolPhotosByDate] {
		return textChoice(summariseAlbum(e, a, toolPhotosByDate, res))
	}
	return m.withCalls("", m.call(toolPhotosByDate, map[string]any{"albumId": a.ID, "date": day}))
}

// albumOn is the first album whose dates hold the day (YYYY-MM-DD).
func albumOn(list []any, day string) (album, bool) {
	for _, it := range list {
		obj, _ := it.(map[string]any)
		if s, e := str(obj["startDate"]), str(obj["endDate"]); s != "" && s <= day && day <= e && str(obj["id"]) != "" {
			return album{ID: str(obj["id"]), Name: albumTitle(obj)}, true
		}
	}
	return album{}, false
}

// albumStep finds the album by name, then asks the album-scoped tool.
func (m *Model) albumStep(c conversation, e Extraction) *llms.ContentChoice {
	found, done := c.results[toolAlbumByName]
	if !done {
		if !c.tools[toolAlbumByName] {
			return textChoice(smallTalk(c, e))
		}
		return m.withCalls("", m.call(toolAlbumByName, map[string]any{"name": e.Photo.Album}))
	}
	return m.inAlbum(c, e, found)
}

// inAlbum asks the album-scoped tool of the album getAlbumByName found
// for e.Photo.Album, or says none was found.
func (m *Model) inAlbum(c conversation, e Extraction, found string) *llms.ContentChoice {
	album, ok := firstAlbum(found, e.Photo.Album)
	if !ok {
		return textChoice(albumNotFound(e, found))
	}
	name, args := albumTool(e, album.ID)
	if res, done := c.results[name]; done || !c.tools[name] {
		return textChoice(summariseAlbum(e, album, name, res))
	}
	return m.withCalls("", m.call(name, args))
}

// albumTool picks the album-scoped tool: stats, a day, a place, or all.
func albumTool(e Extraction, id string) (string, map[string]any) {
	switch {
	case e.Photo.Stats:
		return toolTripStats, map[string]any{"albumId": id}
	case !e.PhotoDay.IsZero():
		return toolPhotosByDate, map[string]any{"albumId": id, "date": isoDate(e.PhotoDay)}
	case e.Photo.Query != "":
		return toolPhotosByPlace, map[string]any{"albumId": id, "query": e.Photo.Query}
	}
	return toolAlbumPhotos, map[string]any{"albumId": id}
}

type album struct {
	ID   string
	Name string
}

// firstAlbum reads the album of a getAlbumByName result that best fits
// the name asked for: the first named like it (namedLike), else the
// first. The tool also matches descriptions and places, so "Rio de
// Janeiro" finds the album of a trip that passed through Rio as well as
// the one named after it.
func firstAlbum(result, want string) (album, bool) {
	list := albumsOf(result)
	if a, ok := namedLike(list, want); ok {
		return a, true
	}
	if len(list) == 0 {
		return album{}, false
	}
	return list[0], true
}

// namedLike is the first album whose name matches want at the start of a
// word (textfold.Matches, the rule of the searches): "rio" is "Rio de
// Janeiro", not "Bahia: aniversário da Vivi".
func namedLike(list []album, want string) (album, bool) {
	for _, a := range list {
		if want != "" && textfold.Matches(a.Name, want) {
			return a, true
		}
	}
	return album{}, false
}

// namesMostOf reports whether term makes up at least half of name's
// words: "aniversário da Vivi" names the album "Bahia: aniversário da
// Vivi", but "Vivi" alone is a person in many albums' photos, and "pictures
// with Vivi" asks for those, not for her birthday's album.
func namesMostOf(term, name string) bool {
	return 2*len(textfold.Words(term)) >= len(textfold.Words(name))
}

// albumsOf reads the albums, with their ids, of a getAlbumByName result:
// {"albums":[{"id":…,"name":…}]}, a bare list, or a single album; none
// for an error.
func albumsOf(result string) []album {
	var v any
	if json.Unmarshal([]byte(result), &v) != nil {
		return nil
	}
	if obj, ok := v.(map[string]any); ok {
		if _, bad := obj["error"]; bad {
			return nil
		}
		if str(obj["id"]) != "" {
			v = []any{obj}
		}
	}
	var list []album
	for _, it := range firstList(v) {
		obj, _ := it.(map[string]any)
		id := str(obj["id"])
		if id == "" {
			id = str(obj["albumId"])
		}
		if id != "" {
			list = append(list, album{ID: id, Name: albumTitle(obj)})
		}
	}
	return list
}

func albumTitle(obj map[string]any) string {
	if n := str(obj["name"]); n != "" {
		return n
	}
	return str(obj["title"])
}
