package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/mcpext"
	"github.com/tripgraph/tripgraph/media"
	"github.com/tripgraph/tripgraph/store"
)

// errorText calls a tool that must fail and returns its coded error.
func errorText(t *testing.T, cs *mcp.ClientSession, name string, args any) errorBody {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	var body errorBody
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError || json.Unmarshal([]byte(text), &body) != nil {
		t.Fatalf("%s(%v) = %s, want a coded error", name, args, text)
	}
	return body
}

// Argument errors name the argument and what it must be, never a Go type
// or a reflection artefact; whole numbers of any size are read exactly.
func TestArgumentErrors(t *testing.T) {
	f := setup(t)
	cs := connect(t, testConfig(f, f.ana.ID))
	for _, tc := range []struct {
		args string
		want string // part of the message; empty when the call must succeed
	}{
		{`{"limit":1.5}`, "limit must be a whole number, not 1.5"},
		{`{"limit":"x"}`, "limit must be an integer, not a string"},
		{`{"limit":null}`, "limit must be an integer, not null"},
		{`{"limit":{"a":1}}`, "limit must be an integer, not an object"},
		{`{"limit":1e30}`, "limit is out of range"},
		{`{"limit":-1e400}`, "limit is out of range"},
		{`{"nope":1}`, `unknown argument "nope"; this tool takes limit, userId`},
		{`[]`, "arguments must be a JSON object"},
		{`{"limit":9223372036854775807}`, ""},
		{`{"limit":9007199254740993}`, ""},
		{`{"limit":12.0}`, ""},
		{`null`, ""},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "getUserAlbums", Arguments: json.RawMessage(tc.args)})
		if err != nil {
			t.Fatalf("%s: %v", tc.args, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if tc.want == "" {
			if res.IsError {
				t.Errorf("%s refused: %s", tc.args, text)
			}
			continue
		}
		var body errorBody
		json.Unmarshal([]byte(text), &body)
		if !res.IsError || body.Error.Code != errcode.BadRequest || !strings.Contains(body.Error.Message, tc.want) {
			t.Errorf("%s = %s, want BAD_REQUEST saying %q", tc.args, text, tc.want)
		}
		for _, internal := range []string{"mcpserver.", "reflect", "Go struct", "map[", "interface {}", "of type"} {
			if strings.Contains(text, internal) {
				t.Errorf("%s: the message shows %q: %s", tc.args, internal, text)
			}
		}
	}
	body := errorText(t, cs, "getAlbumPhotos", map[string]any{})
	if body.Error.Code != errcode.BadRequest || body.Error.Message != `missing required argument "albumId"` {
		t.Errorf("no albumId = %v", body)
	}
}

// Ids in any spelling of a UUID find what they name and come back in
// canonical form; anything else is NOT_FOUND, echoed short.
func TestIDs(t *testing.T) {
	f := setup(t)
	cs := connect(t, testConfig(f, f.ana.ID))
	canonical := f.anaAlbum
	for _, spelling := range []string{
		"urn:uuid:" + canonical,
		"{" + canonical + "}",
		strings.ReplaceAll(canonical, "-", ""),
		strings.ToUpper(canonical),
	} {
		got := call(t, cs, "getAlbumPhotos", map[string]any{"albumId": spelling})
		if got.code != "" || got.result["albumId"] != canonical || count(got, "photos") != 3 {
			t.Errorf("getAlbumPhotos(%q) = %v, want album %s with its 3 photos", spelling, got, canonical)
		}
	}
	if got := call(t, cs, "get-accommodation", map[string]any{"id": "urn:uuid:" + f.small}); got.code != "" || got.result["id"] != f.small {
		t.Errorf("get-accommodation by urn = %v", got)
	}
	huge := strings.Repeat("x", 1<<20)
	for _, id := range []string{"not-an-id", "urn:uuid:zzz", huge} {
		body := errorText(t, cs, "getTripStats", map[string]any{"albumId": id})
		if body.Error.Code != errcode.NotFound || len(body.Error.Message) > 200 {
			t.Errorf("getTripStats(%.40q) = %s %.300q, want a short NOT_FOUND", id, body.Error.Code, body.Error.Message)
		}
	}
}

