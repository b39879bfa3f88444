package offline

import (
	"encoding/json"
	"fmt"
	"sort"
)

// parsed is a tool result read as JSON.
type parsed struct {
	value  any
	err    string // error message, when the tool failed
	code   string // error code, when the tool failed
	list   []any  // the first list found in it
	total  int    // its declared total or count, else len(list)
	object map[string]any
	cut    bool // list is the start of a longer one, cut down for the model
}

func parseResult(s string) parsed {
	var p parsed
	if json.Unmarshal([]byte(s), &p.value) != nil {
		p.err = s
		return p
	}
	p.object, _ = p.value.(map[string]any)
	if e, ok := p.object["error"]; ok {
		p.code, p.err = errorOf(e)
		return p
	}
	p.list = firstList(p.value)
	p.total = len(p.list)
	for _, k := range []string{"total", "count", "totalCount", "totalResults"} {
		if n, ok := p.object[k].(float64); ok && int(n) >= p.total {
			p.total = int(n)
			break
		}
	}
	// A result too large for the model comes cut down, with the real count
	// under "truncated": the traveller sees every item, so count them all.
	if t, ok := p.object["truncated"].(map[string]any); ok {
		p.cut = true
		if n, ok := t["totalItems"].(float64); ok && int(n) > p.total {
			p.total = int(n)
		}
	}
	return p
}

func errorOf(e any) (code, msg string) {
	switch v := e.(type) {
	case map[string]any:
		return str(v["code"]), str(v["message"])
	case string:
		return "", v
	}
	return "", fmt.Sprint(e)
}

// listKeys are the fields that hold a tool's own items, in the order they
// are looked for. A result's other lists (the cuisines a city has, the
// covered cities near one that is not) are not what it found.
var listKeys = []string{"accommodations", "restaurants", "albums", "photos", "results", "items"}

// firstList finds the list in a result: the value itself, the tool's own
// list (listKeys) even when it is empty, else the first list-valued field
// of an object (in key order, for determinism).
func firstList(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case map[string]any:
		for _, k := range listKeys {
			if l, ok := x[k].([]any); ok {
				return l
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if l, ok := x[k].([]any); ok {
				return l
			}
		}
	}
	return nil
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return fmt.Sprint(x)
	}
	return ""
}

// names returns up to n item names of a list.
func names(list []any, n int) []string {
	var out []string
	for _, it := range list {
		obj, ok := it.(map[string]any)
		if !ok {
			continue
		}
		if s := albumTitle(obj); s != "" {
			out = append(out, s)
		}
		if len(out) == n {
			break
		}
	}
	return out
}

// distinctAlbums counts the albums the photos of a list come from.
func distinctAlbums(list []any) int {
	seen := map[string]bool{}
	for _, it := range list {
		obj, ok := it.(map[string]any)
		if !ok {
			continue
		}
		for _, k := range []string{"albumId", "album_id", "albumName", "albumTitle"} {
			if s := str(obj[k]); s != "" {
				seen[s] = true
				break
			}
		}
	}
	return len(seen)
}

// number reads the first numeric field of obj among keys.
func number(obj map[string]any, keys ...string) (int, bool) {
	for _, k := range keys {
		switch v := obj[k].(type) {
		case float64:
			return int(v), true
		case []any:
			return len(v), true
		}
	}
	return 0, false
}
