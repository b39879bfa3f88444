package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/seed"
)

func init() {
	register(command{
		name:    "serve",
		summary: "migrate, seed an empty catalog, and serve the MCP tools on /mcp and the photos on /media",
		run:     runServe,
	})
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
	if n, err := env.st.CountCities(ctx); err != nil {
		return err
	} else if n == 0 {
		log.Info("the catalog is empty: seeding it")
		err := seed.Run(ctx, env.st, seed.Options{Cities: catalogCities(500), DemoUser: "demo",
			Progress: func(format string, args ...any) { log.Info(fmt.Sprintf(format, args...)) }})
		if err != nil {
			return err
		}
	}
	httpOpts, err := httpOptionsFromEnv()
	if err != nil {
		return err
	}
	httpOpts.Authenticate, httpOpts.AllowedOrigins, httpOpts.Logger = env.authenticate(), allowedOrigins(), log
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
