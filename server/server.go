// Package server assembles tripgraph's HTTP server: the REST API for
// programs (package api), the browser app (package web) and the runner
// that executes queued runs (package runner), over the shared HTTP layer
// (package httpx), with health and readiness checks, Prometheus metrics,
// the OpenAPI description of the API, handlers mounted beside them (the
// MCP endpoint, the media routes) and a graceful shutdown.
package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/api"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/metrics"
	"github.com/tripgraph/tripgraph/server/runner"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/server/web"
)

// Config is what a Server needs.
type Config struct {
	// Data is where everything is kept: OnPostgres or InMemory.
	Data Data
	// Planner is the compiled trip planner; each request and each run
	// uses it bound to its user's checkpoints, tools and memory.
	Planner *nodes.Planner
	// Tools are each user's tools (tenant.Bridge of the MCP bridge).
	Tools  func(mcpbridge.User) nodes.Tools
	Logger *slog.Logger
	// Limits bound requests; httpx.DefaultLimits when zero.
	Limits httpx.Limits
	// Workers and RunLease size and pace the runner (see runner.Config).
	Workers  int
	RunLease time.Duration
	// SessionTTL is how long a browser session lasts (see web.Config).
	SessionTTL time.Duration
	// CORSOrigins are the browser origins whose pages may call the REST
	// API with an API key (see httpx.CORS); none when empty.
	CORSOrigins []string
	// PublicURL is the server's base URL as browsers reach it: the
	// generative UI's modules are loaded from there.
	PublicURL string
	// EndUserTokens, when set, lets the REST API take the tokens of the
	// operator's identity provider (package jwtauth): each end user is a
	// user of their own.
	EndUserTokens api.Tokens
	// ActForEndUsers lets backend keys act for the end users that the
	// api.EndUserHeader names.
	ActForEndUsers bool
}

// Server is the HTTP server. Build it with New, serve Handler, and Start
// its runner.
type Server struct {
	echo    *echo.Echo
	data    Data
	log     *slog.Logger
	metrics *metrics.Metrics
	runner  *runner.Runner
	web     *web.App
	closing *httpx.Closing
	// documented are the routes the OpenAPI description shows: the API's,
	// the operations' and the mounted ones.
	documented []httpx.Route
}

