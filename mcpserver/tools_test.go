package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
)

// connect opens a client session on a server acting as user.
func connect(t *testing.T, cfg Config) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := New(cfg).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// outcome is what a tool call gave: its structured result, or its error
// code.
type outcome struct {
	result map[string]any
	code   errcode.Code
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) outcome {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want 1", name, len(res.Content))
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		var body errorBody
		if err := json.Unmarshal([]byte(text), &body); err != nil || body.Error.Code == "" || body.Error.Message == "" {
			t.Fatalf("%s: error text %q is not a coded error", name, text)
		}
		return outcome{code: body.Error.Code}
	}
	var fromText, structured map[string]any
	if err := json.Unmarshal([]byte(text), &fromText); err != nil {
		t.Fatalf("%s: text block is not JSON: %v", name, err)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(raw, &structured)
	if string(raw) == "null" || !jsonEqual(fromText, structured) {
		t.Fatalf("%s: structuredContent %s differs from the text block %s", name, raw, text)
	}
	return outcome{result: structured}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func count(o outcome, key string) int {
	list, _ := o.result[key].([]any)
	return len(list)
}

func TestAlbumTools(t *testing.T) {
	f := setup(t)
	cs := connect(t, testConfig(f, f.ana.ID))
	long := strings.Repeat("x", MaxTermLen+1)
	for _, tc := range []struct {
		name  string
		tool  string
		args  map[string]any
		code  errcode.Code // "" for success
		key   string       // a list in the result …
		count int          // … and its length
	}{
		{"albums", "getUserAlbums", map[string]any{}, "", "albums", 1},
		{"albums limit clamped", "getUserAlbums", map[string]any{"limit": 100000}, "", "albums", 1},
		{"albums negative limit", "getUserAlbums", map[string]any{"limit": -1}, errcode.BadRequest, "", 0},
		{"albums limit not a number", "getUserAlbums", map[string]any{"limit": "ten"}, errcode.BadRequest, "", 0},
		{"albums own userId", "getUserAlbums", map[string]any{"userId": f.ana.ID}, "", "albums", 1},
		{"albums other userId", "getUserAlbums", map[string]any{"userId": f.bob.ID}, errcode.Forbidden, "", 0},
		{"by name", "getAlbumByName", map[string]any{"name": "LISBOA"}, "", "albums", 1},
		{"by name: bob's is not found", "getAlbumByName", map[string]any{"name": "Roma"}, "", "albums", 0},
		{"by name empty", "getAlbumByName", map[string]any{"name": "  "}, errcode.BadRequest, "", 0},
		{"by name missing", "getAlbumByName", map[string]any{}, errcode.BadRequest, "", 0},
		{"by name too long", "getAlbumByName", map[string]any{"name": long}, errcode.BadRequest, "", 0},
		{"by name NUL", "getAlbumByName", map[string]any{"name": "a\x00b"}, errcode.BadRequest, "", 0},
		{"photos", "getAlbumPhotos", map[string]any{"albumId": f.anaAlbum}, "", "photos", 3},
		{"photos page", "getAlbumPhotos", map[string]any{"albumId": f.anaAlbum, "limit": 1, "offset": 1}, "", "photos", 1},
		{"photos bad offset", "getAlbumPhotos", map[string]any{"albumId": f.anaAlbum, "offset": -5}, errcode.BadRequest, "", 0},
		{"photos of bob's album", "getAlbumPhotos", map[string]any{"albumId": f.bobAlbum}, errcode.NotFound, "", 0},
		{"photos of no album", "getAlbumPhotos", map[string]any{"albumId": "nope"}, errcode.NotFound, "", 0},
		{"by date", "getPhotosByDate", map[string]any{"albumId": f.anaAlbum, "date": "2024-07-01"}, "", "photos", 2},
		{"by date, empty day", "getPhotosByDate", map[string]any{"albumId": f.anaAlbum, "date": "2024-07-09"}, "", "photos", 0},
		{"by date bad date", "getPhotosByDate", map[string]any{"albumId": f.anaAlbum, "date": "01/07/2024"}, errcode.BadRequest, "", 0},
		{"by date impossible date", "getPhotosByDate", map[string]any{"albumId": f.anaAlbum, "date": "2024-02-30"}, errcode.BadRequest, "", 0},
		{"by date bob's album", "getPhotosByDate", map[string]any{"albumId": f.bobAlbum, "date": "2023-05-01"}, errcode.NotFound, "", 0},
		{"by location", "getPhotosByLocation", map[string]any{"albumId": f.anaAlbum, "query": "belem"}, "", "photos", 2},
		{"by location in description", "getPhotosByLocation", map[string]any{"albumId": f.anaAlbum, "query": "vivi"}, "", "photos", 1},
		{"by location no query", "getPhotosByLocation", map[string]any{"albumId": f.anaAlbum, "query": ""}, errcode.BadRequest, "", 0},
		{"by location bob's album", "getPhotosByLocation", map[string]any{"albumId": f.bobAlbum, "query": "roma"}, errcode.NotFound, "", 0},
		{"search", "searchPhotosAcrossAlbums", map[string]any{"query": "aniversario"}, "", "photos", 1},
		{"search accents and case", "searchPhotosAcrossAlbums", map[string]any{"query": "BELÉM"}, "", "photos", 2},
		{"search never finds bob's", "searchPhotosAcrossAlbums", map[string]any{"query": "Colosseo"}, "", "photos", 0},
		{"search too long", "searchPhotosAcrossAlbums", map[string]any{"query": long}, errcode.BadRequest, "", 0},
		{"search extra argument", "searchPhotosAcrossAlbums", map[string]any{"query": "x", "album": "y"}, errcode.BadRequest, "", 0},
		{"stats", "getTripStats", map[string]any{"albumId": f.anaAlbum}, "", "locations", 2},
		{"stats bob's album", "getTripStats", map[string]any{"albumId": f.bobAlbum}, errcode.NotFound, "", 0},
		{"stats missing id", "getTripStats", map[string]any{}, errcode.BadRequest, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := call(t, cs, tc.tool, tc.args)
			if got.code != tc.code {
				t.Fatalf("code = %q, want %q (result %v)", got.code, tc.code, got.result)
			}
			if tc.key != "" && count(got, tc.key) != tc.count {
				t.Fatalf("%d %s, want %d: %v", count(got, tc.key), tc.key, tc.count, got.result)
			}
		})
	}
}

