package mcpbridge

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// The test server: a small MCP server with the tools the bridge's tests
// need, served in memory, over Streamable HTTP, over SSE, and over stdio
// (the test binary run as "stdio-server").

type echoIn struct {
	Text string `json:"text"`
}

type addIn struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

type sumOut struct {
	Sum float64 `json:"sum"`
}

type whoIn struct {
	UserID string `json:"userId,omitempty"`
	Note   string `json:"note,omitempty"`
}

type whoOut struct {
	UserID string `json:"userId"` // the userId argument as it arrived
	Bearer string `json:"bearer"` // the Authorization header, HTTP only
}

type bigIn struct {
	N    int `json:"n"`
	Size int `json:"size"` // bytes of filler per item
}

type item struct {
	I    int    `json:"i"`
	Fill string `json:"fill"`
}

type bigOut struct {
	Items []item `json:"items"`
	Total int    `json:"total"`
}

type emptyIn struct{}

// newTestServer returns the test server.
func newTestServer(string) *mcp.Server { return newGatedServer(nil) }

// newGatedServer returns the test server whose progress tool, after its
// notifications, waits until gate is closed (when not nil).
func newGatedServer(gate chan struct{}) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes text"}, func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "adds"}, func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, sumOut, error) {
		return nil, sumOut{Sum: in.A + in.B}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "describe_sum", Description: "adds, saying so in words"}, func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("the sum is %g", in.A+in.B)}},
			StructuredContent: sumOut{Sum: in.A + in.B},
		}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "whoami", Description: "says who called"}, func(_ context.Context, req *mcp.CallToolRequest, in whoIn) (*mcp.CallToolResult, whoOut, error) {
		out := whoOut{UserID: in.UserID}
		if req.Extra != nil && req.Extra.Header != nil {
			out.Bearer = req.Extra.Header.Get("Authorization")
		}
		return nil, out, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "big", Description: "returns n items"}, func(_ context.Context, _ *mcp.CallToolRequest, in bigIn) (*mcp.CallToolResult, bigOut, error) {
		out := bigOut{Total: in.N}
		for i := range in.N {
			out.Items = append(out.Items, item{I: i, Fill: strings.Repeat("x", in.Size)})
		}
		return nil, out, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "hang", Description: "never answers"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ emptyIn) (*mcp.CallToolResult, any, error) {
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	mcp.AddTool(s, &mcp.Tool{Name: "conflict", Description: "always refuses"}, func(context.Context, *mcp.CallToolRequest, emptyIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: `{"error":{"code":"CONFLICT","message":"already booked"}}`}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "progress", Description: "reports progress"}, func(ctx context.Context, req *mcp.CallToolRequest, _ emptyIn) (*mcp.CallToolResult, sumOut, error) {
		if tok := req.Params.GetProgressToken(); tok != nil {
			for i := 1; i <= 3; i++ {
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 3})
			}
		}
		if gate != nil {
			select {
			case <-gate:
			case <-ctx.Done():
				return nil, sumOut{}, ctx.Err()
			}
		}
		return nil, sumOut{Sum: 3}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "dump_everything", Description: "a heavy utility"}, func(context.Context, *mcp.CallToolRequest, emptyIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "[]"}}}, nil, nil
	})
	return s
}

// TestMain runs the test binary as the stdio test server when asked to.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "stdio-server" {
		if err := newTestServer("").Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	if oursStop != nil {
		oursStop()
	}
	os.Exit(pgtest.NoLeaks(code))
}

// httpServer serves the test server over Streamable HTTP or SSE on
// loopback, behind faults the tests switch on.
type httpServer struct {
	*httptest.Server
	mu       sync.Mutex
	handler  http.Handler
	sse      bool
	down     atomic.Bool   // answer 500 to everything
	reject   atomic.Int32  // answer 401 to this many more requests
	hits     atomic.Int32  // requests that reached the server
	lists    atomic.Int32  // tools/list requests
	rejected []string      // methods of the requests answered 401
	servers  []*mcp.Server // every server the handler has had, to close their sessions
}

