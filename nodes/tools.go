package nodes

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tripgraph/tripgraph/errcode"
)

// Tool describes a tool the model may call, and the card that shows its
// results ("" for none: a user's own tool).
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"` // a JSON Schema object
	Card        string          `json:"card,omitempty"`
}

// Tools lists and calls the planner's tools. A tool that refuses a call
// (bad arguments, no such album) returns an *errcode.Error; the model is
// told, and the traveller sees the message. The MCP bridge implements it
// over MCP; FuncTools implements it in process.
type Tools interface {
	List(ctx context.Context) ([]Tool, error)
	Call(ctx context.Context, name string, args json.RawMessage) (Result, error)
}

// Result is what a tool returned. Full is the whole result, which the UI
// component shows. ForModel, when set, is a smaller stand-in the model is
// given instead (a summary and a preview of a large result).
type Result struct {
	Full     json.RawMessage
	ForModel json.RawMessage
}

// ModelView is what the model is told: ForModel when set, else Full.
func (r Result) ModelView() json.RawMessage {
	if r.ForModel != nil {
		return r.ForModel
	}
	return r.Full
}

// FuncTool is an in-process tool.
type FuncTool struct {
	Tool
	Run func(ctx context.Context, args json.RawMessage) (any, error)
}

// FuncTools is a Tools made of in-process functions, for tests and for
// running without any tool server.
type FuncTools []FuncTool

// List returns the tools' descriptions.
func (ft FuncTools) List(context.Context) ([]Tool, error) {
	out := make([]Tool, len(ft))
	for i, t := range ft {
		out[i] = t.Tool
	}
	return out, nil
}

// Call runs the named tool and encodes its result as JSON.
func (ft FuncTools) Call(ctx context.Context, name string, args json.RawMessage) (Result, error) {
	for _, t := range ft {
		if t.Name != name {
			continue
		}
		v, err := t.Run(ctx, args)
		if err != nil {
			return Result{}, err
		}
		data, err := json.Marshal(v)
		if err != nil {
			return Result{}, fmt.Errorf("encoding the result of tool %q: %w", name, err)
		}
		return Result{Full: data}, nil
	}
	return Result{}, errcode.New(errcode.NotFound, "no tool named %q", name)
}
