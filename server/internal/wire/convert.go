package wire

import (
	"encoding/json"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/mcpservers"
)

// taskSpace makes task ids: a task is a node due at a checkpoint, so its id
// is derived from both and is the same every time it is read.
var taskSpace = uuid.MustParse("5b0a4c1e-2f39-4d6b-9e8a-0c7f3a1d2e45")

// emptyValues is the state of a thread with no checkpoint yet.
var emptyValues = json.RawMessage("{}")

// FromThread is the wire form of a thread whose newest checkpoint is head
// (nil when it has none).
func FromThread(t store.Thread, head *graph.Checkpoint) Thread {
	out := Thread{ThreadID: t.ID, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt, StateUpdatedAt: t.CreatedAt,
		Metadata: t.Metadata, Status: t.Status, Values: emptyValues, Interrupts: map[string][]Interrupt{}}
	if head != nil {
		out.Values, out.StateUpdatedAt = Values(head.State), head.CreatedAt
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
	meta := map[string]any{"source": cp.Metadata.Source, "step": cp.Step, "thread_id": cp.ThreadID, "parents": map[string]any{}}
	if cp.Metadata.RunID != "" {
		meta["run_id"] = cp.Metadata.RunID
	}
	if cp.Node != "" {
		meta["writes"] = map[string]json.RawMessage{cp.Node: cp.Update}
	}
	st := ThreadState{Values: Values(cp.State), Next: nonNil(cp.Next), Tasks: tasks(cp),
		Checkpoint: CheckpointOf(cp.ThreadID, cp.ID), Metadata: meta, CreatedAt: &created}
	if cp.ParentID != "" {
		st.ParentCheckpoint = CheckpointOf(cp.ThreadID, cp.ParentID)
	}
	return st
}

// WithRunMetadata adds the metadata of the run that wrote a state's
// checkpoint to the state's metadata, as LangGraph stamps a run's
// metadata into each of its checkpoints; the checkpoint's own members
// win. runs holds each run's metadata by run id.
func WithRunMetadata(st ThreadState, runs map[string]json.RawMessage) ThreadState {
	runID, _ := st.Metadata["run_id"].(string)
	raw := runs[runID]
	if len(raw) == 0 {
		return st
	}
	var extra map[string]any
	if json.Unmarshal(raw, &extra) != nil {
		return st
	}
	for k, v := range extra {
		if _, own := st.Metadata[k]; !own {
			st.Metadata[k] = v
		}
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
		t := Task{ID: uuid.NewSHA1(taskSpace, []byte(cp.ID+"/"+node)).String(), Name: node, Path: []string{"__pregel_pull", node},
			Interrupts: []Interrupt{}, State: json.RawMessage("null"), Result: json.RawMessage("null")}
		for _, in := range cp.Interrupts {
			if in.Node == node {
				t.Interrupts = append(t.Interrupts, interruptOf(in))
			}
		}
		out = append(out, t)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// FromMCPServer is the wire form of a stored server, without its secret.
func FromMCPServer(m mcpservers.Server) MCPServer {
	return MCPServer{ID: m.ID, Name: m.Name, URL: m.URL, Transport: m.Transport, AuthType: m.AuthType,
		AuthHeader: m.AuthHeader, HasSecret: m.HasSecret, Enabled: m.Enabled, AllowedTools: nonNil(m.AllowedTools),
		TimeoutMS: m.TimeoutMS, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt}
}

// FromMCPServers is the wire form of a list of servers.
func FromMCPServers(list []mcpservers.Server) []MCPServer {
	out := make([]MCPServer, 0, len(list))
	for _, m := range list {
		out = append(out, FromMCPServer(m))
	}
	return out
}

// ToMCPServerInput is the config a create body asks for.
func ToMCPServerInput(in MCPServerCreate) mcpservers.Input {
	enabled := in.Enabled == nil || *in.Enabled
	return mcpservers.Input{Name: in.Name, URL: in.URL, Transport: in.Transport, AuthType: in.AuthType,
		AuthHeader: in.AuthHeader, Secret: in.Secret, Enabled: enabled, AllowedTools: in.AllowedTools, TimeoutMS: in.TimeoutMS}
}

// PatchMCPServer is the config of cur with the members p sends replacing
// its own. Switching away from header auth without naming a header drops
// the stored header name, which only header auth may have.
func PatchMCPServer(cur mcpservers.Server, p MCPServerPatch) mcpservers.Input {
	in := mcpservers.Input{Name: cur.Name, URL: cur.URL, Transport: cur.Transport, AuthType: cur.AuthType,
		AuthHeader: cur.AuthHeader, Secret: p.Secret, Enabled: cur.Enabled, AllowedTools: cur.AllowedTools, TimeoutMS: cur.TimeoutMS}
	set(&in.Name, p.Name)
	set(&in.URL, p.URL)
	set(&in.Transport, p.Transport)
	if p.AuthType != nil && *p.AuthType != mcpservers.AuthHeader && p.AuthHeader == nil {
		in.AuthHeader = ""
	}
	set(&in.AuthType, p.AuthType)
	set(&in.AuthHeader, p.AuthHeader)
	set(&in.Enabled, p.Enabled)
	set(&in.AllowedTools, p.AllowedTools)
	set(&in.TimeoutMS, p.TimeoutMS)
	return in
}

// set replaces *dst with *v when v is sent.
func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// FromMCPSettings is the wire form of a user's enrichment settings.
func FromMCPSettings(s mcpservers.Settings) MCPSettings {
	return MCPSettings{ToolMCP: s.ToolMCP, ToolMCPServers: nonNil(s.ToolMCPServers)}
}

// ToMCPSettings is the settings a PUT body asks for.
func ToMCPSettings(in MCPSettingsUpdate) mcpservers.Settings {
	return mcpservers.Settings{ToolMCP: *in.ToolMCP, ToolMCPServers: in.ToolMCPServers}
}

// FromToolOutput is the wire form of a stored tool output.
func FromToolOutput(o store.ToolOutput) ToolOutput {
	return ToolOutput{ID: o.ID, Server: o.Server, Tool: o.Tool, Data: o.Data, CreatedAt: o.CreatedAt}
}

// ToBookingRequest is a run input's booking request for the planner; nil
// stays nil.
func ToBookingRequest(r *BookingRequest) *nodes.BookingRequest {
	if r == nil {
		return nil
	}
	return &nodes.BookingRequest{AccommodationID: r.ID, StartDate: r.StartDate, EndDate: r.EndDate, Guests: r.Guests}
}
