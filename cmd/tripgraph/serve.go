package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/model"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/server"
	"github.com/tripgraph/tripgraph/store"
)

func init() {
	register(command{
		name:    "serve",
		summary: "migrate, seed an empty catalog, and serve the REST API, the MCP tools on /mcp and the photos on /media",
		run:     runServe,
		serving: true,
	})
}

// seedIfEmpty seeds the catalog and the demo user when there are no
// cities yet.
func seedIfEmpty(ctx context.Context, st *store.Store, log *slog.Logger) error {
	n, err := st.CountCities(ctx)
	if err != nil || n > 0 {
		return err
	}
	log.Info("the catalog is empty: seeding it")
	return seed.Run(ctx, st, seed.Options{Cities: catalogCities(catalogSize), DemoUser: demoUser,
		Progress: func(format string, args ...any) { log.Info(fmt.Sprintf(format, args...)) }})
}

func runServe(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", envOr("TRIPGRAPH_ADDR", "127.0.0.1:8080"), "listening address (host:port)")
	publicURL := fs.String("public-url", os.Getenv("TRIPGRAPH_PUBLIC_URL"), "the URL clients reach this server at (default http://ADDR)")
	welcome := fs.Bool("welcome", false, "print the address, a new API key for the demo user and a first request to try (what make run does)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.Default() // JSON lines: see servingLog
	limits, err := server.LimitsFromEnv()
	if err != nil {
		return err
	}
	mcpOpts, err := httpOptionsFromEnv()
	if err != nil {
		return err
	}
	set, err := serveSettingsFromEnv()
	if err != nil {
		return err
	}
	env, err := openServing(ctx, log, set.dbPool)
	if err != nil {
		return err
	}
	defer env.st.Close()
	defer logPoolStats(env.st, log)
	stopSweeper, err := startSweeper(ctx, env.st, log)
	if err != nil {
		return err
	}
	defer stopSweeper()
	if err := seedIfEmpty(ctx, env.st, log); err != nil {
		return err
	}
	base := orDefault(*publicURL, "http://"+*addr)
	api, err := newAPI(ctx, env, base, limits, set, log)
	if err != nil {
		return err
	}
	defer api.Close()
	mcpOpts.Authenticate, mcpOpts.AllowedOrigins, mcpOpts.Logger = env.authenticate(), allowedOrigins(), log
	mcp := mcpserver.NewHTTPHandler(mcpserver.New(env.mcpConfig(base, log)), mcpOpts)
	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodDelete, http.MethodOptions} {
		api.Mount(method, "/mcp", "The MCP tools over Streamable HTTP (bearer token or API key)", mcp)
	}
	media := http.NewServeMux()
	mh := env.mediaHandler(log)
	mh.Session = api.SessionUser // a signed-in browser's pages load its photos
	mh.Register(media)
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		api.Mount(method, "/media/photos/:id", "A photo, by signed link or bearer credential", media)
		api.Mount(method, "/media/pictures/:kind/:file", "A generated catalog picture", media)
	}
	if *welcome {
		if err := printWelcome(ctx, os.Stdout, env.st, api.Server, base); err != nil {
			return err
		}
	}
	return listenAndServe(ctx, *addr, api.Handler(), log, func() {
		grace, cancel := context.WithTimeout(context.Background(), set.grace)
		defer cancel()
		api.Shutdown(grace)
	})
}

// logPoolStats logs how much the database pool was waited for: the
// acquires that found no idle connection, and the time all acquires took.
func logPoolStats(st *store.Store, log *slog.Logger) {
	ps := st.Pool.Stat()
	log.Info("database pool", "max_conns", ps.MaxConns(), "acquires", ps.AcquireCount(),
		"acquires_waited", ps.EmptyAcquireCount(), "acquire_ms_total", ps.AcquireDuration().Milliseconds(),
		"acquire_wait_ms_total", ps.EmptyAcquireWaitTime().Milliseconds())
}

// serveSettings are how serve sizes and paces its run workers.
type serveSettings struct {
	workers int
	lease   time.Duration // a worker's claim on a run
	grace   time.Duration // how long runs may go on once asked to stop
	dbPool  int32         // connections in the database pool
}