func TestAlbumResultShapes(t *testing.T) {
	f := setup(t)
	cs := connect(t, testConfig(f, f.ana.ID))
	albums := call(t, cs, "getUserAlbums", nil).result["albums"].([]any)
	a := albums[0].(map[string]any)
	for _, k := range []string{"id", "name", "description", "coverUrl", "startDate", "endDate", "photoCount", "locations"} {
		if _, ok := a[k]; !ok {
			t.Errorf("album lacks %q: %v", k, a)
		}
	}
	if a["startDate"] != "2024-07-01" || a["endDate"] != "2024-07-02" || a["photoCount"] != 3.0 {
		t.Errorf("album = %v", a)
	}
	search := call(t, cs, "searchPhotosAcrossAlbums", map[string]any{"query": "praia"}).result
	p := search["photos"].([]any)[0].(map[string]any)
	for _, k := range []string{"id", "albumId", "albumName", "url", "thumbnailUrl", "description", "locationName", "takenAt", "lat", "lng"} {
		if _, ok := p[k]; !ok {
			t.Errorf("photo lacks %q: %v", k, p)
		}
	}
	if search["total"] != 1.0 || p["albumName"] != "Lisboa 2024" || !strings.Contains(p["url"].(string), "sig=") {
		t.Errorf("search = %v", search)
	}
	stats := call(t, cs, "getTripStats", map[string]any{"albumId": f.anaAlbum}).result
	if stats["days"] != 2.0 || stats["totalPhotos"] != 3.0 || stats["name"] != "Lisboa 2024" {
		t.Errorf("stats = %v", stats)
	}
}

func TestNoIdentity(t *testing.T) {
	f := setup(t)
	cs := connect(t, testConfig(f, ""))
	if got := call(t, cs, "getUserAlbums", nil); got.code != errcode.Forbidden {
		t.Fatalf("a call without any identity = %v, want FORBIDDEN", got)
	}
}

