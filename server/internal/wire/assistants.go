package wire

import (
	"encoding/json"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/store/assistants"
)

// Assistant is a configured graph clients run: the built-in one, or one
// of the user's.
type Assistant struct {
	AssistantID string          `json:"assistant_id"`
	GraphID     string          `json:"graph_id"`
	Name        string          `json:"name"`
	Description *string         `json:"description"`
	Config      json.RawMessage `json:"config"`
	Context     json.RawMessage `json:"context"`
	Metadata    json.RawMessage `json:"metadata"`
	Version     int             `json:"version"`
	CreatedAt   time.Time       `json:"created_at"`
	UpdatedAt   time.Time       `json:"updated_at"`
}

// AssistantVersion is one saved version of an assistant.
type AssistantVersion struct {
	AssistantID string          `json:"assistant_id"`
	Version     int             `json:"version"`
	GraphID     string          `json:"graph_id"`
	Name        string          `json:"name"`
	Description *string         `json:"description"`
	Config      json.RawMessage `json:"config"`
	Context     json.RawMessage `json:"context"`
	Metadata    json.RawMessage `json:"metadata"`
	CreatedAt   time.Time       `json:"created_at"`
}

// AssistantCreate is the body of POST /assistants.
type AssistantCreate struct {
	AssistantID string          `json:"assistant_id" validate:"omitempty,uuid"`
	GraphID     string          `json:"graph_id" validate:"required,max=200"`
	Name        string          `json:"name" validate:"max=200"`
	Description *string         `json:"description" validate:"omitempty,max=2000"`
	Config      json.RawMessage `json:"config" validate:"omitempty,object"`
	Context     json.RawMessage `json:"context" validate:"omitempty,object"`
	Metadata    json.RawMessage `json:"metadata" validate:"omitempty,object"`
	IfExists    string          `json:"if_exists" validate:"omitempty,oneof=raise do_nothing"`
}

// AssistantPatch is the body of PATCH /assistants/{id}: every patch makes
// a new version; metadata is merged, the other members sent replace.
type AssistantPatch struct {
	GraphID     *string         `json:"graph_id" validate:"omitempty,max=200"`
	Name        *string         `json:"name" validate:"omitempty,max=200"`
	Description *string         `json:"description" validate:"omitempty,max=2000"`
	Config      json.RawMessage `json:"config" validate:"omitempty,object"`
	Context     json.RawMessage `json:"context" validate:"omitempty,object"`
	Metadata    json.RawMessage `json:"metadata" validate:"omitempty,object"`
}

// AssistantSearch is the body of POST /assistants/search, and of POST
// /assistants/count (which reads its filters only). Name matches a part
// of the name, whatever its case. Select names the members to answer
// with.
type AssistantSearch struct {
	GraphID   string          `json:"graph_id" validate:"max=200"`
	Name      string          `json:"name" validate:"max=200"`
	Metadata  json.RawMessage `json:"metadata" validate:"omitempty,object"`
	Limit     *int            `json:"limit" validate:"omitempty,min=1,max=1000"`
	Offset    int             `json:"offset" validate:"min=0"`
	SortBy    string          `json:"sort_by" validate:"omitempty,oneof=assistant_id graph_id name created_at updated_at"`
	SortOrder string          `json:"sort_order" validate:"omitempty,oneof=asc desc"`
	Select    []string        `json:"select" validate:"max=20,dive,oneof=assistant_id graph_id name description config context metadata version created_at updated_at"`
}

// AssistantVersionsRequest is the body of POST /assistants/{id}/versions.
type AssistantVersionsRequest struct {
	Metadata json.RawMessage `json:"metadata" validate:"omitempty,object"`
	Limit    *int            `json:"limit" validate:"omitempty,min=1,max=1000"`
	Offset   int             `json:"offset" validate:"min=0"`
}

// AssistantLatest is the body of POST /assistants/{id}/latest.
type AssistantLatest struct {
	Version int `json:"version" validate:"required,min=1"`
}

