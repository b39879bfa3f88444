package memstore

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store"
)

// output is the full copy of a tool result too large for the model.
type output struct {
	owner, server, tool string
	data                json.RawMessage
	created             time.Time
}

// SaveToolOutput stores a full tool result for the owner and returns its
// id. The bytes are kept as given.
func (o Owner) SaveToolOutput(_ context.Context, server, tool string, data json.RawMessage) (string, error) {
	if server == "" || tool == "" {
		return "", errcode.New(errcode.BadRequest, "a tool output needs its server and tool")
	}
	if !json.Valid(data) {
		return "", errcode.New(errcode.BadRequest, "a tool output must be JSON")
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	if err := o.s.knownUser(o.id); err != nil {
		return "", err
	}
	id := newID()
	o.s.outputs[id] = &output{owner: o.id, server: server, tool: tool, data: slices.Clone(data), created: o.s.now()}
	return id, nil
}

// ToolOutput returns one of the owner's tool outputs; another owner's, or
// a missing one, is NOT_FOUND.
func (o Owner) ToolOutput(_ context.Context, id string) (store.ToolOutput, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	out, ok := o.s.outputs[id]
	if !ok || out.owner != o.id {
		return store.ToolOutput{}, errcode.New(errcode.NotFound, "no tool output with id %q", id)
	}
	return store.ToolOutput{ID: id, Server: out.server, Tool: out.tool, Data: slices.Clone(out.data), CreatedAt: out.created}, nil
}
