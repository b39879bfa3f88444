package wire

import (
	"encoding/json"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/store"
)

// taskSpace makes task ids: a task is a node due at a checkpoint, so its id
// is derived from both and is the same every time it is read.
var taskSpace = uuid.MustParse("5b0a4c1e-2f39-4d6b-9e8a-0c7f3a1d2e45")

// emptyValues is the state of a thread with no checkpoint yet.
var emptyValues = json.RawMessage("{}")

// FromThread is the wire form of a thread whose newest checkpoint is head
// (nil when it has none).
func FromThread(t store.Thread, head *graph.Checkpoint) Thread {
	out := Thread{ThreadID: t.ID, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt, Metadata: t.Metadata,
		Status: t.Status, Values: emptyValues, Interrupts: map[string][]Interrupt{}}
	if head != nil {
		out.Values = head.State
		for _, task := range tasks(*head) {
			if len(task.Interrupts) > 0 {
				out.Interrupts[task.ID] = task.Interrupts
			}
		}
	}
	return out
}

// FromCheckpoint is the wire form of a thread's state at cp.
func FromCheckpoint(cp graph.Checkpoint) ThreadState {
	created := cp.CreatedAt
	meta := map[string]any{"source": cp.Metadata.Source, "step": cp.Step, "thread_id": cp.ThreadID}
	if cp.Metadata.RunID != "" {
		meta["run_id"] = cp.Metadata.RunID
	}
	if cp.Node != "" {
		meta["writes"] = map[string]json.RawMessage{cp.Node: cp.Update}
	}
	st := ThreadState{Values: cp.State, Next: nonNil(cp.Next), Tasks: tasks(cp),
		Checkpoint: CheckpointOf(cp.ThreadID, cp.ID), Metadata: meta, CreatedAt: &created}
	if cp.ParentID != "" {
		st.ParentCheckpoint = CheckpointOf(cp.ThreadID, cp.ParentID)
	}
	return st
}

// EmptyState is the state of a thread with no checkpoint yet.
func EmptyState() ThreadState {
	return ThreadState{Values: emptyValues, Next: []string{}, Tasks: []Task{}}
}

// CheckpointOf names a checkpoint of a thread.
func CheckpointOf(threadID, checkpointID string) *Checkpoint {
	return &Checkpoint{ThreadID: threadID, CheckpointID: checkpointID, CheckpointMap: json.RawMessage("null")}
}

// tasks are the nodes due next from cp, each with the interrupts pending
// for it.
func tasks(cp graph.Checkpoint) []Task {
	out := make([]Task, 0, len(cp.Next))
	for _, node := range cp.Next {
		t := Task{ID: uuid.NewSHA1(taskSpace, []byte(cp.ID+"/"+node)).String(), Name: node,
			Interrupts: []Interrupt{}, State: json.RawMessage("null")}
		for _, in := range cp.Interrupts {
			if in.Node == node {
				t.Interrupts = append(t.Interrupts, Interrupt{ID: in.ID, Value: in.Payload})
			}
		}
		out = append(out, t)
	}
	return out
}

// FromShape is the wire drawing of a graph.
func FromShape(s graph.Shape) AssistantGraph {
	g := AssistantGraph{Nodes: []GraphNode{{ID: graph.START, Type: "schema", Data: graph.START}}}
	for _, n := range s.Nodes {
		g.Nodes = append(g.Nodes, GraphNode{ID: n, Type: "runnable", Data: n})
	}
	g.Nodes = append(g.Nodes, GraphNode{ID: graph.END, Type: "schema", Data: graph.END})
	for _, e := range s.Edges {
		g.Edges = append(g.Edges, GraphEdge{Source: e.From, Target: e.To, Conditional: e.Conditional})
	}
	return g
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
