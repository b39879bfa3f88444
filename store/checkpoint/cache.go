package checkpoint

import (
	"slices"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/internal/lru"
)

// chain is what the checkpointer must know of a stored checkpoint to write
// a child of it as a delta.
type chain struct {
	id       string
	state    object // nil when the state cannot be the parent of a delta
	update   []byte // the step's update, which its children may copy from
	baseID   string // the snapshot the checkpoint's delta chain starts from
	baseSize int    // that snapshot's size in bytes
	depth    int    // deltas between the snapshot and the checkpoint
	cost     int    // bytes read to rebuild the checkpoint from the snapshot
	// head is the rest of the checkpoint, once it is cached as its
	// thread's newest (see chainCache.put): what KnownHead returns with
	// the state and update above.
	head *knownHead
}

// knownHead is a cached checkpoint without its state and update, and the
// owner of the checkpointer that wrote or read it ("" for the unscoped
// Saver).
type knownHead struct {
	checkpoint graph.Checkpoint
	owner      string
}

// Memory a cached state is charged for besides its JSON bytes: the slice
// header of each array element, and each member's key, value and element
// slice headers. Entries written as deltas share their parent's elements,
// so the sum of the charges bounds the memory the cache holds from above.
const (
	elemOverhead   = 24
	memberOverhead = 80
	chainOverhead  = 160
	// headOverhead is a knownHead's: its ids, times, names and next nodes.
	headOverhead = 320
)

// footprint is what a chain is charged for in the cache.
func (c *chain) footprint() int64 {
	n := int64(chainOverhead + len(c.id) + len(c.baseID) + len(c.update))
	if c.head != nil {
		n += headOverhead
		for _, in := range c.head.checkpoint.Interrupts {
			n += int64(len(in.Payload))
			for _, a := range in.Answers {
				n += int64(len(a))
			}
		}
	}
	for _, m := range c.state {
		n += int64(memberOverhead + len(m.key) + len(m.value) + elemOverhead*len(m.elems))
		for _, e := range m.elems {
			n += int64(len(e))
		}
	}
	return n
}

// chainCache keeps, for the threads most recently written or read, the
// chain of each one's newest checkpoint this process knows, so that a run's
// next step need not read its parent back: that is the checkpoint the next
// write goes over, and the one a thread's next run starts from. A
// checkpoint the thread has moved past is not kept, so the cache serves as
// many threads as its capacity holds heads. Checkpoints never change, so an
// entry never goes stale. It holds at most its capacity in states, as
// charged by footprint.
type chainCache struct {
	chains *lru.Cache[string, *chain] // by thread id
}

func newChainCache(maxBytes int64) *chainCache {
	return &chainCache{chains: lru.New[string, *chain](maxBytes)}
}

// get returns the chain of checkpoint id of thread, if cached.
func (c *chainCache) get(thread, id string) (*chain, bool) {
	ch, ok := c.chains.Get(thread)
	if !ok || ch.id != id {
		return nil, false
	}
	return ch, true
}

// put caches ch, the chain of cp, as thread's, unless the cache holds a
// newer checkpoint of the thread (ids sort by creation), with the rest of
// cp, which the checkpointer of owner wrote or read. ch must not be shared
// yet: put completes it. A chain bigger than the whole cache is not
// cached.
func (c *chainCache) put(thread string, ch *chain, cp graph.Checkpoint, owner string) {
	if old, ok := c.chains.Get(thread); ok && old.id > ch.id {
		return
	}
	cp.State, cp.Update = nil, nil
	ch.head = &knownHead{checkpoint: cp.Clone(), owner: owner}
	c.chains.Put(thread, ch, ch.footprint())
}

// head returns the newest checkpoint of thread the cache holds, which the
// checkpointer of owner wrote or read ("" for any), with its state and
// update, if it holds one.
func (c *chainCache) head(thread, owner string) (graph.Checkpoint, bool) {
	ch, ok := c.chains.Get(thread)
	if !ok || ch.head == nil || ch.state == nil || owner != "" && ch.head.owner != owner {
		return graph.Checkpoint{}, false
	}
	cp := ch.head.checkpoint.Clone()
	cp.State, cp.Update = ch.state.encode(), slices.Clone(ch.update)
	return cp, true
}

// size returns how many entries and charged bytes the cache holds.
func (c *chainCache) size() (entries int, bytes int64) { return c.chains.Len() }