// The server answers only the methods of what it declares: tools.
func TestOnlyDeclaredMethods(t *testing.T) {
	f := setup(t)
	cs := connect(t, testConfig(f, f.ana.ID))
	ctx := context.Background()
	if caps := cs.InitializeResult().Capabilities; caps.Prompts != nil || caps.Resources != nil || caps.Logging != nil || caps.Tools == nil {
		t.Fatalf("capabilities = %+v, want tools only", caps)
	}
	for name, call := range map[string]func() error{
		"prompts/list":     func() error { _, err := cs.ListPrompts(ctx, nil); return err },
		"resources/list":   func() error { _, err := cs.ListResources(ctx, nil); return err },
		"logging/setLevel": func() error { return cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}) },
	} {
		var rpcErr *jsonrpc.Error
		if err := call(); !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeMethodNotFound {
			t.Errorf("%s = %v, want method not found", name, err)
		}
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
}

// Every schema is portable: one type per schema, never a union such as
// ["null","array"], and every property typed.
func TestSchemasArePortable(t *testing.T) {
	f := setup(t)
	cfg := testConfig(f, f.ana.ID)
	cfg.LinksNote = "links are off"
	cs := connect(t, cfg)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		for kind, schema := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			data, _ := json.Marshal(schema)
			var s jsonschema.Schema
			if err := json.Unmarshal(data, &s); err != nil {
				t.Fatalf("%s %s schema: %v", tool.Name, kind, err)
			}
			checkPortable(t, tool.Name+" "+kind, &s)
		}
	}
}

func checkPortable(t *testing.T, path string, s *jsonschema.Schema) {
	t.Helper()
	if len(s.Types) > 0 {
		t.Errorf("%s: type union %v", path, s.Types)
	}
	if s.Type == "" && len(s.AnyOf) == 0 && s.Enum == nil && s.Const == nil {
		t.Errorf("%s: no type", path)
	}
	for name, p := range s.Properties {
		checkPortable(t, path+"."+name, p)
	}
	if s.Items != nil {
		checkPortable(t, path+"[]", s.Items)
	}
	for _, b := range s.AnyOf {
		checkPortable(t, path+"|", b)
	}
}

// Every result fits its tool's output schema, nulls included.
func TestResultsFitOutputSchemas(t *testing.T) {
	f := setup(t)
	cfg := testConfig(f, f.ana.ID)
	cfg.LinksNote = "links are off"
	cs := connect(t, cfg)
	tools, _ := cs.ListTools(context.Background(), nil)
	schemas := map[string]*jsonschema.Resolved{}
	for _, tool := range tools.Tools {
		data, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		json.Unmarshal(data, &s)
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		schemas[tool.Name] = r
	}
	for name, args := range map[string]map[string]any{
		"getUserAlbums":            {},
		"getAlbumPhotos":           {"albumId": f.anaAlbum},
		"searchPhotosAcrossAlbums": {"query": "Belém"},
		"getTripStats":             {"albumId": f.anaAlbum},
		"list-restaurants":         {"location": "Lisbon"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %v", name, err, res)
		}
		data, _ := json.Marshal(res.StructuredContent)
		var v any
		json.Unmarshal(data, &v)
		if err := schemas[name].Validate(&v); err != nil {
			t.Errorf("%s: result %s does not fit its schema: %v", name, data, err)
		}
	}
}

// A result repeats its structured content as a JSON text block, unless the
// client declared that it reads the structured content (as the bridge
// does): then it has no content block.
func TestStructuredOnly(t *testing.T) {
	f := setup(t)
	cfg := testConfig(f, f.ana.ID)
	for _, tt := range []struct {
		name string
		caps *mcp.ClientCapabilities
		text bool
	}{
		{"any client", nil, true},
		{"structured only", &mcp.ClientCapabilities{Experimental: map[string]any{mcpext.StructuredOnly: map[string]any{}}}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs := connectAs(t, cfg, tt.caps)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "getUserAlbums", Arguments: map[string]any{}})
			if err != nil || res.IsError {
				t.Fatalf("getUserAlbums: %v %v", err, res)
			}
			structured, _ := json.Marshal(res.StructuredContent)
			if !strings.Contains(string(structured), f.anaAlbum) {
				t.Fatalf("structured content %s lacks the album", structured)
			}
			if !tt.text {
				if len(res.Content) != 0 {
					t.Errorf("%d content blocks, want none beside the structured content", len(res.Content))
				}
				return
			}
			if len(res.Content) != 1 {
				t.Fatalf("%d content blocks, want the text copy", len(res.Content))
			}
			var fromText, fromStructured any
			json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &fromText)
			json.Unmarshal(structured, &fromStructured)
			if !reflect.DeepEqual(fromText, fromStructured) {
				t.Errorf("the text copy differs from the structured content")
			}
		})
	}
}

