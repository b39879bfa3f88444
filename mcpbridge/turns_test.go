package mcpbridge

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/graph"
)

// A node calling a tool of a server in another process gives its turn on
// the cores up while it waits for the answer; calling one in this process
// (Memory), it keeps the turn, since that server works on these cores.
func TestToolCallsAndTurns(t *testing.T) {
	for _, tt := range []struct {
		transport Transport
		givesUp   bool
	}{{Streamable, true}, {Memory, false}} {
		t.Run(string(tt.transport), func(t *testing.T) {
			gate := make(chan struct{})
			var opened sync.Once
			open := func() { opened.Do(func() { close(gate) }) }
			srv := newGatedServer(gate)
			cfg := ServerConfig{Name: "test", Transport: tt.transport, Enabled: true}
			if tt.transport == Memory {
				cfg.NewServer = func(string) *mcp.Server { return srv }
			} else {
				h := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
				t.Cleanup(h.Close)
				cfg.URL = h.URL
			}
			tools := as(newBridge(t, Options{Servers: []ServerConfig{cfg}}), nil, "ana")
			t.Cleanup(open) // before the bridge closes: a failing test leaves no call waiting
			if _, err := tools.List(bg); err != nil {
				t.Fatal(err)
			}

			turns := graph.NewTurns(1, time.Hour)
			turned := make(chan string, 2)
			g := graph.New(func(s, u string) string { return s + u })
			g.AddNode("call", func(ctx context.Context, s string) (string, error) {
				done, err := graph.TakeTurn(ctx)
				if err != nil {
					return "", err
				}
				defer done()
				turned <- s
				if s == "calls" {
					_, err := tools.Call(ctx, "progress", json.RawMessage(`{}`))
					return "", err
				}
				return "", nil
			})
			g.AddEdge(graph.START, "call")
			g.AddEdge("call", graph.END)
			c, err := g.Compile(nil)
			if err != nil {
				t.Fatal(err)
			}
			run := func(thread, input string) <-chan error {
				done := make(chan error, 1)
				go func() {
					_, err := c.Invoke(context.Background(), graph.RunConfig[string]{ThreadID: thread, Input: input, Turns: turns})
					done <- err
				}()
				return done
			}
			calling := run("0194e9be-ca4f-7ca5-9537-ac7a5f1d1170", "calls")
			<-turned
			waiting := run("0194e9be-ca4f-7ca5-9537-ac7a5f1d1171", "waits")
			select {
			case <-turned:
				if !tt.givesUp {
					t.Fatal("another node took the turn while a tool of this process was called")
				}
			case <-time.After(200 * time.Millisecond):
				if tt.givesUp {
					t.Fatal("no other node took the turn while a tool of another process was called")
				}
			}
			open()
			for _, done := range []<-chan error{calling, waiting} {
				if err := <-done; err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
