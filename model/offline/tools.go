package offline

import (
	"encoding/json"

	"github.com/tmc/langchaingo/llms"
	"github.com/tripgraph/tripgraph/model/intent"
)

// Tool names the offline model knows.
const (
	toolAccommodations = "list-accommodations"
	toolRestaurants    = "list-restaurants"
	toolUserAlbums     = "getUserAlbums"
	toolAlbumByName    = "getAlbumByName"
	toolAlbumPhotos    = "getAlbumPhotos"
	toolPhotosByDate   = "getPhotosByDate"
	toolPhotosByPlace  = "getPhotosByLocation"
	toolSearchPhotos   = "searchPhotosAcrossAlbums"
	toolTripStats      = "getTripStats"
)

// useTools answers a callTools request: the next tool calls, or a summary
// once every tool wanted has answered.
func (m *Model) useTools(c conversation) *llms.ContentChoice {
	e := Understand(c.users, c.today)
	if e.Intent == intent.Photos && c.offersAlbums() {
		return m.photoStep(c, e)
	}
	want := tripTools(e.Intent)
	var calls []llms.ToolCall
	answered := 0
	for _, name := range want {
		if !c.tools[name] {
			continue
		}
		if res, done := c.results[name]; done {
			if name == toolRestaurants && c.needsCuisines(e, res) {
				args := tripArgs(name, c, e)
				delete(args, "cuisine")
				calls = append(calls, m.call(name, args)) // to say which cuisines there are
				continue
			}
			answered++
			continue
		}
		calls = append(calls, m.call(name, tripArgs(name, c, e)))
	}
	switch {
	case len(calls) > 0:
		return m.withCalls("", calls...)
	case answered > 0:
		return textChoice(summariseTrip(c, e, want))
	}
	return textChoice(smallTalk(c, e))
}

// needsCuisines reports a first restaurant search for a cuisine that
// found nothing: the next one, without the cuisine, tells which there are.
func (c conversation) needsCuisines(e Extraction, res string) bool {
	return e.Cuisine != "" && c.restaurantCalls() == 1 && parseResult(res).total == 0 && parseResult(res).err == ""
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

// tripArgs builds list-accommodations and list-restaurants arguments from
// the Trip details line, or from the conversation when it is missing.
func tripArgs(name string, c conversation, e Extraction) map[string]any {
	td := TripDetails{Location: e.Location, Country: e.Country, StartDate: isoDate(e.Dates.Start), EndDate: isoDate(e.Dates.End), NumberOfGuests: e.Guests}
	if c.trip != nil {
		td = *c.trip
	}
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
	return map[string]any{"location": location, "startDate": td.StartDate, "endDate": td.EndDate, "guests": td.NumberOfGuests}
}

// photoStep is the album tool flow of one photo request.
func (m *Model) photoStep(c conversation, e Extraction) *llms.ContentChoice {
	p := e.Photo
	switch p.Kind {
	case intent.Album:
		return m.albumStep(c, e)
	case intent.SearchAll:
		if res, done := c.results[toolSearchPhotos]; done {
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

// albumStep finds the album by name, then asks the album-scoped tool.
func (m *Model) albumStep(c conversation, e Extraction) *llms.ContentChoice {
	found, done := c.results[toolAlbumByName]
	if !done {
		if !c.tools[toolAlbumByName] {
			return textChoice(smallTalk(c, e))
		}
		return m.withCalls("", m.call(toolAlbumByName, map[string]any{"name": e.Photo.Album}))
	}
	album, ok := firstAlbum(found)
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

// firstAlbum reads the first album of a getAlbumByName result:
// {"albums":[{"id":…,"name":…}]}, a bare list, or a single album.
func firstAlbum(result string) (album, bool) {
	var v any
	if json.Unmarshal([]byte(result), &v) != nil {
		return album{}, false
	}
	if obj, ok := v.(map[string]any); ok {
		if _, bad := obj["error"]; bad {
			return album{}, false
		}
		if id := str(obj["id"]); id != "" {
			return album{ID: id, Name: albumTitle(obj)}, true
		}
	}
	list := firstList(v)
	if len(list) == 0 {
		return album{}, false
	}
	obj, _ := list[0].(map[string]any)
	id := str(obj["id"])
	if id == "" {
		id = str(obj["albumId"])
	}
	return album{ID: id, Name: albumTitle(obj)}, id != ""
}

func albumTitle(obj map[string]any) string {
	if n := str(obj["name"]); n != "" {
		return n
	}
	return str(obj["title"])
}
