package store

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/graph"
)

// endingOutput is a run's output whose every write ends the run, with
// one event; it announces the end, as the runner does, once told.
type endingOutput struct{ ended *Run }

func (o *endingOutput) Take([]graph.Checkpoint) ([]NewRunEvent, bool) {
	return []NewRunEvent{{Event: "values", Data: []byte(`{"i":1}`)}}, true
}

func (o *endingOutput) Appended([]RunEvent, error) error { return nil }

func (o *endingOutput) Ended(run Run, announce func()) {
	o.ended = &run
	announce()
}

// A run ended in its last checkpoint's batch is announced as FinishRun
// announces it: a follower in another process, waiting on the run, gets
// its last event and ends (the tests' followQuiet is longer than the
// guard, so only the announcement can wake it).
func TestEndWithTheLastCheckpointIsAnnounced(t *testing.T) {
	ctx := context.Background()
	stores := openQueueStores(t, 2)
	worker, other := stores[0], stores[1]
	listening(t, other)
	owner, run := claimedRun(t, worker, "ended-in-batch", "w")
	followed := make(chan []RunEvent, 1)
	started := make(chan struct{})
	go func() {
		got, err := follow(t, other, owner, run.ID, 0, nil)
		if err != nil {
			t.Error(err)
		}
		followed <- got
	}()
	go func() { // the follower reads, then waits: nothing to read yet
		waitFor(t, "the follower's subscription", func() bool {
			h := other.runHub()
			h.mu.Lock()
			defer h.mu.Unlock()
			return len(h.subs[subKey{RunEventsChannel, run.ID}]) > 0
		})
		close(started)
	}()
	<-started
	out := &endingOutput{}
	cp := graph.Checkpoint{ThreadID: run.ThreadID, ID: uuid.Must(uuid.NewV7()).String(), State: []byte(`{"i":1}`),
		Metadata: graph.Metadata{RunID: run.ID}}
	if err := worker.ForOwner(owner).RunCheckpoints(run.Lease(), out).Put(ctx, cp, ""); err != nil {
		t.Fatal(err)
	}
	if out.ended == nil || out.ended.Status != RunSuccess {
		t.Fatalf("the run was not ended with its checkpoint: %+v", out.ended)
	}
	select {
	case got := <-followed:
		checkSequence(t, got, 1, 1)
	case <-time.After(guard):
		t.Fatal("the follower in another process did not hear the run's end")
	}
}
