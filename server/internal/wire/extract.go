package wire

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Selected is v (a struct the API answers) with only the members named in
// sel; all of it when sel names none.
func Selected(v any, sel []string) any {
	if len(sel) == 0 {
		return v
	}
	var all map[string]json.RawMessage
	data, _ := json.Marshal(v)
	json.Unmarshal(data, &all)
	out := make(map[string]json.RawMessage, len(sel))
	for _, k := range sel {
		if m, ok := all[k]; ok {
			out[k] = m
		}
	}
	return out
}

// Extract picks values out of a thread (Thread's JSON form) by path, for
// each alias: members by name, separated by dots, and list items by index
// in brackets, negative from the end (values.messages[-1].content). A
// path that leads nowhere gives null.
func Extract(t Thread, paths map[string]string) map[string]any {
	var doc any
	data, _ := json.Marshal(t)
	json.Unmarshal(data, &doc)
	out := make(map[string]any, len(paths))
	for alias, path := range paths {
		out[alias] = at(doc, path)
	}
	return out
}

// at follows path in doc.
func at(doc any, path string) any {
	for _, part := range strings.Split(path, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name != "" {
			m, ok := doc.(map[string]any)
			if !ok {
				return nil
			}
			doc = m[name]
		}
		for rest != "" {
			idx, after, ok := strings.Cut(rest, "]")
			n, err := strconv.Atoi(idx)
			list, isList := doc.([]any)
			if !ok || err != nil || !isList {
				return nil
			}
			if n < 0 {
				n += len(list)
			}
			if n < 0 || n >= len(list) {
				return nil
			}
			doc = list[n]
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return doc
}