// With no links to give, results leave them out and say how to enable
// them.
func TestLinksNote(t *testing.T) {
	f := setup(t)
	cfg := testConfig(f, f.ana.ID)
	cfg.URLs, cfg.LinksNote = media.URLs{}, "photo links are off: set TRIPGRAPH_PUBLIC_URL and MCP_SECRET"
	cs := connect(t, cfg)
	got := call(t, cs, "getAlbumPhotos", map[string]any{"albumId": f.anaAlbum})
	if got.result[linksNoteField] != cfg.LinksNote {
		t.Errorf("linksNote = %v, want %q", got.result[linksNoteField], cfg.LinksNote)
	}
	for _, p := range got.result["photos"].([]any) {
		if p := p.(map[string]any); p["url"] != "" || p["thumbnailUrl"] != "" {
			t.Errorf("a photo has a link that cannot work: %v", p)
		}
	}
	if got := call(t, cs, "getUserAlbums", nil); got.result["albums"].([]any)[0].(map[string]any)["coverUrl"] != "" {
		t.Errorf("an album has a cover link that cannot work: %v", got.result)
	}
	withLinks := call(t, connect(t, testConfig(f, f.ana.ID)), "getAlbumPhotos", map[string]any{"albumId": f.anaAlbum})
	if _, ok := withLinks.result[linksNoteField]; ok {
		t.Errorf("a server with links says they are off: %v", withLinks.result)
	}
}

// An INTERNAL error or a panic is logged once with its request id; the
// client sees only the code, a generic message and that id.
func TestInternalErrorsAreLogged(t *testing.T) {
	f := setup(t)
	broken, err := store.Open(context.Background(), testURL)
	if err != nil {
		t.Fatal(err)
	}
	broken.Close()
	for _, tc := range []struct {
		tool    string
		args    map[string]any
		breakIt func(*Config)
		logText string
	}{
		{"getUserAlbums", nil, func(c *Config) { c.Backend = broken.Catalog }, "closed pool"},
		{"list-restaurants", map[string]any{"location": "Lisbon"},
			func(c *Config) { c.Resolve = func(string) (Place, bool) { panic("the gazetteer broke") } }, "the gazetteer broke"},
	} {
		var logs syncBuffer
		cfg := testConfig(f, f.ana.ID)
		cfg.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
		tc.breakIt(&cfg)
		cs := connect(t, cfg)
		before := len(logs.String())
		body := errorText(t, cs, tc.tool, tc.args)
		id, ok := strings.CutPrefix(body.Error.Message, "internal error (request id ")
		if body.Error.Code != errcode.Internal || !ok || strings.Contains(body.Error.Message, tc.logText) {
			t.Fatalf("%s: client saw %v", tc.tool, body)
		}
		id = strings.TrimSuffix(id, ")")
		var errorLines []string
		for line := range strings.Lines(logs.String()[before:]) {
			if strings.Contains(line, `"level":"ERROR"`) {
				errorLines = append(errorLines, line)
			}
		}
		if len(errorLines) != 1 || !strings.Contains(errorLines[0], `"request_id":"`+id+`"`) || !strings.Contains(errorLines[0], tc.logText) {
			t.Errorf("%s: logged errors %q, want one with request id %s and %q", tc.tool, errorLines, id, tc.logText)
		}
	}
}

// syncBuffer is a bytes.Buffer that a logger may write while a test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Every tool names, in its metadata, the card that shows its results.
func TestEveryToolNamesItsCard(t *testing.T) {
	f := setup(t)
	tools, err := connect(t, testConfig(f, f.ana.ID)).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) == 0 {
		t.Fatal("the server serves no tools")
	}
	for _, tool := range tools.Tools {
		if name, _ := tool.Meta[card.Meta].(string); !slices.Contains(card.Results, name) {
			t.Errorf("%s names the card %q, not one of %v", tool.Name, name, card.Results)
		}
	}
}
