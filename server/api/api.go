// Package api is tripgraph's REST API for programs: the LangGraph server
// API that LangGraph's official clients drive (assistants, threads, state,
// history, runs and their SSE streams, the long-term store), the AI SDK's
// chat stream, and the user's MCP servers and large tool outputs. Every route but the public
// ones takes an API key, and acts through the key's tenant.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/metrics"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/server/jwtauth"
	"github.com/tripgraph/tripgraph/server/runner"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store/accounts"
)

// Accounts are what the API needs of the users and their keys: to find
// whom a request's API key or token acts as, and, for operators, to
// manage every user's keys.
type Accounts interface {
	UserByAPIKey(ctx context.Context, key string) (accounts.User, accounts.Key, error)
	UserByIdentity(ctx context.Context, id accounts.Identity) (accounts.User, error)
	UserByName(ctx context.Context, name string) (accounts.User, error)
	UserByID(ctx context.Context, id string) (accounts.User, error)
	CreateAPIKey(ctx context.Context, n accounts.NewKey) (string, accounts.Key, error)
	ListAPIKeys(ctx context.Context, userID string) ([]accounts.Key, error)
	RevokeAPIKey(ctx context.Context, userID, keyID string) (accounts.Key, error)
	RotateAPIKey(ctx context.Context, userID, keyID string) (string, accounts.Key, error)
}

// Tokens verify end users' tokens from the operator's identity provider.
type Tokens interface {
	Verify(ctx context.Context, token string) (accounts.Identity, error)
}

// Config is what the API needs.
type Config struct {
	Accounts Accounts
	// Tokens, when set, accepts end users' tokens as bearer credentials;
	// nil accepts API keys only.
	Tokens Tokens
	// ActForEndUsers lets backend keys act for the end users that
	// EndUserHeader names.
	ActForEndUsers bool
	Tenants        tenant.Factory
	Runner         *runner.Runner
	Closing        *httpx.Closing // ends streams and waits when the server shuts down
	Metrics        *metrics.Metrics
	Limits         httpx.Limits // including each key's rate
	// Streams bound each user's open streams and waits, shared with the
	// browser app's live streams.
	Streams *httpx.StreamCap
	Logger  *slog.Logger
	// PublicURL is the server's base URL as browsers reach it: the
	// generative UI's stylesheet and script are loaded from there.
	PublicURL string
}

// API is the REST API's handlers.
type API struct {
	accounts Accounts
	tokens   Tokens
	actFor   bool
	tenants  tenant.Factory
	runner   *runner.Runner
	closing  *httpx.Closing
	metrics  *metrics.Metrics
	limits   httpx.Limits
	limiter  *httpx.Limiter   // each key's rate
	streams  *httpx.StreamCap // each user's open streams and waits
	log      *slog.Logger
	// publicURL: see Config.PublicURL.
	publicURL string
}

// New builds the API.
func New(cfg Config) *API {
	return &API{accounts: cfg.Accounts, tokens: cfg.Tokens, actFor: cfg.ActForEndUsers, tenants: cfg.Tenants, runner: cfg.Runner, closing: cfg.Closing,
		metrics: cfg.Metrics, limits: cfg.Limits, log: cfg.Logger, publicURL: cfg.PublicURL,
		limiter: httpx.NewLimiter(cfg.Limits.RatePerSec, cfg.Limits.RateBurst), streams: cfg.Streams}
}

