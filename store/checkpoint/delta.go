package checkpoint

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/tripgraph/tripgraph/internal/rawjson"
)

// This file holds the state delta format of the Postgres checkpointer.
//
// A state is a compact JSON object. It is split into its top-level members,
// kept as raw bytes, so that it can be rebuilt byte for byte: "{" key ":"
// value ("," key ":" value)* "}", with arrays rebuilt as "[" elements
// joined by "," "]". A state that does not rebuild exactly (not an object,
// or not compact) is never stored as a delta.
//
// A delta is a compact JSON array. Its first element is 0 when the state has
// the same keys as its parent, in the same order, or else the array of the
// state's keys. One operation per key follows:
//
//	0              the parent's value for this key
//	[1,e1,e2,...]  the parent's array followed by these elements
//	[2,"k"]        the parent's array followed by the elements of the
//	               update's top-level array "k" (so they are stored once)
//	[2]            the same, where "k" is this key
//	[3,v]          the value v
//	[4]            the value of the update's member with this key
//
// The usual step of a chat graph appends a message and a UI record, and
// changes a timestamp: its delta is a few dozen bytes next to its update.

// Delta operations.
const (
	opAppend       = '1'
	opAppendUpdate = '2'
	opValue        = '3'
	opUpdateValue  = '4'
)

// member is one top-level member of a JSON object.
type member struct {
	key   []byte   // the raw key, quotes included
	value []byte   // the raw value; unused when array is set
	elems [][]byte // the raw elements, when the value is an array
	array bool
}

// object is a JSON object split into its members, in order.
type object []member

// errNotExact reports JSON that this format cannot rebuild byte for byte.
var errNotExact = errors.New("not a compact JSON value")

// parseObject splits a compact JSON object into its members. It does not
// validate what it splits: the state is JSON the engine encoded, and a
// delta is stored only when the object it rebuilds is byte for byte the
// text it was split from.
func parseObject(b []byte) (object, error) {
	members, ok := rawjson.Object(b)
	if !ok {
		return nil, errNotExact
	}
	obj := make(object, len(members))
	for i, m := range members {
		var err error
		if obj[i], err = newMember(m.Key, m.Value); err != nil {
			return nil, err
		}
	}
	return obj, nil
}

// parseAfter is parseObject for the state of a child of parent. Where raw
// repeats, in place, a member of parent's or the elements its array starts
// with, it compares their bytes rather than walking them, and the object
// shares them with parent: a step mostly appends to the arrays of the
// state before it. A value raw repeats is followed by a delimiter, and a
// JSON value followed by one ends there, so the split is parseObject's.
func parseAfter(raw []byte, parent object) (object, error) {
	if len(parent) == 0 || len(raw) < 2 || raw[0] != '{' {
		return parseObject(raw)
	}
	obj := make(object, 0, len(parent))
	for i := 1; ; {
		var p *member
		if len(obj) < len(parent) {
			p = &parent[len(obj)]
		}
		m, end, ok := memberAfter(raw, i, p)
		if !ok {
			return parseObject(raw)
		}
		obj = append(obj, m)
		switch {
		case end < len(raw) && raw[end] == ',':
			i = end + 1
		case end == len(raw)-1 && raw[end] == '}':
			return obj, nil
		default:
			return parseObject(raw)
		}
	}
}

// memberAfter reads the member that starts at raw[i], comparing it with
// p, the parent's member at the same place (nil when there is none), and
// returns it and where it ends.
func memberAfter(raw []byte, i int, p *member) (member, int, bool) {
	var key []byte
	if p != nil && bytes.HasPrefix(raw[i:], p.key) {
		key, i = p.key, i+len(p.key)
	} else {
		if i >= len(raw) || raw[i] != '"' {
			return member{}, 0, false
		}
		end := rawjson.String(raw, i)
		key, i, p = raw[i:end], end, nil
	}
	if i >= len(raw) || raw[i] != ':' {
		return member{}, 0, false
	}
	i++
	if i < len(raw) && raw[i] == '[' {
		var prev [][]byte
		if p != nil && p.array {
			prev = p.elems
		}
		elems, end, ok := arrayAfter(raw, i, prev)
		return member{key: key, elems: elems, array: true}, end, ok
	}
	if p != nil && !p.array && bytes.HasPrefix(raw[i:], p.value) && delimits(raw, i+len(p.value)) {
		return member{key: key, value: p.value}, i + len(p.value), true
	}
	end := rawjson.Value(raw, i)
	return member{key: key, value: raw[i:end]}, end, end > i
}

