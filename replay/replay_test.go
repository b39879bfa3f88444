package replay

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
)

var (
	lisbon = &nodes.TripDetails{Location: "Lisbon", StartDate: "2026-05-04", EndDate: "2026-05-08", NumberOfGuests: 3}
	porto  = &nodes.TripDetails{Location: "Porto", StartDate: "2026-05-04", EndDate: "2026-05-08", NumberOfGuests: 3}
	h1     = nodes.Message{ID: "h1", Type: nodes.Human, Content: "Lisbon"}
	a1     = nodes.Message{ID: "a1", Type: nodes.AI, Content: "Stays"}
	acc    = nodes.UIComponent{ID: "u1", Name: card.Accommodations, MessageID: "a1", Props: json.RawMessage(`{"location":"Lisbon"}`)}
)

func TestDiff(t *testing.T) {
	accSpaced := acc
	accSpaced.Props = json.RawMessage(`{ "location" : "Lisbon" }`)
	accPorto := acc
	accPorto.Props = json.RawMessage(`{"location":"Porto"}`)
	tests := []struct {
		name          string
		before, after nodes.State
		messages      []string
		added         []string
		updated       []string
		trip          bool
		empty         bool
	}{
		{name: "nothing", before: nodes.State{Messages: []nodes.Message{h1}}, after: nodes.State{Messages: []nodes.Message{h1}, Timestamp: 9}, empty: true},
		{name: "from empty", after: nodes.State{Messages: []nodes.Message{h1}, TripDetails: lisbon}, messages: []string{"h1"}, trip: true},
		{name: "message and component", before: nodes.State{Messages: []nodes.Message{h1}},
			after: nodes.State{Messages: []nodes.Message{h1, a1}, UI: []nodes.UIComponent{acc}}, messages: []string{"a1"}, added: []string{"u1"}},
		{name: "props rewritten alike", before: nodes.State{UI: []nodes.UIComponent{acc}}, after: nodes.State{UI: []nodes.UIComponent{accSpaced}}, empty: true},
		{name: "component updated", before: nodes.State{UI: []nodes.UIComponent{acc}}, after: nodes.State{UI: []nodes.UIComponent{accPorto}}, updated: []string{"u1"}},
		{name: "trip changed", before: nodes.State{TripDetails: lisbon}, after: nodes.State{TripDetails: porto}, trip: true},
		{name: "same trip, new copy", before: nodes.State{TripDetails: lisbon}, after: nodes.State{TripDetails: new(*lisbon)}, empty: true},
		{name: "assumed changed", before: nodes.State{TripDetails: lisbon}, after: nodes.State{TripDetails: lisbon, Assumed: []string{nodes.FieldGuests}}, trip: true},
		{name: "trip cleared", before: nodes.State{TripDetails: lisbon}, after: nodes.State{}, trip: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Diff(tt.before, tt.after)
			if got := ids(c.MessagesAdded, func(m nodes.Message) string { return m.ID }); !slices.Equal(got, tt.messages) {
				t.Errorf("messages added %v, want %v", got, tt.messages)
			}
			if got := ids(c.ComponentsAdded, func(u nodes.UIComponent) string { return u.ID }); !slices.Equal(got, tt.added) {
				t.Errorf("components added %v, want %v", got, tt.added)
			}
			if got := ids(c.ComponentsUpdated, func(u nodes.UIComponent) string { return u.ID }); !slices.Equal(got, tt.updated) {
				t.Errorf("components updated %v, want %v", got, tt.updated)
			}
			if (c.TripDetails != nil) != tt.trip {
				t.Errorf("trip change %+v, want %v", c.TripDetails, tt.trip)
			}
			if c.TripDetails != nil && c.TripDetails.After != tt.after.TripDetails {
				t.Errorf("trip after = %v", c.TripDetails.After)
			}
			if c.Empty() != tt.empty || !c.Known {
				t.Errorf("Empty() = %v (known %v), want %v", c.Empty(), c.Known, tt.empty)
			}
		})
	}
}

func ids[T any](xs []T, id func(T) string) []string {
	var out []string
	for _, x := range xs {
		out = append(out, id(x))
	}
	return out
}