// Routes are the API's routes, each with its auth and bounds.
func (s *API) Routes() []httpx.Route {
	routes := []httpx.Route{
		{Method: http.MethodGet, Path: "/info", Summary: "What this server is and does, as LangGraph's clients ask it", Handler: s.info, Public: true, Response: wire.Info{}},
		{Method: http.MethodPost, Path: "/assistants", Summary: "Create an assistant: a named configuration of a graph, version 1", Handler: s.createAssistant, Body: wire.AssistantCreate{}, Response: wire.Assistant{}},
		{Method: http.MethodPost, Path: "/assistants/search", Summary: "Search assistants, the built-in one with the user's; X-Pagination-Total counts all that match", Handler: s.searchAssistants, Body: wire.AssistantSearch{}, Response: []wire.Assistant{}},
		{Method: http.MethodPost, Path: "/assistants/count", Summary: "Count the assistants matching the filters", Handler: s.countAssistants, Body: wire.AssistantSearch{}, Response: 0},
		{Method: http.MethodGet, Path: "/assistants/:assistant_id", Summary: "Get an assistant by id or graph id", Handler: s.getAssistant, Response: wire.Assistant{}},
		{Method: http.MethodPatch, Path: "/assistants/:assistant_id", Summary: "Change an assistant, as a new version (metadata is merged)", Handler: s.patchAssistant, Body: wire.AssistantPatch{}, Response: wire.Assistant{}},
		{Method: http.MethodDelete, Path: "/assistants/:assistant_id", Summary: "Delete an assistant with its versions; delete_threads also deletes its threads", Handler: s.deleteAssistant, Response: []string{}, Query: []string{"delete_threads"}},
		{Method: http.MethodPost, Path: "/assistants/:assistant_id/versions", Summary: "List an assistant's versions, newest first", Handler: s.assistantVersions, Body: wire.AssistantVersionsRequest{}, Response: []wire.AssistantVersion{}},
		{Method: http.MethodPost, Path: "/assistants/:assistant_id/latest", Summary: "Make one of an assistant's versions its current one", Handler: s.setLatestVersion, Body: wire.AssistantLatest{}, Response: wire.Assistant{}},
		{Method: http.MethodGet, Path: "/assistants/:assistant_id/graph", Summary: "Get the nodes and edges of an assistant's graph", Handler: s.getAssistantGraph, Response: wire.AssistantGraph{}, Query: []string{"xray"}},
		{Method: http.MethodGet, Path: "/assistants/:assistant_id/schemas", Summary: "Get the JSON schemas of an assistant's graph: input, output, state, config", Handler: s.getAssistantSchemas, Response: wire.Schemas{}},
		{Method: http.MethodGet, Path: "/assistants/:assistant_id/subgraphs", Summary: "Get an assistant's graph's subgraphs (the planner has none)", Handler: s.getAssistantSubgraphs, Response: map[string]any{}, Query: []string{"recurse", "namespace"}},

		{Method: http.MethodPost, Path: "/threads", Summary: "Create a thread", Handler: s.createThread, Body: wire.ThreadCreate{}, Response: wire.Thread{}},
		{Method: http.MethodPost, Path: "/threads/search", Summary: "Search the user's threads, newest first unless sorted otherwise; X-Pagination-Total counts all that match", Handler: s.searchThreads, Body: wire.ThreadSearch{}, Response: []wire.Thread{}},
		{Method: http.MethodPost, Path: "/threads/count", Summary: "Count the user's threads matching the filters", Handler: s.countThreads, Body: wire.ThreadSearch{}, Response: 0},
		{Method: http.MethodGet, Path: "/threads/:thread_id", Summary: "Get a thread", Handler: s.getThread, Response: wire.Thread{}},
		{Method: http.MethodPatch, Path: "/threads/:thread_id", Summary: "Merge metadata into a thread's", Handler: s.patchThread, Body: wire.ThreadPatch{}, Response: wire.Thread{}},
		{Method: http.MethodDelete, Path: "/threads/:thread_id", Summary: "Delete a thread with its checkpoints and runs", Handler: s.deleteThread, Status: http.StatusNoContent},
		{Method: http.MethodPost, Path: "/threads/:thread_id/copy", Summary: "Copy a thread with its whole history", Handler: s.copyThread, Response: wire.Thread{}},

		{Method: http.MethodGet, Path: "/threads/:thread_id/state", Summary: "Get a thread's current state", Handler: s.getState, Response: wire.ThreadState{}, Query: []string{"subgraphs"}},
		{Method: http.MethodPost, Path: "/threads/:thread_id/state", Summary: "Update a thread's state as if a node had returned the values", Handler: s.updateState, Body: wire.StateUpdate{}, Response: wire.StateUpdateResult{}},
		{Method: http.MethodPost, Path: "/threads/:thread_id/state/batch", Summary: "Write supersteps on a thread, a checkpoint each, as creating a thread with supersteps does", Handler: s.stateBatch, Body: wire.StateBatch{}, Response: wire.StateUpdateResult{}},
		{Method: http.MethodGet, Path: "/threads/:thread_id/state/:checkpoint_id", Summary: "Get a thread's state at a checkpoint", Handler: s.getStateAt, Response: wire.ThreadState{}, Query: []string{"subgraphs"}},
		{Method: http.MethodPost, Path: "/threads/:thread_id/state/checkpoint", Summary: "Get a thread's state at a checkpoint named in the body", Handler: s.getStateAtBody, Body: wire.StateCheckpointRequest{}, Response: wire.ThreadState{}},
		{Method: http.MethodPost, Path: "/threads/:thread_id/history", Summary: "List a thread's states, newest first", Handler: s.postHistory, Body: wire.HistoryRequest{}, Response: []wire.ThreadState{}},
		{Method: http.MethodGet, Path: "/threads/:thread_id/history", Summary: "List a thread's states, newest first", Handler: s.getHistory, Response: []wire.ThreadState{}, Query: []string{"limit", "before"}},

		{Method: http.MethodPost, Path: "/threads/:thread_id/runs", Summary: "Create a background run on a thread", Handler: s.createRun, Body: wire.RunCreate{}, Response: wire.Run{}},
		{Method: http.MethodGet, Path: "/threads/:thread_id/runs", Summary: "List a thread's runs, newest first", Handler: s.listRuns, Response: []wire.Run{}, Query: []string{"limit", "offset", "status"}},
		{Method: http.MethodPost, Path: "/threads/:thread_id/runs/wait", Summary: "Create a run and answer with the thread's values when it ends", Handler: s.waitRun, Body: wire.RunCreate{}, Long: true},
		{Method: http.MethodPost, Path: "/threads/:thread_id/runs/stream", Summary: "Create a run and stream its events (text/event-stream)", Handler: s.streamRun, Body: wire.RunCreate{}, Long: true},
		{Method: http.MethodGet, Path: "/threads/:thread_id/runs/:run_id/stream", Summary: "Stream a run's events (text/event-stream), from after Last-Event-ID", Handler: s.joinStream, Long: true, Query: []string{"stream_mode", "cancel_on_disconnect"}},
		{Method: http.MethodPost, Path: "/runs/wait", Summary: "Run on a thread of its own, deleted afterwards unless on_completion is keep, and answer with its values", Handler: s.statelessWait, Body: wire.RunCreate{}, Long: true},
		{Method: http.MethodPost, Path: "/runs/stream", Summary: "Run on a thread of its own, deleted afterwards unless on_completion is keep, and stream it (text/event-stream)", Handler: s.statelessStream, Body: wire.RunCreate{}, Long: true},
		{Method: http.MethodGet, Path: "/threads/:thread_id/runs/:run_id", Summary: "Get a run", Handler: s.getRun, Response: wire.Run{}},
		{Method: http.MethodPost, Path: "/threads/:thread_id/runs/:run_id/cancel", Summary: "Cancel a run wherever it executes", Handler: s.cancelRun, Status: http.StatusAccepted, Query: []string{"wait", "action"}},
		{Method: http.MethodPost, Path: "/api/chat", Summary: "Run the newest user message of an AI SDK chat on the chat's thread and stream it as a UI message stream (text/event-stream)", Handler: s.chat, Body: wire.ChatRequest{}, Long: true},
		{Method: http.MethodGet, Path: "/threads/:thread_id/runs/:run_id/join", Summary: "Wait for a run's end and answer with the thread's values", Handler: s.joinRun, Long: true},

		{Method: http.MethodPost, Path: "/ui/:assistant_id", Summary: "The HTML that shows a UI component in a front end built on LangGraph's SDK (its generative UI): it loads tripgraph's stylesheet and a script that renders the component (text/html)", Handler: s.uiComponent, Body: wire.UIComponentRequest{}},
		{Method: http.MethodPost, Path: "/ui/:assistant_id/render", Summary: "A UI component's HTML from its props, for the generative UI's script", Handler: s.renderUIComponent, Body: wire.UIRenderRequest{}, Response: wire.UIRendered{}},

		{Method: http.MethodGet, Path: "/mcp-servers", Summary: "List the user's MCP servers by name; secrets are never shown, hasSecret says whether one is stored", Handler: s.listMCPServers, Response: []wire.MCPServer{}},
		{Method: http.MethodPost, Path: "/mcp-servers", Summary: "Add an MCP server over HTTP; its URL must pass the SSRF guard, its secret is sealed and never shown again", Handler: s.createMCPServer, Body: wire.MCPServerCreate{}, Response: wire.MCPServer{}, Status: http.StatusCreated},
		{Method: http.MethodGet, Path: "/mcp-servers/settings", Summary: "Get the tool_mcp setting: whether the user's servers enrich a message before the model is asked, and which", Handler: s.getMCPSettings, Response: wire.MCPSettings{}},
		{Method: http.MethodPut, Path: "/mcp-servers/settings", Summary: "Replace the tool_mcp setting; every server named must be the user's", Handler: s.putMCPSettings, Body: wire.MCPSettingsUpdate{}, Response: wire.MCPSettings{}},
		{Method: http.MethodGet, Path: "/mcp-servers/:server_id", Summary: "Get one of the user's MCP servers", Handler: s.getMCPServer, Response: wire.MCPServer{}},
		{Method: http.MethodPatch, Path: "/mcp-servers/:server_id", Summary: "Change the members of an MCP server's config the body sends; an absent secret keeps the stored one", Handler: s.patchMCPServer, Body: wire.MCPServerPatch{}, Response: wire.MCPServer{}},
		{Method: http.MethodDelete, Path: "/mcp-servers/:server_id", Summary: "Remove an MCP server, and its id from the tool_mcp setting", Handler: s.deleteMCPServer, Status: http.StatusNoContent},
		{Method: http.MethodGet, Path: "/tool-outputs/:output_id", Summary: "Get the full copy of a tool result too large to give the model whole", Handler: s.getToolOutput, Response: wire.ToolOutput{}},

		{Method: http.MethodPut, Path: "/store/items", Summary: "Store an item of the user's long-term store, or replace the one with its namespace and key", Handler: s.putItem, Body: wire.StorePut{}, Status: http.StatusNoContent},
		{Method: http.MethodGet, Path: "/store/items", Summary: "Get an item by namespace (labels joined by periods) and key; null when there is none", Handler: s.getItem, Response: wire.StoreItem{}, Query: []string{"namespace", "key", "refresh_ttl"}},
		{Method: http.MethodDelete, Path: "/store/items", Summary: "Delete an item", Handler: s.deleteItem, Body: wire.StoreDelete{}, Status: http.StatusNoContent},
		{Method: http.MethodPost, Path: "/store/items/search", Summary: "Search items under a namespace prefix by filter and full-text query", Handler: s.searchItems, Body: wire.StoreSearch{}, Response: wire.StoreSearchResult{}},
		{Method: http.MethodPost, Path: "/runs/crons", Summary: "Create a cron: a run on a new thread each time the schedule is due, in its time zone, until its end time", Handler: s.createCron, Body: wire.CronCreate{}, Response: wire.Cron{}},
		{Method: http.MethodPost, Path: "/threads/:thread_id/runs/crons", Summary: "Create a cron that runs on the thread each time the schedule is due", Handler: s.createThreadCron, Body: wire.CronCreate{}, Response: wire.Cron{}},
		{Method: http.MethodPost, Path: "/runs/crons/search", Summary: "Search the user's crons", Handler: s.searchCrons, Body: wire.CronSearch{}, Response: []wire.Cron{}},
		{Method: http.MethodPost, Path: "/runs/crons/count", Summary: "Count the user's crons", Handler: s.countCrons, Body: wire.CronCount{}},
		{Method: http.MethodPatch, Path: "/runs/crons/:cron_id", Summary: "Change a cron's schedule, time zone, end time, run or whether it is enabled", Handler: s.patchCron, Body: wire.CronPatch{}, Response: wire.Cron{}},
		{Method: http.MethodDelete, Path: "/runs/crons/:cron_id", Summary: "Delete a cron", Handler: s.deleteCron, Status: http.StatusNoContent},
		{Method: http.MethodPost, Path: "/store/namespaces", Summary: "List the namespaces that hold items, by prefix, suffix and depth", Handler: s.listNamespaces, Body: wire.StoreNamespaces{}, Response: wire.StoreNamespaceList{}},
	}
	operator := len(routes)
	routes = append(routes, s.operatorRoutes()...)
	for i := range routes {
		routes[i].Middleware = []echo.MiddlewareFunc{httpx.Bounded(s.limits, routes[i].Long)}
		if !routes[i].Public {
			routes[i].Middleware = append(routes[i].Middleware, s.authenticate)
		}
		if i >= operator {
			routes[i].Middleware = append(routes[i].Middleware, s.operatorOnly)
		}
		routes[i].Middleware = append(routes[i].Middleware, httpx.Text)
		if routes[i].Long && !routes[i].Public {
			routes[i].Middleware = append(routes[i].Middleware, s.streams.Capped)
		}
		if langGraphRoute(routes[i].Path) {
			routes[i].Middleware = append(routes[i].Middleware, notFoundAsText)
		}
	}
	return routes
}