// arrayAfter reads the array that starts at raw[i] and returns its
// elements and where it ends: those of prev it starts with, compared, then
// the rest, walked.
func arrayAfter(raw []byte, i int, prev [][]byte) ([][]byte, int, bool) {
	elems := make([][]byte, 0, len(prev)+2)
	i++
	if i < len(raw) && raw[i] == ']' {
		return elems, i + 1, true
	}
	for j := 0; ; j++ {
		end := i
		if j < len(prev) && bytes.HasPrefix(raw[i:], prev[j]) && delimits(raw, i+len(prev[j])) {
			elems, end = append(elems, prev[j]), i+len(prev[j])
		} else {
			prev = nil // past the first that differs, nothing is compared
			if end = rawjson.Value(raw, i); end == i {
				return nil, 0, false
			}
			elems = append(elems, raw[i:end])
		}
		switch {
		case end < len(raw) && raw[end] == ',':
			i = end + 1
		case end < len(raw) && raw[end] == ']':
			return elems, end + 1, true
		default:
			return nil, 0, false
		}
	}
}

// delimits reports whether raw[i] ends a value: a separator or a closing
// bracket.
func delimits(raw []byte, i int) bool {
	return i < len(raw) && (raw[i] == ',' || raw[i] == ']' || raw[i] == '}')
}

// newMember makes a member, splitting its value when it is an array.
func newMember(key, value []byte) (member, error) {
	if len(value) == 0 || value[0] != '[' {
		return member{key: key, value: value}, nil
	}
	elems, err := splitArray(value)
	if err != nil {
		return member{}, err
	}
	return member{key: key, elems: elems, array: true}, nil
}

// splitArray splits a compact JSON array into its elements.
func splitArray(b []byte) ([][]byte, error) {
	elems, ok := rawjson.Array(b)
	if !ok {
		return nil, errNotExact
	}
	return elems, nil
}

// lookup returns the member with this raw key.
func (o object) lookup(key []byte) (member, bool) {
	for _, m := range o {
		if bytes.Equal(m.key, key) {
			return m, true
		}
	}
	return member{}, false
}

// encode rebuilds the object's JSON.
func (o object) encode() []byte {
	n := 2
	for _, m := range o {
		n += len(m.key) + 2 + m.size()
	}
	b := make([]byte, 0, n)
	b = append(b, '{')
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, m.key...)
		b = append(b, ':')
		b = m.appendValue(b)
	}
	return append(b, '}')
}

// encodes reports whether raw is o's encoding, without making it.
func (o object) encodes(raw []byte) bool {
	rest := raw
	eat := func(p []byte) bool {
		if !bytes.HasPrefix(rest, p) {
			return false
		}
		rest = rest[len(p):]
		return true
	}
	comma, colon := []byte{','}, []byte{':'}
	if !eat([]byte{'{'}) {
		return false
	}
	for i, m := range o {
		if (i > 0 && !eat(comma)) || !eat(m.key) || !eat(colon) {
			return false
		}
		if !m.array {
			if !eat(m.value) {
				return false
			}
			continue
		}
		if !eat([]byte{'['}) {
			return false
		}
		for j, e := range m.elems {
			if (j > 0 && !eat(comma)) || !eat(e) {
				return false
			}
		}
		if !eat([]byte{']'}) {
			return false
		}
	}
	return string(rest) == "}"
}

// size is the length of the member's encoded value.
func (m member) size() int {
	if !m.array {
		return len(m.value)
	}
	n := 2 + max(len(m.elems)-1, 0)
	for _, e := range m.elems {
		n += len(e)
	}
	return n
}

// appendValue appends the member's encoded value to b.
func (m member) appendValue(b []byte) []byte {
	if !m.array {
		return append(b, m.value...)
	}
	return appendArray(b, m.elems)
}

func appendArray(b []byte, elems [][]byte) []byte {
	b = append(b, '[')
	for i, e := range elems {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e...)
	}
	return append(b, ']')
}

// equal reports whether two members hold the same value.
func (m member) equal(o member) bool {
	if m.array != o.array {
		return false
	}
	if !m.array {
		return bytes.Equal(m.value, o.value)
	}
	return len(m.elems) == len(o.elems) && hasPrefix(m.elems, o.elems)
}

// hasPrefix reports whether elems starts with prefix.
func hasPrefix(elems, prefix [][]byte) bool {
	if len(prefix) > len(elems) {
		return false
	}
	for i, p := range prefix {
		if !bytes.Equal(elems[i], p) {
			return false
		}
	}
	return true
}

// keysEqual reports whether two objects of the same length have the same
// keys in the same order.
func keysEqual(a, b object) bool {
	for i := range a {
		if !bytes.Equal(a[i].key, b[i].key) {
			return false
		}
	}
	return true
}

// makeDelta encodes state as a delta against parent. update is the raw
// update of the step (it may be nil or not an object).
func makeDelta(parent, state object, update []byte) []byte {
	upd, _ := parseObject(update)
	var b []byte
	b = append(b, '[')
	if len(parent) == len(state) && keysEqual(parent, state) {
		b = append(b, '0')
	} else {
		b = append(b, '[')
		for i, m := range state {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, m.key...)
		}
		b = append(b, ']')
	}
	for _, m := range state {
		b = append(b, ',')
		b = appendOp(b, parent, m, upd)
	}
	return append(b, ']')
}