// stop closes the listener and every session the servers still hold, so
// that no session outlives the test.
func (h *httpServer) stop() {
	h.Close()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, srv := range h.servers {
		for ss := range srv.Sessions() {
			ss.Close()
		}
	}
}

func (h *httpServer) resetRejected() {
	h.mu.Lock()
	h.rejected = nil
	h.mu.Unlock()
}

// rejectedCalls counts the JSON-RPC requests of a method answered 401.
func (h *httpServer) rejectedCalls(method string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, m := range h.rejected {
		if strings.HasPrefix(m, http.MethodPost) && strings.Contains(m, `"method":"`+method+`"`) {
			n++
		}
	}
	return n
}

func newHTTPServer(t testing.TB, sse bool) *httpServer {
	t.Helper()
	h := &httpServer{sse: sse}
	h.restart()
	h.Server = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.stop)
	return h
}

// restart replaces the MCP handler by a new one, which knows none of the
// old one's sessions: what a client sees when the server restarts.
func (h *httpServer) restart() {
	srv := newTestServer("")
	get := func(*http.Request) *mcp.Server { return srv }
	var next http.Handler
	if h.sse {
		next = mcp.NewSSEHandler(get, nil)
	} else {
		next = mcp.NewStreamableHTTPHandler(get, nil)
	}
	h.mu.Lock()
	h.handler = next
	h.servers = append(h.servers, srv)
	h.mu.Unlock()
}

func (h *httpServer) serve(w http.ResponseWriter, r *http.Request) {
	h.hits.Add(1)
	if h.down.Load() {
		http.Error(w, "down", http.StatusInternalServerError)
		return
	}
	if h.reject.Add(-1) >= 0 {
		body, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		h.rejected = append(h.rejected, r.Method+" "+string(body))
		h.mu.Unlock()
		http.Error(w, "expired", http.StatusUnauthorized)
		return
	}
	if r.Method == http.MethodPost {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"method":"tools/list"`) {
			h.lists.Add(1)
		}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
	}
	h.mu.Lock()
	next := h.handler
	h.mu.Unlock()
	next.ServeHTTP(w, r)
}

func (h *httpServer) config(name string) ServerConfig {
	t := Streamable
	if h.sse {
		t = SSE
	}
	return ServerConfig{Name: name, Transport: t, URL: h.URL, Enabled: true}
}

// testConfigs are the test server over every transport.
func testConfigs(t *testing.T) map[Transport]ServerConfig {
	return map[Transport]ServerConfig{
		Streamable: newHTTPServer(t, false).config("test"),
		SSE:        newHTTPServer(t, true).config("test"),
		Stdio:      {Name: "test", Transport: Stdio, Command: []string{os.Args[0], "stdio-server"}, Enabled: true},
		Memory:     {Name: "test", Transport: Memory, NewServer: newTestServer, Enabled: true},
	}
}

// bg is the context of the tests' calls.
var bg = context.Background()

// registry holds test users' own servers, by user id.
type registry map[string][]ServerConfig

// as is user's tools on b, with their own servers from reg (none when
// nil) and enrichment on.
func as(b *Bridge, reg registry, user string) *Tools {
	return b.For(User{ID: user, Servers: ownServers{list: reg[user]}})
}

// ownServers are a test user's own servers, with enrichment on; err fails
// reading them.
type ownServers struct {
	list []ServerConfig
	err  error
}

func (s ownServers) Servers(context.Context) ([]ServerConfig, error) { return s.list, s.err }

func (s ownServers) EnrichmentSettings(context.Context) (EnrichmentSettings, error) {
	return EnrichmentSettings{On: true}, s.err
}

func newBridge(t *testing.T, opts Options) *Bridge {
	t.Helper()
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}
