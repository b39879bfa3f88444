package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// canonical decodes JSON for comparison: numbers stay as written, and a
// member whose value is null is dropped, so that a field one program omits
// and the other writes as null compare equal.
func canonical(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decoding JSON to compare: %w", err)
	}
	return dropNulls(v), nil
}

func dropNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if e != nil {
				out[k] = dropNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = dropNulls(e)
		}
		return out
	}
	return v
}

// difference describes the first place where two canonical values differ,
// in document order, or returns "" when they are equal.
func difference(path string, a, b any) string {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: an object against %s", path, show(b))
		}
		b := bm
		keys := slices.Sorted(maps.Keys(a))
		for k := range b {
			if _, ok := a[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			av, inA := a[k]
			bv, inB := b[k]
			switch {
			case !inA:
				return fmt.Sprintf("%s.%s: missing against %s", path, k, show(bv))
			case !inB:
				return fmt.Sprintf("%s.%s: %s against missing", path, k, show(av))
			}
			if d := difference(path+"."+k, av, bv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		bs, ok := b.([]any)
		if !ok {
			return fmt.Sprintf("%s: an array against %s", path, show(b))
		}
		b := bs
		for i := range min(len(a), len(b)) {
			if d := difference(fmt.Sprintf("%s[%d]", path, i), a[i], b[i]); d != "" {
				return d
			}
		}
		if len(a) != len(b) {
			return fmt.Sprintf("%s: %d elements against %d", path, len(a), len(b))
		}
		return ""
	}
	if a != b {
		return fmt.Sprintf("%s: %s against %s", path, show(a), show(b))
	}
	return ""
}

func show(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(data) > 80 {
		return string(data[:77]) + "..."
	}
	return string(data)
}

// sameJSON says where two JSON documents differ, or "" when they are the
// same document once canonical.
func sameJSON(a, b []byte) (string, error) {
	ca, err := canonical(a)
	if err != nil {
		return "", err
	}
	cb, err := canonical(b)
	if err != nil {
		return "", err
	}
	return difference("$", ca, cb), nil
}
