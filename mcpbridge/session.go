package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/mcpext"
	"github.com/tripgraph/tripgraph/telemetry"
)

// sessionKey identifies a session: one per user and server.
type sessionKey struct {
	user, server string
}

// session is the bridge's long-lived connection to one server for one
// user, with the server's cached tool list. It is dialled on first use and
// redialled when the server loses it.
type session struct {
	b    *Bridge
	user string
	cfg  ServerConfig

	mu      sync.Mutex // guards conn, tools and toolsAt; held while dialling
	conn    *conn
	tools   []*mcp.Tool
	toolsAt time.Time

	progress sync.Map // progress token → func(*mcp.ProgressNotificationParams)
	tokens   atomic.Uint64

	busy     int       // calls using the session; guarded by b.mu
	lastUsed time.Time // when the last one ended; guarded by b.mu
}

// conn is one dialled connection of a session.
type conn struct {
	cs     *mcp.ClientSession
	state  *connState
	cancel context.CancelFunc // ends the connection's own context
}

func (c *conn) close() {
	c.cs.Close()
	c.cancel()
}

// current returns the session's connection, dialling one if there is none.
func (s *session) current(ctx context.Context) (*conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil {
		return s.conn, nil
	}
	c, err := s.dial(ctx)
	if err != nil {
		return nil, err
	}
	s.conn = c
	return c, nil
}

// renew replaces the failed connection with a new one. Calls that failed
// on the same connection at once share one redial: whoever takes the lock
// second finds the connection already replaced.
func (s *session) renew(ctx context.Context, failed *conn) (*conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil && s.conn != failed {
		return s.conn, nil
	}
	if s.conn != nil {
		s.conn.close()
		s.conn = nil
	}
	s.tools = nil
	c, err := s.dial(ctx)
	if err != nil {
		return nil, err
	}
	s.conn = c
	return c, nil
}

// dial connects to the server. The connection lives on a context of its
// own, ended by close; ctx bounds only the dialling.
func (s *session) dial(ctx context.Context) (*conn, error) {
	st := &connState{}
	t, err := s.b.transport(s.user, s.cfg, st)
	if err != nil {
		return nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "tripgraph-bridge", Version: Version}, &mcp.ClientOptions{
		Capabilities:                &mcp.ClientCapabilities{Experimental: map[string]any{mcpext.StructuredOnly: map[string]any{}}},
		ToolListChangedHandler:      func(context.Context, *mcp.ToolListChangedRequest) { s.forgetTools() },
		ProgressNotificationHandler: s.onProgress,
	})
	connCtx, cancel := context.WithCancel(s.b.ctx)
	stop := context.AfterFunc(ctx, cancel)
	version := s.cfg.ProtocolVersion
	if version == "" {
		version = DefaultProtocolVersion
	}
	cs, err := client.Connect(connCtx, t, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if !stop() {
		err = errors.Join(ctx.Err(), err)
	}
	if err != nil {
		if cs != nil {
			cs.Close()
		}
		cancel()
		return nil, &dialError{state: st, err: err}
	}
	return &conn{cs: cs, state: st, cancel: cancel}, nil
}

// dialError is a failure to connect, with what the connection learnt.
type dialError struct {
	state *connState
	err   error
}

func (e *dialError) Error() string { return "connecting: " + e.err.Error() }
func (e *dialError) Unwrap() error { return e.err }

// do runs f on the session's connection. When the server lost the session
// (404), closed the connection, or refused the credentials (401, 410), it
// redials once and runs f once more. A response over the size cap is not
// retried.
func (s *session) do(ctx context.Context, f func(*mcp.ClientSession) error) error {
	c, err := s.current(ctx)
	if err == nil {
		err = f(c.cs)
	}
	if err == nil || ctx.Err() != nil {
		return err
	}
	if tooLarge(err, c) {
		return fmt.Errorf("%w: %w", errTooLarge, err)
	}
	if !renewable(err, c) {
		return err
	}
	s.b.log.Info("renewing an MCP session", "server", s.cfg.Name, "reason", err.Error())
	if c, err = s.renew(ctx, c); err == nil {
		err = f(c.cs)
	}
	if err != nil && tooLarge(err, c) {
		return fmt.Errorf("%w: %w", errTooLarge, err)
	}
	return err
}

// stateOf returns what is known of the connection a failure happened on.
func stateOf(err error, c *conn) *connState {
	var de *dialError
	switch {
	case errors.As(err, &de):
		return de.state
	case c != nil:
		return c.state
	}
	return nil
}

// tooLarge reports whether a failure is the size cap's doing, and clears
// the mark: the broken connection's next failure is renewed as usual.
func tooLarge(err error, c *conn) bool {
	st := stateOf(err, c)
	return st != nil && st.tooLarge.Swap(false)
}

// renewable reports whether a failure calls for a new session.
func renewable(err error, c *conn) bool {
	st := stateOf(err, c)
	return errors.Is(err, mcp.ErrSessionMissing) || errors.Is(err, mcp.ErrConnectionClosed) ||
		(st != nil && st.renew.Load())
}

// listTools returns the server's tools, from the cache while it is fresh.
func (s *session) listTools(ctx context.Context) ([]*mcp.Tool, error) {
	s.mu.Lock()
	if s.tools != nil && time.Since(s.toolsAt) < s.b.opts.ToolListTTL {
		tools := s.tools
		s.mu.Unlock()
		return tools, nil
	}
	s.mu.Unlock()
	var tools []*mcp.Tool
	err := s.do(ctx, func(cs *mcp.ClientSession) error {
		tools = tools[:0]
		for t, err := range cs.Tools(ctx, nil) {
			if err != nil {
				return err
			}
			tools = append(tools, t)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.tools, s.toolsAt = tools, time.Now()
	s.mu.Unlock()
	return tools, nil
}

// forgetTools drops the cached tool list, as the server announced that it
// changed.
func (s *session) forgetTools() {
	s.mu.Lock()
	s.tools = nil
	s.mu.Unlock()
	s.b.forgetCatalog(s.user)
}

// callTool calls a tool; report, when not nil, is told of the call's
// progress notifications.
func (s *session) callTool(ctx context.Context, name string, args any, report func(*mcp.ProgressNotificationParams)) (*mcp.CallToolResult, error) {
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	params.Meta = telemetry.InjectMeta(ctx, params.Meta) // the server's spans join the call's trace
	if report != nil {
		token := "p" + strconv.FormatUint(s.tokens.Add(1), 10)
		params.SetProgressToken(token)
		s.progress.Store(token, report)
		defer s.progress.Delete(token)
	}
	var res *mcp.CallToolResult
	err := s.do(ctx, func(cs *mcp.ClientSession) error {
		var err error
		res, err = cs.CallTool(ctx, params)
		return err
	})
	return res, err
}

func (s *session) onProgress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	if f, ok := s.progress.Load(req.Params.ProgressToken); ok {
		f.(func(*mcp.ProgressNotificationParams))(req.Params)
	}
}

// close ends the session's connection.
func (s *session) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil {
		s.conn.close()
		s.conn = nil
	}
}