func serveSettingsFromEnv() (serveSettings, error) {
	var set serveSettings
	var err error
	if set.workers, err = server.WorkersFromEnv(); err != nil {
		return set, err
	}
	if set.lease, err = server.RunLeaseFromEnv(); err != nil {
		return set, err
	}
	if set.grace, err = server.ShutdownGraceFromEnv(); err != nil {
		return set, err
	}
	set.dbPool, err = dbPoolFromEnv(set.workers)
	return set, err
}

// dbPoolFromEnv reads TRIPGRAPH_DB_POOL, the most connections serve's
// database pool holds, which wins over a pool_max_conns in DATABASE_URL.
// Unset, it is sized from the workers: a running run may hold two at once
// (a checkpoint or event write, and its lease renewal), and dbPoolExtra
// more serve what runs beside the workers.
func dbPoolFromEnv(workers int) (int32, error) {
	v := os.Getenv("TRIPGRAPH_DB_POOL")
	if v == "" {
		return int32(2*workers + dbPoolExtra), nil
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err == nil && n < 2 {
		err = errors.New("must be at least 2")
	}
	if err != nil {
		return 0, fmt.Errorf("reading TRIPGRAPH_DB_POOL=%q: %w", v, err)
	}
	return int32(n), nil
}

// dbPoolExtra is the connections the default pool adds to the workers'
// for the HTTP requests (an API key's lookup, a run's insert, each open
// stream's reads after a notification, every one short), the lease
// sweeper, the thread sweeper and the metrics' scrapes. The connection
// that listens for run notifications is not from the pool.
const dbPoolExtra = 8

// printWelcome prints the server's address, a one-time link that opens
// the demo user's account in a browser, and a new API key for the demo
// user with a curl line that streams a first run.
func printWelcome(ctx context.Context, w io.Writer, st *store.Store, srv *server.Server, base string) error {
	demo, err := st.UserByName(ctx, demoUser)
	if err != nil {
		return fmt.Errorf("finding the demo user for the welcome: %w", err)
	}
	link, err := srv.LoginLink(ctx, base, demo.ID)
	if err != nil {
		return err
	}
	key, err := st.CreateAPIKey(ctx, demo.ID, "make run")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, `tripgraph is serving on %[1]s
Open the demo user's account in a browser (the link works once, for a few minutes):
  %[4]s
A new API key for the demo user: %[2]s
Stream a first run:
  curl -N %[1]s/runs/stream -H 'x-api-key: %[2]s' -H 'content-type: application/json' -d '%[3]s'
`, base, key, firstRunBody, link)
	return err
}

// firstRunBody is the request printWelcome suggests.
const firstRunBody = `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"4 nights in Lisbon in May, 3 of us"}]},"stream_mode":["custom","messages-tuple"]}`

// api is the REST API with the MCP bridge its planner calls tools through;
// Close closes both.
type api struct {
	*server.Server
	close func() error
}

func (a api) Close() error { return errors.Join(a.Server.Close(), a.close()) }

// newAPI builds the REST API on the trip planner, whose checkpoints are in
// the store and whose tools come through the MCP bridge, with its worker
// pool started: this process executes runs of the shared queue.
func newAPI(ctx context.Context, env *serving, publicURL string, limits server.Limits, set serveSettings, log *slog.Logger) (api, error) {
	m, err := model.New(ctx, os.Getenv("TRIPGRAPH_MODEL"))
	if err != nil {
		return api{}, err
	}
	cpOpts, err := store.CheckpointerOptionsFromEnv()
	if err != nil {
		return api{}, err
	}
	sessionTTL, err := server.SessionTTLFromEnv()
	if err != nil {
		return api{}, err
	}
	reg, err := userRegistry(env.st)
	if err != nil {
		return api{}, err
	}
	cps := env.st.Checkpointer(cpOpts)
	planner, bridge, err := newPlanner(m, env, reg, cps, publicURL, log)
	if err != nil {
		return api{}, err
	}
	srv, err := server.New(server.Config{Store: env.st, Planner: planner, Checkpoints: cps, Logger: log,
		Limits: limits, Workers: set.workers, RunLease: set.lease, Guard: reg.Guard, Box: reg.Box, SessionTTL: sessionTTL})
	if err != nil {
		bridge.Close()
		return api{}, err
	}
	srv.Start()
	return api{Server: srv, close: bridge.Close}, nil
}
