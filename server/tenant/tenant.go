// Package tenant is what one request or one run may touch: one user's
// threads, runs, checkpoints, tool outputs, MCP servers, assistants,
// long-term store items and crons, what the planner remembers of them, and
// the trip planner bound to all of it. A Tenant is built once, where the
// user is known (a verified API key or browser session, or a run's
// thread), and passed on, so that code past that point cannot reach
// another user's data even by mistake: every id of another user is
// NOT_FOUND through it.
//
// A Tenant is the port between the HTTP handlers and the runner on one
// side and the data on the other. Its parts are small interfaces,
// implemented by PostgreSQL (store and its packages: OnPostgres) and by
// an in-memory twin (store/memstore: InMemory); both pass one behaviour
// suite, tenanttest.
package tenant

import (
	"context"
	"encoding/json"
	"iter"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/assistants"
	"github.com/tripgraph/tripgraph/store/crons"
	"github.com/tripgraph/tripgraph/store/items"
	"github.com/tripgraph/tripgraph/store/mcpservers"
)

// Tenant is one user's part of tripgraph.
type Tenant struct {
	// ID is the user's id.
	ID string
	Records
	// Memory is what the planner remembers of the user, kept in their
	// store items.
	Memory nodes.TravellerMemory
	// Tools are the user's tools: ours and their own MCP servers'.
	Tools nodes.Tools
	// Planner is the trip planner on the user's checkpoints, tools and
	// memory.
	Planner *nodes.Graph

	planner   *nodes.Planner
	traveller nodes.Traveller
}

// RunPlanner is the planner one of the user's runs executes: saving with
// cp (the run's own checkpointer, Runs.RunCheckpoints), and with a memory
// that reads the user's profile once for the run.
func (t Tenant) RunPlanner(cp graph.Checkpointer) *nodes.Graph {
	tr := t.traveller
	tr.Memory = t.Memory.ForRun()
	return t.planner.For(tr, cp)
}

// Records are one user's records, wherever they are kept. Each part sees
// the user's own only.
type Records struct {
	Threads
	Runs
	ToolOutputs
	// Checkpoints is the graph's checkpointer on the user's threads; it
	// creates a missing thread, theirs, with its first checkpoint.
	Checkpoints graph.Checkpointer
	Servers     Servers
	Assistants  Assistants
	Items       Items
	Crons       Crons
}

// Threads are the user's threads.
type Threads interface {
	CreateThread(ctx context.Context, nt store.NewThread) (store.Thread, error)
	Thread(ctx context.Context, id string) (store.Thread, error)
	SearchThreads(ctx context.Context, q store.ThreadQuery) ([]store.Thread, error)
	CountThreads(ctx context.Context, q store.ThreadQuery) (int, error)
	UpdateThreadMetadata(ctx context.Context, id string, patch json.RawMessage) (store.Thread, error)
	DeleteThread(ctx context.Context, id string) error
	DeleteThreadsWhere(ctx context.Context, metadata json.RawMessage) (int64, error)
}

// Runs are the runs on the user's threads, their events, and the
// checkpointer each run writes with.
type Runs interface {
	CreateRun(ctx context.Context, threadID string, nr store.NewRun) (store.Run, error)
	CreateRunOnNewThread(ctx context.Context, nt store.NewThread, nr store.NewRun) (store.Run, error)
	Run(ctx context.Context, runID string) (store.Run, error)
	ActiveRun(ctx context.Context, threadID string) (store.Run, error)
	ListRuns(ctx context.Context, threadID string, limit, offset int, statuses ...string) ([]store.Run, error)
	CancelRun(ctx context.Context, runID string) (store.Run, error)
	// DiscardRun deletes a run that has ended, with its events and the
	// checkpoints it wrote: what a rollback does to the run it replaces.
	DiscardRun(ctx context.Context, runID string) error
	RunEvents(ctx context.Context, runID string, afterSeq int64, limit int) ([]store.RunEvent, error)
	FollowRunEvents(ctx context.Context, runID string, afterSeq int64) iter.Seq2[store.RunEvent, error]
	// RunCheckpoints is the checkpointer run l writes with: fenced by l,
	// with out's events in each write's transaction.
	RunCheckpoints(l store.Lease, out store.StepOutput) graph.Checkpointer
}

