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
	"os"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/labstack/echo/v4"

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

// LimitsFromEnv reads the limits from TRIPGRAPH_MAX_BODY_BYTES,
// TRIPGRAPH_BODY_TIMEOUT, TRIPGRAPH_WRITE_TIMEOUT, TRIPGRAPH_RATE_LIMIT
// and TRIPGRAPH_RATE_BURST; unset ones keep DefaultLimits.
func LimitsFromEnv() (Limits, error) {
	l := DefaultLimits
	var err error
	set := func(key string, parse func(string) error) {
		if v := os.Getenv(key); v != "" && err == nil {
			if perr := parse(v); perr != nil {
				err = fmt.Errorf("reading %s=%q: %w", key, v, perr)
			}
		}
	}
	set("TRIPGRAPH_MAX_BODY_BYTES", positive(&l.MaxBodyBytes))
	set("TRIPGRAPH_BODY_TIMEOUT", duration(&l.BodyTimeout))
	set("TRIPGRAPH_WRITE_TIMEOUT", duration(&l.WriteTimeout))
	set("TRIPGRAPH_RATE_LIMIT", func(v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err == nil && f <= 0 {
			err = errors.New("must be above 0")
		}
		l.RatePerSec = f
		return err
	})
	set("TRIPGRAPH_RATE_BURST", func(v string) error {
		var n int64
		err := positive(&n)(v)
		l.RateBurst = int(n)
		return err
	})
	return l, err
}

func positive(dst *int64) func(string) error {
	return func(v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err == nil && n <= 0 {
			err = errors.New("must be above 0")
		}
		*dst = n
		return err
	}
}

func duration(dst *time.Duration) func(string) error {
	return func(v string) error {
		d, err := time.ParseDuration(v)
		if err == nil && d <= 0 {
			err = errors.New("must be above 0")
		}
		*dst = d
		return err
	}
}

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
	s.pool = newPool(s, cfg.Workers)
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

// Close stops the worker pool, handing back the runs it held, and releases
// what New opened.
func (s *Server) Close() error {
	s.pool.stop()
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
