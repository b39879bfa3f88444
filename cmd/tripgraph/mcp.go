package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/media"
	"github.com/tripgraph/tripgraph/store"
)

func init() {
	register(command{
		name:    "mcp",
		summary: "serve the album, accommodation and restaurant MCP tools over stdio or Streamable HTTP",
		run:     runMCP,
		serving: true,
	})
}

// photoURLTTL is how long the signed photo URLs in tool results work.
const photoURLTTL = time.Hour

func runMCP(ctx context.Context, cfg config.Config, args []string) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	transport := fs.String("transport", "stdio", "stdio or http")
	addr := fs.String("addr", cfg.MCP.StandaloneAddr, "HTTP listening address (host:port)")
	authMode := fs.String("auth", "bearer", "HTTP authentication: bearer (an MCP_SECRET token or an API key) or none (loopback only, needs --user)")
	userName := fs.String("user", cfg.MCP.User, "the user to act as over stdio or with --auth none")
	publicURL := fs.String("public-url", cfg.HTTP.PublicURL, "the URL clients reach this server at, for photo links (default http://ADDR)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.Default() // JSON lines: see servingLog
	switch *transport {
	case "stdio":
		if *userName == "" {
			return errors.New("over stdio the user comes from --user or TRIPGRAPH_USER; neither is set")
		}
	case "http":
		if err := checkAuthMode(*authMode, *addr, *userName); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown --transport %q: want stdio or http", *transport)
	}

	env, err := openServing(ctx, cfg, log, 0)
	if err != nil {
		return err
	}
	defer env.st.Close()
	tools := env.mcpConfig(orDefault(*publicURL, "http://"+*addr), log)
	if *userName != "" && (*transport == "stdio" || *authMode == "none") {
		u, err := env.st.Accounts.UserByName(ctx, *userName)
		if err != nil {
			return fmt.Errorf("finding user %q (run tripgraph seed for the demo user): %w", *userName, err)
		}
		tools.User = u.ID
	}
	if *transport == "stdio" {
		if note := stdioLinksNote(*publicURL, env.secret); note != "" {
			log.Warn(note)
			tools.URLs, tools.LinksNote = media.URLs{}, note
		}
		log.Info("serving MCP on stdio", "user", *userName)
		return mcpserver.New(tools).Run(ctx, &mcpserver.StdioTransport{})
	}
	httpOpts := mcpHTTPOptions(cfg.MCP)

	var authenticate func(context.Context, string) (string, error)
	if *authMode == "bearer" {
		authenticate = env.authenticate()
	} else {
		log.Warn("MCP authentication is off: every request acts as this user", "user", *userName, "addr", *addr)
	}
	mux := http.NewServeMux()
	httpOpts.Authenticate, httpOpts.AllowedOrigins, httpOpts.Logger = authenticate, cfg.HTTP.AllowedOrigins, log
	mux.Handle("/mcp", mcpserver.NewHTTPHandler(mcpserver.New(tools), httpOpts))
	env.mediaHandler(log).Register(mux)
	return listenAndServe(ctx, *addr, mux, log, nil)
}

// checkAuthMode refuses --auth none anywhere but on a loopback address.
func checkAuthMode(mode, addr, user string) error {
	switch mode {
	case "bearer":
		return nil
	case "none":
		if user == "" {
			return errors.New("--auth none needs --user NAME: the user every request acts as")
		}
		if !mcpserver.IsLoopbackAddr(addr) {
			return fmt.Errorf("refusing --auth none on %s: without authentication the server may listen only on a loopback address such as 127.0.0.1:8081", addr)
		}
		return nil
	}
	return fmt.Errorf("unknown --auth %q: want bearer or none", mode)
}

// serving is what the MCP tools and the media routes share.
type serving struct {
	st        *store.Store
	secret    []byte // MCP_SECRET: verifies bearer tokens; nil when unset
	urlSecret []byte // signs photo URLs: MCP_SECRET, else random per process
	mediaRoot string
}

