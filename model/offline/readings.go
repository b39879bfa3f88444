package offline

import (
	"hash/maphash"
	"slices"
	"sync"
	"time"
)

// readings are the conversations Understand read last, at most
// maxReadings of them; the oldest reading goes first.
var readings = &readingCache{byKey: map[uint64]reading{}, seed: maphash.MakeSeed()}

const maxReadings = 1024

// readingCache is a bounded map of readings by a hash of what was read,
// evicted in the order they were put.
type readingCache struct {
	seed  maphash.Seed
	mu    sync.Mutex
	byKey map[uint64]reading
	order []uint64 // keys, oldest first
}

// reading is what Understand read, and what it returned.
type reading struct {
	today time.Time
	turns []string
	e     Extraction
}

// key hashes what a reading depends on, without copying it.
func (c *readingCache) key(turns []string, today time.Time) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	maphash.WriteComparable(&h, today.UnixNano())
	for _, t := range turns {
		h.WriteString(t)
		h.WriteByte(0)
	}
	return h.Sum64()
}

func (c *readingCache) get(turns []string, today time.Time) (Extraction, bool) {
	k := c.key(turns, today)
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.byKey[k]
	if !ok || !r.today.Equal(today) || !slices.Equal(r.turns, turns) {
		return Extraction{}, false
	}
	return r.e, true
}

func (c *readingCache) put(turns []string, today time.Time, e Extraction) {
	k := c.key(turns, today)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[k]; ok {
		return
	}
	if len(c.order) >= maxReadings {
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
	c.byKey[k] = reading{today: today, turns: slices.Clone(turns), e: e}
	c.order = append(c.order, k)
}
