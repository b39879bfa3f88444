// Package demotools answers the trip planner's tools in memory, from the
// same deterministic data `tripgraph seed` stores: an accommodation and
// restaurant catalog generated for any city of the gazetteer, and the demo
// user's albums. It is for `tripgraph run` and benchmarks, where no database
// is wanted; the MCP server in package mcpserver is the real thing, with
// identity, bookings and search indexes.
package demotools

import (
	"context"
	"encoding/json"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/seed"
)

// Catalog sizes per city, as tripgraph seed makes them.
const (
	accommodationsPerCity = 12
	restaurantsPerCity    = 10
)

// New returns the in-memory tools, acting for the demo user.
func New() nodes.FuncTools {
	d := &demo{albums: seed.DemoData("demo")}
	return nodes.FuncTools{
		tool("list-accommodations", "Places to stay in a city for given dates and guests.", `{"type":"object","properties":{"location":{"type":"string"},"startDate":{"type":"string","description":"YYYY-MM-DD"},"endDate":{"type":"string","description":"YYYY-MM-DD"},"guests":{"type":"integer"}},"required":["location","startDate","endDate","guests"]}`, d.listAccommodations),
		tool("list-restaurants", "Restaurants in a city, optionally by cuisine and price range ($ to $$$$).", `{"type":"object","properties":{"location":{"type":"string"},"cuisine":{"type":"string"},"priceRange":{"type":"string"}},"required":["location"]}`, d.listRestaurants),
		tool("getUserAlbums", "The traveller's photo albums.", `{"type":"object","properties":{"limit":{"type":"integer"}}}`, d.getUserAlbums),
		tool("getAlbumByName", "Albums whose name contains a term; use before the album tools when the traveller names an album.", `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`, d.getAlbumByName),
		tool("getAlbumPhotos", "Photos of one album.", `{"type":"object","properties":{"albumId":{"type":"string"},"limit":{"type":"integer"}},"required":["albumId"]}`, d.getAlbumPhotos),
		tool("getPhotosByDate", "Photos of one album taken on a date (YYYY-MM-DD).", `{"type":"object","properties":{"albumId":{"type":"string"},"date":{"type":"string"}},"required":["albumId","date"]}`, d.getPhotosByDate),
		tool("getPhotosByLocation", "Photos of one album whose place or description contains a term.", `{"type":"object","properties":{"albumId":{"type":"string"},"query":{"type":"string"},"limit":{"type":"integer"}},"required":["albumId","query"]}`, d.getPhotosByLocation),
		tool("searchPhotosAcrossAlbums", "Photos in all albums whose place or description contains a term; use when no album is named.", `{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer"}},"required":["query"]}`, d.searchPhotosAcrossAlbums),
		tool("getTripStats", "Statistics of one album: photos, places, dates.", `{"type":"object","properties":{"albumId":{"type":"string"}},"required":["albumId"]}`, d.getTripStats),
	}
}

// tool adapts a typed handler to a nodes.FuncTool.
func tool[In any](name, description, schema string, run func(In) (any, error)) nodes.FuncTool {
	return nodes.FuncTool{
		Tool: nodes.Tool{Name: name, Description: description, InputSchema: json.RawMessage(schema)},
		Run: func(_ context.Context, raw json.RawMessage) (any, error) {
			var in In
			if err := json.Unmarshal(raw, &in); err != nil {
				return nil, errcode.New(errcode.BadRequest, "the arguments of %s do not fit its schema: %v", name, err)
			}
			return run(in)
		},
	}
}

// demo is the in-memory data.
type demo struct {
	albums []seed.DemoAlbum
}

// clampLimit applies the tools' default and maximum result counts.
func clampLimit(n int) int {
	switch {
	case n <= 0:
		return mcpserver.DefaultLimit
	case n > mcpserver.MaxLimit:
		return mcpserver.MaxLimit
	}
	return n
}

func parseDay(field, s string) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return t, errcode.New(errcode.BadRequest, "%s must be a date as YYYY-MM-DD, not %q", field, s)
	}
	return t, nil
}
