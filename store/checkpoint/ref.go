package checkpoint

import (
	"bytes"
	"encoding/binary"
	"errors"
	"sync"
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
// of spans of its parent's reference text (see appendReference) and the
// bytes in between. Snapshots never are: they are read without their parent.
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

// appendReference appends the text a child of ch may copy its update from
// to dst. The newest text comes last, so that refTable prefers it.
func (ch *chain) appendReference(dst []byte) []byte {
	budget := refMax - len(ch.update) // the update is kept room for, last
	for _, m := range ch.state {
		if !m.array {
			if len(m.value) <= budget {
				dst, budget = append(dst, m.value...), budget-len(m.value)
			}
			continue
		}
		from := len(m.elems)
		for from > max(0, len(m.elems)-refElems) && len(m.elems[from-1]) <= budget {
			from--
			budget -= len(m.elems[from])
		}
		for _, e := range m.elems[from:] {
			dst = append(dst, e...)
		}
	}
	if len(ch.update) <= refMax {
		dst = append(dst, ch.update...)
	}
	return dst
}

// refScratch is the memory that storing or reading an update as copies
// needs only while it runs, kept between uses: a step's reference is
// kilobytes, and its table more.
type refScratch struct {
	ref, out []byte
	table    []int32
}

var refScratches = sync.Pool{New: func() any { return new(refScratch) }}

// storedUpdate returns a delta row's update as it is to be stored: as
// copies from its parent when that is shorter and reads back exactly.
func storedUpdate(update []byte, parent *chain) []byte {
	s := refScratches.Get().(*refScratch)
	defer refScratches.Put(s)
	s.ref = parent.appendReference(s.ref[:0])
	enc := encodeRef(update, s.ref, s)
	if enc == nil {
		return update
	}
	var err error
	if s.out, err = appendDecodedRef(s.out[:0], enc, s.ref); err != nil || !bytes.Equal(s.out, update) {
		return update
	}
	return enc
}

// readUpdate returns the update a delta row stored (see storedUpdate),
// given its parent's chain.
func readUpdate(stored []byte, parent *chain) ([]byte, error) {
	if !isRef(stored) {
		return stored, nil
	}
	s := refScratches.Get().(*refScratch)
	defer refScratches.Put(s)
	s.ref = parent.appendReference(s.ref[:0])
	return appendDecodedRef(nil, stored, s.ref)
}

// encodeRef returns update as copies from ref, or nil when that is not
// shorter than the update itself.
func encodeRef(update, ref []byte, s *refScratch) []byte {
	if len(update) < refMinMatch || len(ref) < refMinMatch {
		return nil
	}
	s.table = refTable(ref, s.table)
	table := s.table
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

// refTable indexes by their hash ref's refMinMatch-byte spans that start
// at every refStep-th byte, in table when it is large enough: entry h
// holds one more than the offset of the last such span with hash h.
// encodeRef tries every offset of the update, so it still finds each
// repeat, refStep bytes late at worst, and then extends it backward.
func refTable(ref []byte, table []int32) []int32 {
	size := 64
	for size < 2*len(ref)/refStep && size < 1<<13 {
		size <<= 1
	}
	if cap(table) < size {
		table = make([]int32, size)
	}
	table = table[:size]
	clear(table)
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

// appendDecodedRef appends to dst the update that encodeRef stored
// against ref.
func appendDecodedRef(dst, b, ref []byte) ([]byte, error) {
	for i := 1; i < len(b); {
		n, w := binary.Uvarint(b[i:])
		if w <= 0 || uint64(len(b)-i-w) < n {
			return nil, errBadRef
		}
		i += w
		dst = append(dst, b[i:i+int(n)]...)
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
		dst = append(dst, ref[off:off+length]...)
	}
	return dst, nil
}
