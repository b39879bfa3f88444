package graph

import (
	"encoding/json"
	"fmt"

	"github.com/tripgraph/tripgraph/internal/lru"
)

// stateCacheBytes bounds the states a compiled graph keeps decoded, charged
// by the size of their JSON.
const stateCacheBytes = 8 << 20

// decodedStates keeps, decoded, the state of the checkpoint each recent run
// ended on, so that the next run on the thread starts from it without
// decoding the thread's newest checkpoint again. A checkpoint never
// changes, and neither does a state the engine hands out (nodes, routers
// and the reducer never write into one), so an entry never goes stale; and
// since a state means the same as its JSON, a run started from the cached
// state does what it would do from the decoded checkpoint.
type decodedStates[S any] struct {
	states *lru.Cache[stateKey, S]
}

// stateKey names a checkpoint: its id, within its thread.
type stateKey struct{ thread, checkpoint string }

func newDecodedStates[S any]() decodedStates[S] {
	return decodedStates[S]{states: lru.New[stateKey, S](stateCacheBytes)}
}

// of returns the state of cp, decoded once per checkpoint the engine
// remembers.
func (d decodedStates[S]) of(cp Checkpoint) (S, error) {
	if s, ok := d.states.Get(stateKey{cp.ThreadID, cp.ID}); ok {
		return s, nil
	}
	return decode[S](cp.State)
}

// keep remembers s as the state of checkpoint id of thread, whose JSON is
// size bytes long.
func (d decodedStates[S]) keep(thread, id string, s S, size int) {
	d.states.Put(stateKey{thread, id}, s, int64(size))
}

func decode[S any](data json.RawMessage) (S, error) {
	var s S
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("decoding a checkpointed state: %w", err)
	}
	return s, nil
}
