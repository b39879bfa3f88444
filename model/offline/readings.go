package offline

import (
	"strings"
	"sync"
	"time"
)

// readings are the conversations Understand read last, at most
// maxReadings of them; the oldest reading goes first.
var readings = &readingCache{byKey: map[string]Extraction{}}

const maxReadings = 1024

// readingCache is a bounded map of readings by key, evicted in the order
// they were put.
type readingCache struct {
	mu    sync.Mutex
	byKey map[string]Extraction
	order []string // keys, oldest first
}

// readingKey names a reading: the clock and every message, separated by a
// character no message holds (the text checks refuse control characters,
// and the key only has to tell conversations apart).
func readingKey(turns []string, today time.Time) string {
	var b strings.Builder
	b.WriteString(today.Format(time.RFC3339Nano))
	for _, t := range turns {
		b.WriteByte(0)
		b.WriteString(t)
	}
	return b.String()
}

func (c *readingCache) get(key string) (Extraction, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	return e, ok
}

func (c *readingCache) put(key string, e Extraction) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; ok {
		return
	}
	if len(c.order) >= maxReadings {
		delete(c.byKey, c.order[0])
		c.order = c.order[1:]
	}
	c.byKey[key] = e
	c.order = append(c.order, key)
}
