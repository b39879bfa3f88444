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
	return connectAs(t, cfg, nil)
}

// connectAs is connect for a client that declares caps.
func connectAs(t *testing.T, cfg Config, caps *mcp.ClientCapabilities) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := New(cfg).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{Capabilities: caps}).Connect(ctx, ct, nil)
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
	for _, k := range []string{"id", "albumId", "albumName", "url", "thumbnailUrl", "description", "locationName", "takenAt"} {
		if _, ok := p[k]; !ok {
			t.Errorf("photo lacks %q: %v", k, p)
		}
	}
	for _, k := range []string{"lat", "lng"} { // unknown here: left out, never null
		if v, ok := p[k]; ok {
			t.Errorf("photo without coordinates has %s = %v", k, v)
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
