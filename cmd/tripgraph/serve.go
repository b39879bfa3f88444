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
	"runtime"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/model"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/server"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/jwtauth"
	"github.com/tripgraph/tripgraph/server/runner"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/store/checkpoint"
	"github.com/tripgraph/tripgraph/store/quota"
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
	n, err := st.Catalog.CountCities(ctx)
	if err != nil || n > 0 {
		return err
	}
	log.Info("the catalog is empty: seeding it")
	err = seed.Run(ctx, st, seed.Options{Cities: catalogCities(catalogSize), DemoUser: demoUser,
		Progress: func(format string, args ...any) { log.Info(fmt.Sprintf(format, args...)) }})
	if err != nil {
		return err
	}
	return rememberDemo(ctx, st, demoUser)
}

func runServe(ctx context.Context, cfg config.Config, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", cfg.HTTP.Addr, "listening address (host:port)")
	publicURL := fs.String("public-url", cfg.HTTP.PublicURL, "the URL clients reach this server at (default http://ADDR)")
	welcome := fs.Bool("welcome", false, "print the address, a new API key for the demo user and a first request to try (what make run does)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.Default() // JSON lines: see servingLog
	stopTracing, err := startTracing(ctx, cfg.Tracing, log)
	if err != nil {
		return err
	}
	defer stopTracing() // last: the spans of the shutdown are sent too
	if cfg.Runner.Workers == 0 {
		cfg.Runner.Workers = runner.DefaultWorkers()
	}
	env, err := openServing(ctx, cfg, log, cfg.DBPool(runtime.GOMAXPROCS(0)))
	if err != nil {
		return err
	}
	defer env.st.Close()
	defer logPoolStats(env.st, log)
	_, stopProfiling, err := startProfiling(cfg.HTTP.PprofAddr, log)
	if err != nil {
		return err
	}
	defer stopProfiling()
	stopSweeper := startSweeper(ctx, env.st, cfg.Storage.ThreadTTL, log)
	defer stopSweeper()
	stopPartitions := startPartitions(ctx, env.st, cfg.Storage.RunEventsTTL, log)
	defer stopPartitions()
	if err := seedIfEmpty(ctx, env.st, log); err != nil {
		return err
	}
	base := orDefault(*publicURL, "http://"+*addr)
	api, err := newAPI(ctx, cfg, env, base, log)
	if err != nil {
		return err
	}
	defer api.Close()
	mcpOpts := mcpHTTPOptions(cfg.MCP)
	mcpOpts.Authenticate, mcpOpts.AllowedOrigins, mcpOpts.Logger = env.authenticate(), cfg.HTTP.AllowedOrigins, log
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
		grace, cancel := context.WithTimeout(context.Background(), cfg.Runner.ShutdownGrace)
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

// printWelcome prints the server's address, a one-time link that opens
// the demo user's account in a browser, and a new API key for the demo
// user with a curl line that streams a first run.
func printWelcome(ctx context.Context, w io.Writer, st *store.Store, srv *server.Server, base string) error {
	demo, err := st.Accounts.UserByName(ctx, demoUser)
	if err != nil {
		return fmt.Errorf("finding the demo user for the welcome: %w", err)
	}
	link, err := srv.LoginLink(ctx, base, demo.ID)
	if err != nil {
		return err
	}
	key, _, err := st.Accounts.CreateAPIKey(ctx, accounts.NewKey{UserID: demo.ID, Label: "make run"})
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
func newAPI(ctx context.Context, cfg config.Config, env *serving, publicURL string, log *slog.Logger) (api, error) {
	m, err := modelConfig(cfg.Model).Open(ctx)
	if err != nil {
		return api{}, err
	}
	m = tracedModel(m, cfg.Model.Spec)
	reg, err := userRegistry(env.st, cfg.Servers)
	if err != nil {
		return api{}, err
	}
	planner, bridge, err := newPlanner(ctx, m, env, reg, publicURL, log)
	if err != nil {
		return api{}, err
	}
	l := cfg.Limits
	srvCfg := server.Config{Data: server.OnPostgres(env.st, reg), Planner: planner, Tools: tenant.Bridge(bridge), Logger: log,
		Limits: httpx.Limits{MaxBodyBytes: l.MaxBodyBytes, BodyTimeout: l.BodyTimeout, WriteTimeout: l.WriteTimeout,
			RatePerSec: l.RatePerSec, RateBurst: l.RateBurst, MaxStreams: l.MaxStreams},
		Workers: cfg.Runner.Workers, RunLease: cfg.Runner.Lease, SessionTTL: l.SessionTTL,
		CORSOrigins: cfg.HTTP.CORSOrigins, PublicURL: publicURL, ActForEndUsers: cfg.EndUsers.ActFor}
	if cfg.EndUsers.JWTIssuer != "" {
		if srvCfg.EndUserTokens, err = endUserTokens(ctx, cfg.EndUsers, log); err != nil {
			bridge.Close()
			return api{}, err
		}
	}
	srv, err := server.New(srvCfg)
	if err != nil {
		bridge.Close()
		return api{}, err
	}
	srv.Start()
	return api{Server: srv, close: bridge.Close}, nil
}

// endUserTokens verifies the tokens of the identity provider the
// configuration names; ctx ends the refreshes of its keys.
func endUserTokens(ctx context.Context, c config.EndUsers, log *slog.Logger) (*jwtauth.Verifier, error) {
	return jwtauth.New(ctx, jwtauth.Config{Issuer: c.JWTIssuer, JWKSURL: c.JWTJWKSURL, Audience: c.JWTAudience,
		Algorithms: c.JWTAlgorithms, ClockSkew: c.JWTClockSkew, Logger: log})
}

// modelConfig is the model's part of the configuration.
func modelConfig(c config.Model) model.Config {
	return model.Config{Spec: c.Spec, OpenAIKey: c.OpenAIKey, OpenAIBaseURL: c.OpenAIBaseURL,
		AnthropicKey: c.AnthropicKey, GoogleKey: c.GoogleKey, Delay: c.Delay}
}

// quotaLimits are what the configuration lets each user keep and run.
func quotaLimits(c config.Quota) quota.Limits {
	return quota.Limits{Crons: c.MaxCrons, CronInterval: c.CronMinInterval, Items: c.MaxStoreItems,
		ItemBytes: int64(c.MaxStoreBytes), ActiveRuns: c.MaxActiveRuns}
}

// checkpointerOptions are the checkpointer's part of the configuration:
// its cache, of which 0 means none.
func checkpointerOptions(c config.Storage) checkpoint.Options {
	if c.CheckpointCache == 0 {
		return checkpoint.Options{CacheBytes: -1}
	}
	return checkpoint.Options{CacheBytes: int64(c.CheckpointCache)}
}
