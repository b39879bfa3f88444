// Package server is tripgraph's HTTP front door: the REST API that the
// LangGraph server's official clients drive (assistants, threads, state,
// history, runs and their SSE streams), the AI SDK's chat stream, the
// user's MCP servers and tool outputs, and the worker pool that executes
// queued runs; with API-key auth, per-key rate limits, body caps,
// timeouts, request ids, JSON logs, Prometheus metrics and an OpenAPI
// description. Wire types live in server/internal/wire.
package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/secretbox"
	"github.com/tripgraph/tripgraph/store"
)

// Config is what a Server needs.
type Config struct {
	Store *store.Store
	// Planner is the compiled trip planner, on Checkpoints.
	Planner *nodes.Graph
	// Checkpoints is the planner's checkpointer, not scoped to an owner:
	// the server checks that a thread is the user's before using it.
	Checkpoints graph.Checkpointer
	Logger      *slog.Logger
	Limits      Limits
	// Workers is how many runs this process executes at once, once Start
	// is called; DefaultWorkers when 0 (see WorkersFromEnv).
	Workers int
	// RunLease is how long a worker's claim on a run lasts; it is renewed
	// every third of it, and a run whose process died is taken over once
	// it lapses. DefaultRunLease when 0 (see RunLeaseFromEnv).
	RunLease time.Duration
	// Guard vets the URLs of the MCP servers users add; when nil, a guard
	// with no exceptions.
	Guard *netguard.Guard
	// Box seals the secrets of those servers; when nil, a server with a
	// secret is refused (UNAVAILABLE).
	Box *secretbox.Box
	// SessionTTL is how long a browser session lasts; DefaultSessionTTL
	// when 0 (see SessionTTLFromEnv).
	SessionTTL time.Duration
}

// Limits bound what one request or one API key may cost.
type Limits struct {
	MaxBodyBytes int64         // request bodies above this are refused (413)
	BodyTimeout  time.Duration // the whole body must arrive within this (408)
	WriteTimeout time.Duration // a non-streaming answer must be written within this
	RatePerSec   float64       // requests per second per API key, on average
	RateBurst    int           // requests an API key may send at once
}

// DefaultLimits are the limits when nothing is configured.
var DefaultLimits = Limits{MaxBodyBytes: 1 << 20, BodyTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second,
	RatePerSec: 10, RateBurst: 40}

// Server is the HTTP API. Build it with New and serve Handler.
type Server struct {
	echo    *echo.Echo
	store   *store.Store
	planner *nodes.Graph
	cps     graph.Checkpointer
	log     *slog.Logger
	limits  Limits
	limiter *limiter
	metrics *metrics
	db      *sql.DB // the store's pool as database/sql, for the migrations check
	routes  []route
	pages   []route // the browser's routes, kept out of the OpenAPI description
	pool    *pool
	// closing ends, with cause errShuttingDown, when Shutdown closes the
	// streams; closeStreams ends it.
	closing      context.Context
	closeStreams context.CancelCauseFunc
	// registry is the users' MCP servers, with the guard and box of Config.
	registry store.MCPServers
	// sessionTTL is how long a browser session lasts.
	sessionTTL time.Duration
}

// New builds the API and registers its routes.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil || cfg.Planner == nil || cfg.Checkpoints == nil {
		return nil, errors.New("building the HTTP server: a store, the planner and its checkpointer are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Limits == (Limits{}) {
		cfg.Limits = DefaultLimits
	}
	if cfg.Limits.RateBurst < 1 || cfg.Limits.RatePerSec <= 0 || cfg.Limits.MaxBodyBytes <= 0 {
		return nil, errors.New("building the HTTP server: limits must be above 0")
	}
	s := &Server{store: cfg.Store, planner: cfg.Planner, cps: cfg.Checkpoints, log: cfg.Logger,
		limits: cfg.Limits, limiter: newLimiter(cfg.Limits.RatePerSec, cfg.Limits.RateBurst),
		metrics: newMetrics(cfg.Store, cfg.Logger), db: stdlib.OpenDBFromPool(cfg.Store.Pool)}
	if cfg.Guard == nil {
		g, err := netguard.New(netguard.Options{})
		if err != nil {
			return nil, fmt.Errorf("building the HTTP server: %w", err)
		}
		cfg.Guard = g
	}
	s.registry = store.MCPServers{Store: cfg.Store, Guard: cfg.Guard, Box: cfg.Box}
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers
	}
	if cfg.RunLease == 0 {
		cfg.RunLease = DefaultRunLease
	}
	if cfg.RunLease < minRunLease {
		return nil, fmt.Errorf("building the HTTP server: a run lease must be at least %s", minRunLease)
	}
	s.pool = newPool(s, cfg.Workers, cfg.RunLease)
	s.closing, s.closeStreams = context.WithCancelCause(context.Background())
	s.sessionTTL = cfg.SessionTTL
	if s.sessionTTL <= 0 {
		s.sessionTTL = DefaultSessionTTL
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = ErrorHandler(cfg.Logger)
	e.Use(requestID, s.observe)
	s.echo = e
	s.registerAPI()
	s.registerPages()
	s.registerLive()
	return s, nil
}

// Handler is the server's http.Handler.
func (s *Server) Handler() http.Handler { return s.echo }

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
	s.pool.drain(ctx)
	s.closeStreams(errShuttingDown)
}

// errShuttingDown is what a stream or a wait that Shutdown ended tells its
// client.
var errShuttingDown = errcode.New(errcode.Unavailable,
	"the server is shutting down: join the run again, from the Last-Event-ID of the last event received")

// untilShutdown returns a context derived from parent that also ends, with
// cause errShuttingDown, when Shutdown closes the streams. Call stop when
// done with it.
func (s *Server) untilShutdown(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	unhook := context.AfterFunc(s.closing, func() { cancel(context.Cause(s.closing)) })
	return ctx, func() { unhook(); cancel(context.Canceled) }
}

// shutdownCause is errShuttingDown when ctx (from untilShutdown) ended for
// Shutdown, whatever err the call it cut short returned; err otherwise.
func shutdownCause(ctx context.Context, err error) error {
	if errors.Is(context.Cause(ctx), errShuttingDown) {
		return errShuttingDown
	}
	return err
}

// Close stops the worker pool at once, handing back the runs it held,
// ends the open streams as Shutdown does, and releases what New opened.
func (s *Server) Close() error {
	now, cancel := context.WithCancel(context.Background())
	cancel()
	s.Shutdown(now)
	return s.db.Close()
}

// Mount serves h at method and path (an echo path: ":name" for a segment,
// "*" for the rest) with the server's request ids, logs and metrics, but
// with no auth, body cap or deadline of its own: h brings its own (the MCP
// endpoint and the media routes do). It is documented in the OpenAPI
// description with summary.
func (s *Server) Mount(method, path, summary string, h http.Handler) {
	s.add(route{method: method, path: path, summary: summary, handler: echo.WrapHandler(h), mounted: true})
}

// ctx is a request's context.
func ctx(c echo.Context) context.Context { return c.Request().Context() }
