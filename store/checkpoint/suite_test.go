package checkpoint

import (
	"context"
	"testing"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/graph/checkpointtest"
)

// The checkpointer behaviour suite that MemorySaver passes, on PostgreSQL:
// scoped to an owner, which creates threads as the suite writes to fresh
// ids, and unscoped, for which the suite's threads are created the way the
// server creates them before a run (ownedThreads).
func TestCheckpointerSuite(t *testing.T) {
	s := openTestStore(t)
	t.Run("scoped", func(t *testing.T) {
		checkpointtest.Run(t, func(t *testing.T) graph.Checkpointer {
			owner, _ := newThread(t, s, "suite-scoped")
			return New(s.Pool, Options{}).ForOwner(owner)
		})
	})
	t.Run("unscoped", func(t *testing.T) {
		checkpointtest.Run(t, func(t *testing.T) graph.Checkpointer {
			owner, _ := newThread(t, s, "suite-unscoped")
			return ownedThreads{Saver: New(s.Pool, Options{}), s: s, owner: owner}
		})
	})
}

// ownedThreads creates the thread row (for owner) of a first checkpoint
// before the unscoped checkpointer writes it, as the server creates a
// thread before it runs the graph on it.
type ownedThreads struct {
	*Saver
	s     *testDB
	owner string
}

func (o ownedThreads) Put(ctx context.Context, cp graph.Checkpoint, head string) error {
	if err := o.ensure(ctx, cp, head); err != nil {
		return err
	}
	return o.Saver.Put(ctx, cp, head)
}

func (o ownedThreads) PutAll(ctx context.Context, cps []graph.Checkpoint, head string) (int, error) {
	if err := o.ensure(ctx, cps[0], head); err != nil {
		return 0, err
	}
	return o.Saver.PutAll(ctx, cps, head)
}

// ensure creates the thread of cp, a thread's first checkpoint when head
// is "".
func (o ownedThreads) ensure(ctx context.Context, cp graph.Checkpoint, head string) error {
	if head != "" || graph.CheckID("thread id", cp.ThreadID) != nil {
		return nil
	}
	_, err := o.s.Pool.Exec(ctx, `INSERT INTO threads (id, owner_id) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`,
		cp.ThreadID, o.owner)
	return err
}
