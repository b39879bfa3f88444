package server

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jackc/pgx/v5/stdlib"

	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/server/api"
	"github.com/tripgraph/tripgraph/server/internal/metrics"
	"github.com/tripgraph/tripgraph/server/runner"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/server/web"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/store/mcpservers"
	"github.com/tripgraph/tripgraph/store/memstore"
)

// Data is where the server keeps everything: each user's records, the run
// queue every process shares, the crons, the accounts and sessions, and
// the queue's counts for the metrics. OnPostgres and InMemory make one.
type Data struct {
	Records func(userID string) tenant.Records
	Queue   runner.Queue
	Crons   runner.Crons
	// Accounts check API keys, know end users and keep browser
	// sessions, before a request is answered.
	Accounts interface {
		api.Accounts
		web.Sessions
	}
	Stats metrics.QueueStats
	// Health fails while the data cannot be reached.
	Health func(context.Context) error
	// Ready says why the data is not ready to serve ("" once it is).
	Ready func(context.Context) (reason string, err error)
	// Close releases what the Data holds for the server (not the store).
	Close func() error
}

// OnPostgres is the server's data in st, with the users' MCP servers in
// servers (which carries the SSRF guard and the secret box).
func OnPostgres(st *store.Store, servers mcpservers.Registry) Data {
	db := stdlib.OpenDBFromPool(st.Pool) // for the migrations' check
	return Data{
		Records:  tenant.OnPostgres(st, servers),
		Queue:    st,
		Crons:    st,
		Accounts: accounts.New(st.RequestPool()), // checked before a request is answered
		Stats:    st,
		Health:   st.Pool.Ping,
		Ready:    func(ctx context.Context) (string, error) { return postgresReady(ctx, st, db) },
		Close:    db.Close,
	}
}

// postgresReady says why the database is not ready: it does not answer,
// or a migration this binary embeds is not applied.
func postgresReady(ctx context.Context, st *store.Store, db *sql.DB) (string, error) {
	if err := st.Pool.Ping(ctx); err != nil {
		return "database unreachable", nil
	}
	pending, err := migrations.Pending(ctx, db)
	switch {
	case err != nil:
		return "", err
	case pending:
		return "migrations pending", nil
	}
	return "", nil
}

// InMemory is the server's data in ms, the in-memory twin: always ready,
// gone when the process ends.
func InMemory(ms *memstore.Store) Data {
	return Data{
		Records:  tenant.InMemory(ms),
		Queue:    ms,
		Crons:    ms,
		Accounts: ms.Accounts,
		Stats:    ms,
		Health:   func(context.Context) error { return nil },
		Ready:    func(context.Context) (string, error) { return "", nil },
		Close:    func() error { return nil },
	}
}

// check reports what a Data lacks.
func (d Data) check() error {
	if d.Records == nil || d.Queue == nil || d.Crons == nil || d.Accounts == nil || d.Stats == nil || d.Health == nil || d.Ready == nil {
		return errors.New("building the HTTP server: its data is missing a part")
	}
	return nil
}
