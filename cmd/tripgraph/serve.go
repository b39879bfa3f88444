package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/model"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/store"
)

func init() {
	register(command{
		name:    "serve",
		summary: "migrate, seed an empty catalog, and serve the MCP tools on /mcp and the photos on /media",
		run:     runServe,
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
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	env, err := openServing(ctx, log)
	if err != nil {
		return err
	}
	defer env.st.Close()
	stopSweeper, err := startSweeper(ctx, env.st, log)
	if err != nil {
		return err
	}
	defer stopSweeper()
	if err := seedIfEmpty(ctx, env.st, log); err != nil {
		return err
	}
	httpOpts, err := httpOptionsFromEnv()
	if err != nil {
		return err
	}
	httpOpts.Authenticate, httpOpts.AllowedOrigins, httpOpts.Logger = env.authenticate(), allowedOrigins(), log
	m, err := model.New(ctx, os.Getenv("TRIPGRAPH_MODEL"))
	if err != nil {
		return err
	}
	planner, bridge, err := newPlanner(m, env, orDefault(*publicURL, "http://"+*addr), log)
	if err != nil {
		return err
	}
	defer bridge.Close() // closes every MCP session at shutdown
	_ = planner          // the trip planner on the bridge, for the HTTP API to run
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcpserver.NewHTTPHandler(mcpserver.New(env.mcpConfig(orDefault(*publicURL, "http://"+*addr), log)), httpOpts))
	env.mediaHandler(log).Register(mux)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if err := env.st.Pool.Ping(r.Context()); err != nil {
			http.Error(w, "database unavailable", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	})
	return listenAndServe(ctx, *addr, mux, log)
}
