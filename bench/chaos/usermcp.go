package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpMode is how the users' MCP server answers a POST.
type mcpMode int32

const (
	mcpWell      mcpMode = iota // a working MCP server
	mcpHang                     // accepts every request and never answers
	mcpNoInit                   // never answers initialize; a session already open still works
	mcpGarbage                  // answers 200 with bytes that are not JSON-RPC
	mcpTruncated                // answers a JSON-RPC response cut short
	mcpHuge                     // answers a 50 MB response
)

// hugeBytes is the size of a huge answer.
const hugeBytes = 50 << 20

// userMCP is the MCP server the campaign's users register as their own:
// a search tool that takes the message text, so that each run of theirs
// calls it (enrichment), and that can be made to misbehave.
type userMCP struct {
	srv    *http.Server
	ln     net.Listener
	sdk    http.Handler
	mode   atomic.Int32
	n      atomic.Int64 // requests answered in a fault mode
	closed chan struct{}
}

// searchIn is the search tool's input: the one required text argument
// the bridge's enrichment looks for.
type searchIn struct {
	Query string `json:"query"`
}

func startUserMCP() (*userMCP, error) {
	s := mcp.NewServer(&mcp.Implementation{Name: "chaos-crm", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "search", Description: "searches the traveller's notes"},
		func(_ context.Context, _ *mcp.CallToolRequest, in searchIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "no notes about " + in.Query}}}, nil, nil
		})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for the users' MCP server: %w", err)
	}
	u := &userMCP{ln: ln, closed: make(chan struct{}),
		sdk: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)}
	u.srv = &http.Server{Handler: u}
	go u.srv.Serve(ln)
	return u, nil
}

// url is where the users register it.
func (u *userMCP) url() string { return "http://" + u.ln.Addr().String() + "/mcp" }

func (u *userMCP) set(m mcpMode) { u.mode.Store(int32(m)) }

// close ends the server; requests it holds end with it.
func (u *userMCP) close() {
	close(u.closed)
	u.srv.Close()
}

func (u *userMCP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	mode := mcpMode(u.mode.Load())
	if mode == mcpWell || r.Method != http.MethodPost {
		u.sdk.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = io.NopCloser(bytes.NewReader(body))
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	json.Unmarshal(body, &msg)
	if mode == mcpNoInit && msg.Method != "initialize" {
		u.sdk.ServeHTTP(w, r)
		return
	}
	n := u.n.Add(1)
	switch mode {
	case mcpHang, mcpNoInit:
		select {
		case <-r.Context().Done():
		case <-u.closed:
		}
	case mcpGarbage:
		if n%2 == 0 {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":}}{\x00\xff not json\n\n")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("\x89PNG\r\n\x1a\n<html>502 Bad Gateway</html>\xde\xad\xbe\xef"))
	case mcpTruncated:
		whole := answer(msg.ID, strings.Repeat("a truncated answer ", 200))
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(whole)))
		w.WriteHeader(http.StatusOK)
		w.Write(whole[:len(whole)/2]) // the server closes the connection short of its length
	case mcpHuge:
		w.Header().Set("Content-Type", "application/json")
		id := msg.ID
		if len(id) == 0 {
			id = json.RawMessage("1")
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, id)
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for sent := 0; sent < hugeBytes; sent += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return // the client stopped reading
			}
		}
		fmt.Fprint(w, `"}]}}`)
	}
}

// answer is a JSON-RPC result carrying text, for request id.
func answer(id json.RawMessage, text string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("1")
	}
	data, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id,
		"result": map[string]any{"content": []map[string]string{{"type": "text", "text": text}}}})
	return data
}
