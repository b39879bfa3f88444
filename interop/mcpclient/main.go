// Command mcpclient runs tripgraph's MCP bridge as the client under test
// of the MCP conformance suite. As the suite calls clients, it takes the
// server's URL as its last argument and the scenario's name from
// MCP_CONFORMANCE_SCENARIO; it exits non-zero when the bridge fails.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/nodes"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mcpclient [flags…] SERVER_URL (with MCP_CONFORMANCE_SCENARIO set)")
		os.Exit(2)
	}
	url := os.Args[len(os.Args)-1]
	scenario := os.Getenv("MCP_CONFORMANCE_SCENARIO")
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Second)
	defer cancel()
	if err := run(ctx, scenario, url); err != nil {
		fmt.Fprintf(os.Stderr, "mcpclient %s: %v\n", scenario, err)
		os.Exit(1)
	}
}

// run plays one scenario: every scenario connects and lists the tools;
// tools_call then adds two numbers, and the others call each tool with
// no arguments.
func run(ctx context.Context, scenario, url string) error {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	b, err := mcpbridge.New(mcpbridge.Options{
		Servers: []mcpbridge.ServerConfig{{Name: "conformance", Transport: mcpbridge.Streamable, URL: url, Enabled: true, Timeout: 20 * time.Second}},
		Logger:  log,
	})
	if err != nil {
		return err
	}
	defer b.Close()
	user := b.For(mcpbridge.User{})
	tools, err := user.List(ctx)
	if err != nil {
		return fmt.Errorf("listing tools: %w", err)
	}
	switch scenario {
	case "initialize":
		return nil
	case "tools_call":
		return call(ctx, user, "add_numbers", `{"a":5,"b":3}`)
	}
	for _, t := range tools {
		if err := call(ctx, user, t.Name, `{}`); err != nil {
			return err
		}
	}
	return nil
}

func call(ctx context.Context, tools nodes.Tools, name, args string) error {
	res, err := tools.Call(ctx, name, json.RawMessage(args))
	if err != nil {
		return fmt.Errorf("calling %s: %w", name, err)
	}
	fmt.Printf("%s: %s\n", name, res.Full)
	return nil
}
