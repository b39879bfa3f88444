package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sony/gobreaker/v2"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpauth"
	"github.com/tripgraph/tripgraph/nodes"
)

// Version is the client version the bridge reports to servers.
const Version = "0.1.0"

// DefaultIdleSessionTimeout is how long an unused session stays open.
const DefaultIdleSessionTimeout = 15 * time.Minute

// TokenTTL is how long the tokens minted for built-in servers last.
const TokenTTL = 5 * time.Minute

// Options configures a Bridge.
type Options struct {
	// Servers are the built-in and operator-configured servers, present
	// for every user, in this order. Each user's own come with the User
	// the bridge acts for (For).
	Servers []ServerConfig
	// Secret signs the mcpauth tokens minted for built-in HTTP servers.
	Secret []byte
	// HTTP are the clients of the HTTP transports.
	HTTP HTTPClients
	// Outputs keeps the full copy of large results for users whose User
	// brings no OutputStore of their own; in memory when nil.
	Outputs *MemoryOutputs
	// ToolListTTL is how long tool lists are cached (DefaultToolListTTL
	// when zero).
	ToolListTTL time.Duration
	// IdleSessionTimeout closes a session nobody used for that long
	// (DefaultIdleSessionTimeout when zero); the next call dials anew.
	IdleSessionTimeout time.Duration
	// Breaker tunes the circuit breakers.
	Breaker BreakerSettings
	Logger  *slog.Logger
}

// BreakerSettings tune the per-server circuit breakers.
type BreakerSettings struct {
	// Failures is how many consecutive failures open a breaker (5 when
	// zero).
	Failures uint32
	// OpenFor is how long an open breaker fails calls fast before it lets
	// one probe through (30 s when zero).
	OpenFor time.Duration
}

// Bridge is the MCP client side of tripgraph: its sessions, tool lists and
// breakers for every user. For gives one user's tools, as nodes.Tools.
type Bridge struct {
	opts   Options
	log    *slog.Logger
	ctx    context.Context // ends when the bridge closes; connections live on it
	cancel context.CancelFunc

	mu       sync.Mutex
	sessions map[sessionKey]*session
	catalogs map[string]*catalog
	breakers map[string]*breaker
}

