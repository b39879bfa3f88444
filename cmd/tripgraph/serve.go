package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/tripgraph/tripgraph/demotools"
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/model"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/server"
	"github.com/tripgraph/tripgraph/store"
)

func init() {
	register(command{
		name:    "serve",
		summary: "migrate, seed an empty catalog, and serve the REST API, the MCP tools on /mcp and the photos on /media",
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
	limits, err := server.LimitsFromEnv()
	if err != nil {
		return err
	}
	env, err := openServing(ctx, log)
	if err != nil {
		return err
	}
	defer env.st.Close()
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
	api, err := newAPI(ctx, env, limits, log)
	if err != nil {
		return err
	}
	defer api.Close()
	mcp := mcpserver.NewHTTPHandler(mcpserver.New(env.mcpConfig(orDefault(*publicURL, "http://"+*addr))),
		mcpserver.HTTPOptions{Authenticate: env.authenticate(), AllowedOrigins: allowedOrigins(), Logger: log})
	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodDelete, http.MethodOptions} {
		api.Mount(method, "/mcp", "The MCP tools over Streamable HTTP (bearer token or API key)", mcp)
	}
	media := http.NewServeMux()
	env.mediaHandler(log).Register(media)
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		api.Mount(method, "/media/photos/:id", "A photo, by signed link or bearer credential", media)
		api.Mount(method, "/media/pictures/:kind/:file", "A generated catalog picture", media)
	}
	return listenAndServe(ctx, *addr, api.Handler(), log)
}

// newAPI builds the REST API on the trip planner, whose checkpoints are in
// the store. Runs are not served yet, so the planner's tools are the
// in-process demo tools; it is used for thread state and history.
func newAPI(ctx context.Context, env *serving, limits server.Limits, log *slog.Logger) (*server.Server, error) {
	m, err := model.New(ctx, os.Getenv("TRIPGRAPH_MODEL"))
	if err != nil {
		return nil, err
	}
	cps := env.st.Checkpointer(store.CheckpointerOptions{})
	planner, err := nodes.Build(nodes.Deps{Model: m, Tools: demotools.New()}, cps)
	if err != nil {
		return nil, err
	}
	return server.New(server.Config{Store: env.st, Planner: planner, Checkpoints: cps, Logger: log, Limits: limits})
}