// FromAssistant is the wire form of a user's assistant.
func FromAssistant(a assistants.Assistant) Assistant {
	return Assistant{AssistantID: a.ID, GraphID: a.GraphID, Name: a.Name, Description: a.Description, Config: a.Config,
		Context: a.Context, Metadata: a.Metadata, Version: a.Version, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
}

// FromAssistantVersion is the wire form of one version of an assistant.
func FromAssistantVersion(v assistants.Version) AssistantVersion {
	return AssistantVersion{AssistantID: v.AssistantID, Version: v.Version, GraphID: v.GraphID, Name: v.Name,
		Description: v.Description, Config: v.Config, Context: v.Context, Metadata: v.Metadata, CreatedAt: v.CreatedAt}
}

// VersionOf is an assistant at its current version as one of its
// versions.
func VersionOf(a Assistant) AssistantVersion {
	return AssistantVersion{AssistantID: a.AssistantID, Version: a.Version, GraphID: a.GraphID, Name: a.Name,
		Description: a.Description, Config: a.Config, Context: a.Context, Metadata: a.Metadata, CreatedAt: a.CreatedAt}
}

// ToNewAssistant is the assistant a create body asks for.
func ToNewAssistant(in AssistantCreate) assistants.New {
	return assistants.New{ID: in.AssistantID, GraphID: in.GraphID, Name: in.Name, Description: in.Description,
		Config: in.Config, Context: in.Context, Metadata: in.Metadata}
}

// ToAssistantPatch is the change a patch body asks for.
func ToAssistantPatch(in AssistantPatch) assistants.Patch {
	return assistants.Patch{GraphID: in.GraphID, Name: in.Name, Description: in.Description, Config: in.Config,
		Context: in.Context, Metadata: in.Metadata}
}

// ToAssistantQuery is the search a body asks for.
func ToAssistantQuery(in AssistantSearch, limit int) assistants.Query {
	return assistants.Query{GraphID: in.GraphID, Name: in.Name, Metadata: in.Metadata, Limit: limit, Offset: in.Offset,
		SortBy: in.SortBy, SortOrder: in.SortOrder}
}

// AssistantGraph is a graph's drawing: its nodes and edges.
type AssistantGraph struct {
	Nodes []GraphNode `json:"nodes"`
	Edges []GraphEdge `json:"edges"`
}

// GraphNode is one node of an AssistantGraph, as LangGraph draws it: a
// node is a runnable named in data; START and END are the graph's input
// and output, with their schemas as data.
type GraphNode struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	Data any    `json:"data"`
}

// GraphEdge is one edge of an AssistantGraph.
type GraphEdge struct {
	Source      string `json:"source"`
	Target      string `json:"target"`
	Conditional bool   `json:"conditional"`
}

// runnableData names a node's code as LangGraph's drawing does.
type runnableData struct {
	ID   []string `json:"id"`
	Name string   `json:"name"`
}

// FromShape is the wire drawing of a graph.
func FromShape(s graph.Shape) AssistantGraph {
	g := AssistantGraph{Nodes: []GraphNode{{ID: graph.START, Type: "schema", Data: schemaJSON(plannerSchema[plannerInput](graph.START))}}}
	for _, n := range s.Nodes {
		g.Nodes = append(g.Nodes, GraphNode{ID: n, Type: "runnable", Data: runnableData{ID: []string{"langgraph", "RunnableCallable"}, Name: n}})
	}
	g.Nodes = append(g.Nodes, GraphNode{ID: graph.END, Type: "schema", Data: schemaJSON(plannerSchema[nodes.State](graph.END))})
	for _, e := range s.Edges {
		g.Edges = append(g.Edges, GraphEdge{Source: e.From, Target: e.To, Conditional: e.Conditional})
	}
	return g
}

// Schemas are an assistant's graph's JSON schemas, as LangGraph answers
// GET /assistants/{id}/schemas: what a run's input may hold, what its
// state holds (also its output), and its configuration (the planner takes
// no context).
type Schemas struct {
	GraphID       string          `json:"graph_id"`
	InputSchema   json.RawMessage `json:"input_schema"`
	OutputSchema  json.RawMessage `json:"output_schema"`
	StateSchema   json.RawMessage `json:"state_schema"`
	ConfigSchema  json.RawMessage `json:"config_schema"`
	ContextSchema json.RawMessage `json:"context_schema"`
}

// plannerInput is what a run's input holds, for its schema.
type plannerInput struct {
	Messages       []Message       `json:"messages,omitempty" jsonschema:"the person's new messages: content is a string or a list of text blocks"`
	BookingRequest *BookingRequest `json:"bookingRequest,omitempty" jsonschema:"a booking to confirm, as a Book button asks for it"`
}

// plannerConfig is what a run's config may hold, for its schema.
type plannerConfig struct {
	RecursionLimit int `json:"recursion_limit,omitempty" jsonschema:"the nodes a run may execute"`
}

// PlannerSchemas are the trip planner's schemas, for graphID.
func PlannerSchemas(graphID string) Schemas {
	state := schemaJSON(plannerSchema[nodes.State](""))
	return Schemas{GraphID: graphID, InputSchema: schemaJSON(plannerSchema[plannerInput]("")), OutputSchema: state,
		StateSchema: state, ConfigSchema: schemaJSON(plannerSchema[plannerConfig]("")), ContextSchema: json.RawMessage("null")}
}

// plannerSchema is T's JSON schema, with a title when one is given.
func plannerSchema[T any](title string) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		return &jsonschema.Schema{Type: "object"}
	}
	s.Title = title
	return s
}

func schemaJSON(s *jsonschema.Schema) json.RawMessage {
	data, err := json.Marshal(s)
	if err != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	return data
}