// New builds the server and registers its routes.
func New(cfg Config) (*Server, error) {
	if err := cfg.Data.check(); err != nil {
		return nil, err
	}
	if cfg.Planner == nil || cfg.Tools == nil {
		return nil, errors.New("building the HTTP server: the planner and tools are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Limits == (httpx.Limits{}) {
		cfg.Limits = httpx.DefaultLimits
	}
	if cfg.Limits.RateBurst < 1 || cfg.Limits.RatePerSec <= 0 || cfg.Limits.MaxBodyBytes <= 0 || cfg.Limits.MaxStreams < 1 {
		return nil, errors.New("building the HTTP server: limits must be above 0")
	}
	s := &Server{data: cfg.Data, log: cfg.Logger, metrics: metrics.New(cfg.Data.Stats, cfg.Logger), closing: httpx.NewClosing()}
	tenants := tenant.Factory{Records: cfg.Data.Records, Planner: cfg.Planner, Tools: cfg.Tools}
	var err error
	s.runner, err = runner.New(runner.Config{Queue: cfg.Data.Queue, Crons: cfg.Data.Crons, Tenants: tenants, Metrics: s.metrics,
		Logger: cfg.Logger, Workers: cfg.Workers, Lease: cfg.RunLease})
	if err != nil {
		return nil, err
	}
	// One cap on each user's open streams: their API streams and waits and
	// their browser's live streams count together.
	streams := httpx.NewStreamCap(cfg.Limits.MaxStreams)
	rest := api.New(api.Config{Accounts: cfg.Data.Accounts, Tokens: cfg.EndUserTokens, ActForEndUsers: cfg.ActForEndUsers, Tenants: tenants, Runner: s.runner, Closing: s.closing,
		Metrics: s.metrics, Limits: cfg.Limits, Streams: streams, Logger: cfg.Logger, PublicURL: cfg.PublicURL})
	s.web = web.New(web.Config{Sessions: cfg.Data.Accounts, Tenants: tenants, Runner: s.runner, Closing: s.closing,
		Metrics: s.metrics, Limits: cfg.Limits, Streams: streams, Logger: cfg.Logger, SessionTTL: cfg.SessionTTL})

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Logger.SetOutput(io.Discard) // every error goes through ErrorHandler, which logs it with slog
	e.HTTPErrorHandler = httpx.ErrorHandler(cfg.Logger)
	e.Pre(httpx.CloseUncertainFraming)
	e.Use(httpx.Trace(), httpx.RequestIDs(), httpx.Observe(s.metrics, cfg.Logger), httpx.Recover(), httpx.NoSniff)
	if len(cfg.CORSOrigins) > 0 {
		e.Pre(httpx.CORS(cfg.CORSOrigins, servedBy(rest.Routes())))
	}
	s.echo = e
	ops := s.operations()
	for i := range ops {
		ops[i].Middleware = []echo.MiddlewareFunc{httpx.Bounded(cfg.Limits, false)}
	}
	s.documented = append(ops, rest.Routes()...)
	httpx.Register(e, s.documented)
	httpx.Register(e, s.web.Routes())
	return s, nil
}

// servedBy matches the paths of routes: a path whose first segment is the
// first segment of one of them.
func servedBy(routes []httpx.Route) func(string) bool {
	first := func(path string) string {
		seg, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
		return seg
	}
	segs := map[string]bool{}
	for _, r := range routes {
		segs[first(r.Path)] = true
	}
	return func(path string) bool { return segs[first(path)] }
}

// Handler is the server's http.Handler.
func (s *Server) Handler() http.Handler { return s.echo }

// Start starts the runner's workers: this process executes queued runs of
// every owner, from the queue every process on the database shares.
func (s *Server) Start() { s.runner.Start() }

// Shutdown is a graceful stop of this process's part in serving runs. Its
// workers stop claiming runs at once; the runs they execute go on until
// they end or ctx does, and those still going then are handed back to the
// queue, pending, for a worker of any process to claim at once and resume
// from its last checkpoint. Then every open run stream ends with an
// UNAVAILABLE error frame saying the server is shutting down (the LangGraph
// stream then sends end, the chat stream its finish), and requests waiting
// for a run's end answer 503, so that clients join the run again through
// another process, from their Last-Event-ID. The HTTP server's own
// Shutdown, which stops new requests, is the caller's.
func (s *Server) Shutdown(ctx context.Context) {
	s.runner.Drain(ctx)
	s.closing.Close()
}

// Close stops the runner at once, handing back the runs it held, ends the
// open streams as Shutdown does, and releases what New opened.
func (s *Server) Close() error {
	now, cancel := context.WithCancel(context.Background())
	cancel()
	s.Shutdown(now)
	return s.data.Close()
}

// Mount serves h at method and path (an echo path: ":name" for a segment,
// "*" for the rest) with the server's request ids, logs and metrics, but
// with no auth, body cap or deadline of its own: h brings its own (the MCP
// endpoint and the media routes do). It is documented in the OpenAPI
// description with summary.
func (s *Server) Mount(method, path, summary string, h http.Handler) {
	r := httpx.Route{Method: method, Path: path, Summary: summary, Handler: echo.WrapHandler(h), Mounted: true}
	s.echo.Add(r.Method, r.Path, r.Handler)
	s.documented = append(s.documented, r)
}

// SessionUser is the user of the browser session a request's cookie
// names, or "" without one: the media routes let a session see its user's
// photos with it.
func (s *Server) SessionUser(r *http.Request) (string, error) { return s.web.SessionUser(r) }

// LoginLink makes a one-time link that opens a browser session for the
// user, for `serve --welcome` to print; base is the server's public URL.
func (s *Server) LoginLink(ctx context.Context, base, userID string) (string, error) {
	return s.web.LoginLink(ctx, base, userID)
}
