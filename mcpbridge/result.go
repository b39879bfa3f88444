package mcpbridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/internal/rawjson"
)

// maxToolErrorMessage bounds the message of a tool's own error that is
// passed on to the model and the traveller.
const maxToolErrorMessage = 500

// decodeResult turns a tool's result into JSON: its structuredContent when
// there is one, else the JSON of its first text block, else that text as a
// JSON string. An isError result becomes an *errcode.Error with the code
// the server gave (BAD_REQUEST when it gave none).
func decodeResult(res *mcp.CallToolResult) (json.RawMessage, error) {
	if res.IsError {
		return nil, toolError(res)
	}
	if res.StructuredContent != nil {
		data, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return nil, fmt.Errorf("encoding a structured result: %w", err)
		}
		return data, nil
	}
	text, ok := firstText(res)
	if !ok {
		data, err := json.Marshal(res.Content)
		if err != nil {
			return nil, fmt.Errorf("encoding a result's content: %w", err)
		}
		return data, nil
	}
	if trimmed := bytes.TrimSpace([]byte(text)); json.Valid(trimmed) && len(trimmed) > 0 {
		return json.RawMessage(trimmed), nil
	}
	data, _ := json.Marshal(text)
	return data, nil
}

func firstText(res *mcp.CallToolResult) (string, bool) {
	if len(res.Content) == 0 {
		return "", false
	}
	t, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return "", false
	}
	return t.Text, true
}

// clientCodes are the codes a server may hand on to the traveller.
var clientCodes = map[errcode.Code]bool{
	errcode.BadRequest: true, errcode.Forbidden: true, errcode.NotFound: true,
	errcode.Conflict: true, errcode.UnsupportedMedia: true, errcode.Unavailable: true,
}

// toolError reads a tool's error: {"error":{"code","message"}} as
// tripgraph's tools write it, or plain text. An unknown code, or INTERNAL,
// keeps nothing of the server's text.
func toolError(res *mcp.CallToolResult) *errcode.Error {
	text, _ := firstText(res)
	var body struct {
		Error struct {
			Code    errcode.Code `json:"code"`
			Message string       `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(text), &body) == nil && body.Error.Code != "" {
		if !clientCodes[body.Error.Code] {
			return errcode.New(errcode.Unavailable, "the tool failed")
		}
		return errcode.New(body.Error.Code, "%s", clip(body.Error.Message))
	}
	if strings.TrimSpace(text) == "" {
		text = "the tool refused the call"
	}
	return errcode.New(errcode.BadRequest, "%s", clip(text))
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= maxToolErrorMessage {
		return s
	}
	cut := maxToolErrorMessage
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// countItems is how many items a result holds: an array's length, or the
// length of an object's longest array field; 1 for anything else. data is
// valid JSON, as decodeResult returns it.
func countItems(data json.RawMessage) int {
	if n, ok := countCompact(data); ok {
		return n
	}
	return countDecoded(data)
}

// countDecoded is countItems by decoding data.
func countDecoded(data json.RawMessage) int {
	switch firstByte(data) {
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(data, &items) == nil {
			return len(items)
		}
	case '{':
		var fields map[string]json.RawMessage
		if json.Unmarshal(data, &fields) != nil {
			return 1
		}
		most := -1
		for _, v := range fields {
			if firstByte(v) != '[' {
				continue
			}
			var items []json.RawMessage
			if json.Unmarshal(v, &items) == nil && len(items) > most {
				most = len(items)
			}
		}
		if most >= 0 {
			return most
		}
	}
	return 1
}

// countCompact is countItems for compact JSON (what encoding/json writes,
// so every structured result) whose keys are plain ASCII: it walks the
// text's spans instead of decoding it. It is not ok for anything else.
func countCompact(data []byte) (int, bool) {
	if len(data) == 0 || !rawjson.Compact(data) {
		return 0, false
	}
	switch data[0] {
	case '[':
		items, ok := rawjson.Array(data)
		return len(items), ok
	case '{':
		return longestArray(data)
	}
	return 1, true
}

// longestArray is the length of the longest array among a compact
// object's fields, 1 when it has none. A key given twice counts as its
// last value, as decoding into a map keeps it; a key with escapes or
// bytes beyond ASCII is not ok, since two such spellings can be one key.
func longestArray(data []byte) (int, bool) {
	members, ok := rawjson.Object(data)
	if !ok || len(members) > maxWalkedMembers {
		return 0, false
	}
	most := -1
	for i, m := range members {
		if !plainKey(m.Key) {
			return 0, false
		}
		if len(m.Value) == 0 || m.Value[0] != '[' || givenAgain(members[i+1:], m.Key) {
			continue
		}
		items, ok := rawjson.Array(m.Value)
		if !ok {
			return 0, false
		}
		most = max(most, len(items))
	}
	if most < 0 {
		return 1, true
	}
	return most, true
}

// maxWalkedMembers bounds the objects longestArray walks, since it looks
// for each key among those after it.
const maxWalkedMembers = 64

func plainKey(key []byte) bool {
	for _, c := range key {
		if c == '\\' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func givenAgain(members []rawjson.Member, key []byte) bool {
	for _, m := range members {
		if bytes.Equal(m.Key, key) {
			return true
		}
	}
	return false
}

func firstByte(data []byte) byte {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return 0
	}
	return data[0]
}