// info says what this server is and does, in the shape of LangGraph's
// /info: no LangSmith.
func (s *API) info(c echo.Context) error {
	return c.JSON(http.StatusOK, wire.Info{Version: "tripgraph", Context: "go",
		Flags: map[string]bool{"assistants": true, "crons": true, "langsmith": false, "langsmith_tracing_replicas": false}})
}

// langGraphRoute reports whether a path is one of the LangGraph server
// API's, rather than tripgraph's own.
func langGraphRoute(path string) bool {
	for _, prefix := range []string{"/assistants", "/threads", "/runs", "/ui"} {
		if path == prefix || strings.HasPrefix(path, prefix+"/") {
			return true
		}
	}
	return false
}

// notFoundAsText answers a missing resource on a LangGraph route as
// LangGraph.js's server does: its message alone, as text/plain
// ("Assistant not found", "Thread with ID … not found"), which LangGraph's
// JS client makes the error's message ("HTTP 404: Assistant not found")
// and its tests and callers match. Every other error is the JSON error
// body.
func notFoundAsText(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		err := next(c)
		if err == nil || errcode.Of(err) != errcode.NotFound || c.Response().Committed {
			return err
		}
		return c.String(http.StatusNotFound, errcode.Message(err))
	}
}

// EndUserHeader names the end user a backend key acts for: the app's own
// id for them.
const EndUserHeader = "X-Tripgraph-End-User"

