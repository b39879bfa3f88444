package memstore

import (
	"context"
	"errors"

	"github.com/tripgraph/tripgraph/store/mcpservers"
)

// NOT BUILT YET: the in-memory servers are being written; until then this file
// only lets the package compile.

// Servers are the users' servers in memory.
type Servers struct{ s *state }

type serversData struct{}

func (s *state) initServers(Options) {}

// OwnedServers are one user's servers.
type OwnedServers struct {
	s  *state
	id string
}

// ForOwner returns userID's servers.
func (x *Servers) ForOwner(userID string) OwnedServers { return OwnedServers{x.s, userID} }

func (o OwnedServers) List(ctx context.Context) ([]mcpservers.Server, error) { return nil, errNotBuilt }
func (o OwnedServers) Create(ctx context.Context, in mcpservers.Input) (mcpservers.Server, error) {
	return mcpservers.Server{}, errNotBuilt
}
func (o OwnedServers) Get(ctx context.Context, id string) (mcpservers.Server, error) {
	return mcpservers.Server{}, errNotBuilt
}
func (o OwnedServers) Modify(ctx context.Context, id string, change func(mcpservers.Server) mcpservers.Input) (mcpservers.Server, error) {
	return mcpservers.Server{}, errNotBuilt
}
func (o OwnedServers) Delete(ctx context.Context, id string) error { return errNotBuilt }
func (o OwnedServers) Settings(ctx context.Context) (mcpservers.Settings, error) {
	return mcpservers.Settings{}, errNotBuilt
}
func (o OwnedServers) SetSettings(ctx context.Context, s mcpservers.Settings) error {
	return errNotBuilt
}
func (o OwnedServers) Enabled(ctx context.Context) ([]mcpservers.WithSecret, error) {
	return nil, errNotBuilt
}

var errNotBuilt = errors.New("the in-memory store does not have this yet")
