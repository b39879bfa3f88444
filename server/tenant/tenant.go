// Package tenant is what one request or one run may touch: one user's
// threads, runs, checkpoints, tool outputs, MCP servers, assistants,
// long-term store items and crons, and the trip planner on that user's
// checkpoints. A Tenant is built once, where the
// user is known (a verified API key or browser session, or a run's
// thread), and passed on, so that code past that point cannot reach
// another user's data even by mistake: every id of another user is
// NOT_FOUND through it.
package tenant

import (
	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/assistants"
	"github.com/tripgraph/tripgraph/store/crons"
	"github.com/tripgraph/tripgraph/store/items"
	"github.com/tripgraph/tripgraph/store/mcpservers"
)

// Tenant is one user's part of tripgraph.
type Tenant struct {
	store.Owner
	// Planner is the trip planner on the user's checkpoints only.
	Planner *nodes.Graph
	// Servers are the user's MCP servers and their settings.
	Servers mcpservers.Owned
	// Assistants are the user's assistants (the built-in one is not
	// stored).
	Assistants assistants.Owned
	// Items are the user's items of the long-term store.
	Items items.Owned
	// Crons are the user's scheduled runs.
	Crons crons.Owned
}

// Factory makes Tenants.
type Factory struct {
	Store   *store.Store
	Planner *nodes.Graph // on any checkpointer: For binds it to the user's
	Servers mcpservers.Registry
}

// For is userID's Tenant.
func (f Factory) For(userID string) Tenant {
	o := f.Store.ForOwner(userID)
	return Tenant{Owner: o, Planner: f.Planner.WithCheckpointer(o.Checkpoints()), Servers: f.Servers.ForOwner(userID),
		Assistants: assistants.Store{Pool: f.Store.Pool}.ForOwner(userID),
		Items:      f.Store.Items.ForOwner(userID), Crons: f.Store.Crons.ForOwner(userID)}
}

const key = "tripgraph.tenant"

// Put makes t the Tenant of a request, once its user is authenticated.
func Put(c echo.Context, t Tenant) {
	c.Set(key, t)
	httpx.SetUser(c, t.ID())
}

// Of is the Tenant of a request; ok is false before Put.
func Of(c echo.Context) (t Tenant, ok bool) {
	t, ok = c.Get(key).(Tenant)
	return t, ok
}