// appendOp appends the operation that turns parent's member into m.
func appendOp(b []byte, parent object, m member, upd object) []byte {
	p, ok := parent.lookup(m.key)
	switch {
	case ok && p.equal(m):
		return append(b, '0')
	case ok && p.array && m.array && hasPrefix(m.elems, p.elems):
		added := m.elems[len(p.elems):]
		if u, ok := upd.lookup(m.key); ok && u.array && len(u.elems) == len(added) && hasPrefix(added, u.elems) {
			return append(b, '[', opAppendUpdate, ']')
		}
		for _, u := range upd {
			if u.array && len(u.elems) == len(added) && hasPrefix(added, u.elems) {
				b = append(b, '[', opAppendUpdate, ',')
				b = append(b, u.key...)
				return append(b, ']')
			}
		}
		b = append(b, '[', opAppend)
		for _, e := range added {
			b = append(b, ',')
			b = append(b, e...)
		}
		return append(b, ']')
	}
	if u, ok := upd.lookup(m.key); ok && u.equal(m) {
		return append(b, '[', opUpdateValue, ']')
	}
	b = append(b, '[', opValue, ',')
	b = m.appendValue(b)
	return append(b, ']')
}

// applyDelta rebuilds a state from its parent's state, its delta and its
// update. The result shares no slice that a later append could write into.
func applyDelta(parent object, delta, update []byte) (object, error) {
	parts, err := splitArray(delta)
	if err != nil || len(parts) == 0 {
		return nil, fmt.Errorf("reading a state delta: malformed delta")
	}
	keys, err := deltaKeys(parent, parts[0])
	if err != nil {
		return nil, err
	}
	ops := parts[1:]
	if len(ops) != len(keys) {
		return nil, fmt.Errorf("reading a state delta: %d keys but %d operations", len(keys), len(ops))
	}
	var upd object
	state := make(object, len(keys))
	for i, key := range keys {
		m, err := applyOp(parent, key, ops[i], update, &upd)
		if err != nil {
			return nil, fmt.Errorf("reading a state delta, key %s: %w", key, err)
		}
		state[i] = m
	}
	return state, nil
}

// deltaKeys returns the state's keys from the delta's first element.
func deltaKeys(parent object, first []byte) ([][]byte, error) {
	if string(first) != "0" {
		keys, err := splitArray(first)
		if err != nil {
			return nil, fmt.Errorf("reading a state delta's keys: %w", err)
		}
		return keys, nil
	}
	keys := make([][]byte, len(parent))
	for i, m := range parent {
		keys[i] = m.key
	}
	return keys, nil
}

// applyOp rebuilds one member. upd caches the parsed update.
func applyOp(parent object, key, op, update []byte, upd *object) (member, error) {
	p, inParent := parent.lookup(key)
	if string(op) == "0" {
		if !inParent {
			return member{}, errors.New("kept from a parent that lacks it")
		}
		return p, nil
	}
	args, err := splitArray(op)
	if err != nil || len(args) == 0 || len(args[0]) != 1 {
		return member{}, errors.New("malformed operation")
	}
	switch args[0][0] {
	case opValue:
		if len(args) != 2 {
			return member{}, errors.New("malformed value operation")
		}
		return newMember(key, args[1])
	case opUpdateValue:
		u, err := updateMember(update, key, upd)
		if err != nil {
			return member{}, err
		}
		u.key = key
		return u, nil
	}
	if !inParent || !p.array {
		return member{}, errors.New("appended to a parent value that is not an array")
	}
	added := args[1:]
	if args[0][0] == opAppendUpdate {
		name := key
		if len(args) == 2 {
			name = args[1]
		} else if len(args) != 1 {
			return member{}, errors.New("malformed update reference")
		}
		u, err := updateMember(update, name, upd)
		if err != nil {
			return member{}, err
		}
		if !u.array {
			return member{}, fmt.Errorf("the update's %s is not an array", name)
		}
		added = u.elems
	} else if args[0][0] != opAppend {
		return member{}, fmt.Errorf("unknown operation %s", args[0])
	}
	elems := make([][]byte, 0, len(p.elems)+len(added))
	elems = append(append(elems, p.elems...), added...)
	return member{key: key, elems: elems, array: true}, nil
}

// updateMember returns the update's member with this raw key. upd caches
// the parsed update.
func updateMember(update, key []byte, upd *object) (member, error) {
	if *upd == nil {
		o, err := parseObject(update)
		if err != nil {
			return member{}, fmt.Errorf("parsing the update a delta refers to: %w", err)
		}
		*upd = o
	}
	u, ok := upd.lookup(key)
	if !ok {
		return member{}, fmt.Errorf("the update has no member %s", key)
	}
	return u, nil
}
