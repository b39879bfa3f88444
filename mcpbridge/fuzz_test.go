package mcpbridge

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
)

// FuzzResult checks the reading of tool results on any answer: it never
// panics; a tool's error keeps a code a client may see and a short
// message; any other result is JSON; and when it is large, what the model
// gets instead is JSON of at most twice LargeResultBytes whose arrays hold
// at most PreviewItems items, the preview of an object keeping its shape.
func FuzzResult(f *testing.F) {
	f.Add(`{"items":[1,2,3,4,5,6,7],"total":7}`, []byte(nil), false)
	f.Add(`[{"a":1},{"a":2},{"a":3},{"a":4},{"a":5},{"a":6}]`, []byte(nil), false)
	f.Add(`plain words`, []byte(nil), false)
	f.Add(`{"error":{"code":"CONFLICT","message":"already booked"}}`, []byte(nil), true)
	f.Add(`{"error":{"code":"INTERNAL","message":"stack trace"}}`, []byte(nil), true)
	f.Add(``, []byte(`{"places":[{"n":1},{"n":2},{"n":3},{"n":4},{"n":5},{"n":6}],"truncated":null}`), false)
	f.Add(``, []byte(`"\u0000\ud800"`), false)
	f.Add(`[`+strings.Repeat(`{"n":1},`, 24)+`{"n":1}]`, []byte(nil), false)
	f.Add(``, []byte(`{"places":[`+strings.Repeat(`"x",`, 29)+`"x"],"total":30}`), false)
	f.Add(`"`+strings.Repeat("\u0001é", 1000)+`"`, []byte(nil), false)
	f.Fuzz(func(t *testing.T, text string, structured []byte, isError bool) {
		res := &mcp.CallToolResult{IsError: isError, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
		if json.Valid(structured) {
			var v any
			if json.Unmarshal(structured, &v) == nil && v != nil {
				res.StructuredContent = v
			}
		}
		data, err := decodeResult(res)
		if isError {
			var ce *errcode.Error
			if !errors.As(err, &ce) || !clientCodes[ce.Code] {
				t.Fatalf("a tool's error became %v", err)
			}
			if n := len(errcode.Message(err)); n > maxToolErrorMessage+len("…") {
				t.Fatalf("a tool's error message has %d bytes", n)
			}
			if utf8.ValidString(text) && !utf8.ValidString(errcode.Message(err)) {
				t.Fatalf("a tool's error message was cut inside a character: %q", errcode.Message(err))
			}
			return
		}
		if err != nil {
			t.Fatalf("decoding %q / %s: %v", text, structured, err)
		}
		if !json.Valid(data) {
			t.Fatalf("a result is not JSON: %s", data)
		}
		items := countItems(data)
		if items < 0 {
			t.Fatalf("countItems(%s) = %d", data, items)
		}
		if want := countDecoded(data); items != want {
			t.Fatalf("countItems(%s) = %d, decoding it counts %d", data, items, want)
		}
		if !isLarge(data, items) {
			return
		}
		reduced := reduce("tool", data, items, "0190c0de-0000-7000-8000-000000000001")
		if !json.Valid(reduced) || len(reduced) > 2*LargeResultBytes {
			t.Fatalf("a %d-byte result was reduced to %d bytes (JSON: %v)", len(data), len(reduced), json.Valid(reduced))
		}
		var fields map[string]json.RawMessage
		if json.Unmarshal(reduced, &fields) != nil {
			t.Fatalf("a reduced result is not an object: %s", reduced)
		}
		shown := fields
		if r, ok := fields["preview"]; ok && fields[truncatedKey] == nil {
			shown = nil
			switch firstByte(r) {
			case '[':
				shown = map[string]json.RawMessage{"preview": r}
			case '{':
				json.Unmarshal(r, &shown)
			}
		}
		for k, v := range shown {
			if k != truncatedKey && firstByte(v) == '[' && countItems(v) > PreviewItems {
				t.Fatalf("the preview's %q holds %d items, more than %d: %s", k, countItems(v), PreviewItems, reduced)
			}
		}
	})
}
