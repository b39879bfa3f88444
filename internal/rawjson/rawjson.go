// Package rawjson walks compact JSON text that the program wrote itself
// with encoding/json (a saved state), finding an object's members and an
// array's elements as spans of the text, without decoding or copying them.
// It checks the structure it walks (brackets, strings, separators) and
// reports text it cannot walk as not ok, but it does not check what it
// skips over as strictly as encoding/json does: callers either read text
// they wrote or check that what they rebuild from the spans is the text
// they were given.
package rawjson

import "bytes"

// Member is one member of an object: its key as written, quotes and any
// escapes included, and its value's text.
type Member struct {
	Key, Value []byte
}

// Object returns the members of the compact JSON object b, in order.
func Object(b []byte) ([]Member, bool) {
	members, end, ok := objectAt(b, 0, []Member{})
	return members, ok && end == len(b)
}

// objectAt appends to members those of the compact JSON object that
// starts at b[i], and returns them with the object's end.
func objectAt(b []byte, i int, members []Member) ([]Member, int, bool) {
	if i+1 >= len(b) || b[i] != '{' {
		return nil, i, false
	}
	if b[i+1] == '}' {
		return members, i + 2, true
	}
	for i++; ; {
		if i >= len(b) || b[i] != '"' {
			return nil, i, false
		}
		keyEnd := String(b, i)
		if keyEnd >= len(b) || b[keyEnd] != ':' {
			return nil, i, false
		}
		end := Value(b, keyEnd+1)
		if end == keyEnd+1 || end >= len(b) {
			return nil, i, false
		}
		members = append(members, Member{Key: b[i:keyEnd], Value: b[keyEnd+1 : end]})
		switch b[end] {
		case ',':
			i = end + 1
		case '}':
			return members, end + 1, true
		default:
			return nil, i, false
		}
	}
}

// EachObject calls fn with the members of each element of the compact JSON
// array b, in order, walking b once; the members' slice is reused from one
// call to the next. It reports whether b is an array of objects; when it
// is not, fn may have been called for the elements before the first that
// is not an object.
func EachObject(b []byte, fn func(members []Member)) bool {
	if len(b) < 2 || b[0] != '[' {
		return false
	}
	if len(b) == 2 && b[1] == ']' {
		return true
	}
	var members []Member
	for i := 1; ; {
		var ok bool
		var end int
		if members, end, ok = objectAt(b, i, members[:0]); !ok {
			return false
		}
		fn(members)
		switch {
		case end < len(b) && b[end] == ',':
			i = end + 1
		case end == len(b)-1 && b[end] == ']':
			return true
		default:
			return false
		}
	}
}

// Array returns the elements of the compact JSON array b, in order.
func Array(b []byte) ([][]byte, bool) {
	if len(b) < 2 || b[0] != '[' {
		return nil, false
	}
	elems := [][]byte{}
	if len(b) == 2 && b[1] == ']' {
		return elems, true
	}
	for i := 1; ; {
		end := Value(b, i)
		if end == i {
			return nil, false
		}
		elems = append(elems, b[i:end])
		switch {
		case end < len(b) && b[end] == ',':
			i = end + 1
		case end == len(b)-1 && b[end] == ']':
			return elems, true
		default:
			return nil, false
		}
	}
}

// Named returns the value of the member whose key is key, written without
// escapes (encoding/json writes plain ASCII keys so).
func Named(members []Member, key string) ([]byte, bool) {
	for _, m := range members {
		if len(m.Key) == len(key)+2 && string(m.Key[1:len(m.Key)-1]) == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Value returns the end of the JSON value that starts at b[i]; i itself
// when none does (the end of b, or white space).
func Value(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return String(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = String(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return i
	}
	for i < len(b) && !isDelimiter(b[i]) {
		i++
	}
	return i
}

// String returns the end of the JSON string that starts at b[i]: past its
// closing quote, or the end of b when it has none. It looks for quotes
// with bytes.IndexByte, since strings are most of a state's text.
func String(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			break
		}
		quote := j + k
		escapes := 0
		for p := quote - 1; p > i && b[p] == '\\'; p-- {
			escapes++
		}
		if escapes%2 == 0 {
			return quote + 1
		}
		j = quote + 1
	}
	return len(b)
}

func isDelimiter(c byte) bool {
	switch c {
	case ',', ']', '}', ':', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// Compact reports whether b, JSON text, has no white space outside its
// strings.
func Compact(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = String(b, i) - 1
		case ' ', '\t', '\r', '\n':
			return false
		}
	}
	return true
}
