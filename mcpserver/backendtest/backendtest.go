// Package backendtest is the behaviour suite every mcpserver.Backend must
// pass: it drives the MCP tools through a real client session (the SDK's
// in-memory transports) on a backend holding the seed generator's data,
// and checks what the tools answer: order, paging, clamps and limits,
// rounding, places, dates, error codes and bookings. A backend's own
// package calls Run with a function that makes one, the way a
// Checkpointer's package runs a saver suite.
package backendtest

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/media"
	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/seed"
)

// Fixture is a backend under test and the users whose data it holds.
type Fixture struct {
	Backend mcpserver.Backend
	// User and Other are two users' ids; the backend holds the demo
	// albums (seed.DemoData) of each, and the catalog of Cities.
	User, Other string
}

// Cities are the catalog's cities in every backend under test, most
// populous first; names and coordinates are GeoNames' (CC BY 4.0).
func Cities() []seed.City {
	return []seed.City{
		{Name: "São Paulo", GeoName: "São Paulo", Country: "BR", Population: 10021295, Lat: -23.5475, Lng: -46.6361},
		{Name: "Tokyo", GeoName: "Tokyo", Country: "JP", Population: 8336599, Lat: 35.6895, Lng: 139.6917},
		{Name: "New York", GeoName: "New York City", Country: "US", Population: 8175133, Lat: 40.7143, Lng: -74.006},
		{Name: "London", GeoName: "London", Country: "GB", Population: 7556900, Lat: 51.5085, Lng: -0.1257},
		{Name: "Rio de Janeiro", GeoName: "Rio de Janeiro", Country: "BR", Population: 6023699, Lat: -22.9064, Lng: -43.1822},
		{Name: "Houston", GeoName: "Houston", Country: "US", Population: 2296224, Lat: 29.7633, Lng: -95.3633},
		{Name: "Paris", GeoName: "Paris", Country: "FR", Population: 2138551, Lat: 48.8534, Lng: 2.3488},
		{Name: "Porto Alegre", GeoName: "Porto Alegre", Country: "BR", Population: 1372741, Lat: -30.0328, Lng: -51.2302},
		{Name: "Dallas", GeoName: "Dallas", Country: "US", Population: 1300092, Lat: 32.7831, Lng: -96.8067},
		{Name: "Lisbon", GeoName: "Lisbon", Country: "PT", Population: 517802, Lat: 38.7167, Lng: -9.1333},
		{Name: "Porto", GeoName: "Porto", Country: "PT", Population: 249633, Lat: 41.1496, Lng: -8.611},
	}
}

// Today is the date the suite's clock says it is.
var Today = time.Date(2030, 6, 1, 15, 4, 5, 0, time.UTC)

// Config is the server configuration the suite runs the tools with: the
// backend, the planner's gazetteer and the suite's clock, acting as user.
func Config(b mcpserver.Backend, user string) mcpserver.Config {
	return mcpserver.Config{
		Backend: b,
		URLs:    media.URLs{Base: "http://tripgraph.test", Secret: []byte("0123456789abcdef"), TTL: time.Hour},
		Resolve: func(text string) (mcpserver.Place, bool) {
			p, ok := gazetteer.Resolve(text)
			return mcpserver.Place(p), ok
		},
		Now:  func() time.Time { return Today },
		User: user,
	}
}

// Run runs the whole suite on the backend newFixture makes. It makes one
// fixture per run; the booking cases each use their own places and dates.
func Run(t *testing.T, newFixture func(t *testing.T) Fixture) {
	f := newFixture(t)
	s := &suite{f: f, user: Connect(t, Config(f.Backend, f.User)), other: Connect(t, Config(f.Backend, f.Other))}
	t.Run("Accommodations", s.accommodations)
	t.Run("PriceCaps", s.priceCaps)
	t.Run("Places", s.places)
	t.Run("Dates", s.dates)
	t.Run("Restaurants", s.restaurants)
	t.Run("Cuisines", s.cuisines)
	t.Run("Bookings", s.bookings)
	t.Run("Idempotency", s.idempotency)
	t.Run("Capacity", s.capacity)
	t.Run("Availability", s.availability)
	t.Run("Albums", s.albums)
	t.Run("AlbumNames", s.albumNames)
	t.Run("Photos", s.photos)
	t.Run("Search", s.search)
	t.Run("Stats", s.stats)
	t.Run("Identity", s.identity)
}

