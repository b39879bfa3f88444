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

// Open connects to the database at url and checks that it answers.
func Open(ctx context.Context, url string) (*Store, error) {
	pool, err := pgxpool.New(ctx, url)
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