// TestSteps decodes a thread with a fork: each step is compared with its
// own parent, not with the checkpoint listed next to it.
func TestSteps(t *testing.T) {
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	cp := func(id, parent string, step int, s nodes.State) graph.Checkpoint {
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		return graph.Checkpoint{ThreadID: "t", ID: id, ParentID: parent, Step: step, Node: "n" + id, State: data,
			Metadata: graph.Metadata{Source: graph.SourceLoop}, CreatedAt: at.Add(time.Duration(step) * time.Second)}
	}
	s1 := nodes.State{Messages: []nodes.Message{h1}}
	s2 := nodes.State{Messages: []nodes.Message{h1, a1}, UI: []nodes.UIComponent{acc}, TripDetails: lisbon}
	fork := nodes.State{Messages: []nodes.Message{h1}, TripDetails: porto}
	list := []graph.Checkpoint{cp("c4", "c9", 4, s2), cp("c3", "c1", 2, fork), cp("c2", "c1", 2, s2), cp("c1", "", 1, s1)} // newest first
	steps, err := Steps(list)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(steps, func(s Step) string { return s.CheckpointID }); !slices.Equal(got, []string{"c4", "c3", "c2", "c1"}) {
		t.Fatalf("order %v", got)
	}
	if steps[0].Change.Known {
		t.Error("a step whose parent was not read has a known change")
	}
	if c := steps[1].Change; len(c.MessagesAdded) != 0 || c.TripDetails == nil || c.TripDetails.After.Location != "Porto" {
		t.Errorf("fork step change = %+v, want only the trip changed to Porto", c)
	}
	if c := steps[2].Change; len(c.MessagesAdded) != 1 || len(c.ComponentsAdded) != 1 {
		t.Errorf("step 2 change = %+v", c)
	}
	if c := steps[3].Change; len(c.MessagesAdded) != 1 || c.MessagesAdded[0].ID != "h1" {
		t.Errorf("first step change = %+v", c)
	}
	if s := steps[2]; s.Node != "nc2" || s.Step != 2 || s.Source != graph.SourceLoop || !s.CreatedAt.Equal(at.Add(2*time.Second)) || s.State.TripDetails.Location != "Lisbon" {
		t.Errorf("step fields = %+v", s)
	}
	if got, ok := At(steps, "c3"); !ok || got.State.TripDetails.Location != "Porto" {
		t.Errorf("At(c3) = %+v, %v", got, ok)
	}
	if _, ok := At(steps, "nope"); ok {
		t.Error("At found a missing checkpoint")
	}

	bad := cp("c5", "", 1, s1)
	bad.State = json.RawMessage(`{"messages": 1}`)
	if _, err := Steps([]graph.Checkpoint{bad}); err == nil {
		t.Error("an undecodable state was accepted")
	}
}

// A run's input pending (START due) is not a step: the step that applies
// it shows the message added, as a child of the pending input's parent.
func TestStepsLeaveOutPendingInputs(t *testing.T) {
	state := func(s nodes.State) json.RawMessage { data, _ := json.Marshal(s); return data }
	list := []graph.Checkpoint{ // newest first: a second turn forked from the first's end
		{ThreadID: "t", ID: "c3", ParentID: "p2", Step: 1, State: state(nodes.State{Messages: []nodes.Message{h1, a1}})},
		{ThreadID: "t", ID: "p2", ParentID: "c1", Step: 0, State: state(nodes.State{Messages: []nodes.Message{h1}}), Next: []string{graph.START}},
		{ThreadID: "t", ID: "c1", ParentID: "p0", Step: 0, State: state(nodes.State{Messages: []nodes.Message{h1}})},
		{ThreadID: "t", ID: "p0", Step: -1, State: state(nodes.State{}), Next: []string{graph.START}},
	}
	steps, err := Steps(list)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(steps, func(s Step) string { return s.CheckpointID + "<" + s.ParentID }); !slices.Equal(got, []string{"c3<c1", "c1<"}) {
		t.Fatalf("steps %v, want c3 (child of c1) and c1 (no parent)", got)
	}
	if c := steps[0].Change; !c.Known || len(c.MessagesAdded) != 1 || c.MessagesAdded[0].ID != a1.ID {
		t.Errorf("the second turn's change = %+v, want a1 added", c)
	}
	if c := steps[1].Change; !c.Known || len(c.MessagesAdded) != 1 || c.MessagesAdded[0].ID != h1.ID {
		t.Errorf("the first turn's change = %+v, want h1 added", c)
	}
}

// TestPending reads the components a step paused on from its interrupts
// and shows them with the step's state, without changing the state.
func TestPending(t *testing.T) {
	ask := nodes.UIComponent{ID: "call_9", Name: card.BookingConfirmation, MessageID: "a2", Props: json.RawMessage(`{"status":"pending"}`)}
	payload, _ := json.Marshal(ask)
	state, _ := json.Marshal(nodes.State{Messages: []nodes.Message{h1}, UI: []nodes.UIComponent{acc}})
	cp := graph.Checkpoint{ID: "c1", State: state, Interrupts: []graph.PendingInterrupt{
		{ID: "i1", Node: "callTools", Payload: payload},
		{ID: "i2", Node: "other", Payload: json.RawMessage(`"a question"`)},
	}}
	steps, err := Steps([]graph.Checkpoint{cp})
	if err != nil {
		t.Fatal(err)
	}
	s := steps[0]
	if len(s.Pending) != 1 || s.Pending[0].ID != "call_9" {
		t.Fatalf("pending = %+v", s.Pending)
	}
	shown := s.WithPending()
	if len(shown.UI) != 2 || shown.UI[1].ID != "call_9" || len(s.State.UI) != 1 {
		t.Errorf("shown UI = %+v, state UI = %+v", shown.UI, s.State.UI)
	}
	if got := (Step{State: s.State}).WithPending(); len(got.UI) != 1 {
		t.Errorf("a step with nothing pending shows %d components", len(got.UI))
	}
}

// A pending input's checkpoint shows the state before the input, where
// Steps leaves it out.
func TestShownAtAPendingInput(t *testing.T) {
	before := nodes.State{Messages: []nodes.Message{{ID: "m1", Type: nodes.Human, Content: "Lisbon"}}}
	state, _ := json.Marshal(before)
	cp := graph.Checkpoint{ID: "c1", Step: -1, Next: []string{graph.START}, State: state}
	if steps, _ := Steps([]graph.Checkpoint{cp}); len(steps) != 0 {
		t.Fatalf("Steps = %d steps, want the pending input left out", len(steps))
	}
	shown, err := Shown(cp)
	if err != nil || len(shown.Messages) != 1 || shown.Messages[0].Content != "Lisbon" {
		t.Errorf("Shown = %+v, %v; want the state before the input", shown, err)
	}
}
