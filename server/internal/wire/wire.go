// Package wire holds the JSON shapes of tripgraph's HTTP API: the names the
// LangGraph server API and its official clients use. Domain types carry no
// JSON tags for the API; convert.go is the one place they become wire types.
package wire

import (
	"encoding/json"
	"time"
)

// Error is the body of every error response.
type Error struct {
	Error   string       `json:"error"`   // a stable code: BAD_REQUEST, NOT_FOUND, ...
	Message string       `json:"message"` // fit to show a person; never internal text
	Fields  []FieldError `json:"fields,omitempty"`
}

// FieldError says what is wrong with one field of a request body.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Thread is a conversation and its current state. StateUpdatedAt is when
// its newest checkpoint was saved (its creation, when it has none);
// Extracted is only in search answers that asked for it.
type Thread struct {
	ThreadID       string                 `json:"thread_id"`
	CreatedAt      time.Time              `json:"created_at"`
	UpdatedAt      time.Time              `json:"updated_at"`
	StateUpdatedAt time.Time              `json:"state_updated_at"`
	Metadata       json.RawMessage        `json:"metadata"`
	Status         string                 `json:"status"`
	Values         json.RawMessage        `json:"values"`
	Interrupts     map[string][]Interrupt `json:"interrupts"`
	Extracted      map[string]any         `json:"extracted,omitempty"`
}

// ThreadCreate is the body of POST /threads. Supersteps rebuild a
// thread's history, each superstep one checkpoint. TTL is refused unless
// sent empty: threads expire by the server's setting only.
type ThreadCreate struct {
	ThreadID   string          `json:"thread_id" validate:"omitempty,uuid"`
	Metadata   json.RawMessage `json:"metadata" validate:"omitempty,object"`
	IfExists   string          `json:"if_exists" validate:"omitempty,oneof=raise do_nothing"`
	Supersteps []Superstep     `json:"supersteps" validate:"max=200,dive"`
	TTL        json.RawMessage `json:"ttl"`
}

// StateBatch is the body of POST /threads/{id}/state/batch: supersteps
// written on a thread that exists, each one checkpoint.
type StateBatch struct {
	Supersteps []Superstep `json:"supersteps" validate:"required,min=1,max=200,dive"`
}

// Superstep is one step of a thread's history to write: its updates,
// each applied as the node it names.
type Superstep struct {
	Updates []SuperstepUpdate `json:"updates" validate:"required,min=1,max=1,dive"`
}

// SuperstepUpdate is one update of a superstep: values (or a command's
// update) applied as as_node would have returned them; __input__ saves
// them as a run's pending input, __start__ applies them as input.
type SuperstepUpdate struct {
	Values  json.RawMessage `json:"values"`
	Command *RunCommand     `json:"command"`
	AsNode  string          `json:"as_node" validate:"required,max=100"`
}

// ThreadPatch is the body of PATCH /threads/{id}.
type ThreadPatch struct {
	Metadata json.RawMessage `json:"metadata" validate:"required,object"`
}

// ThreadSearch is the body of POST /threads/search, and of POST
// /threads/count (which reads its filters only). Values keeps the threads
// whose current values contain it; select names the members to answer
// with; extract names values to pick out of each thread, by path
// (values.messages[-1].content), answered in extracted.
type ThreadSearch struct {
	Metadata  json.RawMessage   `json:"metadata" validate:"omitempty,object"`
	Values    json.RawMessage   `json:"values" validate:"omitempty,object"`
	IDs       []string          `json:"ids" validate:"max=1000,dive,uuid"`
	Status    string            `json:"status" validate:"omitempty,oneof=idle busy interrupted error"`
	Limit     *int              `json:"limit" validate:"omitempty,min=1,max=1000"`
	Offset    int               `json:"offset" validate:"min=0"`
	SortBy    string            `json:"sort_by" validate:"omitempty,oneof=thread_id status created_at updated_at state_updated_at"`
	SortOrder string            `json:"sort_order" validate:"omitempty,oneof=asc desc"`
	Select    []string          `json:"select" validate:"max=20,dive,oneof=thread_id created_at updated_at state_updated_at metadata config context status values interrupts"`
	Extract   map[string]string `json:"extract" validate:"max=20"`
}

