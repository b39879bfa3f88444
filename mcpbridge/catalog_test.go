package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
)

// The model sees the built-in tools under their own names, a user's
// enabled servers' allowed tools, namespaced when they clash, and nothing
// of disabled servers, of other users' servers, or of commands a user
// configured.
func TestCatalog(t *testing.T) {
	theirs := newHTTPServer(t, false)
	mine := theirs.config("my crm")
	mine.AllowedTools = []string{"add", "echo"}
	disabled := theirs.config("off")
	disabled.Enabled = false
	other := theirs.config("crm2")
	other.AllowedTools = []string{"echo"}
	command := ServerConfig{Name: "cmd", Transport: Stdio, Command: []string{os.Args[0], "stdio-server"}, Enabled: true}
	reg := registry{"ana": {mine, disabled, command, other}}
	builtin := ServerConfig{Name: "tripgraph", Transport: Memory, NewServer: newTestServer, Enabled: true, Builtin: true,
		Recommended: []string{"whoami"}, AllowedTools: []string{"add", "big", "whoami", "dump_everything"}}
	b := newBridge(t, Options{Servers: []ServerConfig{builtin}})

	tools, err := as(b, reg, "ana").List(bg)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"whoami", "add", "big", "my_crm__add", "my_crm__echo", "crm2__echo", "dump_everything"}
	if got := names(tools); !slices.Equal(got, want) {
		t.Fatalf("tools = %v, want %v", got, want)
	}
	bob, err := as(b, reg, "bob").List(bg)
	if err != nil || len(bob) != 4 {
		t.Fatalf("bob's tools = %v, %v; want only the 4 built-in ones", names(bob), err)
	}
	before := theirs.hits.Load()
	res, err := as(b, reg, "ana").Call(bg, "my_crm__add", json.RawMessage(`{"a":1,"b":2}`))
	if err != nil || string(res.Full) != `{"sum":3}` || theirs.hits.Load() == before {
		t.Fatalf("my_crm__add = %s, %v (server hit: %v)", res.Full, err, theirs.hits.Load() != before)
	}
	if _, err := as(b, reg, "ana").Call(bg, "my_crm__big", json.RawMessage(`{"n":1,"size":1}`)); errcode.Of(err) != errcode.NotFound {
		t.Fatalf("a tool that is not allowed: error %v, want NOT_FOUND", err)
	}
}

// Tool lists are cached for the TTL, and dropped when the server says
// they changed.
func TestToolListCache(t *testing.T) {
	reg := registry(nil)
	h := newHTTPServer(t, false)
	b := newBridge(t, Options{Servers: []ServerConfig{h.config("test")}})
	for range 3 {
		if _, err := as(b, reg, "ana").List(bg); err != nil {
			t.Fatal(err)
		}
	}
	if n := h.lists.Load(); n != 1 {
		t.Fatalf("%d tools/list requests for 3 lists within the TTL, want 1", n)
	}

	var srv *mcp.Server
	cfg := ServerConfig{Name: "live", Transport: Memory, Enabled: true, NewServer: func(string) *mcp.Server {
		srv = newTestServer("")
		return srv
	}}
	b = newBridge(t, Options{Servers: []ServerConfig{cfg}})
	if _, err := as(b, reg, "ana").List(bg); err != nil {
		t.Fatal(err)
	}
	srv.AddTool(&mcp.Tool{Name: "fresh", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `"new"`}}}, nil
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		tools, err := as(b, reg, "ana").List(bg)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(names(tools), "fresh") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the new tool never appeared after notifications/tools/list_changed")
		}
	}
	if res, err := as(b, reg, "ana").Call(bg, "fresh", nil); err != nil || string(res.Full) != `"new"` {
		t.Fatalf("fresh = %s, %v", res.Full, err)
	}
}

// A user's servers that cannot be read make the tools UNAVAILABLE, and
// none of the failure's text reaches the caller.
func TestRegistryFailure(t *testing.T) {
	b := newBridge(t, Options{})
	failing := ownServers{err: errors.New(`reading mcp_servers: ERROR: relation "mcp_servers" does not exist (SQLSTATE 42P01)`)}
	_, err := b.For(User{ID: "ana", Servers: failing}).List(bg)
	if errcode.Of(err) != errcode.Unavailable || strings.Contains(err.Error(), "mcp_servers") {
		t.Fatalf("error = %v, want UNAVAILABLE without the registry's text", err)
	}
}

type countingTransport struct{ n atomic.Int32 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

// A user's servers are reached with the guarded client, built-in and
// operator servers with the trusted one.
func TestGuardedClient(t *testing.T) {
	guarded, trusted := &countingTransport{}, &countingTransport{}
	builtin := newHTTPServer(t, false).config("ours")
	builtin.Builtin = true
	mine := newHTTPServer(t, false).config("mine")
	mine.AllowedTools = []string{"echo"}
	reg := registry{"ana": {mine}}
	b := newBridge(t, Options{
		Servers: []ServerConfig{builtin},
		HTTP:    HTTPClients{Trusted: &http.Client{Transport: trusted}, Guarded: &http.Client{Transport: guarded}},
	})
	if _, err := as(b, reg, "ana").Call(bg, "add", json.RawMessage(`{"a":1,"b":1}`)); err != nil {
		t.Fatal(err)
	}
	g, tr := guarded.n.Load(), trusted.n.Load()
	if _, err := as(b, reg, "ana").Call(bg, "mine__echo", json.RawMessage(`{"text":"x"}`)); err != nil {
		t.Fatal(err)
	}
	if g == 0 || tr == 0 {
		t.Fatalf("after listing: guarded %d, trusted %d requests; want both used", g, tr)
	}
	if guarded.n.Load() == g || trusted.n.Load() != tr {
		t.Fatalf("the user's tool went through the wrong client: guarded %d→%d, trusted %d→%d", g, guarded.n.Load(), tr, trusted.n.Load())
	}
}

// A server that cannot be reached is left out of the list; the others'
// tools are still there. With none reachable, List is UNAVAILABLE.
func TestUnreachableServerLeftOut(t *testing.T) {
	down := newHTTPServer(t, false)
	down.down.Store(true)
	mine := down.config("mine")
	builtin := ServerConfig{Name: "tripgraph", Transport: Memory, NewServer: newTestServer, Enabled: true, Builtin: true}
	reg := registry{"ana": {mine}}
	b := newBridge(t, Options{Servers: []ServerConfig{builtin}})
	tools, err := as(b, reg, "ana").List(bg)
	if err != nil || len(tools) != 9 {
		t.Fatalf("tools = %v, %v; want the 9 built-in ones", names(tools), err)
	}
	b = newBridge(t, Options{Servers: []ServerConfig{down.config("only")}})
	if _, err := as(b, reg, "ana").List(bg); errcode.Of(err) != errcode.Unavailable {
		t.Fatalf("error = %v, want UNAVAILABLE", err)
	}
}