// authenticate lets a request through with the tenant of the user it acts
// as: the owner of its API key, the end user its key acts for, or the end
// user its token names.
func (s *API) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		u, err := s.caller(c)
		if err != nil {
			return err
		}
		httpx.SetTenant(c, s.tenants.For(u.ID))
		httpx.AllowTextJSON(c) // a credential is a header no cross-site form sends
		return next(c)
	}
}

// caller is the user a request acts as, from its credential.
func (s *API) caller(c echo.Context) (accounts.User, error) {
	credential := APIKey(c.Request())
	switch {
	case credential == "":
		return accounts.User{}, errcode.New(errcode.Unauthenticated, "send an API key in x-api-key or Authorization: Bearer, or an end user's token as a bearer")
	case s.tokens != nil && jwtauth.LooksLikeJWT(credential):
		return s.tokenUser(c, credential)
	}
	return s.keyUser(c, credential)
}

// keyUser is the user an API key acts as: its owner, or the end user the
// request names when the key is a backend key and the server allows it.
// The key's rate limit is checked first, so that a flood of guesses at
// one key costs no database work.
func (s *API) keyUser(c echo.Context, secret string) (accounts.User, error) {
	if err := s.limiter.Allow(secret, "too many requests with this API key; retry later"); err != nil {
		return accounts.User{}, err
	}
	u, k, err := s.accounts.UserByAPIKey(httpx.Ctx(c), secret)
	if errcode.Of(err) == errcode.Forbidden {
		return accounts.User{}, errcode.New(errcode.Unauthenticated, "the API key is not valid")
	}
	if err != nil {
		return accounts.User{}, err
	}
	endUser, named := c.Request().Header[http.CanonicalHeaderKey(EndUserHeader)]
	if !named {
		c.Set(keyOfRequest, k)
		return u, nil
	}
	switch {
	case !s.actFor:
		return accounts.User{}, errcode.New(errcode.Forbidden, "this server lets no key act for end users (TRIPGRAPH_ACT_FOR_END_USERS is off)")
	case k.Role != accounts.RoleBackend:
		return accounts.User{}, errcode.New(errcode.Forbidden, "only a key with the backend role may act for an end user; this key's role is %s", k.Role)
	case len(endUser) != 1:
		return accounts.User{}, errcode.New(errcode.BadRequest, "send %s once", EndUserHeader)
	}
	httpx.SetActingKey(c, k.ID)
	return s.accounts.UserByIdentity(httpx.Ctx(c), accounts.Identity{Issuer: accounts.BackendIssuer(u.ID), Subject: endUser[0]})
}

