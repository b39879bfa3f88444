package main

import (
	"context"
	"log/slog"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/devdb"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/store"
)

// openStore finds the database, applies pending migrations and opens it
// with the default options (see openStoreWith).
func openStore(ctx context.Context, db config.Database) (*store.Store, error) {
	return openStoreWith(ctx, db, store.Options{})
}

// openStoreWith is openStore with options: the pool's size and the
// checkpointer's cache. It logs when it uses the local cluster.
func openStoreWith(ctx context.Context, db config.Database, o store.Options) (*store.Store, error) {
	url, err := devdb.URL(ctx, db.URL)
	if err != nil {
		return nil, err
	}
	if db.URL == "" { // never log an operator's URL: it may hold a password
		slog.Info("using the local PostgreSQL cluster", "database_url", url)
	}
	if err := migrations.Up(ctx, url); err != nil {
		return nil, err
	}
	return store.OpenWith(ctx, url, o)
}
