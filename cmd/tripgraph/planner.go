package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/store/mcpservers"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/secretbox"
	"github.com/tripgraph/tripgraph/store"
)

// ourServer is tripgraph's own MCP server as a built-in of the bridge,
// served in process over the SDK's in-memory transports, on whatever
// backend cfg names. In process the bridge vouches for the user, so each
// session's server acts as the bridge's user.
func ourServer(cfg mcpserver.Config) mcpbridge.ServerConfig {
	return mcpbridge.ServerConfig{
		Name: mcpbridge.OurServer, Transport: mcpbridge.Memory, Enabled: true, Builtin: true,
		NewServer: func(user string) *mcp.Server {
			c := cfg
			c.User = user
			return mcpserver.New(c)
		},
	}
}

// newPlanner builds the trip planner and the MCP bridge its tools come
// through: our own server on the store, and each user's own servers, which
// the tenant gives the bridge, dialled through the SSRF guard.
//
// A change to a user's servers in any process sharing the database makes
// the bridge forget what it holds of that user's servers (the store's
// listener announces it), so the next run reads them afresh.
func newPlanner(ctx context.Context, m llms.Model, env *serving, reg mcpservers.Registry, publicURL string, log *slog.Logger) (*nodes.Planner, *mcpbridge.Bridge, error) {
	bridge, err := mcpbridge.New(mcpbridge.Options{
		Servers: []mcpbridge.ServerConfig{ourServer(env.mcpConfig(publicURL, log))},
		HTTP:    mcpbridge.HTTPClients{Guarded: reg.Guard.NewHTTPClient()},
		Logger:  log,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("starting the MCP bridge: %w", err)
	}
	if err := env.st.WatchMCPServers(ctx, bridge.Forget); err != nil {
		bridge.Close()
		return nil, nil, err
	}
	return buildPlanner(m, bridge)
}

// userRegistry is the users' MCP server registry on st, with the SSRF
// guard (and the hosts the operator allows) and the secret box (without
// its key, servers with a credential are refused).
func userRegistry(st *store.Store, c config.UserServers) (mcpservers.Registry, error) {
	guard, err := netguard.New(netguard.Options{Allow: c.AllowHosts})
	if err != nil {
		return mcpservers.Registry{}, fmt.Errorf("reading TRIPGRAPH_MCP_ALLOW_HOSTS: %w", err)
	}
	var box *secretbox.Box
	if c.SecretKey != "" {
		key, err := secretbox.ParseKey(c.SecretKey)
		if err != nil {
			return mcpservers.Registry{}, fmt.Errorf("reading TRIPGRAPH_SECRET_KEY: %w", err)
		}
		if box, err = secretbox.New(key); err != nil {
			return mcpservers.Registry{}, err
		}
	}
	return mcpservers.Registry{Pool: st.Pool, Guard: guard, Box: box}, nil
}

// newMemoryPlanner builds the trip planner and the MCP bridge with no
// database: our own server on the in-memory backend, reached through the
// bridge.
func newMemoryPlanner(m llms.Model, cfg mcpserver.Config, log *slog.Logger) (*nodes.Planner, *mcpbridge.Bridge, error) {
	bridge, err := mcpbridge.New(mcpbridge.Options{Servers: []mcpbridge.ServerConfig{ourServer(cfg)}, Logger: log})
	if err != nil {
		return nil, nil, fmt.Errorf("starting the MCP bridge: %w", err)
	}
	return buildPlanner(m, bridge)
}

// buildPlanner compiles the planner on m; a failure closes the bridge.
func buildPlanner(m llms.Model, bridge *mcpbridge.Bridge) (*nodes.Planner, *mcpbridge.Bridge, error) {
	p, err := nodes.Build(nodes.Deps{Model: m, Around: aroundNodes()})
	if err != nil {
		bridge.Close()
		return nil, nil, err
	}
	return p, bridge, nil
}