func TestCatalogTools(t *testing.T) {
	f := setup(t)
	cs := connect(t, testConfig(f, f.ana.ID))
	stay := map[string]any{"location": "lisboa", "startDate": "2025-03-01", "endDate": "2025-03-04", "guests": 2}
	with := func(m map[string]any, kv ...any) map[string]any {
		out := map[string]any{}
		for k, v := range m {
			out[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1]
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		tool  string
		args  map[string]any
		code  errcode.Code
		key   string
		count int
	}{
		{"stay", "list-accommodations", stay, "", "accommodations", 2},
		{"stay English name", "list-accommodations", with(stay, "location", "LISBON"), "", "accommodations", 2},
		{"stay located alias", "list-accommodations", with(stay, "location", "Lisbon, Portugal"), "", "accommodations", 2},
		{"stay many guests", "list-accommodations", with(stay, "guests", 5), "", "accommodations", 1},
		{"stay uncovered city", "list-accommodations", with(stay, "location", "Atlantis"), "", "accommodations", 0},
		{"stay end before start", "list-accommodations", with(stay, "endDate", "2025-03-01"), errcode.BadRequest, "", 0},
		{"stay bad date", "list-accommodations", with(stay, "startDate", "tomorrow"), errcode.BadRequest, "", 0},
		{"stay no guests", "list-accommodations", with(stay, "guests", 0), errcode.BadRequest, "", 0},
		{"restaurants", "list-restaurants", map[string]any{"location": "Lisboa"}, "", "restaurants", 2},
		{"restaurants cuisine", "list-restaurants", map[string]any{"location": "Lisboa", "cuisine": "japan"}, "", "restaurants", 1},
		{"restaurants price", "list-restaurants", map[string]any{"location": "Lisboa", "priceRange": "$"}, "", "restaurants", 1},
		{"restaurants bad price", "list-restaurants", map[string]any{"location": "Lisboa", "priceRange": "cheap"}, errcode.BadRequest, "", 0},
		{"restaurants uncovered", "list-restaurants", map[string]any{"location": "Atlantis"}, "", "restaurants", 0},
		{"accommodation", "get-accommodation", map[string]any{"id": f.small}, "", "", 0},
		{"accommodation missing", "get-accommodation", map[string]any{"id": "nope"}, errcode.NotFound, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := call(t, cs, tc.tool, tc.args)
			if got.code != tc.code {
				t.Fatalf("code = %q, want %q (result %v)", got.code, tc.code, got.result)
			}
			if tc.key != "" && count(got, tc.key) != tc.count {
				t.Fatalf("%d %s, want %d: %v", count(got, tc.key), tc.key, tc.count, got.result)
			}
		})
	}

	got := call(t, cs, "list-accommodations", stay).result
	first := got["accommodations"].([]any)[0].(map[string]any)
	if got["nights"] != 3.0 || got["covered"] != true || first["totalPrice"] != 241.5 || first["imageUrl"] == "" {
		t.Errorf("list-accommodations = %v", got)
	}
	out := call(t, cs, "list-accommodations", with(stay, "location", "Atlantis")).result
	if out["covered"] != false || !strings.Contains(out["message"].(string), "Atlantis") {
		t.Errorf("an uncovered city = %v", out)
	}
}

func TestBookAccommodation(t *testing.T) {
	f := setup(t)
	ana := connect(t, testConfig(f, f.ana.ID))
	bob := connect(t, testConfig(f, f.bob.ID))
	book := func(cs *mcp.ClientSession, start, end string, guests int, key string) outcome {
		return call(t, cs, "book-accommodation", map[string]any{"id": f.big, "startDate": start, "endDate": end,
			"guests": guests, "idempotencyKey": key})
	}
	first := book(ana, "2025-05-01", "2025-05-03", 2, "trip-1")
	if first.code != "" || first.result["replayed"] != false {
		t.Fatalf("first booking = %v", first)
	}
	id := first.result["booking"].(map[string]any)["id"]
	if b := first.result["booking"].(map[string]any); b["totalPrice"] != 300.0 || b["nights"] != 2.0 {
		t.Errorf("booking = %v", b)
	}
	again := book(ana, "2025-05-01", "2025-05-03", 2, "trip-1")
	if again.code != "" || again.result["replayed"] != true || again.result["booking"].(map[string]any)["id"] != id {
		t.Errorf("repeating the key = %v, want the first booking", again)
	}
	for _, tc := range []struct {
		name string
		got  outcome
		want errcode.Code
	}{
		{"overlap", book(bob, "2025-05-02", "2025-05-06", 2, "b-1"), errcode.Conflict},
		{"too many guests", book(bob, "2025-06-02", "2025-06-06", 7, "b-2"), errcode.BadRequest},
		{"end before start", book(bob, "2025-06-06", "2025-06-02", 2, "b-3"), errcode.BadRequest},
		{"no key", book(bob, "2025-06-02", "2025-06-06", 2, ""), errcode.BadRequest},
		{"after the first", book(bob, "2025-05-03", "2025-05-04", 2, "b-4"), ""},
	} {
		if tc.got.code != tc.want {
			t.Errorf("%s: code %q, want %q (%v)", tc.name, tc.got.code, tc.want, tc.got.result)
		}
	}
}

func TestPanicsBecomeErrors(t *testing.T) {
	f := setup(t)
	cfg := testConfig(f, f.ana.ID)
	cfg.Backend = nil // every backend call panics
	cs := connect(t, cfg)
	if got := call(t, cs, "getUserAlbums", nil); got.code != errcode.Internal {
		t.Fatalf("a panicking tool = %v, want INTERNAL", got)
	}
	if got := call(t, cs, "getUserAlbums", nil); got.code != errcode.Internal {
		t.Fatalf("the server did not survive a panic: %v", got)
	}
}
