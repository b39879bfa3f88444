// Package replay reads a thread's saved checkpoints back as planner states
// and says what changed at each step: the messages added, the components
// added or updated and whether the trip details changed. The browser
// timeline and the replay command both show a thread through it, so the
// two always agree. Nothing here calls a model or a tool.
package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
)

// Step is one checkpoint of a thread, decoded, with what it changed.
type Step struct {
	CheckpointID string
	ParentID     string
	Step         int
	Node         string // the node that produced it; "" for the run's input
	Source       string // graph.SourceInput, SourceLoop, SourceUpdate or SourceFork
	CreatedAt    time.Time
	State        nodes.State
	Change       Change
	// Pending are the components the run paused on at this step (a
	// booking waiting for the traveller's answer): the interrupts whose
	// payload is a UI component.
	Pending []nodes.UIComponent
}

// Change is what a checkpoint changed relative to its parent.
type Change struct {
	// Known is false when the parent checkpoint was not among those read,
	// so nothing can be said about this step's changes.
	Known             bool
	MessagesAdded     []nodes.Message
	ComponentsAdded   []nodes.UIComponent
	ComponentsUpdated []nodes.UIComponent
	// TripDetails is set when the trip details (or which of them were
	// assumed) changed.
	TripDetails *TripChange
}

// TripChange is the trip details before and after a step; either may be
// nil (not known yet, or cleared).
type TripChange struct {
	Before, After *nodes.TripDetails
}

// Empty reports whether a known change changed nothing that is shown.
func (c Change) Empty() bool {
	return c.Known && len(c.MessagesAdded) == 0 && len(c.ComponentsAdded) == 0 &&
		len(c.ComponentsUpdated) == 0 && c.TripDetails == nil
}

// Steps decodes checkpoints (newest first, as graph.Checkpointer.List
// returns them) and returns them in the same order, each with what it
// changed relative to its parent. A checkpoint whose parent is not in the
// list and that has a parent gets an unknown change. A run's input
// pending (the checkpoint before it is applied, START due) changes
// nothing, so it is left out: the step that applies it shows the turn,
// as a child of the pending input's parent.
func Steps(cps []graph.Checkpoint) ([]Step, error) {
	steps, err := decodeSteps(cps)
	if err != nil {
		return nil, err
	}
	skipped := map[string]string{} // a pending input's id: its parent's
	for _, cp := range cps {
		if slices.Equal(cp.Next, []string{graph.START}) {
			skipped[cp.ID] = cp.ParentID
		}
	}
	out := steps[:0]
	for _, s := range steps {
		if _, skip := skipped[s.CheckpointID]; skip {
			continue
		}
		if parent, ok := skipped[s.ParentID]; ok {
			s.ParentID = parent
		}
		out = append(out, s)
	}
	return out, nil
}

// Shown is the state a page shows at one checkpoint: its state with the
// cards it waits on. A pending input's checkpoint shows the state before
// the input.
func Shown(cp graph.Checkpoint) (nodes.State, error) {
	steps, err := decodeSteps([]graph.Checkpoint{cp})
	if err != nil {
		return nodes.State{}, err
	}
	return steps[0].WithPending(), nil
}

// decodeSteps decodes every checkpoint with what it changed.
func decodeSteps(cps []graph.Checkpoint) ([]Step, error) {
	states := make(map[string]nodes.State, len(cps))
	out := make([]Step, len(cps))
	for i, cp := range cps {
		var s nodes.State
		if err := json.Unmarshal(cp.State, &s); err != nil {
			return nil, fmt.Errorf("decoding the state of checkpoint %s: %w", cp.ID, err)
		}
		states[cp.ID] = s
		out[i] = Step{CheckpointID: cp.ID, ParentID: cp.ParentID, Step: cp.Step, Node: cp.Node,
			Source: cp.Metadata.Source, CreatedAt: cp.CreatedAt, State: s, Pending: pending(cp.Interrupts)}
	}
	for i := range out {
		if out[i].ParentID == "" {
			out[i].Change = Diff(nodes.State{}, out[i].State)
			continue
		}
		if parent, ok := states[out[i].ParentID]; ok {
			out[i].Change = Diff(parent, out[i].State)
		}
	}
	return out, nil
}

// pending returns the interrupts' payloads that are UI components.
func pending(interrupts []graph.PendingInterrupt) []nodes.UIComponent {
	var out []nodes.UIComponent
	for _, in := range interrupts {
		var c nodes.UIComponent
		if json.Unmarshal(in.Payload, &c) == nil && c.Name != "" && c.ID != "" {
			out = append(out, c)
		}
	}
	return out
}

// WithPending is the step's state with its pending components shown: each
// replaces the component of the same id, or is added.
func (s Step) WithPending() nodes.State {
	if len(s.Pending) == 0 {
		return s.State
	}
	ups := make([]nodes.UIUpsert, len(s.Pending))
	for i, c := range s.Pending {
		ups[i] = nodes.UIUpsert{UIComponent: c}
	}
	return nodes.Reduce(s.State, nodes.Update{UI: ups})
}

// Diff says what changed from before to after.
func Diff(before, after nodes.State) Change {
	c := Change{Known: true}
	seen := make(map[string]bool, len(before.Messages))
	for _, m := range before.Messages {
		seen[m.ID] = true
	}
	for _, m := range after.Messages {
		if !seen[m.ID] {
			c.MessagesAdded = append(c.MessagesAdded, m)
		}
	}
	old := make(map[string]nodes.UIComponent, len(before.UI))
	for _, u := range before.UI {
		old[u.ID] = u
	}
	for _, u := range after.UI {
		prev, ok := old[u.ID]
		switch {
		case !ok:
			c.ComponentsAdded = append(c.ComponentsAdded, u)
		case prev.Name != u.Name || prev.MessageID != u.MessageID || !sameJSON(prev.Props, u.Props):
			c.ComponentsUpdated = append(c.ComponentsUpdated, u)
		}
	}
	if !sameTrip(before.TripDetails, after.TripDetails) || !slices.Equal(before.Assumed, after.Assumed) {
		c.TripDetails = &TripChange{Before: before.TripDetails, After: after.TripDetails}
	}
	return c
}

func sameTrip(a, b *nodes.TripDetails) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// sameJSON compares two JSON values, ignoring insignificant whitespace.
func sameJSON(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

// At returns the step with the given checkpoint id, or false.
func At(steps []Step, checkpointID string) (Step, bool) {
	i := slices.IndexFunc(steps, func(s Step) bool { return s.CheckpointID == checkpointID })
	if i < 0 {
		return Step{}, false
	}
	return steps[i], true
}
