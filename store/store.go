// Package store is tripgraph's PostgreSQL data layer: the connection pool
// and the queries for users, threads, runs, checkpoints, albums, the
// accommodation and restaurant catalog, bookings, users' MCP servers and
// settings, and tool outputs. It holds no business rules; callers decide
// what a query means.
package store

import (
	"context"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Store is a handle on the database. It is safe for concurrent use.
type Store struct {
	Pool *pgxpool.Pool

	hubMu sync.Mutex
	hub   *hub // the LISTEN connection, started on first use
}

// Open connects to the database at url and checks that it answers. Its
// pool's size is the URL's pool_max_conns, or pgxpool's default: the
// larger of 4 and the number of CPUs.
func Open(ctx context.Context, url string) (*Store, error) {
	return OpenPool(ctx, url, 0)
}

// OpenPool is Open with maxConns connections in the pool, over any
// pool_max_conns in the URL, opened at once and kept open, so that a burst
// of requests does not wait for PostgreSQL to start a backend for each new
// connection; 0 leaves the size as Open does, with connections opened on
// demand. The connection that listens for run notifications is not one of
// them.
func OpenPool(ctx context.Context, url string, maxConns int32) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("reading the database URL: %w", err)
	}
	if maxConns > 0 {
		cfg.MaxConns, cfg.MinConns = maxConns, maxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("opening the database pool: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connecting to the database: %w", err)
	}
	return &Store{Pool: pool}, nil
}

// Close stops listening for run notifications and releases the pool's
// connections.
func (s *Store) Close() {
	s.stopHub()
	s.Pool.Close()
}