// ToolOutputs are the full copies of the user's large tool results.
type ToolOutputs interface {
	ToolOutput(ctx context.Context, id string) (store.ToolOutput, error)
	SaveToolOutput(ctx context.Context, server, tool string, data json.RawMessage) (string, error)
}

// Servers are the MCP servers the user added and their settings.
type Servers interface {
	List(ctx context.Context) ([]mcpservers.Server, error)
	Create(ctx context.Context, in mcpservers.Input) (mcpservers.Server, error)
	Get(ctx context.Context, id string) (mcpservers.Server, error)
	Modify(ctx context.Context, id string, change func(mcpservers.Server) mcpservers.Input) (mcpservers.Server, error)
	Delete(ctx context.Context, id string) error
	Settings(ctx context.Context) (mcpservers.Settings, error)
	SetSettings(ctx context.Context, s mcpservers.Settings) error
	// Enabled are the enabled servers, with their credentials, for the
	// MCP bridge.
	Enabled(ctx context.Context) ([]mcpservers.WithSecret, error)
}

// Assistants are the user's assistants (the built-in one is not stored).
type Assistants interface {
	Create(ctx context.Context, n assistants.New) (assistants.Assistant, error)
	Get(ctx context.Context, id string) (assistants.Assistant, error)
	Search(ctx context.Context, q assistants.Query) ([]assistants.Assistant, int, error)
	Count(ctx context.Context, q assistants.Query) (int, error)
	Update(ctx context.Context, id string, p assistants.Patch) (assistants.Assistant, error)
	Delete(ctx context.Context, id string) error
	Versions(ctx context.Context, id string, metadata json.RawMessage, limit, offset int) ([]assistants.Version, error)
	SetLatest(ctx context.Context, id string, version int) (assistants.Assistant, error)
}

// Items are the user's long-term store.
type Items interface {
	Put(ctx context.Context, in items.PutItem) error
	Get(ctx context.Context, namespace []string, key string, refresh bool) (items.Item, bool, error)
	GetEach(ctx context.Context, refs ...items.Ref) ([]items.Item, error)
	Delete(ctx context.Context, namespace []string, key string) error
	Search(ctx context.Context, q items.Query) ([]items.Item, error)
	Namespaces(ctx context.Context, q items.NamespaceQuery) ([][]string, error)
}

// Crons are the user's scheduled runs.
type Crons interface {
	Create(ctx context.Context, nc crons.NewCron) (crons.Cron, error)
	Get(ctx context.Context, id string) (crons.Cron, error)
	Update(ctx context.Context, id string, ch crons.Change) (crons.Cron, error)
	Delete(ctx context.Context, id string) error
	Search(ctx context.Context, q crons.Query) ([]crons.Cron, error)
	Count(ctx context.Context, assistantID, threadID string) (int, error)
}

// Factory makes Tenants.
type Factory struct {
	// Records are each user's records: OnPostgres or InMemory.
	Records func(userID string) Records
	// Planner is the compiled trip planner, bound to each tenant.
	Planner *nodes.Planner
	// Tools are each user's tools: the MCP bridge's (Bridge). When they
	// also implement nodes.Enricher, they enrich the user's messages.
	Tools func(mcpbridge.User) nodes.Tools
}

// Bridge is the MCP bridge as a Factory's Tools.
func Bridge(b *mcpbridge.Bridge) func(mcpbridge.User) nodes.Tools {
	return func(u mcpbridge.User) nodes.Tools { return b.For(u) }
}

// For is userID's Tenant.
func (f Factory) For(userID string) Tenant {
	r := f.Records(userID)
	t := Tenant{ID: userID, Records: r, Memory: MemoryIn(r.Items), planner: f.Planner}
	t.Tools = f.Tools(mcpbridge.User{ID: userID, Servers: bridgeServers{r.Servers}, Outputs: r.ToolOutputs})
	t.traveller = nodes.Traveller{Tools: t.Tools, Memory: t.Memory}
	if en, ok := t.Tools.(nodes.Enricher); ok {
		t.traveller.Enricher = en
	}
	t.Planner = f.Planner.For(t.traveller, r.Checkpoints)
	return t
}
