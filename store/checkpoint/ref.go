package checkpoint

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// This file holds how a delta row stores its update: as copies from its
// parent where it can.
//
// A step's update often repeats what its parent holds: the applied input
// is the pending input's update again, and a tool's new card is the last
// card of its kind with a few values changed (a turn that moves the dates
// lists the same hotels). zstd finds repeats only within one value, so such
// an update was stored whole at every step. A delta row is always read
// with its parent's chain, so its update can instead be stored as copies
// of spans of its parent's reference text (see reference) and the bytes in
// between. Snapshots never are: they are read without their parent.
//
// The stored form is refMarker, then pairs of
//
//	uvarint n, n literal bytes, uvarint offset, uvarint length
//
// each copying length bytes from the reference at offset after the
// literals; the last pair may stop after its literals. JSON text never
// begins with refMarker, nor does a zstd frame, and the whole is packed
// like any stored value.

// refMarker starts an update stored as copies from its parent.
const refMarker = 0x01

// Limits of the reference: the parent's update and, of each member of the
// parent's state, its value or its newest refElems elements, refMax bytes
// in all, the update's first.
const (
	refElems = 4
	refMax   = 32 << 10
)

// refMinMatch is the shortest span worth a copy: shorter ones cost about
// as much as their literals.
const refMinMatch = 12

// refStep is the spacing of the reference's indexed spans.
const refStep = 4

// reference returns the text a child of ch may copy its update from. The
// newest text comes last, so that refTable prefers it.
func (ch *chain) reference() []byte {
	ref := make([]byte, 0, 4<<10)
	budget := refMax - len(ch.update)
	for _, m := range ch.state {
		if !m.array {
			if len(m.value) <= budget {
				ref, budget = append(ref, m.value...), budget-len(m.value)
			}
			continue
		}
		from := len(m.elems)
		for from > max(0, len(m.elems)-refElems) && len(m.elems[from-1]) <= budget {
			from--
			budget -= len(m.elems[from])
		}
		for _, e := range m.elems[from:] {
			ref = append(ref, e...)
		}
	}
	if budget >= 0 {
		ref = append(ref, ch.update...)
	}
	return ref
}

// encodeRef returns update as copies from ref, or nil when that is not
// shorter than the update itself.
func encodeRef(update, ref []byte) []byte {
	if len(update) < refMinMatch || len(ref) < refMinMatch {
		return nil
	}
	table := refTable(ref)
	out := []byte{refMarker}
	lit := 0 // start of the literals not yet written
	for i := 0; i+refMinMatch <= len(update); {
		p := int(table[refHash(update[i:])&uint32(len(table)-1)]) - 1
		if p < 0 || !bytes.Equal(ref[p:p+refMinMatch], update[i:i+refMinMatch]) {
			i++
			continue
		}
		start, from := i, p
		for start > lit && from > 0 && update[start-1] == ref[from-1] {
			start, from = start-1, from-1
		}
		end := i + refMinMatch
		for end < len(update) && from+end-start < len(ref) && update[end] == ref[from+end-start] {
			end++
		}
		out = appendLiterals(out, update[lit:start])
		out = binary.AppendUvarint(out, uint64(from))
		out = binary.AppendUvarint(out, uint64(end-start))
		i, lit = end, end
		if len(out) >= len(update) {
			return nil
		}
	}
	if lit < len(update) {
		out = appendLiterals(out, update[lit:])
	}
	if len(out) >= len(update) {
		return nil
	}
	return out
}

// appendLiterals appends a pair's literal part.
func appendLiterals(out, lit []byte) []byte {
	out = binary.AppendUvarint(out, uint64(len(lit)))
	return append(out, lit...)
}

// refTable indexes ref's refMinMatch-byte spans that start at every
// refStep-th byte by their hash: entry h holds one more than the offset of
// the last such span with hash h. encodeRef tries every offset of the
// update, so it still finds each repeat, refStep bytes late at worst, and
// then extends it backward.
func refTable(ref []byte) []int32 {
	size := 64
	for size < 2*len(ref)/refStep && size < 1<<13 {
		size <<= 1
	}
	table := make([]int32, size)
	for p := 0; p+refMinMatch <= len(ref); p += refStep {
		table[refHash(ref[p:])&uint32(size-1)] = int32(p + 1)
	}
	return table
}

// refHash hashes the first refMinMatch bytes of b.
func refHash(b []byte) uint32 {
	h := binary.LittleEndian.Uint64(b)*0x9E3779B185EBCA87 ^ uint64(binary.LittleEndian.Uint32(b[8:]))*0xC2B2AE3D27D4EB4F
	return uint32(h >> 32)
}

// errBadRef reports a stored update whose copies do not fit its reference.
var errBadRef = errors.New("reading a stored update: malformed copies from its parent")

// isRef reports whether a stored update is copies from its parent.
func isRef(b []byte) bool { return len(b) > 0 && b[0] == refMarker }

// decodeRef rebuilds an update that encodeRef stored against ref.
func decodeRef(b, ref []byte) ([]byte, error) {
	if !isRef(b) {
		return b, nil
	}
	var out []byte
	for i := 1; i < len(b); {
		n, w := binary.Uvarint(b[i:])
		if w <= 0 || uint64(len(b)-i-w) < n {
			return nil, errBadRef
		}
		i += w
		out = append(out, b[i:i+int(n)]...)
		i += int(n)
		if i == len(b) {
			break
		}
		off, w1 := binary.Uvarint(b[i:])
		if w1 <= 0 {
			return nil, errBadRef
		}
		length, w2 := binary.Uvarint(b[i+w1:])
		if w2 <= 0 || off > uint64(len(ref)) || length > uint64(len(ref))-off {
			return nil, errBadRef
		}
		i += w1 + w2
		out = append(out, ref[off:off+length]...)
	}
	return out, nil
}