// Checkpoint names one saved step of a thread.
type Checkpoint struct {
	ThreadID      string          `json:"thread_id"`
	CheckpointNS  string          `json:"checkpoint_ns"`
	CheckpointID  string          `json:"checkpoint_id"`
	CheckpointMap json.RawMessage `json:"checkpoint_map"`
}

// CheckpointRef is a checkpoint as a client names it in a request.
type CheckpointRef struct {
	ThreadID      string          `json:"thread_id" validate:"omitempty,uuid"`
	CheckpointNS  string          `json:"checkpoint_ns" validate:"max=0"`
	CheckpointID  string          `json:"checkpoint_id" validate:"required,uuid"`
	CheckpointMap json.RawMessage `json:"checkpoint_map"`
}

// ThreadState is a thread's state at one checkpoint.
type ThreadState struct {
	Values           json.RawMessage `json:"values"`
	Next             []string        `json:"next"`
	Tasks            []Task          `json:"tasks"`
	Checkpoint       *Checkpoint     `json:"checkpoint"`
	Metadata         map[string]any  `json:"metadata"`
	CreatedAt        *time.Time      `json:"created_at"`
	ParentCheckpoint *Checkpoint     `json:"parent_checkpoint"`
}

// Task is a node due to run next from a checkpoint, with the interrupts it
// is waiting on. Path is LangGraph's: a node due by an edge is a pull
// task. Result is null: a due task has not run.
type Task struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Path       []string        `json:"path"`
	Error      *string         `json:"error"`
	Interrupts []Interrupt     `json:"interrupts"`
	Checkpoint *Checkpoint     `json:"checkpoint"`
	State      json.RawMessage `json:"state"`
	Result     json.RawMessage `json:"result"`
}

// StateCheckpointRequest is the body of POST /threads/{id}/state/checkpoint.
type StateCheckpointRequest struct {
	Checkpoint CheckpointRef `json:"checkpoint" validate:"required"`
	Subgraphs  bool          `json:"subgraphs"`
}

// StateUpdate is the body of POST /threads/{id}/state.
type StateUpdate struct {
	Values       json.RawMessage `json:"values" validate:"required"`
	CheckpointID string          `json:"checkpoint_id" validate:"omitempty,uuid"`
	Checkpoint   *CheckpointRef  `json:"checkpoint"`
	AsNode       string          `json:"as_node" validate:"max=100"`
}

// StateUpdateResult answers POST /threads/{id}/state.
type StateUpdateResult struct {
	Checkpoint Checkpoint `json:"checkpoint"`
}

// HistoryRequest is the body of POST /threads/{id}/history. Before is a
// checkpoint id or a config naming one.
type HistoryRequest struct {
	Limit    *int            `json:"limit" validate:"omitempty,min=1,max=1000"`
	Before   json.RawMessage `json:"before"`
	Metadata map[string]any  `json:"metadata"`
}

// Config is a run configuration as clients send it; only the checkpoint it
// names is read.
type Config struct {
	Configurable struct {
		ThreadID     string `json:"thread_id,omitempty"`
		CheckpointNS string `json:"checkpoint_ns,omitempty"`
		CheckpointID string `json:"checkpoint_id"`
	} `json:"configurable"`
}

// UIComponentRequest is the body of POST /ui/{assistant}: the component
// whose code LangGraph's SDK asks for.
type UIComponentRequest struct {
	Name string `json:"name" validate:"required,max=100"`
}

// UIRenderRequest is the body of POST /ui/{assistant}/render: a
// component's name and props, and the page's language.
type UIRenderRequest struct {
	Name  string          `json:"name" validate:"required,max=100"`
	Props json.RawMessage `json:"props" validate:"required"`
	Lang  string          `json:"lang" validate:"max=100"`
}

// UIRendered answers POST /ui/{assistant}/render: the component's HTML.
type UIRendered struct {
	HTML string `json:"html"`
}

// Info answers GET /info, in the shape of LangGraph's.
type Info struct {
	Version string          `json:"version"`
	Context string          `json:"context"`
	Flags   map[string]bool `json:"flags"`
}

// Health answers /healthz and /readyz.
type Health struct {
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
}