// tokenUser is the end user an identity provider's token names, made a
// user on first sight. Its rate limit is the user's.
func (s *API) tokenUser(c echo.Context, token string) (accounts.User, error) {
	if c.Request().Header.Get(EndUserHeader) != "" {
		return accounts.User{}, errcode.New(errcode.BadRequest, "%s goes with a backend API key, not with an end user's token", EndUserHeader)
	}
	id, err := s.tokens.Verify(httpx.Ctx(c), token)
	if err != nil {
		return accounts.User{}, err
	}
	u, err := s.accounts.UserByIdentity(httpx.Ctx(c), id)
	if err != nil {
		return accounts.User{}, err
	}
	if err := s.limiter.Allow(u.ID, "too many requests for this user; retry later"); err != nil {
		return accounts.User{}, err
	}
	return u, nil
}

// keyOfRequest holds the API key a request acts with as its owner.
const keyOfRequest = "tripgraph.api.key"

// APIKey is the credential a request carries in x-api-key or as a
// bearer token: an API key, or an end user's token.
func APIKey(r *http.Request) string {
	if k := r.Header.Get("X-Api-Key"); k != "" {
		return k
	}
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if ok && strings.EqualFold(scheme, "Bearer") {
		return strings.TrimSpace(token)
	}
	return ""
}

// tenantOf is the request's tenant: authenticate has put it there.
func tenantOf(c echo.Context) tenant.Tenant {
	t, _ := httpx.TenantOf(c)
	return t
}