// New returns a bridge over opts' servers. Close it to close its sessions.
func New(opts Options) (*Bridge, error) {
	for i := range opts.Servers {
		opts.Servers[i].fromOperator = true
		if err := opts.Servers[i].check(); err != nil {
			return nil, fmt.Errorf("configuring the MCP bridge: %w", err)
		}
	}
	if opts.ToolListTTL <= 0 {
		opts.ToolListTTL = DefaultToolListTTL
	}
	if opts.IdleSessionTimeout <= 0 {
		opts.IdleSessionTimeout = DefaultIdleSessionTimeout
	}
	if opts.Breaker.Failures == 0 {
		opts.Breaker.Failures = 5
	}
	if opts.Breaker.OpenFor <= 0 {
		opts.Breaker.OpenFor = 30 * time.Second
	}
	if opts.Outputs == nil {
		opts.Outputs = &MemoryOutputs{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b := &Bridge{
		opts: opts, log: opts.Logger, ctx: ctx, cancel: cancel,
		sessions: map[sessionKey]*session{}, catalogs: map[string]*catalog{}, breakers: map[string]*breaker{},
	}
	go b.reapIdle()
	return b, nil
}

// User is whom the bridge's calls act for, as the caller has
// authenticated them: their id, which names them to our own servers and
// keys their sessions, their own servers, and where their large results
// are kept.
type User struct {
	ID string
	// Servers are the user's own servers and enrichment settings; nil
	// for none.
	Servers UserServers
	// Outputs keeps the full copy of the user's large results; the
	// bridge's Options.Outputs when nil.
	Outputs OutputStore
}

// UserServers are one user's own MCP servers and their enrichment
// settings, as the bridge reads them. The bridge adds its built-in and
// operator servers to them.
type UserServers interface {
	Servers(ctx context.Context) ([]ServerConfig, error)
	EnrichmentSettings(ctx context.Context) (EnrichmentSettings, error)
}

// Tools are one user's tools: every server the bridge has for them. They
// implement nodes.Tools and nodes.Enricher.
type Tools struct {
	b *Bridge
	u User
}

var (
	_ nodes.Tools    = (*Tools)(nil)
	_ nodes.Enricher = (*Tools)(nil)
)

// For returns u's tools. It is cheap: sessions, tool lists and breakers
// stay with the bridge, kept per user.
func (b *Bridge) For(u User) *Tools {
	if u.Outputs == nil {
		u.Outputs = b.opts.Outputs.ForUser(u.ID)
	}
	return &Tools{b: b, u: u}
}

// List returns the user's tools, ranked. A server that cannot be reached
// is left out (and logged); if none can, List fails with UNAVAILABLE.
func (t *Tools) List(ctx context.Context) ([]nodes.Tool, error) {
	c, err := t.b.userCatalog(ctx, t.u)
	if err != nil {
		return nil, t.b.coded(ctx, err)
	}
	out := make([]nodes.Tool, len(c.entries))
	for i, e := range c.entries {
		out[i] = e.described
	}
	return out, nil
}

// Call calls a tool as the user. It emits mcp_calling and mcp_complete
// events when it runs inside a graph run. A large result comes back whole
// in Full and reduced in ForModel, its full copy stored.
func (t *Tools) Call(ctx context.Context, name string, args json.RawMessage) (nodes.Result, error) {
	b, user := t.b, t.u.ID
	c, err := b.userCatalog(ctx, t.u)
	if err != nil {
		return nodes.Result{}, b.coded(ctx, err)
	}
	e, ok := c.byName[name]
	if !ok {
		return nodes.Result{}, errcode.New(errcode.NotFound, "no tool named %q", name)
	}
	if e.server.Builtin && user == "" {
		return nodes.Result{}, errcode.New(errcode.Forbidden, "no user to call %s as", name)
	}
	args, err = b.arguments(user, e, args)
	if err != nil {
		return nodes.Result{}, err
	}
	emit(ctx, EventCalling, Calling{Type: EventCalling, Server: e.server.Name, Tool: name, Card: e.card()})
	start := time.Now()
	ctx, span := startCall(ctx, e, args)
	data, err := b.call(ctx, user, e, args)
	done := Complete{Type: EventComplete, Server: e.server.Name, Tool: name, Card: e.card(), DurationMs: float64(time.Since(start).Microseconds()) / 1000}
	if err != nil {
		endCall(span, nil, 0, err)
		done.Error = string(errcode.Of(err))
		emit(ctx, EventComplete, done)
		return nodes.Result{}, err
	}
	items := countItems(data)
	endCall(span, data, items, nil)
	done.Items = &items
	emit(ctx, EventComplete, done)
	res := nodes.Result{Full: data}
	if isLarge(data, items) {
		id, err := t.u.Outputs.SaveToolOutput(ctx, e.server.Name, e.tool.Name, data)
		if err != nil {
			b.logFailure(ctx, "storing a large tool result", e.server, e.tool.Name, err)
			id = ""
		}
		res.ForModel = reduce(name, data, items, id)
	}
	return res, nil
}

// arguments drops a userId the model wrote; a built-in tool that declares
// userId gets the context's user instead.
func (b *Bridge) arguments(user string, e entry, args json.RawMessage) (json.RawMessage, error) {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(args, &m); err != nil {
		return nil, errcode.New(errcode.BadRequest, "the arguments of %s must be a JSON object", e.name)
	}
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	_, had := m[userIDArg]
	delete(m, userIDArg)
	if e.server.Builtin && takesUserID(e.tool) {
		m[userIDArg], _ = json.Marshal(user)
	} else if !had {
		return args, nil
	}
	return json.Marshal(m)
}

// call runs one tool call under the server's deadline and breaker and
// turns its outcome into JSON or a coded error.
func (b *Bridge) call(ctx context.Context, user string, e entry, args json.RawMessage) (json.RawMessage, error) {
	if e.server.Transport != Memory {
		// Another process answers: the node only waits, so it gives its
		// turn on the cores up meanwhile (graph.Turns).
		back := graph.Away(ctx)
		defer back()
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, e.server.timeout())
	defer cancel()
	s := b.acquire(user, e.server)
	defer s.release()
	report := func(p *mcp.ProgressNotificationParams) {
		emit(parent, EventProgress, Progress{Type: EventProgress, Server: e.server.Name, Tool: e.name, Progress: p.Progress, Total: p.Total, Message: p.Message})
	}
	watch := b.watchGuard(parent, user, e.server)
	res, err := guarded(parent, b, user, e.server, func() (*mcp.CallToolResult, error) {
		return s.callTool(ctx, e.tool.Name, args, report)
	})
	watch(err)
	switch {
	case err == nil:
		data, err := decodeResult(res)
		if err != nil && errcode.Of(err) == errcode.Internal {
			b.logFailure(parent, "reading an MCP tool's result", e.server, e.tool.Name, err)
			return nil, errcode.New(errcode.Unavailable, "the answer of %s could not be read", e.name)
		}
		return data, err
	case errors.Is(err, gobreaker.ErrOpenState), errors.Is(err, gobreaker.ErrTooManyRequests):
		return nil, errcode.New(errcode.Unavailable, "the %s tools are failing; try again in a little while", e.server.Name)
	case parent.Err() != nil:
		return nil, parent.Err() // the caller gave up: nothing to report
	}
	b.logFailure(parent, "calling an MCP tool", e.server, e.tool.Name, err)
	switch {
	case errors.Is(err, errTooLarge):
		return nil, errcode.New(errcode.Unavailable, "the answer of %s was larger than the %d KB limit and was refused", e.name, e.server.maxResponseBytes()>>10)
	case errors.Is(err, context.DeadlineExceeded):
		return nil, errcode.New(errcode.Unavailable, "%s did not answer within %s", e.name, e.server.timeout())
	}
	return nil, unavailable(e.server.Name, e.name)
}

// coded returns err if it carries a code for the client; any other
// failure is logged and becomes UNAVAILABLE, so that no internal text
// reaches the model or the traveller.
func (b *Bridge) coded(ctx context.Context, err error) error {
	if errcode.Of(err) != errcode.Internal || ctx.Err() != nil {
		return err
	}
	attrs := []any{"err", err}
	if info, ok := graph.Info(ctx); ok {
		attrs = append(attrs, "run_id", info.RunID, "thread_id", info.ThreadID)
	}
	b.log.ErrorContext(ctx, "finding a user's MCP tools failed", attrs...)
	return errcode.New(errcode.Unavailable, "the tools are unavailable right now")
}

// unavailable is the error of a transport failure: it says which server,
// and nothing of why.
func unavailable(server, tool string) *errcode.Error {
	if tool != "" {
		return errcode.New(errcode.Unavailable, "%s could not be reached: the %s tools are unavailable right now", tool, server)
	}
	return errcode.New(errcode.Unavailable, "the %s tools are unavailable right now", server)
}

// logFailure logs the real cause of a failure once, with the run it
// happened in.
func (b *Bridge) logFailure(ctx context.Context, doing string, cfg ServerConfig, tool string, err error) {
	attrs := []any{"server", cfg.Name, "err", err}
	if tool != "" {
		attrs = append(attrs, "tool", tool)
	}
	if info, ok := graph.Info(ctx); ok {
		attrs = append(attrs, "run_id", info.RunID, "thread_id", info.ThreadID)
	}
	b.log.ErrorContext(ctx, doing+" failed", attrs...)
}

// acquire returns the session of user with a server, making it on first
// use, and marks it busy until release.
func (b *Bridge) acquire(user string, cfg ServerConfig) *session {
	key := sessionKey{user: user, server: cfg.Name}
	b.mu.Lock()
	defer b.mu.Unlock()
	s, ok := b.sessions[key]
	if !ok || !sameServer(s.cfg, cfg) {
		if ok && s.busy == 0 {
			go s.close()
		}
		s = &session{b: b, user: user, cfg: cfg}
		b.sessions[key] = s
	}
	s.busy++
	return s
}

// release marks the end of a use of the session.
func (s *session) release() {
	s.b.mu.Lock()
	s.busy--
	s.lastUsed = time.Now()
	s.b.mu.Unlock()
}

// closeIdle closes the sessions nobody used for the idle timeout.
func (b *Bridge) closeIdle(now time.Time) {
	var idle []*session
	b.mu.Lock()
	for key, s := range b.sessions {
		if s.busy == 0 && now.Sub(s.lastUsed) > b.opts.IdleSessionTimeout {
			idle = append(idle, s)
			delete(b.sessions, key)
		}
	}
	b.mu.Unlock()
	for _, s := range idle {
		s.close()
	}
}

// reapIdle closes idle sessions until the bridge closes.
func (b *Bridge) reapIdle() {
	every := min(b.opts.IdleSessionTimeout/2, time.Minute)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-b.ctx.Done():
			return
		case now := <-t.C:
			b.closeIdle(now)
		}
	}
}

