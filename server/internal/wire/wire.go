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

// Assistant is a configured graph clients run.
type Assistant struct {
	AssistantID string         `json:"assistant_id"`
	GraphID     string         `json:"graph_id"`
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Config      map[string]any `json:"config"`
	Context     map[string]any `json:"context"`
	Metadata    map[string]any `json:"metadata"`
	Version     int            `json:"version"`
	CreatedAt   time.Time      `json:"created_at"`
	UpdatedAt   time.Time      `json:"updated_at"`
}

// AssistantSearch is the body of POST /assistants/search.
type AssistantSearch struct {
	GraphID   string         `json:"graph_id" validate:"max=200"`
	Name      string         `json:"name" validate:"max=200"`
	Metadata  map[string]any `json:"metadata"`
	Limit     *int           `json:"limit" validate:"omitempty,min=1,max=1000"`
	Offset    int            `json:"offset" validate:"min=0"`
	SortBy    string         `json:"sort_by" validate:"omitempty,oneof=assistant_id graph_id name created_at updated_at"`
	SortOrder string         `json:"sort_order" validate:"omitempty,oneof=asc desc"`
}

// AssistantGraph is a graph's drawing: its nodes and edges.
type AssistantGraph struct {
	Nodes []GraphNode `json:"nodes"`
	Edges []GraphEdge `json:"edges"`
}

// GraphNode is one node of an AssistantGraph.
type GraphNode struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	Data string `json:"data"`
}

// GraphEdge is one edge of an AssistantGraph.
type GraphEdge struct {
	Source      string `json:"source"`
	Target      string `json:"target"`
	Conditional bool   `json:"conditional"`
}

// Thread is a conversation and its current state.
type Thread struct {
	ThreadID   string                 `json:"thread_id"`
	CreatedAt  time.Time              `json:"created_at"`
	UpdatedAt  time.Time              `json:"updated_at"`
	Metadata   json.RawMessage        `json:"metadata"`
	Status     string                 `json:"status"`
	Values     json.RawMessage        `json:"values"`
	Interrupts map[string][]Interrupt `json:"interrupts"`
}

// ThreadCreate is the body of POST /threads.
type ThreadCreate struct {
	ThreadID string          `json:"thread_id" validate:"omitempty,uuid"`
	Metadata json.RawMessage `json:"metadata" validate:"omitempty,object"`
	IfExists string          `json:"if_exists" validate:"omitempty,oneof=raise do_nothing"`
}

// ThreadPatch is the body of PATCH /threads/{id}.
type ThreadPatch struct {
	Metadata json.RawMessage `json:"metadata" validate:"required,object"`
}

// ThreadSearch is the body of POST /threads/search.
type ThreadSearch struct {
	Metadata json.RawMessage `json:"metadata" validate:"omitempty,object"`
	Status   string          `json:"status" validate:"omitempty,oneof=idle busy interrupted error"`
	Limit    *int            `json:"limit" validate:"omitempty,min=1,max=1000"`
	Offset   int             `json:"offset" validate:"min=0"`
}

// Interrupt is a pause waiting for a person's answer.
type Interrupt struct {
	ID    string          `json:"id"`
	Value json.RawMessage `json:"value"`
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
// is waiting on.
type Task struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Error      *string         `json:"error"`
	Interrupts []Interrupt     `json:"interrupts"`
	Checkpoint *Checkpoint     `json:"checkpoint"`
	State      json.RawMessage `json:"state"`
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

// Health answers /healthz and /readyz.
type Health struct {
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
}
