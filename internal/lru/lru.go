// Package lru is a cache that keeps the entries used most recently, up to a
// total weight: a count of entries when every entry weighs 1, or bytes when
// each is charged for its size.
package lru

import (
	"container/list"
	"sync"
)

// Cache maps keys to values and forgets the least recently used entries
// once their weights add up to more than its capacity. It is safe for
// concurrent use. The zero value is not usable: call New.
type Cache[K comparable, V any] struct {
	mu       sync.Mutex
	capacity int64
	weight   int64
	order    list.List // of *entry[K, V], most recent first
	byKey    map[K]*list.Element
}

type entry[K comparable, V any] struct {
	key    K
	value  V
	weight int64
}

// New returns an empty cache that holds at most capacity in weight.
func New[K comparable, V any](capacity int64) *Cache[K, V] {
	return &Cache[K, V]{capacity: capacity, byKey: make(map[K]*list.Element)}
}

// Get returns the value cached for key, and makes it the most recent.
func (c *Cache[K, V]) Get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*entry[K, V]).value, true
}

// Put caches value for key, charged weight, in place of any value cached
// for key, and forgets the least recently used entries until the cache is
// within its capacity. A value heavier than the whole cache is not kept
// (nor is the key's former value).
func (c *Cache[K, V]) Put(key K, value V, weight int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		c.weight -= c.order.Remove(e).(*entry[K, V]).weight
		delete(c.byKey, key)
	}
	if weight > c.capacity {
		return
	}
	c.byKey[key] = c.order.PushFront(&entry[K, V]{key: key, value: value, weight: weight})
	c.weight += weight
	for c.weight > c.capacity {
		old := c.order.Remove(c.order.Back()).(*entry[K, V])
		delete(c.byKey, old.key)
		c.weight -= old.weight
	}
}

// Len returns how many entries the cache holds and their total weight.
func (c *Cache[K, V]) Len() (entries int, weight int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len(), c.weight
}
