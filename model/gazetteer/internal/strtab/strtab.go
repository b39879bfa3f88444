// Package strtab is a set of strings kept for a process's life in few
// allocations: the strings one after another in one block of bytes, and
// an open-addressed hash table of 32-bit slots that finds them. Each
// string is numbered by the order it was first added, so that what a
// caller keeps for it lives in plain slices indexed by that number rather
// than in a map: a map of a hundred thousand strings costs a string
// header, a value and the map's own slack per entry, and each string its
// own allocation, all of which the garbage collector's heap goal doubles.
//
// A Table grows while it is filled and is read only after: reading is
// safe from many goroutines once the last Add has returned.
package strtab

import (
	"fmt"
	"hash/maphash"
	"unsafe"
)

// A slot holds 0 when empty, else the string's number plus one in its low
// idBits bits and the top bits of the string's hash in the others, so that
// most strings that differ are told apart without reading them.
const (
	idBits  = 21
	idMask  = 1<<idBits - 1
	tagMask = ^uint32(idMask)

	// MaxLen is the number of strings a Table can hold.
	MaxLen = idMask - 1
)

// Table numbers distinct strings. The zero value is an empty table ready
// for Add.
type Table struct {
	blob  []byte   // the strings, one after another; only ever appended to
	ends  []uint32 // ends[i] is where string i ends in blob
	slots []uint32 // length a power of two, at most half full
	seed  maphash.Seed
}

// Len is the number of strings in the table.
func (t *Table) Len() int { return len(t.ends) }

// Add returns s's number, adding s when it is not in the table yet, and
// whether it was added.
func (t *Table) Add(s string) (id int32, added bool) {
	if len(t.slots) == 0 {
		t.seed = maphash.MakeSeed()
		t.slots = make([]uint32, 16)
	}
	h := maphash.String(t.seed, s)
	if id, ok := t.find(s, h); ok {
		return id, false
	}
	if len(t.ends) >= MaxLen {
		panic(fmt.Sprintf("strtab: more than %d strings", MaxLen))
	}
	if len(t.blob)+len(s) > 1<<32-1 {
		panic("strtab: more than 4 GiB of strings")
	}
	if 2*(len(t.ends)+1) > len(t.slots) {
		t.grow()
	}
	t.blob = append(t.blob, s...)
	t.ends = append(t.ends, uint32(len(t.blob)))
	id = int32(len(t.ends) - 1)
	t.place(id, h)
	return id, true
}

// Get returns s's number, or ok false when s is not in the table.
func (t *Table) Get(s string) (id int32, ok bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	return t.find(s, maphash.String(t.seed, s))
}

// String returns string id. It shares the table's memory and allocates
// nothing.
func (t *Table) String(id int32) string {
	start := uint32(0)
	if id > 0 {
		start = t.ends[id-1]
	}
	end := t.ends[id]
	if start == end {
		return ""
	}
	// The bytes of blob[:len(blob)] are never written again: Add only
	// appends, and a copy made when the block grows leaves the old one
	// unchanged for the strings still pointing into it.
	return unsafe.String(&t.blob[start], end-start)
}

// Clip copies the block and the list of ends to their size, dropping the
// spare capacity they grew with, for a table that will take no more
// strings (more may still be added, at the cost of copying).
func (t *Table) Clip() {
	t.blob = append([]byte(nil), t.blob...)
	t.ends = append([]uint32(nil), t.ends...)
}

// find looks s, of hash h, up.
func (t *Table) find(s string, h uint64) (int32, bool) {
	mask := uint64(len(t.slots) - 1)
	tag := uint32(h>>32) & tagMask
	for i := h & mask; ; i = (i + 1) & mask {
		v := t.slots[i]
		if v == 0 {
			return 0, false
		}
		if v&tagMask == tag {
			id := int32(v&idMask) - 1
			if t.String(id) == s {
				return id, true
			}
		}
	}
}

// place puts string id, of hash h, in the first empty slot from h.
func (t *Table) place(id int32, h uint64) {
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = uint32(h>>32)&tagMask | uint32(id+1)
}

// grow doubles the slots and places every string again.
func (t *Table) grow() {
	t.slots = make([]uint32, 2*len(t.slots))
	for id := range int32(len(t.ends)) {
		t.place(id, maphash.String(t.seed, t.String(id)))
	}
}
