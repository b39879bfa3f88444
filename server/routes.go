package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/server/internal/wire"
)

// route is one registered endpoint. The same list registers it with echo
// and describes it in the OpenAPI document.
type route struct {
	method, path string
	summary      string
	handler      echo.HandlerFunc
	public       bool // no API key needed
	mounted      bool // a handler with its own auth and limits (see Mount)
	long         bool // answers when a run ends or streams: no write deadline
	body         any  // the request body's wire type, if any
	response     any  // the success body's wire type, if any
	status       int  // the success status; 200 when 0
	query        []string
}

// registerAPI registers the API's own routes.
func (s *Server) registerAPI() {
	for _, r := range []route{
		{method: http.MethodGet, path: "/healthz", summary: "Liveness: the process answers and reaches the database", handler: s.healthz, public: true, response: wire.Health{}},
		{method: http.MethodGet, path: "/readyz", summary: "Readiness: the database answers and has every migration", handler: s.readyz, public: true, response: wire.Health{}},
		{method: http.MethodGet, path: "/metrics", summary: "Prometheus metrics", handler: echo.WrapHandler(s.metrics.handler()), public: true},
		{method: http.MethodGet, path: "/openapi.json", summary: "This OpenAPI description", handler: s.openAPI, public: true},

		{method: http.MethodPost, path: "/assistants/search", summary: "Search assistants", handler: s.searchAssistants, body: wire.AssistantSearch{}, response: []wire.Assistant{}},
		{method: http.MethodGet, path: "/assistants/:assistant_id", summary: "Get an assistant by id or graph id", handler: s.getAssistant, response: wire.Assistant{}},
		{method: http.MethodGet, path: "/assistants/:assistant_id/graph", summary: "Get the nodes and edges of an assistant's graph", handler: s.getAssistantGraph, response: wire.AssistantGraph{}, query: []string{"xray"}},

		{method: http.MethodPost, path: "/threads", summary: "Create a thread", handler: s.createThread, body: wire.ThreadCreate{}, response: wire.Thread{}},
		{method: http.MethodPost, path: "/threads/search", summary: "Search the user's threads, newest first", handler: s.searchThreads, body: wire.ThreadSearch{}, response: []wire.Thread{}},
		{method: http.MethodGet, path: "/threads/:thread_id", summary: "Get a thread", handler: s.getThread, response: wire.Thread{}},
		{method: http.MethodPatch, path: "/threads/:thread_id", summary: "Merge metadata into a thread's", handler: s.patchThread, body: wire.ThreadPatch{}, response: wire.Thread{}},
		{method: http.MethodDelete, path: "/threads/:thread_id", summary: "Delete a thread with its checkpoints and runs", handler: s.deleteThread, status: http.StatusNoContent},
		{method: http.MethodPost, path: "/threads/:thread_id/copy", summary: "Copy a thread with its whole history", handler: s.copyThread, response: wire.Thread{}},

		{method: http.MethodGet, path: "/threads/:thread_id/state", summary: "Get a thread's current state", handler: s.getState, response: wire.ThreadState{}, query: []string{"subgraphs"}},
		{method: http.MethodPost, path: "/threads/:thread_id/state", summary: "Update a thread's state as if a node had returned the values", handler: s.updateState, body: wire.StateUpdate{}, response: wire.StateUpdateResult{}},
		{method: http.MethodGet, path: "/threads/:thread_id/state/:checkpoint_id", summary: "Get a thread's state at a checkpoint", handler: s.getStateAt, response: wire.ThreadState{}, query: []string{"subgraphs"}},
		{method: http.MethodPost, path: "/threads/:thread_id/state/checkpoint", summary: "Get a thread's state at a checkpoint named in the body", handler: s.getStateAtBody, body: wire.StateCheckpointRequest{}, response: wire.ThreadState{}},
		{method: http.MethodPost, path: "/threads/:thread_id/history", summary: "List a thread's states, newest first", handler: s.postHistory, body: wire.HistoryRequest{}, response: []wire.ThreadState{}},
		{method: http.MethodGet, path: "/threads/:thread_id/history", summary: "List a thread's states, newest first", handler: s.getHistory, response: []wire.ThreadState{}, query: []string{"limit", "before"}},

		{method: http.MethodPost, path: "/threads/:thread_id/runs", summary: "Create a background run on a thread", handler: s.createRun, body: wire.RunCreate{}, response: wire.Run{}},
		{method: http.MethodGet, path: "/threads/:thread_id/runs", summary: "List a thread's runs, newest first", handler: s.listRuns, response: []wire.Run{}, query: []string{"limit", "offset"}},
		{method: http.MethodPost, path: "/threads/:thread_id/runs/wait", summary: "Create a run and answer with the thread's values when it ends", handler: s.waitRun, body: wire.RunCreate{}, long: true},
		{method: http.MethodPost, path: "/threads/:thread_id/runs/stream", summary: "Create a run and stream its events (text/event-stream)", handler: s.streamRun, body: wire.RunCreate{}, long: true},
		{method: http.MethodGet, path: "/threads/:thread_id/runs/:run_id/stream", summary: "Stream a run's events (text/event-stream), from after Last-Event-ID", handler: s.joinStream, long: true, query: []string{"stream_mode", "cancel_on_disconnect"}},
		{method: http.MethodPost, path: "/runs/wait", summary: "Run on a thread of its own, deleted afterwards unless on_completion is keep, and answer with its values", handler: s.statelessWait, body: wire.RunCreate{}, long: true},
		{method: http.MethodPost, path: "/runs/stream", summary: "Run on a thread of its own, deleted afterwards unless on_completion is keep, and stream it (text/event-stream)", handler: s.statelessStream, body: wire.RunCreate{}, long: true},
		{method: http.MethodGet, path: "/threads/:thread_id/runs/:run_id", summary: "Get a run", handler: s.getRun, response: wire.Run{}},
		{method: http.MethodPost, path: "/threads/:thread_id/runs/:run_id/cancel", summary: "Cancel a run wherever it executes", handler: s.cancelRun, status: http.StatusAccepted, query: []string{"wait", "action"}},
		{method: http.MethodPost, path: "/api/chat", summary: "Run the newest user message of an AI SDK chat on the chat's thread and stream it as a UI message stream (text/event-stream)", handler: s.chat, body: wire.ChatRequest{}, long: true},
		{method: http.MethodGet, path: "/threads/:thread_id/runs/:run_id/join", summary: "Wait for a run's end and answer with the thread's values", handler: s.joinRun, long: true},

		{method: http.MethodGet, path: "/mcp-servers", summary: "List the user's MCP servers by name; secrets are never shown, hasSecret says whether one is stored", handler: s.listMCPServers, response: []wire.MCPServer{}},
		{method: http.MethodPost, path: "/mcp-servers", summary: "Add an MCP server over HTTP; its URL must pass the SSRF guard, its secret is sealed and never shown again", handler: s.createMCPServer, body: wire.MCPServerCreate{}, response: wire.MCPServer{}, status: http.StatusCreated},
		{method: http.MethodGet, path: "/mcp-servers/settings", summary: "Get the tool_mcp setting: whether the user's servers enrich a message before the model is asked, and which", handler: s.getMCPSettings, response: wire.MCPSettings{}},
		{method: http.MethodPut, path: "/mcp-servers/settings", summary: "Replace the tool_mcp setting; every server named must be the user's", handler: s.putMCPSettings, body: wire.MCPSettingsUpdate{}, response: wire.MCPSettings{}},
		{method: http.MethodGet, path: "/mcp-servers/:server_id", summary: "Get one of the user's MCP servers", handler: s.getMCPServer, response: wire.MCPServer{}},
		{method: http.MethodPatch, path: "/mcp-servers/:server_id", summary: "Change the members of an MCP server's config the body sends; an absent secret keeps the stored one", handler: s.patchMCPServer, body: wire.MCPServerPatch{}, response: wire.MCPServer{}},
		{method: http.MethodDelete, path: "/mcp-servers/:server_id", summary: "Remove an MCP server, and its id from the tool_mcp setting", handler: s.deleteMCPServer, status: http.StatusNoContent},
		{method: http.MethodGet, path: "/tool-outputs/:output_id", summary: "Get the full copy of a tool result too large to give the model whole", handler: s.getToolOutput, response: wire.ToolOutput{}},
	} {
		s.add(r)
	}
}

// add registers a route with its middleware and remembers it for the
// OpenAPI description.
func (s *Server) add(r route) {
	var mw []echo.MiddlewareFunc
	if !r.mounted {
		mw = append(mw, s.bounded(r.long))
	}
	if !r.public && !r.mounted {
		mw = append(mw, s.authenticate)
	}
	s.echo.Add(r.method, r.path, r.handler, mw...)
	s.routes = append(s.routes, r)
}
