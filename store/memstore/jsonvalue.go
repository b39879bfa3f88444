package memstore

import (
	"bytes"
	"encoding/json"
)

// The JSON operations PostgreSQL's jsonb gives the store, on values the
// store has checked already (objects where it wants objects).

// decode reads a JSON value, numbers as json.Number so that they compare
// as written.
func decode(raw []byte) any {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

// encode writes a value decode read.
func encode(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// merge is a || b of two objects: a's members with b's replacing theirs.
func merge(a, b []byte) json.RawMessage {
	out, _ := decode(a).(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	add, _ := decode(b).(map[string]any)
	for k, v := range add {
		out[k] = v
	}
	return encode(out)
}

// contains is a @> b: every member of an object b is in a, with a value
// that contains b's; every element of an array b is contained by some
// element of a; other values are equal.
func contains(a, b any) bool {
	switch bv := b.(type) {
	case map[string]any:
		av, ok := a.(map[string]any)
		if !ok {
			return false
		}
		for k, want := range bv {
			got, ok := av[k]
			if !ok || !contains(got, want) {
				return false
			}
		}
		return true
	case []any:
		av, ok := a.([]any)
		if !ok {
			return false
		}
		for _, want := range bv {
			found := false
			for _, got := range av {
				if contains(got, want) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case json.Number:
		an, ok := a.(json.Number)
		if !ok {
			return false
		}
		x, errA := an.Float64()
		y, errB := bv.Float64()
		return errA == nil && errB == nil && x == y
	}
	return a == b
}
