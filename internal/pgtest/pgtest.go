// Package pgtest gives each test package a fresh, empty PostgreSQL database:
// on the server named by DATABASE_URL when it is set, otherwise on the
// project's local cluster, which it starts if needed (see package devdb).
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/config"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/devdb"
)

// NewDatabase creates an empty database whose name starts with prefix and
// returns its URL and a function that drops it.
func NewDatabase(ctx context.Context, prefix string) (string, func(), error) {
	cfg, err := config.Load(os.Environ(), "")
	if err != nil {
		return "", nil, err
	}
	server, err := devdb.URL(ctx, cfg.Database.URL)
	if err != nil {
		return "", nil, fmt.Errorf("getting a test database server: %w", err)
	}
	var b [6]byte
	rand.Read(b[:])
	name := prefix + "_" + hex.EncodeToString(b[:])
	if err := devdb.CreateDatabase(ctx, server, name); err != nil {
		return "", nil, err
	}
	u, err := url.Parse(server)
	if err != nil {
		return "", nil, fmt.Errorf("parsing the test server URL: %w", err)
	}
	u.Path = "/" + name
	drop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, server)
		if err != nil {
			return
		}
		defer conn.Close(ctx)
		conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	}
	return u.String(), drop, nil
}

// Run is for TestMain: it creates a fresh database named after prefix, puts
// its URL in *dbURL, runs the tests and drops the database. It returns the
// exit code for os.Exit.
func Run(m *testing.M, prefix string, dbURL *string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	u, drop, err := NewDatabase(ctx, prefix)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgtest:", err)
		return 1
	}
	defer drop()
	*dbURL = u
	return m.Run()
}

// MigratedPool runs migrate on the database at url and opens a pool on it,
// closed when the test ends. migrate is the migrations' Up (passed in, as
// this package must not import the migrations, whose own tests use it).
func MigratedPool(t testing.TB, url string, migrate func(context.Context, string) error) *pgxpool.Pool {
	t.Helper()
	ctx := context.Background()
	if err := migrate(ctx, url); err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}
