package graph

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/tripgraph/tripgraph/internal/lru"
)

// stateCacheBytes bounds the states a compiled graph keeps decoded, each
// charged the size of its JSON and what its entry takes besides (see
// entryBytes).
const stateCacheBytes = 2 << 20

// entryBookkeeping is what the cache's entry for a state takes besides the
// state itself: the entry, its list element and its map slot.
const entryBookkeeping = 128

// decodedStates keeps, decoded, the state of the checkpoint each thread's
// latest run ended on, so that the next run on the thread starts from it
// without decoding the thread's newest checkpoint again: one state per
// thread, so that the cache serves as many threads as its capacity holds.
// A checkpoint never changes, and neither does a state the engine hands
// out (nodes, routers and the reducer never write into one), so an entry
// never goes stale; and since a state means the same as its JSON, a run
// started from the cached state does what it would do from the decoded
// checkpoint.
type decodedStates[S any] struct {
	states *lru.Cache[string, decodedState[S]] // by thread id
	// entryBytes is charged to each entry on top of its state's JSON: its
	// bookkeeping and S's own size, so that many small states cannot hold
	// several times stateCacheBytes.
	entryBytes int64
}

// decodedState is a thread's cached state and the checkpoint it is of.
type decodedState[S any] struct {
	checkpoint string
	state      S
}

func newDecodedStates[S any]() decodedStates[S] {
	return decodedStates[S]{
		states:     lru.New[string, decodedState[S]](stateCacheBytes),
		entryBytes: entryBookkeeping + int64(reflect.TypeFor[S]().Size()),
	}
}

// of returns the state of cp, decoded once per checkpoint the engine
// remembers.
func (d decodedStates[S]) of(cp Checkpoint) (S, error) {
	if e, ok := d.states.Get(cp.ThreadID); ok && e.checkpoint == cp.ID {
		return e.state, nil
	}
	return decode[S](cp.State)
}

// keep remembers s as the state of checkpoint id of thread, whose JSON is
// size bytes long, in place of the state the thread's last run ended on.
func (d decodedStates[S]) keep(thread, id string, s S, size int) {
	d.states.Put(thread, decodedState[S]{checkpoint: id, state: s}, int64(size)+d.entryBytes)
}

func decode[S any](data json.RawMessage) (S, error) {
	var s S
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("decoding a checkpointed state: %w", err)
	}
	return s, nil
}
