package runner

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
)

// fakeQueue records what the outbox appends and publishes.
type fakeQueue struct {
	Queue
	mu        sync.Mutex
	seq       int64
	appended  []string // events' data, in the order appended
	positions []string // and their positions
	published []string
	announced []string
}

func (q *fakeQueue) AppendRunEvents(_ context.Context, _ store.Lease, events []store.NewRunEvent) ([]store.RunEvent, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.add(events), nil
}

func (q *fakeQueue) add(events []store.NewRunEvent) []store.RunEvent {
	var out []store.RunEvent
	for _, e := range events {
		q.seq++
		q.appended = append(q.appended, string(e.Data))
		q.positions = append(q.positions, e.Position)
		out = append(out, store.RunEvent{RunID: "r", Seq: q.seq, Event: e.Event, Data: e.Data})
	}
	return out
}

func (q *fakeQueue) AnnounceRunEvents(events []store.RunEvent) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, e := range events {
		q.announced = append(q.announced, string(e.Data))
	}
}

func (q *fakeQueue) PublishRunEvents(events []store.RunEvent) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, e := range events {
		q.published = append(q.published, string(e.Data))
	}
}

// checkpointWith has the outbox's held parts written as the transaction
// of the checkpoints saving would write them: every part appended.
func checkpointWith(t *testing.T, o *outbox, q *fakeQueue, saving ...graph.Checkpoint) {
	t.Helper()
	batch, _ := o.Take(saving)
	if len(batch) == 0 {
		t.Fatal("the outbox held nothing for the checkpoint")
	}
	q.mu.Lock()
	appended := q.add(batch)
	q.mu.Unlock()
	if err := o.Appended(appended, nil); err != nil {
		t.Fatal(err)
	}
}

func putPart(o *outbox, step int, data string) {
	o.put(graph.Event[nodes.State, nodes.Update]{Kind: graph.Custom, Step: step},
		[]wire.StreamPart{{Event: "custom", Data: []byte(data)}})
}

// The outbox hands this process's followers every part it appends, in
// order: those its writer appends, and those a step's checkpoint wrote once
// the checkpoint is saved. When a checkpoint that wrote parts was not saved
// (the run ends without its release), it hands over nothing more: a
// follower takes what it is handed as all that came before.
func TestOutboxPublishesInOrderOrNotAtAll(t *testing.T) {
	q := &fakeQueue{}
	o := startOutbox(context.Background(), q, store.Lease{RunID: "r"}, &wire.Parts{}, false, false, func(error) {})
	putPart(o, 1, "a")
	o.hold() // the step's nodes finished
	putPart(o, 1, "b")
	checkpointWith(t, o, q)
	o.release() // the checkpoint was saved
	putPart(o, 2, "c")
	o.hold()
	putPart(o, 2, "d")
	checkpointWith(t, o, q) // its checkpoint fails: no release
	if err := o.close(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "c", "d"}; !slices.Equal(q.appended, want) {
		t.Fatalf("appended %q, want %q", q.appended, want)
	}
	if want := []string{"a", "b", "c"}; !slices.Equal(q.published, want) && !slices.Equal(q.published, []string{"a", "b"}) {
		t.Fatalf("published %q, want %q (or without c, if it went with d)", q.published, want)
	}

	q2 := &fakeQueue{}
	o2 := startOutbox(context.Background(), q2, store.Lease{RunID: "r"}, &wire.Parts{}, false, false, func(error) {})
	o2.hold()
	putPart(o2, 1, "x")
	checkpointWith(t, o2, q2)
	o2.fail = func(error) {}
	o2.failed(errors.New("the checkpoint failed")) // the run stops
	putPart(o2, 2, "y")
	o2.release()
	_ = o2.close()
	if len(q2.published) != 0 {
		t.Fatalf("after a failure the outbox published %q", q2.published)
	}
}

// A checkpoint saved while the outbox is held writes its own parts (the
// state it holds) with what the step made, and its CheckpointSaved event
// then makes none; one saved while the outbox is not held leaves them to
// its event. Either way each part has the same position.
func TestCheckpointsWriteTheirOwnParts(t *testing.T) {
	cp := func(id string, step int, state string) graph.Checkpoint {
		return graph.Checkpoint{ThreadID: "t", ID: id, Step: step, Node: "n", State: json.RawMessage(state)}
	}
	saved := func(o *outbox, c graph.Checkpoint) {
		if err := o.see(savedEvent("r", c)); err != nil {
			t.Fatal(err)
		}
		o.release()
	}
	q := &fakeQueue{}
	o := startOutbox(context.Background(), q, store.Lease{RunID: "r"}, &wire.Parts{}, false, false, func(error) {})
	putPart(o, 1, `"a"`)
	o.hold()
	first := cp("c1", 1, `{"messages":[1]}`)
	checkpointWith(t, o, q, first)
	if len(q.appended) != 2 || q.appended[1] != `{"messages":[1]}` {
		t.Fatalf("the checkpoint's batch appended %q, want the step's part and the checkpoint's state", q.appended)
	}
	saved(o, first)
	saved(o, cp("c2", 2, `{"messages":[2]}`)) // saved while not held
	if err := o.close(); err != nil {
		t.Fatal(err)
	}
	if want := []string{`"a"`, `{"messages":[1]}`, `{"messages":[2]}`}; !slices.Equal(q.appended, want) {
		t.Fatalf("appended %q, want %q", q.appended, want)
	}
	if want := []string{"1.custom.0.0", "1.checkpoint_saved.0.0", "2.checkpoint_saved.0.0"}; !slices.Equal(q.positions, want) {
		t.Fatalf("positions %q, want %q", q.positions, want)
	}
}

