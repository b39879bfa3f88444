package mcpbridge

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/mcpext"
	"github.com/tripgraph/tripgraph/nodes"
)

// Every transport lists the tools and calls them, with results parsed
// from structuredContent, JSON text or plain text, and tool errors coded.
func TestTransports(t *testing.T) {
	ctx, user, reg := context.Background(), "ana", registry(nil)
	for transport, cfg := range testConfigs(t) {
		t.Run(string(transport), func(t *testing.T) {
			b := newBridge(t, Options{Servers: []ServerConfig{cfg}})
			tools, err := as(b, reg, user).List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(tools) != 9 || tools[len(tools)-1].Name != "dump_everything" {
				t.Fatalf("tools = %v, want 9 with the heavy utility last", names(tools))
			}
			calls := []struct {
				tool, args, want string
				code             errcode.Code
			}{
				{"add", `{"a":2,"b":3}`, `{"sum":5}`, ""},
				{"describe_sum", `{"a":2,"b":3}`, `{"sum":5}`, ""},
				{"echo", `{"text":"olá"}`, `"olá"`, ""},
				{"echo", `{"text":"{\"a\": [1, 2]}"}`, `{"a": [1, 2]}`, ""},
				{"conflict", `{}`, "", errcode.Conflict},
				{"add", `{"a":"x"}`, "", errcode.BadRequest},
				{"nope", `{}`, "", errcode.NotFound},
			}
			for _, c := range calls {
				res, err := as(b, reg, user).Call(ctx, c.tool, json.RawMessage(c.args))
				if c.code != "" {
					if errcode.Of(err) != c.code {
						t.Errorf("%s(%s): error %v, want %s", c.tool, c.args, err, c.code)
					}
					continue
				}
				if err != nil || string(res.Full) != c.want || res.ForModel != nil {
					t.Errorf("%s(%s) = %s, %s, %v; want %s", c.tool, c.args, res.Full, res.ForModel, err, c.want)
				}
			}
		})
	}
}

func names(tools []nodes.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

// The bridge tells servers that it reads a result's structured content
// (mcpext.StructuredOnly), so that ours need not repeat it as text.
func TestDeclaresStructuredOnly(t *testing.T) {
	declared := func(string) *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "caps", Version: "1"}, nil)
		mcp.AddTool(s, &mcp.Tool{Name: "capabilities", Description: "says what the client declared"}, func(_ context.Context, req *mcp.CallToolRequest, _ emptyIn) (*mcp.CallToolResult, map[string]any, error) {
			return nil, req.Session.InitializeParams().Capabilities.Experimental, nil
		})
		return s
	}
	b := newBridge(t, Options{Servers: []ServerConfig{{Name: "caps", Transport: Memory, NewServer: declared, Enabled: true}}})
	res, err := as(b, registry(nil), "ana").Call(context.Background(), "capabilities", nil)
	if err != nil {
		t.Fatal(err)
	}
	var experimental map[string]any
	if err := json.Unmarshal(res.Full, &experimental); err != nil {
		t.Fatalf("result %s: %v", res.Full, err)
	}
	if _, ok := experimental[mcpext.StructuredOnly]; !ok {
		t.Errorf("the bridge declared %s, without %s", res.Full, mcpext.StructuredOnly)
	}
}