// openServing migrates and opens the database, with the secrets and the
// media root of the configuration.
func openServing(ctx context.Context, cfg config.Config, log *slog.Logger, dbPool int32) (*serving, error) {
	st, err := openStoreWith(ctx, cfg.Database, store.Options{MaxConns: dbPool, Checkpoints: checkpointerOptions(cfg.Storage),
		Limits: quotaLimits(cfg.Quota), Tracer: statementTracer(), ReplicaURL: cfg.Database.ReplicaURL})
	if err != nil {
		return nil, err
	}
	s := &serving{st: st, mediaRoot: cfg.HTTP.MediaRoot}
	if v := cfg.MCP.Secret; v != "" {
		s.secret, s.urlSecret = []byte(v), []byte(v)
	} else {
		log.Warn("MCP_SECRET is not set: bearer tokens are refused (API keys still work) and photo links last only as long as this process")
		s.urlSecret = make([]byte, 32)
		rand.Read(s.urlSecret)
	}
	if err := os.MkdirAll(s.mediaRoot, 0o755); err != nil {
		st.Close()
		return nil, fmt.Errorf("making the media root: %w", err)
	}
	return s, nil
}

func (s *serving) authenticate() func(context.Context, string) (string, error) {
	return mcpserver.Authenticator(s.st.Accounts, s.secret)
}

func (s *serving) mcpConfig(publicURL string, log *slog.Logger) mcpserver.Config {
	return mcpserver.Config{
		Backend: s.st.Catalog,
		URLs:    media.URLs{Base: strings.TrimSuffix(publicURL, "/"), Secret: s.urlSecret, TTL: photoURLTTL},
		Resolve: resolvePlace,
		Logger:  log,
	}
}

// stdioLinksNote says why the tools served over stdio give no photo or
// picture links, or is empty when they can. Over stdio nothing of this
// process serves the links: they work only at the public URL of a
// tripgraph serve that shares MCP_SECRET (without it, a link would be
// signed with this process's random key, which no server accepts).
func stdioLinksNote(publicURL string, secret []byte) string {
	var missing []string
	if publicURL == "" {
		missing = append(missing, "TRIPGRAPH_PUBLIC_URL (the URL of a running tripgraph serve)")
	}
	if len(secret) == 0 {
		missing = append(missing, "MCP_SECRET (the same as that server's)")
	}
	if len(missing) == 0 {
		return ""
	}
	return "photo and picture links are off over stdio; to enable them, set " + strings.Join(missing, " and ")
}

// mcpHTTPOptions are the limits of the MCP HTTP handler.
func mcpHTTPOptions(c config.MCP) mcpserver.HTTPOptions {
	return mcpserver.HTTPOptions{MaxSessions: c.MaxSessions, SessionTimeout: c.SessionTimeout, MaxBatch: c.MaxBatch,
		MaxBatchResultBytes: c.MaxBatchResultBytes, MaxBodyBytes: c.MaxRequestBytes, BodyTimeout: c.RequestBodyTimeout}
}

func (s *serving) mediaHandler(log *slog.Logger) *media.Handler {
	return &media.Handler{Root: s.mediaRoot, Secret: s.urlSecret, Photos: s.st.Catalog, Authenticate: s.authenticate(), Logger: log}
}

// listenAndServe serves h on addr until ctx ends, then shuts down: new
// connections are refused at once, then drain (when not nil) runs while
// the requests under way go on, and those still going after it get 10 s
// more to end before they are cut.
func listenAndServe(ctx context.Context, addr string, h http.Handler, log *slog.Logger, drain func()) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelError)}
	log.Info("listening", "addr", ln.Addr().String())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	stopping, cut := context.WithCancel(context.Background())
	defer cut()
	stopped := make(chan error, 1)
	go func() { stopped <- srv.Shutdown(stopping) }()
	if drain != nil {
		drain()
	}
	last := time.AfterFunc(10*time.Second, cut)
	defer last.Stop()
	if err := <-stopped; err != nil {
		srv.Close()
		return fmt.Errorf("shutting down: %w", err)
	}
	log.Info("shut down")
	return nil
}

func orDefault(v, def string) string {
	if v != "" {
		return v
	}
	return def
}
