package mcpserver

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tripgraph/tripgraph/internal/rawjson"
)

// shapeOutput makes a result fit its portable schema: a null array becomes
// [], a null scalar is left out, and a non-empty note is set as linksNote.
// Numbers keep their exact text, and every object's members come in the
// order of their keys. data is what json.Marshal made of a value of a type
// that plain said has only plain JSON in it (plainJSON): then its text is
// walked and rebuilt (shapeWalked); otherwise it is decoded, shaped and
// encoded again (shapeDecoded), which gives the same text.
func shapeOutput(data []byte, s *jsonschema.Schema, note string, plain bool) ([]byte, error) {
	if plain {
		if out, ok := shapeWalked(make([]byte, 0, len(data)+len(note)+32), data, s, note); ok {
			return out, nil
		}
	}
	return shapeDecoded(data, s, note)
}

// shapeDecoded is shapeOutput by decoding data.
func shapeDecoded(data []byte, s *jsonschema.Schema, note string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	v = shape(v, s)
	if m, ok := v.(map[string]any); ok && note != "" {
		m[linksNoteField] = note
	}
	return json.Marshal(v)
}

func shape(v any, s *jsonschema.Schema) any {
	if s == nil {
		return v
	}
	switch v := v.(type) {
	case map[string]any:
		for name, p := range s.Properties {
			field, ok := v[name]
			switch {
			case !ok:
			case field == nil && p.Type == "array":
				v[name] = []any{}
			case field == nil:
				delete(v, name)
			default:
				v[name] = shape(field, p)
			}
		}
	case []any:
		for i := range v {
			v[i] = shape(v[i], s.Items)
		}
	case nil:
		if s.Type == "array" {
			return []any{}
		}
	}
	return v
}

// shapeWalked appends to b what shapeDecoded makes of the compact JSON v,
// walking its text (internal/rawjson) instead of decoding it: strings and
// numbers are copied as they are, since json.Marshal wrote them as it
// would write them again. It is not ok for text it cannot walk, or for an
// object with a key that has escapes or is given twice.
func shapeWalked(b, v []byte, s *jsonschema.Schema, note string) ([]byte, bool) {
	switch {
	case len(v) == 0:
		return nil, false
	case v[0] == '{':
		members, ok := rawjson.Object(v)
		if !ok {
			return nil, false
		}
		if note != "" {
			text, _ := json.Marshal(note)
			members = slices.DeleteFunc(members, func(m rawjson.Member) bool { return string(m.Key) == `"`+linksNoteField+`"` })
			members = append(members, rawjson.Member{Key: []byte(`"` + linksNoteField + `"`), Value: text})
		}
		return appendObject(b, members, s)
	case v[0] == '[':
		elems, ok := rawjson.Array(v)
		if !ok {
			return nil, false
		}
		var items *jsonschema.Schema
		if s != nil {
			items = s.Items
		}
		b = append(b, '[')
		for i, e := range elems {
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = shapeWalked(b, e, items, ""); !ok {
				return nil, false
			}
		}
		return append(b, ']'), true
	case string(v) == "null" && s != nil && s.Type == "array":
		return append(b, "[]"...), true
	}
	return append(b, v...), true
}

// appendObject appends an object of members shaped to s (nil: only
// ordered), its members in the order of their keys.
func appendObject(b []byte, members []rawjson.Member, s *jsonschema.Schema) ([]byte, bool) {
	type member struct {
		rawjson.Member
		schema *jsonschema.Schema
	}
	kept := make([]member, 0, len(members))
	for _, m := range members {
		if bytes.IndexByte(m.Key, '\\') >= 0 {
			return nil, false
		}
		var p *jsonschema.Schema
		if s != nil {
			p = s.Properties[string(unquoted(m.Key))]
		}
		if p != nil && p.Type != "array" && string(m.Value) == "null" {
			continue // a null array becomes [] in shapeWalked
		}
		kept = append(kept, member{m, p})
	}
	slices.SortFunc(kept, func(x, y member) int { return bytes.Compare(unquoted(x.Key), unquoted(y.Key)) })
	b = append(b, '{')
	for i, m := range kept {
		if i > 0 {
			if bytes.Equal(m.Key, kept[i-1].Key) {
				return nil, false
			}
			b = append(b, ',')
		}
		b = append(append(b, m.Key...), ':')
		var ok bool
		if b, ok = shapeWalked(b, m.Value, m.schema, ""); !ok {
			return nil, false
		}
	}
	return append(b, '}'), true
}

// unquoted is a key without its quotes: what map keys are ordered by.
func unquoted(key []byte) []byte { return key[1 : len(key)-1] }

// plainJSON reports whether json.Marshal writes values of t with nothing
// but its own encoding of booleans, numbers, strings, arrays, and objects
// of fields or string keys: no interface, and no type that encodes itself
// (json.Marshaler, encoding.TextMarshaler), whose text might be written
// otherwise when decoded and encoded again.
func plainJSON(t reflect.Type) bool {
	return plainType(t, map[reflect.Type]bool{})
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func plainType(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) ||
		reflect.PointerTo(t).Implements(marshalerType) || reflect.PointerTo(t).Implements(textMarshalerType) {
		return false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return plainType(t.Elem(), seen)
	case reflect.Map:
		return t.Key().Kind() == reflect.String && plainType(t.Key(), seen) && plainType(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); (f.IsExported() || f.Anonymous) && !plainType(f.Type, seen) {
				return false
			}
		}
		return true
	}
	return false
}
