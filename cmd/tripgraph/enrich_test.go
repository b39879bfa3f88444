package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/model/offline"
	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/mcpservers"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// promptRecorder is a model that remembers the system prompts it was
// given.
type promptRecorder struct {
	llms.Model
	mu      sync.Mutex
	prompts []string
}

func (r *promptRecorder) GenerateContent(ctx context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	r.mu.Lock()
	for _, m := range msgs {
		if m.Role == llms.ChatMessageTypeSystem {
			for _, p := range m.Parts {
				if t, ok := p.(llms.TextContent); ok {
					r.prompts = append(r.prompts, t.Text)
				}
			}
		}
	}
	r.mu.Unlock()
	return r.Model.GenerateContent(ctx, msgs, opts...)
}

func (r *promptRecorder) all() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.prompts, "\n")
}

// notesServer is a loopback MCP server over Streamable HTTP with a tool
// that takes the message text (search_notes) and one that does not
// (get_note). It counts the calls of each.
func notesServer(t *testing.T) (*httptest.Server, map[string]*atomic.Int64) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1"}, nil)
	calls := map[string]*atomic.Int64{"search_notes": {}, "get_note": {}}
	schemas := map[string]map[string]any{
		"search_notes": {"type": "object", "properties": map[string]any{"query": map[string]any{"type": "string"}, "limit": map[string]any{"type": "integer"}}, "required": []string{"query"}},
		"get_note":     {"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}}, "required": []string{"id"}},
	}
	for name, schema := range schemas {
		srv.AddTool(&mcp.Tool{Name: name, InputSchema: schema}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			calls[name].Add(1)
			var args map[string]string
			_ = json.Unmarshal(req.Params.Arguments, &args)
			out, _ := json.Marshal(map[string]any{"notes": []string{"Rita lives in Lisbon; asked about: " + args["query"]}})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(out)}}}, nil
		})
	}
	h := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(h.Close)
	return h, calls
}

