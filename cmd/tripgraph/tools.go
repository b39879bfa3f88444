package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/nodes"
)

func init() {
	register(command{
		name:    "tools",
		summary: `list or call the tools of any MCP server through the bridge: tools list|call --server URL | --command "…" [--header K:V] [NAME [JSON]]`,
		run: func(ctx context.Context, cfg config.Config, args []string) error {
			return runTools(ctx, cfg, args, os.Stdout)
		},
	})
}

// headerFlags collects repeated --header K:V flags.
type headerFlags map[string]string

func (h headerFlags) String() string { return "" }

func (h headerFlags) Set(v string) error {
	k, val, ok := strings.Cut(v, ":")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("want a header as Name:value, not %q", v)
	}
	h[strings.TrimSpace(k)] = strings.TrimSpace(val)
	return nil
}

// runTools lists a server's tools, or calls one and prints its result,
// like the MCP Inspector's command line.
func runTools(ctx context.Context, cfg config.Config, args []string, w io.Writer) error {
	if len(args) == 0 || (args[0] != "list" && args[0] != "call") {
		return errors.New(`want "tools list" or "tools call NAME [JSON arguments]"`)
	}
	verb := args[0]
	fs := flag.NewFlagSet("tools "+verb, flag.ContinueOnError)
	server := fs.String("server", "", "the server's URL (Streamable HTTP, or the legacy SSE endpoint with --sse)")
	sse := fs.Bool("sse", false, "speak the legacy HTTP+SSE transport to --server")
	command := fs.String("command", "", `a stdio server's command line, e.g. "tripgraph mcp --user demo"`)
	headers := headerFlags{}
	fs.Var(headers, "header", "an HTTP header to send, as Name:value (repeatable)")
	timeout := fs.Duration("timeout", mcpbridge.DefaultTimeout, "the deadline of each request")
	asJSON := fs.Bool("json", false, "list the tools as JSON, with their input schemas")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	sc, err := toolsServer(*server, *sse, *command, headers, *timeout)
	if err != nil {
		return err
	}
	// The operator at the terminal sees the real cause of a failure, which
	// the bridge logs and keeps out of its errors.
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	b, err := mcpbridge.New(mcpbridge.Options{Servers: []mcpbridge.ServerConfig{sc}, Logger: log})
	if err != nil {
		return err
	}
	defer b.Close()
	tools := b.For(mcpbridge.User{}) // the server is the operator's: no user of ours
	if verb == "list" {
		return listTools(ctx, tools, w, *asJSON)
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		return errors.New(`want "tools call [flags] NAME [JSON arguments]"`)
	}
	input := "{}"
	if fs.NArg() == 2 {
		input = fs.Arg(1)
	}
	res, err := tools.Call(ctx, fs.Arg(0), json.RawMessage(input))
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(res.Full)
}

// toolsServer is the one server the command talks to, configured by the
// operator at the command line.
func toolsServer(server string, sse bool, command string, headers map[string]string, timeout time.Duration) (mcpbridge.ServerConfig, error) {
	cfg := mcpbridge.ServerConfig{Enabled: true, Headers: headers, Timeout: timeout}
	switch {
	case (server == "") == (command == ""):
		return cfg, errors.New("give either --server URL or --command \"…\"")
	case command != "":
		cfg.Transport, cfg.Command = mcpbridge.Stdio, strings.Fields(command)
		cfg.Name = filepath.Base(cfg.Command[0])
		return cfg, nil
	}
	u, err := url.Parse(server)
	if err != nil {
		return cfg, fmt.Errorf("reading --server: %w", err)
	}
	cfg.Name = u.Host
	switch {
	case sse:
		cfg.Transport, cfg.URL = mcpbridge.SSE, server
	default:
		cfg.Transport, cfg.URL = mcpbridge.Streamable, server
	}
	return cfg, nil
}

func listTools(ctx context.Context, t nodes.Tools, w io.Writer, asJSON bool) error {
	tools, err := t.List(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(tools)
	}
	for _, t := range tools {
		summary, _, _ := strings.Cut(strings.TrimSpace(t.Description), "\n")
		if r := []rune(summary); len(r) > 100 {
			summary = string(r[:99]) + "…"
		}
		fmt.Fprintf(w, "%-28s %s\n", t.Name, summary)
	}
	return nil
}
