package gazetteer

// nameIndex maps a folded name to the places of that name, most populous
// first. Nearly every name is one place's, so a name holds that place's
// index itself, and only a name shared by several holds a list: a hundred
// thousand one-place slices would cost a slice header in the map and a
// small allocation each, all kept for the process's life.
type nameIndex struct {
	ids   map[string]int32 // ≥ 0: the one place; < 0: lists[-id-1]
	lists [][]int32
	seq   []int32 // seq[i] == i, so that one place is a slice too
}

func newNameIndex(capacity int) nameIndex {
	return nameIndex{ids: make(map[string]int32, capacity)}
}

// add appends place i to name k's places.
func (n *nameIndex) add(k string, i int32) {
	for int32(len(n.seq)) <= i {
		n.seq = append(n.seq, int32(len(n.seq)))
	}
	id, ok := n.ids[k]
	switch {
	case !ok:
		n.ids[k] = i
	case id >= 0:
		n.lists = append(n.lists, []int32{id, i})
		n.ids[k] = -int32(len(n.lists))
	default:
		n.lists[-id-1] = append(n.lists[-id-1], i)
	}
}

// get returns name k's places, most populous first; none for a name of
// no place. The slice is the index's own: not to be changed.
func (n *nameIndex) get(k string) []int32 {
	id, ok := n.ids[k]
	switch {
	case !ok:
		return nil
	case id >= 0:
		return n.seq[id : id+1 : id+1]
	default:
		return n.lists[-id-1]
	}
}

// each calls f with every name and its places.
func (n *nameIndex) each(f func(k string, places []int32)) {
	for k := range n.ids {
		f(k, n.get(k))
	}
}