// A traveller's enrichment setting decides whether their own servers'
// tools are called before the model is asked: off, nothing is called; on,
// the tools that take the message text are called through the bridge,
// stream their status, reach the prompt and are stored with the message;
// a failing server is skipped and the answer still comes.
func TestEnrichmentOnTheUsersOwnServers(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	st := storetest.Open(t, "cmd")
	t.Setenv("TRIPGRAPH_MEDIA_ROOT", t.TempDir())
	guard, err := netguard.New(netguard.Options{Allow: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	ana, err := st.Accounts.EnsureUser(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	notes, calls := notesServer(t)
	// broken lists its tools but fails every call with a 500.
	brokenMCP, _ := notesServer(t)
	var brokenHits atomic.Int64
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"tools/call"`)) {
			brokenHits.Add(1)
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		brokenMCP.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(broken.Close)
	reg := mcpservers.Registry{Pool: st.Pool, Guard: guard}
	notesCfg, err := reg.Create(ctx, ana.ID, mcpservers.Input{Name: "notes", URL: notes.URL, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	brokenCfg, err := reg.Create(ctx, ana.ID, mcpservers.Input{Name: "broken", URL: broken.URL, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}

	now := func() time.Time { return time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC) }
	off, err := offline.New(offline.WithClock(now))
	if err != nil {
		t.Fatal(err)
	}
	m := &promptRecorder{Model: off}
	planner, bridge, err := newPlanner(ctx, m, &serving{st: st, mediaRoot: t.TempDir()}, reg, "http://127.0.0.1:1", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bridge.Close() })
	g := tenant.Factory{Records: tenant.OnPostgres(st, reg), Planner: planner, Tools: tenant.Bridge(bridge)}.For(ana.ID).Planner
	th, err := st.ForOwner(ana.ID).CreateThread(ctx, store.NewThread{})
	if err != nil {
		t.Fatal(err)
	}
	turn := func(text string) (nodes.State, []mcpbridge.Complete) {
		t.Helper()
		in := nodes.Update{Messages: []nodes.Message{{ID: uuid.Must(uuid.NewV7()).String(), Type: nodes.Human, Content: text}}}
		var state nodes.State
		var done []mcpbridge.Complete
		for ev, err := range g.Run(ctx, graph.RunConfig[nodes.Update]{ThreadID: th.ID, Input: in}) {
			if err != nil {
				t.Fatal(err)
			}
			if ev.Kind == graph.Custom && ev.Name == mcpbridge.EventComplete {
				done = append(done, ev.Payload.(mcpbridge.Complete))
			}
			if ev.Kind == graph.RunFinished {
				state = ev.State
			}
		}
		return state, done
	}
	const ask = "4 nights in Lisbon in May, 3 of us"

	// Off (the default): the user's tools are listed for the model but
	// nothing is called for enrichment.
	state, done := turn(ask)
	if n := calls["search_notes"].Load() + calls["get_note"].Load(); n != 0 || len(state.Enrichments) != 0 {
		t.Fatalf("enrichment off: %d calls, enrichments %+v", n, state.Enrichments)
	}
	for _, d := range done {
		if d.Server == "notes" {
			t.Fatalf("enrichment off streamed %+v", d)
		}
	}
	if strings.Contains(m.all(), "Tool result:") {
		t.Fatalf("enrichment off reached the prompt:\n%s", m.all())
	}

	// On for both servers: the broken one is skipped, search_notes is
	// called with the message, get_note (no text argument) is not.
	if err := reg.SetSettings(ctx, ana.ID, mcpservers.Settings{ToolMCP: true, ToolMCPServers: []string{notesCfg.ID, brokenCfg.ID}}); err != nil {
		t.Fatal(err)
	}
	state, done = turn(ask)
	if calls["search_notes"].Load() != 1 || calls["get_note"].Load() != 0 {
		t.Fatalf("enrichment on: search_notes %d, get_note %d calls; want 1, 0", calls["search_notes"].Load(), calls["get_note"].Load())
	}
	if brokenHits.Load() == 0 {
		t.Fatal("the broken server's tool was never called")
	}
	if len(state.Enrichments) != 1 {
		t.Fatalf("enrichments = %+v, want one", state.Enrichments)
	}
	e := state.Enrichments[0]
	last := state.Messages[len(state.Messages)-1]
	if e.Server != "notes" || e.Tool != "search_notes" || !strings.Contains(string(e.Result), "asked about: "+ask) || e.MessageID != last.ID || last.Type != nodes.AI {
		t.Fatalf("enrichment = %+v (%s), last message %+v", e, e.Result, last)
	}
	// Stored with the message in the thread's checkpoint in PostgreSQL,
	// for a replay.
	saved, _, err := g.GetState(ctx, th.ID, "")
	if err != nil || len(saved.Enrichments) != 1 || saved.Enrichments[0].MessageID != last.ID {
		t.Fatalf("the saved state holds %+v (%v)", saved.Enrichments, err)
	}
	if !strings.Contains(m.all(), "Tool result: ") || !strings.Contains(m.all(), "Rita lives in Lisbon") {
		t.Fatalf("the prompt lacks the result:\n%s", m.all())
	}
	// The events name the tool as the model would (namespaced here, as
	// both servers have a search_notes).
	streamed := map[string]string{}
	for _, d := range done {
		streamed[d.Server+"/"+d.Tool] = d.Error
	}
	if e, ok := streamed["notes/notes__search_notes"]; !ok || e != "" {
		t.Fatalf("no clean mcp_complete for notes' search_notes among %+v", done)
	}
	if streamed["broken/broken__search_notes"] != "UNAVAILABLE" {
		t.Fatalf("no failed mcp_complete for broken's search_notes among %+v", done)
	}
	if last.Content == "" {
		t.Fatal("no answer after a failing server")
	}

	// Limited to the broken server: nothing from notes.
	if err := reg.SetSettings(ctx, ana.ID, mcpservers.Settings{ToolMCP: true, ToolMCPServers: []string{brokenCfg.ID}}); err != nil {
		t.Fatal(err)
	}
	state, _ = turn("make it Porto")
	if calls["search_notes"].Load() != 1 || len(state.Enrichments) != 1 {
		t.Fatalf("limited to another server: search_notes %d calls, enrichments %+v", calls["search_notes"].Load(), state.Enrichments)
	}
}
