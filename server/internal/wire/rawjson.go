package wire

// A small reader of JSON text the server wrote itself (a saved state): it
// finds an object's members and an array's elements as spans of the text,
// without decoding or copying them, so that a state can be reshaped for a
// client in one pass. It checks the structure it walks (brackets, strings,
// separators) and reports text it cannot walk as not ok; it does not check
// what it skips over as strictly as encoding/json does, so it is for text
// encoding/json produced.

// rawMember is one member of an object: its key as written (with its
// quotes and any escapes) and its value's text.
type rawMember struct {
	key, value []byte
}

// rawObject returns the members of the object b holds, in order.
func rawObject(b []byte) ([]rawMember, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	var members []rawMember
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return members, skipSpace(b, i+1) == len(b)
	}
	for {
		keyEnd, ok := skipString(b, i)
		if !ok {
			return nil, false
		}
		key := b[i:keyEnd]
		i = skipSpace(b, keyEnd)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		start := skipSpace(b, i+1)
		end, ok := skipValue(b, start)
		if !ok {
			return nil, false
		}
		members = append(members, rawMember{key: key, value: b[start:end]})
		i = skipSpace(b, end)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == '}':
			return members, skipSpace(b, i+1) == len(b)
		default:
			return nil, false
		}
	}
}

// rawArray returns the elements of the array b holds, in order.
func rawArray(b []byte) ([][]byte, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	elems := [][]byte{}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return elems, skipSpace(b, i+1) == len(b)
	}
	for {
		end, ok := skipValue(b, i)
		if !ok {
			return nil, false
		}
		elems = append(elems, b[i:end])
		i = skipSpace(b, end)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == ']':
			return elems, skipSpace(b, i+1) == len(b)
		default:
			return nil, false
		}
	}
}

// memberNamed returns the value of the member whose key is key (written
// without escapes, as encoding/json writes plain ASCII keys).
func memberNamed(members []rawMember, key string) ([]byte, bool) {
	for _, m := range members {
		if len(m.key) == len(key)+2 && string(m.key[1:len(m.key)-1]) == key {
			return m.value, true
		}
	}
	return nil, false
}

// skipValue returns the index just past the value that starts at i.
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		return skipNested(b, i)
	}
	// A number or a literal: up to the next separator.
	start := i
	for i < len(b) && !isDelimiter(b[i]) {
		i++
	}
	return i, i > start
}

// skipNested returns the index just past the object or array at i.
func skipNested(b []byte, i int) (int, bool) {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			end, ok := skipString(b, i)
			if !ok {
				return i, false
			}
			i = end
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
		i++
	}
	return i, false
}

// skipString returns the index just past the string that starts at i.
func skipString(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return i, false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

func isDelimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r', ':':
		return true
	}
	return false
}
