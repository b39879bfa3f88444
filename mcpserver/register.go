package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/mcpext"
)

// addTyped registers a typed tool on the SDK's raw tool API, so that this
// package, not the SDK, owns what a client sees:
//
//   - the arguments are decoded from the call's own JSON, so an integer keeps
//     every digit (the SDK re-encodes them through float64), and argument
//     errors name the argument, never a Go type (see decodeArguments);
//   - the output schema has no type unions (see portable), and each result
//     is shaped to it (see shapeOutput), with the links note when the server
//     gives no links.
//
// Errors returned by h become isError results whose text is the error's
// text, as for mcp.AddTool.
func addTyped[In, Out any](s *mcp.Server, t *tools, tool *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("input schema of %s: %v", tool.Name, err))
	}
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("output schema of %s: %v", tool.Name, err))
	}
	portable(out)
	links := t.cfg.LinksNote != "" && hasLinks(out)
	plain := plainJSON(reflect.TypeFor[Out]())
	if links {
		out.Properties[linksNoteField] = &jsonschema.Schema{Type: "string",
			Description: "present when this server gives no photo or picture links; says how to enable them"}
	}
	tt := *tool
	tt.InputSchema, tt.OutputSchema = in, out
	s.AddTool(&tt, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ctx = withRequestID(ctx, req)
		var input In
		if err := decodeArguments(req.Params.Arguments, in, &input); err != nil {
			return errorResult(toolError{err}), nil
		}
		res, output, err := h(ctx, req, input)
		if err != nil {
			return errorResult(err), nil
		}
		note := ""
		if links {
			note = t.cfg.LinksNote
		}
		data, err := json.Marshal(output)
		if err == nil {
			data, err = shapeOutput(data, out, note, plain)
		}
		if err != nil {
			t.cfg.Logger.Error("encoding a tool result failed", "tool", tool.Name, "request_id", requestID(ctx), "err", err)
			return errorResult(toolError{internalError(ctx)}), nil
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		res.StructuredContent = json.RawMessage(data)
		if res.Content == nil {
			res.Content = textCopy(req, data)
		}
		return res, nil
	})
}

func errorResult(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(err)
	return &res
}

// linksNoteField is the output field that says why a result has no links.
const linksNoteField = "linksNote"

// hasLinks reports whether a schema has a URL field (url, coverUrl, …).
func hasLinks(s *jsonschema.Schema) bool {
	if s == nil {
		return false
	}
	for name, p := range s.Properties {
		if name == "url" || (len(name) > 3 && name[len(name)-3:] == "Url") || hasLinks(p) {
			return true
		}
	}
	return hasLinks(s.Items)
}

// portable rewrites the type unions the schema inference makes for Go
// slices and pointers (["null","array"], ["null","number"]) into single
// types, which every client understands. A nullable scalar becomes an
// optional property: shapeOutput leaves out its null values. A nullable
// array stays required: shapeOutput turns null into [].
func portable(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	for name, p := range s.Properties {
		if nullable := single(p); nullable && p.Type != "array" {
			s.Required = deleteString(s.Required, name)
		}
		portable(p)
	}
	if s.Items != nil {
		single(s.Items)
		portable(s.Items)
	}
}

// single replaces a type union with its one non-null type, or with anyOf
// branches when there are several, and reports whether null was allowed.
func single(s *jsonschema.Schema) (nullable bool) {
	if len(s.Types) == 0 {
		return false
	}
	var kept []string
	for _, t := range s.Types {
		if t == "null" {
			nullable = true
			continue
		}
		kept = append(kept, t)
	}
	s.Types = nil
	if len(kept) == 1 {
		s.Type = kept[0]
		return nullable
	}
	for _, t := range kept {
		s.AnyOf = append(s.AnyOf, &jsonschema.Schema{Type: t})
	}
	return nullable
}

func deleteString(list []string, s string) []string {
	out := list[:0:0]
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}

// textCopy is a result's content beside its structured content data: data
// again as a text block, as the protocol asks for clients that read only
// text, or nothing for a client that declared mcpext.StructuredOnly.
func textCopy(req *mcp.CallToolRequest, data []byte) []mcp.Content {
	if readsStructured(req) {
		return []mcp.Content{}
	}
	return []mcp.Content{&mcp.TextContent{Text: string(data)}}
}

// readsStructured reports whether the calling client declared
// mcpext.StructuredOnly.
func readsStructured(req *mcp.CallToolRequest) bool {
	if req == nil || req.Session == nil {
		return false
	}
	p := req.Session.InitializeParams()
	if p == nil || p.Capabilities == nil {
		return false
	}
	_, ok := p.Capabilities.Experimental[mcpext.StructuredOnly]
	return ok
}
