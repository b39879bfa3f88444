package main

import (
	"context"
	"fmt"
	"os"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/devdb"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/store"
)

// openStore finds the database, applies pending migrations and opens it.
func openStore(ctx context.Context, db config.Database) (*store.Store, error) {
	return openStorePool(ctx, db, 0)
}

// openStorePool is openStore with at most maxConns connections in the
// pool (0: the URL's pool_max_conns or pgxpool's default).
func openStorePool(ctx context.Context, db config.Database, maxConns int32) (*store.Store, error) {
	url, err := devdb.URL(ctx, db.URL)
	if err != nil {
		return nil, err
	}
	if db.URL == "" { // never print an operator's URL: it may hold a password
		fmt.Fprintf(os.Stderr, "tripgraph: using the local PostgreSQL cluster: DATABASE_URL=%s\n", url)
	}
	if err := migrations.Up(ctx, url); err != nil {
		return nil, err
	}
	return store.OpenPool(ctx, url, maxConns)
}
