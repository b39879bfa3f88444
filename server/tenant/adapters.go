package tenant

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/assistants"
	"github.com/tripgraph/tripgraph/store/items"
	"github.com/tripgraph/tripgraph/store/mcpservers"
	"github.com/tripgraph/tripgraph/store/memstore"
)

// OnPostgres is each user's records in st, with the users' MCP servers in
// servers (which carries the SSRF guard and the secret box).
func OnPostgres(st *store.Store, servers mcpservers.Registry) func(userID string) Records {
	return func(userID string) Records {
		o := st.ForOwner(userID)
		return Records{Threads: o, Runs: o, ToolOutputs: o, Checkpoints: o.Checkpoints(),
			Servers: servers.ForOwner(userID), Assistants: assistants.Store{Pool: st.Pool}.ForOwner(userID),
			Items: st.Items.ForOwner(userID), Crons: st.Crons.ForOwner(userID)}
	}
}

// bridgeServers are a user's MCP servers as the bridge reads them: each
// enabled server, with its credential as headers, and the enrichment
// settings.
type bridgeServers struct{ s Servers }

// Servers implements mcpbridge.UserServers.
func (b bridgeServers) Servers(ctx context.Context) ([]mcpbridge.ServerConfig, error) {
	enabled, err := b.s.Enabled(ctx)
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

// EnrichmentSettings implements mcpbridge.UserServers.
func (b bridgeServers) EnrichmentSettings(ctx context.Context) (mcpbridge.EnrichmentSettings, error) {
	set, err := b.s.Settings(ctx)
	if err != nil {
		return mcpbridge.EnrichmentSettings{}, err
	}
	return mcpbridge.EnrichmentSettings{On: set.ToolMCP, Servers: set.ToolMCPServers}, nil
}

// MemoryIn is the planner's memory of the user whose items these are.
func MemoryIn(it Items) nodes.TravellerMemory { return nodes.NewMemory(memoryItems{it}) }

// memoryItems are a user's store items as the planner's memory keeps its
// own there.
type memoryItems struct{ items Items }

// Read implements nodes.MemoryItems.
func (m memoryItems) Read(ctx context.Context, keys ...nodes.ItemKey) ([]json.RawMessage, error) {
	refs := make([]items.Ref, len(keys))
	for i, k := range keys {
		refs[i] = items.Ref{Namespace: k.Namespace, Key: k.Key}
	}
	found, err := m.items.GetEach(ctx, refs...)
	if err != nil {
		return nil, err
	}
	out := make([]json.RawMessage, len(keys))
	for i, k := range keys {
		for _, it := range found {
			if it.Key == k.Key && slices.Equal(it.Namespace, k.Namespace) {
				out[i] = it.Value
			}
		}
	}
	return out, nil
}

// Write implements nodes.MemoryItems.
func (m memoryItems) Write(ctx context.Context, key nodes.ItemKey, value json.RawMessage, indexed bool) error {
	return m.items.Put(ctx, items.PutItem{Namespace: key.Namespace, Key: key.Key, Value: value, NoIndex: !indexed})
}

// Delete implements nodes.MemoryItems.
func (m memoryItems) Delete(ctx context.Context, key nodes.ItemKey) error {
	return m.items.Delete(ctx, key.Namespace, key.Key)
}

// InMemory is each user's records in ms, the in-memory twin.
func InMemory(ms *memstore.Store) func(userID string) Records {
	return func(userID string) Records {
		o := ms.ForOwner(userID)
		return Records{Threads: o, Runs: o, ToolOutputs: o, Checkpoints: o.Checkpoints(),
			Servers: ms.Servers.ForOwner(userID), Assistants: ms.Assistants.ForOwner(userID),
			Items: ms.Items.ForOwner(userID), Crons: ms.Crons.ForOwner(userID)}
	}
}
