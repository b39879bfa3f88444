package memstore

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/store/mcpservers"
)

// Servers are the MCP servers users add and their enrichment settings,
// as store/mcpservers keeps them: every config vetted (mcpservers.Vetter:
// its rules and the SSRF guard), every credential sealed and opened only
// for the bridge, each user's apart.
type Servers struct{ s *state }

// serversData are the servers, by id, and each user's settings.
type serversData struct {
	vet      mcpservers.Vetter
	byID     map[string]*server
	settings map[string]mcpservers.Settings // by owner
}

func (s *state) initServers(o Options) {
	guard := o.Guard
	if guard == nil {
		// No allow list: New cannot fail. Were it nil, every URL would be refused.
		guard, _ = netguard.New(netguard.Options{})
	}
	s.servers = serversData{vet: mcpservers.Vetter{Guard: guard, Box: o.Box}, byID: map[string]*server{},
		settings: map[string]mcpservers.Settings{}}
}

// server is a user's server with its sealed secret (nil: none).
type server struct {
	mcpservers.Server
	owner  string
	sealed []byte
}

func (m *server) record() mcpservers.Server {
	out := m.Server
	out.AllowedTools = slices.Clone(m.AllowedTools)
	return out
}

func serverNotFound(id string) error {
	return errcode.New(errcode.NotFound, "no MCP server with id %q", id)
}

// OwnedServers are one user's servers and settings: every method reaches
// that user's only.
type OwnedServers struct {
	s  *state
	id string
}

// ForOwner returns userID's servers.
func (x *Servers) ForOwner(userID string) OwnedServers { return OwnedServers{x.s, userID} }

// own is one of the owner's servers; the caller holds mu.
func (o OwnedServers) own(id string) (*server, error) {
	m, ok := o.s.servers.byID[id]
	if !ok || m.owner != o.id {
		return nil, serverNotFound(id)
	}
	return m, nil
}

// mine are the owner's servers by name; the caller holds mu.
func (o OwnedServers) mine() []*server {
	var out []*server
	for _, m := range o.s.servers.byID {
		if m.owner == o.id {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b *server) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// nameTaken reports whether another of the owner's servers than id has
// this name; the caller holds mu.
func (o OwnedServers) nameTaken(name, id string) error {
	for _, m := range o.mine() {
		if m.Name == name && m.ID != id {
			return errcode.New(errcode.Conflict, "an MCP server named %q exists already", name)
		}
	}
	return nil
}

// List lists the owner's servers by name.
func (o OwnedServers) List(context.Context) ([]mcpservers.Server, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	out := []mcpservers.Server{}
	for _, m := range o.mine() {
		out = append(out, m.record())
	}
	return out, nil
}

// Create stores a new server of the owner's, vetted, its secret sealed.
// A name the owner gave another server is a CONFLICT.
func (o OwnedServers) Create(_ context.Context, in mcpservers.Input) (mcpservers.Server, error) {
	vet := o.s.servers.vet
	in, err := vet.Check(in, false)
	if err != nil {
		return mcpservers.Server{}, err
	}
	id := newID()
	sealed, err := vet.Secret(id, in, nil)
	if err != nil {
		return mcpservers.Server{}, err
	}
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	if err := o.s.knownUser(o.id); err != nil {
		return mcpservers.Server{}, err
	}
	if err := o.nameTaken(in.Name, ""); err != nil {
		return mcpservers.Server{}, err
	}
	at := o.s.now()
	m := &server{owner: o.id, Server: mcpservers.Server{ID: id, CreatedAt: at}}
	m.set(in, sealed, at)
	o.s.servers.byID[id] = m
	return m.record(), nil
}

// set gives a server a vetted config and its sealed secret.
func (m *server) set(in mcpservers.Input, sealed []byte, at time.Time) {
	m.Name, m.URL, m.Transport, m.AuthType, m.AuthHeader = in.Name, in.URL, in.Transport, in.AuthType, in.AuthHeader
	m.Enabled, m.AllowedTools, m.TimeoutMS = in.Enabled, slices.Clone(in.AllowedTools), in.TimeoutMS
	m.sealed, m.HasSecret, m.UpdatedAt = sealed, sealed != nil, at
}

// Get returns one of the owner's servers.
func (o OwnedServers) Get(_ context.Context, id string) (mcpservers.Server, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	m, err := o.own(id)
	if err != nil {
		return mcpservers.Server{}, err
	}
	return m.record(), nil
}

// Modify replaces one of the owner's servers' config with what change
// makes of the stored one, under the store's lock, so that concurrent
// changes to different members are not lost; change must not call the
// store. A nil Secret keeps the stored one.
func (o OwnedServers) Modify(_ context.Context, id string, change func(mcpservers.Server) mcpservers.Input) (mcpservers.Server, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	m, err := o.own(id)
	if err != nil {
		return mcpservers.Server{}, err
	}
	vet := o.s.servers.vet
	in, err := vet.Check(change(m.record()), m.HasSecret)
	if err != nil {
		return mcpservers.Server{}, err
	}
	sealed, err := vet.Secret(m.ID, in, m.sealed)
	if err != nil {
		return mcpservers.Server{}, err
	}
	if err := o.nameTaken(in.Name, m.ID); err != nil {
		return mcpservers.Server{}, err
	}
	m.set(in, sealed, o.s.now())
	return m.record(), nil
}

// Delete removes one of the owner's servers, and its id from their
// enrichment settings.
func (o OwnedServers) Delete(_ context.Context, id string) error {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	if _, err := o.own(id); err != nil {
		return err
	}
	delete(o.s.servers.byID, id)
	if set, ok := o.s.servers.settings[o.id]; ok {
		set.ToolMCPServers = slices.DeleteFunc(slices.Clone(set.ToolMCPServers), func(s string) bool { return s == id })
		o.s.servers.settings[o.id] = set
	}
	return nil
}

// Settings are the owner's enrichment settings; a user who never set them
// has enrichment off.
func (o OwnedServers) Settings(context.Context) (mcpservers.Settings, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	set := o.s.servers.settings[o.id]
	return mcpservers.Settings{ToolMCP: set.ToolMCP, ToolMCPServers: append([]string{}, set.ToolMCPServers...)}, nil
}

// SetSettings replaces the owner's enrichment settings. Every server id
// must be one of the owner's servers, or it is NOT_FOUND.
func (o OwnedServers) SetSettings(_ context.Context, set mcpservers.Settings) error {
	ids := set.Servers()
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	for _, id := range ids {
		if _, err := o.own(id); err != nil {
			return err
		}
	}
	if err := o.s.knownUser(o.id); err != nil {
		return err
	}
	o.s.servers.settings[o.id] = mcpservers.Settings{ToolMCP: set.ToolMCP, ToolMCPServers: ids}
	return nil
}

// Enabled are the owner's enabled servers by name, with their secrets
// opened, for the bridge: the only way a secret leaves the store. A server
// whose secret does not open is logged and left out.
func (o OwnedServers) Enabled(ctx context.Context) ([]mcpservers.WithSecret, error) {
	o.s.mu.Lock()
	defer o.s.mu.Unlock()
	out := []mcpservers.WithSecret{}
	for _, m := range o.mine() {
		if !m.Enabled {
			continue
		}
		secret, err := o.s.servers.vet.Open(m.ID, m.sealed)
		if err != nil {
			slog.WarnContext(ctx, "skipping an MCP server whose secret does not open", "server", m.ID, "err", err)
			continue
		}
		out = append(out, mcpservers.WithSecret{Server: m.record(), Secret: secret})
	}
	return out, nil
}