type suite struct {
	f           Fixture
	user, other *mcp.ClientSession
	used        int // places placeIn handed out
}

// Connect opens a client session, over the SDK's in-memory transports, on
// a server with cfg.
func Connect(t testing.TB, cfg mcpserver.Config) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(cfg).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "backendtest", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// Result is what a tool call gave: its structured result decoded into
// JSON values, or its error's code and message.
type Result struct {
	Value   map[string]any
	Code    errcode.Code
	Message string
}

// Call calls a tool and decodes its result.
func Call(t testing.TB, cs *mcp.ClientSession, tool string, args map[string]any) Result {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", tool, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want 1", tool, len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content is %T, want text", tool, res.Content[0])
	}
	if res.IsError {
		code, msg, ok := errcode.ParseJSON([]byte(text.Text))
		if !ok {
			t.Fatalf("%s: error %q is not a coded error", tool, text.Text)
		}
		return Result{Code: code, Message: msg}
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(text.Text), &v); err != nil {
		t.Fatalf("%s: result is not a JSON object: %v", tool, err)
	}
	return Result{Value: v}
}

// signature matches the parts of a photo link that change with the clock.
var signature = regexp.MustCompile(`exp=\d+(&|\\u0026)sig=[A-Za-z0-9_-]+`)

// Transcript calls every read-only tool on a range of inputs and returns
// the answers, with photo-link signatures blanked: two backends holding
// the same data must give the same transcript.
func Transcript(t *testing.T, f Fixture) []string {
	cs := Connect(t, Config(f.Backend, f.User))
	stay := func(place string, guests int) map[string]any {
		return map[string]any{"location": place, "startDate": "2030-07-01", "endDate": "2030-07-04", "guests": guests}
	}
	calls := []toolCall{
		{"list-accommodations", stay("Lisbon", 2)}, {"list-accommodations", stay("São Paulo", 6)},
		{"list-accommodations", stay("Paris, Texas", 1)}, {"list-accommodations", stay("Gramado", 2)},
		{"list-restaurants", map[string]any{"location": "Tokyo"}}, {"list-restaurants", map[string]any{"location": "Lisboa", "cuisine": "portuguesa"}},
		{"list-restaurants", map[string]any{"location": "Porto", "priceRange": "$$"}},
		{"list-restaurants", map[string]any{"location": "São Paulo", "cuisine": "brasileiras"}},
		{"list-restaurants", map[string]any{"location": "Rio de Janeiro", "cuisine": "100%_"}},
		{"getUserAlbums", map[string]any{}}, {"getAlbumByName", map[string]any{"name": "Lisbon"}},
		{"getAlbumByName", map[string]any{"name": "Japão"}}, {"getAlbumByName", map[string]any{"name": "%"}},
		{"searchPhotosAcrossAlbums", map[string]any{"query": "_"}},
		{"searchPhotosAcrossAlbums", map[string]any{"query": "praia", "limit": 200}},
		{"searchPhotosAcrossAlbums", map[string]any{"query": "BELÉM"}},
	}
	albums := Call(t, cs, "getUserAlbums", nil).Value["albums"].([]any)
	for _, a := range albums[:3] {
		a := a.(map[string]any)
		calls = append(calls,
			toolCall{"getAlbumPhotos", map[string]any{"albumId": a["id"], "limit": 7, "offset": 3}},
			toolCall{"getTripStats", map[string]any{"albumId": a["id"]}},
			toolCall{"getPhotosByDate", map[string]any{"albumId": a["id"], "date": a["startDate"]}},
			toolCall{"getPhotosByLocation", map[string]any{"albumId": a["id"], "query": "em"}})
	}
	var out []string
	for _, c := range calls {
		r := Call(t, cs, c.tool, c.args)
		data, _ := json.Marshal(r)
		out = append(out, c.tool+" "+signature.ReplaceAllString(string(data), "exp=…&sig=…"))
	}
	return out
}

type toolCall struct {
	tool string
	args map[string]any
}