// A part a node makes waits for the step's checkpoint for up to the
// outbox's linger: a step that ends within it writes its parts with the
// checkpoint and appends none on its own; a part of a step that goes on
// longer is appended on its own once it has lingered; a part that is not
// a node's (the run's start) does not wait, nor does a closing outbox.
func TestPartsLingerForTheirCheckpoint(t *testing.T) {
	start := func(linger time.Duration) (*outbox, *fakeQueue) {
		q := &fakeQueue{}
		o := startOutbox(context.Background(), q, store.Lease{RunID: "r"}, &wire.Parts{}, false, false, func(error) {})
		o.mu.Lock()
		o.linger = linger
		o.mu.Unlock()
		return o, q
	}
	appendedAlone := func(q *fakeQueue) []string {
		q.mu.Lock()
		defer q.mu.Unlock()
		return slices.Clone(q.appended)
	}

	o, q := start(time.Hour)
	putPart(o, 1, "card")
	time.Sleep(50 * time.Millisecond) // time for the writer to see the card, were it not to linger
	o.hold()                          // the step ended within the linger
	if got, _ := o.Take(nil); len(got) != 1 || string(got[0].Data) != "card" {
		t.Fatalf("the step's checkpoint took %v, want the card", got)
	}
	o.release()
	if got := appendedAlone(q); len(got) != 0 {
		t.Fatalf("appended %q on their own, want nothing: the checkpoint took them", got)
	}
	putPart(o, 2, "last")
	if err := o.close(); err != nil {
		t.Fatal(err)
	}
	if got := appendedAlone(q); !slices.Equal(got, []string{"last"}) {
		t.Fatalf("a closing outbox appended %q, want its last part", got)
	}

	o, q = start(time.Hour)
	o.put(graph.Event[nodes.State, nodes.Update]{Kind: graph.RunStarted}, []wire.StreamPart{{Event: "metadata", Data: []byte("start")}})
	for deadline := time.Now().Add(time.Minute); len(appendedAlone(q)) == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) { // a bound on a hang, not a timing assertion
			t.Fatal("the run's start lingered")
		}
	}
	_ = o.close()

	o, q = start(time.Millisecond)
	defer o.close()
	putPart(o, 1, "token")
	for deadline := time.Now().Add(time.Minute); len(appendedAlone(q)) == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) { // a bound on a hang, not a timing assertion
			t.Fatal("a part that lingered past the linger was never appended")
		}
	}
}

// The input's checkpoints, saved with the first node's
// (graph.RunConfig.InputDurable), come before the node's parts in the
// stream, as they would had they been saved before it ran: until they are
// saved nothing is written on its own, not even a part that does not
// linger. The node's own checkpoint comes after them.
func TestInputCheckpointsComeBeforeTheFirstNode(t *testing.T) {
	cp := func(id string, step int, node string) graph.Checkpoint {
		return graph.Checkpoint{ThreadID: "t", ID: id, Step: step, Node: node, State: json.RawMessage(`"` + id + `"`)}
	}
	q := &fakeQueue{}
	o := startOutbox(context.Background(), q, store.Lease{RunID: "r"}, &wire.Parts{}, true, false, func(error) {})
	o.put(graph.Event[nodes.State, nodes.Update]{Kind: graph.NodeStarted, Step: 1}, []wire.StreamPart{{Event: "tasks", Data: []byte(`"task"`)}})
	putPart(o, 1, `"card"`)
	time.Sleep(50 * time.Millisecond) // time for the writer to write, were it to
	q.mu.Lock()
	early := slices.Clone(q.appended)
	q.mu.Unlock()
	if len(early) > 0 {
		t.Fatalf("appended %q before the input's checkpoints", early)
	}
	o.hold()
	checkpointWith(t, o, q, cp("pending", -1, ""), cp("applied", 0, ""), cp("first", 1, "n"))
	o.release()
	putPart(o, 2, `"later"`)
	if err := o.close(); err != nil {
		t.Fatal(err)
	}
	if want := []string{`"pending"`, `"applied"`, `"task"`, `"card"`, `"first"`, `"later"`}; !slices.Equal(q.appended, want) {
		t.Fatalf("appended %q, want %q", q.appended, want)
	}
}
