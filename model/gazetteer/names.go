package gazetteer

import (
	"math"
	"slices"

	"github.com/tripgraph/tripgraph/model/gazetteer/internal/strtab"
)

// nameIndex maps a folded name to the places of that name, most populous
// first, and the first word of a name to the most words of a name it
// begins, so that matching tries no longer run of words. Names and first
// words are one set of strings, numbered in a strtab.Table: most first
// words are names too ("paris" of "paris" and of "paris texas").
//
// Nearly every name is one place's, so a name holds that place's index
// itself, and only a name shared by several holds a list: a hundred
// thousand one-place slices would cost a slice header and a small
// allocation each, all kept for the process's life. The one place is a
// slice too: of ids, one long.
type nameIndex struct {
	keys  strtab.Table
	ids   []int32 // by key: ≥ 0, the one place; noPlace, none; else lists[-id-1]
	lists [][]int32
	most  []uint8 // by key: the most words of a name it begins; no name runs to 256 words
}

// noPlace marks a key that is only the first word of longer names.
const noPlace = math.MinInt32

// key returns k's number, adding it when new.
func (n *nameIndex) key(k string) int32 {
	id, added := n.keys.Add(k)
	if added {
		n.ids = append(n.ids, noPlace)
		n.most = append(n.most, 0)
	}
	return id
}

// add appends place i to name k's places.
func (n *nameIndex) add(k string, i int32) {
	key := n.key(k)
	switch id := n.ids[key]; {
	case id == noPlace:
		n.ids[key] = i
	case id >= 0:
		n.lists = append(n.lists, []int32{id, i})
		n.ids[key] = -int32(len(n.lists))
	default:
		n.lists[-id-1] = append(n.lists[-id-1], i)
	}
}

// noteWords records a name of words words beginning with first.
func (n *nameIndex) noteWords(first string, words int) {
	key := n.key(first)
	n.most[key] = uint8(max(int(n.most[key]), min(words, 255)))
}

// longest returns the most words of a name that begins with first, 0
// when none does.
func (n *nameIndex) longest(first string) int {
	if key, ok := n.keys.Get(first); ok {
		return int(n.most[key])
	}
	return 0
}

// get returns name k's places, most populous first; none for a name of
// no place. The slice is the index's own: not to be changed.
func (n *nameIndex) get(k string) []int32 {
	key, ok := n.keys.Get(k)
	if !ok {
		return nil
	}
	return n.places(key)
}

// places returns the places named by key number key.
func (n *nameIndex) places(key int32) []int32 {
	switch id := n.ids[key]; {
	case id == noPlace:
		return nil
	case id >= 0:
		return n.ids[key : key+1 : key+1]
	default:
		return n.lists[-id-1]
	}
}

// each calls f with every name and its places, in the order the names
// were added.
func (n *nameIndex) each(f func(k string, places []int32)) {
	for key := range int32(n.keys.Len()) {
		if p := n.places(key); len(p) > 0 {
			f(n.keys.String(key), p)
		}
	}
}

// doneLoading copies what adding grew to its size.
func (n *nameIndex) doneLoading() {
	n.keys.Clip()
	n.ids = slices.Clone(n.ids)
	n.most = slices.Clone(n.most)
}
