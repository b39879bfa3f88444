package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/store/mcpservers"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/graph"
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

// newPlanner builds the trip planner on a PostgreSQL checkpointer. Its
// tools come through the MCP bridge: our own server on the store, and each
// user's own servers from the registry, dialled through the SSRF guard.
// Large results are kept in the store's tool outputs.
//
// A change to a user's servers in any process sharing the database makes
// the bridge forget what it holds of that user's servers (the store's
// listener announces it), so the next run reads them afresh.
func newPlanner(ctx context.Context, m llms.Model, env *serving, reg mcpservers.Registry, cp graph.Checkpointer, publicURL string, log *slog.Logger) (*nodes.Graph, *mcpbridge.Bridge, error) {
	bridge, err := mcpbridge.New(mcpbridge.Options{
		Servers:  []mcpbridge.ServerConfig{ourServer(env.mcpConfig(publicURL, log))},
		Registry: userServers{reg},
		HTTP:     mcpbridge.HTTPClients{Guarded: reg.Guard.NewHTTPClient()},
		Outputs:  env.st,
		Logger:   log,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("starting the MCP bridge: %w", err)
	}
	if err := env.st.WatchMCPServers(ctx, bridge.Forget); err != nil {
		bridge.Close()
		return nil, nil, err
	}
	enricher := mcpbridge.Enricher{Bridge: bridge, Settings: userSettings{reg}}
	return buildPlanner(nodes.Deps{Model: m, Tools: bridge, Enricher: enricher}, bridge, cp)
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

// newMemoryPlanner builds the trip planner with no database: our own
// server on the in-memory backend, reached through the bridge, and the
// in-memory checkpointer.
func newMemoryPlanner(m llms.Model, cfg mcpserver.Config, log *slog.Logger) (*nodes.Graph, *mcpbridge.Bridge, error) {
	bridge, err := mcpbridge.New(mcpbridge.Options{Servers: []mcpbridge.ServerConfig{ourServer(cfg)}, Logger: log})
	if err != nil {
		return nil, nil, fmt.Errorf("starting the MCP bridge: %w", err)
	}
	return buildPlanner(nodes.Deps{Model: m, Tools: bridge}, bridge, graph.NewMemorySaver())
}

func buildPlanner(deps nodes.Deps, bridge *mcpbridge.Bridge, cp graph.Checkpointer) (*nodes.Graph, *mcpbridge.Bridge, error) {
	g, err := nodes.Build(deps, cp)
	if err != nil {
		bridge.Close()
		return nil, nil, err
	}
	return g, bridge, nil
}

// userServers is the store's server registry as the bridge reads it: each
// enabled server of the user, with its credential as headers.
type userServers struct{ reg mcpservers.Registry }

// Servers implements mcpbridge.Registry.
func (u userServers) Servers(ctx context.Context, userID string) ([]mcpbridge.ServerConfig, error) {
	enabled, err := u.reg.Enabled(ctx, userID)
	if err != nil {
		return nil, err
	}
	out := make([]mcpbridge.ServerConfig, 0, len(enabled))
	for _, s := range enabled {
		out = append(out, mcpbridge.ServerConfig{
			Name:         s.Name,
			ID:           s.ID,
			Transport:    mcpbridge.Transport(s.Transport),
			URL:          s.URL,
			Headers:      s.Headers(),
			Enabled:      true,
			AllowedTools: s.AllowedTools,
			Timeout:      s.Timeout(),
		})
	}
	return out, nil
}

// userSettings are the registry's per-user settings as the enricher reads
// them.
type userSettings struct{ reg mcpservers.Registry }

// EnrichmentSettings implements mcpbridge.SettingsSource.
func (u userSettings) EnrichmentSettings(ctx context.Context, userID string) (mcpbridge.EnrichmentSettings, error) {
	set, err := u.reg.Settings(ctx, userID)
	if err != nil {
		return mcpbridge.EnrichmentSettings{}, err
	}
	return mcpbridge.EnrichmentSettings{On: set.ToolMCP, Servers: set.ToolMCPServers}, nil
}
