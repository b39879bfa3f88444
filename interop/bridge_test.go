package interop

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/testing/servetest"

	"github.com/tripgraph/tripgraph/testing/npmtest"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/nodes"
)

// everythingDir is the reference server, installed from package-lock.json.
const everythingDir = "node_modules/@modelcontextprotocol/server-everything/dist/index.js"

// The bridge against the reference MCP server, over stdio and Streamable
// HTTP: it lists the tools, calls echo and get-sum, follows a long-running
// operation's progress, gets the error of a bad call, and parses
// structured content.
func TestBridgeWithServerEverything(t *testing.T) {
	npmtest.Install(t, ".")
	addr := servetest.FreeAddr(t)
	server := exec.Command("node", everythingDir, "streamableHttp")
	server.Env = append(os.Environ(), "PORT="+strings.TrimPrefix(addr, "127.0.0.1:"))
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		server.Process.Kill()
		server.Wait()
	})
	waitListening(t, addr)

	configs := []mcpbridge.ServerConfig{
		{Name: "everything", Transport: mcpbridge.Stdio, Command: []string{"node", everythingDir, "stdio"}, Enabled: true},
		{Name: "everything", Transport: mcpbridge.Streamable, URL: "http://" + addr + "/mcp", Enabled: true},
	}
	for _, cfg := range configs {
		t.Run(string(cfg.Transport), func(t *testing.T) {
			b, err := mcpbridge.New(mcpbridge.Options{Servers: []mcpbridge.ServerConfig{cfg}})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			ctx := context.Background()
			user := b.For(mcpbridge.User{})
			tools, err := user.List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			have := map[string]bool{}
			for _, tool := range tools {
				have[tool.Name] = true
			}
			for _, want := range []string{"echo", "get-sum", "trigger-long-running-operation", "get-structured-content"} {
				if !have[want] {
					t.Errorf("tools/list lacks %s", want)
				}
			}
			calls := []struct {
				tool, args, want string
				code             errcode.Code
			}{
				{"echo", `{"message":"olá"}`, `"Echo: olá"`, ""},
				{"get-sum", `{"a":2,"b":3}`, `"The sum of 2 and 3 is 5."`, ""},
				{"get-sum", `{"a":"two","b":3}`, "", errcode.BadRequest},
				{"get-structured-content", `{"location":"Chicago"}`, `"temperature":`, ""},
				{"no-such-tool", `{}`, "", errcode.NotFound},
			}
			for _, c := range calls {
				res, err := user.Call(ctx, c.tool, json.RawMessage(c.args))
				if c.code != "" {
					if errcode.Of(err) != c.code {
						t.Errorf("%s(%s): error %v, want %s", c.tool, c.args, err, c.code)
					}
					continue
				}
				if err != nil || !strings.Contains(string(res.Full), c.want) {
					t.Errorf("%s(%s) = %s, %v; want %s", c.tool, c.args, res.Full, err, c.want)
				}
			}
			progress, res, err := longRun(b)
			if err != nil || !strings.Contains(string(res.Full), "completed") || progress == 0 {
				t.Errorf("the long-running operation: %d progress events, result %s, %v", progress, res.Full, err)
			}
		})
	}
}

type nothing struct{}

// longRun calls trigger-long-running-operation inside a graph run and
// counts the mcp_progress events it emits.
func longRun(b *mcpbridge.Bridge) (int, nodes.Result, error) {
	var res nodes.Result
	var callErr error
	g := graph.New(func(s nothing, _ nothing) nothing { return s })
	g.AddNode("call", func(ctx context.Context, _ nothing) (nothing, error) {
		res, callErr = b.For(mcpbridge.User{}).Call(ctx, "trigger-long-running-operation", json.RawMessage(`{"duration":1,"steps":3}`))
		return nothing{}, nil
	})
	g.AddEdge(graph.START, "call")
	g.AddEdge("call", graph.END)
	compiled, err := g.Compile(nil)
	if err != nil {
		return 0, res, err
	}
	progress := 0
	for ev, err := range compiled.Run(context.Background(), graph.RunConfig[nothing]{ThreadID: uuid.NewString()}) {
		if err != nil {
			return progress, res, err
		}
		if ev.Kind == graph.Custom && ev.Name == mcpbridge.EventProgress {
			progress++
		}
	}
	return progress, res, callErr
}

// clientScenarios are the conformance suite's client scenarios the bridge
// passes. Its auth scenarios need an OAuth client, which the bridge is not.
var clientScenarios = []string{"initialize", "tools_call", "sse-retry"}

// The conformance suite's client scenarios, with the bridge as the client
// under test (interop/mcpclient).
func TestBridgeConformance(t *testing.T) {
	npmtest.Install(t, ".")
	client := filepath.Join(t.TempDir(), "mcpclient")
	if out, err := exec.Command("go", "build", "-o", client, "./mcpclient").CombinedOutput(); err != nil {
		t.Fatalf("building mcpclient: %v\n%s", err, out)
	}
	for _, scenario := range clientScenarios {
		t.Run(scenario, func(t *testing.T) {
			out, err := npx(os.Environ(), "conformance", "client", "--command", client, "--scenario", scenario, "--timeout", "20000")
			if err != nil || !strings.Contains(out, " 0 failed") {
				t.Fatalf("conformance client scenario %s failed (%v):\n%s", scenario, err, out)
			}
		})
	}
}
