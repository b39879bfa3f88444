package store

import (
	"container/list"
	"sync"
)

// chain is what the checkpointer must know of a stored checkpoint to write
// a child of it as a delta.
type chain struct {
	id       string
	state    object // nil when the state cannot be the parent of a delta
	baseID   string // the snapshot the checkpoint's delta chain starts from
	baseSize int    // that snapshot's size in bytes
	depth    int    // deltas between the snapshot and the checkpoint
	cost     int    // bytes read to rebuild the checkpoint from the snapshot
}

// chainCache keeps the most recently written or read checkpoints' chains,
// by checkpoint id, so that a run's next step need not read its parent
// back. Checkpoints never change, so an entry never goes stale.
type chainCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *chain, most recent first
	byID  map[string]*list.Element
}

func newChainCache(max int) *chainCache {
	return &chainCache{max: max, order: list.New(), byID: make(map[string]*list.Element)}
}

// get returns the chain of checkpoint id, if cached.
func (c *chainCache) get(id string) (*chain, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[id]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*chain), true
}

// put caches ch, evicting the least recently used entry when full.
func (c *chainCache) put(ch *chain) {
	if c.max <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byID[ch.id]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.byID[ch.id] = c.order.PushFront(ch)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byID, last.Value.(*chain).id)
	}
}