// sameServer reports whether two configs reach the same server the same
// way, so that a session made for one serves the other.
func sameServer(a, b ServerConfig) bool {
	return a.Transport == b.Transport && a.URL == b.URL && slices.Equal(a.Command, b.Command) && a.ProtocolVersion == b.ProtocolVersion &&
		a.Builtin == b.Builtin && a.timeout() == b.timeout() && a.maxResponseBytes() == b.maxResponseBytes() &&
		mapsEqual(a.Headers, b.Headers)
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// guarded runs f under the circuit breaker of a server: one per built-in
// or operator server, one per user's own server. Only failures to reach
// the server count; a tool's refusal is an answer, and a failure after
// the caller gave up (its context ended) is not the server's.
//
// A user's own server that cannot be reached at all, because no session
// could be opened (it never answered initialize, refused the connection,
// or the guard refused its address) or it did not answer within its
// deadline, opens its breaker at once: the catalog, the enrichment and the
// tool calls of a run, and the runs after it, then fail fast until the
// breaker lets a probe through after OpenFor, so a run pays at most one
// timeout for it.
func guarded[T any](ctx context.Context, b *Bridge, user string, cfg ServerConfig, f func() (T, error)) (T, error) {
	br := b.breaker(user, cfg)
	v, err := br.cb.Execute(func() (any, error) {
		v, err := f()
		if err != nil && ctx.Err() != nil {
			return v, callerGone{err}
		}
		br.unreachable.Store(err != nil && unreachable(err))
		return v, err
	})
	if gone, ok := err.(callerGone); ok {
		err = gone.error
	}
	t, _ := v.(T)
	return t, err
}

// callerGone marks a failure that happened after the caller gave up; the
// breaker does not count it.
type callerGone struct{ error }

func (e callerGone) Unwrap() error { return e.error }

// unreachable reports whether a failure means the server could not be
// reached at all: no session could be opened, or it did not answer in
// time.
func unreachable(err error) bool {
	var de *dialError
	return errors.As(err, &de) || errors.Is(err, context.DeadlineExceeded)
}

// breaker is the circuit breaker of a server, or of a user's own server.
type breaker struct {
	cb *gobreaker.CircuitBreaker[any]
	// unreachable is whether the latest failure found the server
	// unreachable; it opens the breaker of a user's own server at once.
	unreachable atomic.Bool
}

func (b *Bridge) breaker(user string, cfg ServerConfig) *breaker {
	key := cfg.Name
	own := !cfg.Builtin && !cfg.operator()
	if own {
		key = user + "/" + cfg.Name
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if br, ok := b.breakers[key]; ok {
		return br
	}
	failures := b.opts.Breaker.Failures
	br := &breaker{}
	br.cb = gobreaker.NewCircuitBreaker[any](gobreaker.Settings{
		Name:    key,
		Timeout: b.opts.Breaker.OpenFor,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			return c.ConsecutiveFailures >= failures || (own && br.unreachable.Load())
		},
		IsExcluded: func(err error) bool { return errors.As(err, new(callerGone)) },
		OnStateChange: func(name string, from, to gobreaker.State) {
			b.log.Warn("MCP circuit breaker changed state", "breaker", name, "from", from.String(), "to", to.String())
		},
	})
	b.breakers[key] = br
	return br
}

func (b *Bridge) mintToken(user string) (string, error) {
	tok, err := mcpauth.Mint(b.opts.Secret, user, TokenTTL)
	if err != nil {
		return "", fmt.Errorf("minting a token for a built-in MCP server: %w", err)
	}
	return tok, nil
}

// forgetCatalog drops a user's cached tool catalog.
func (b *Bridge) forgetCatalog(user string) {
	b.mu.Lock()
	delete(b.catalogs, user)
	b.mu.Unlock()
}

// Forget drops what the bridge holds for a user's own servers, because
// they changed: the user's tool catalog, and the idle sessions to their
// servers (one in use ends with its call). An empty userID forgets every
// user's. The next run reads the user's servers afresh.
func (b *Bridge) Forget(userID string) {
	var idle []*session
	b.mu.Lock()
	if userID == "" {
		clear(b.catalogs)
	} else {
		delete(b.catalogs, userID)
	}
	for key, s := range b.sessions {
		if (userID == "" || key.user == userID) && !s.cfg.Builtin && !s.cfg.fromOperator && s.busy == 0 {
			idle = append(idle, s)
			delete(b.sessions, key)
		}
	}
	b.mu.Unlock()
	for _, s := range idle {
		s.close()
	}
}

// Close closes every session.
func (b *Bridge) Close() error {
	b.mu.Lock()
	sessions := make([]*session, 0, len(b.sessions))
	for _, s := range b.sessions {
		sessions = append(sessions, s)
	}
	b.sessions = map[sessionKey]*session{}
	b.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range sessions {
		wg.Go(s.close)
	}
	wg.Wait()
	b.cancel()
	return nil
}
