// Package pgtest gives each test package a fresh, empty PostgreSQL database:
// on the server named by DATABASE_URL when it is set, otherwise on the
// project's local cluster, which it starts if needed (see package devdb).
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/tripgraph/tripgraph/config"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/devdb"
)

// Database creates an empty database whose name starts with prefix for
// the test, dropped when it ends, and returns its URL. It skips a test
// run with -short.
func Database(t testing.TB, prefix string) string {
	t.Helper()
	Skip(t)
	url, drop, err := NewDatabase(context.Background(), prefix)
	if err != nil {
		t.Fatalf("creating a test database: %v", err)
	}
	t.Cleanup(drop)
	return url
}

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
// its URL in *dbURL, runs the tests, then the cleanups, and drops the
// database; then, when they passed, it fails the run if they left
// goroutines running. It returns the exit code for os.Exit. With -short it
// makes no database and *dbURL stays empty: the tests that need one skip
// (see Skip).
func Run(m *testing.M, prefix string, dbURL *string, cleanups ...func()) int {
	flag.Parse()
	after := func(code int) int {
		for _, c := range cleanups {
			c()
		}
		return code
	}
	if testing.Short() {
		return NoLeaks(after(m.Run()))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	u, drop, err := NewDatabase(ctx, prefix)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "pgtest:", err)
		return 1
	}
	*dbURL = u
	code := after(m.Run())
	drop()
	return NoLeaks(code)
}

// Skip skips a test that needs PostgreSQL when the tests run with -short,
// the tier that needs no database.
func Skip(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs PostgreSQL: not run with -short")
	}
}

// NoLeaks turns a passing exit code into a failing one when goroutines
// the tests started are still running (after goleak's grace for those
// about to end), and reports them; a failing code is returned as it is.
func NoLeaks(code int) int {
	if code != 0 {
		return code
	}
	if err := goleak.Find(); err != nil {
		fmt.Fprintln(os.Stderr, "goroutines left running after the tests:", err)
		return 1
	}
	return 0
}

// MigratedPool runs migrate on the database at url and opens a pool on it,
// closed when the test ends. migrate is the migrations' Up (passed in, as
// this package must not import the migrations, whose own tests use it).
func MigratedPool(t testing.TB, url string, migrate func(context.Context, string) error) *pgxpool.Pool {
	t.Helper()
	Skip(t)
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

// WaitUntilBlockedBy waits until a backend of the database waits for a
// lock that backend pid holds, and fails the test after 30 s.
func WaitUntilBlockedBy(t testing.TB, pool *pgxpool.Pool, pid uint32) {
	t.Helper()
	for range 600 {
		var n int
		err := pool.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
			WHERE $1::int = ANY (pg_blocking_pids(pid))`, pid).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no backend waits for backend %d after 30 s", pid)
}

// NewReplica makes and starts a streaming replica named name of the local
// cluster the tests' databases are on (see devdb.Replica), and stops and
// deletes it when the test ends. It skips the test with -short, and when
// DATABASE_URL names a server of the operator's, whose replicas are not
// the tests' to make.
func NewReplica(t testing.TB, name string) *devdb.Replica {
	t.Helper()
	Skip(t)
	cfg, err := config.Load(os.Environ(), "")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Database.URL != "" {
		t.Skip("needs the local cluster to copy into a replica: DATABASE_URL is set")
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	c, err := devdb.New(wd)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := c.Ensure(ctx); err != nil {
		t.Fatal(err)
	}
	r, err := c.NewReplica(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := r.Remove(context.Background()); err != nil {
			t.Errorf("removing the replica: %v", err)
		}
	})
	return r
}

// DatabaseName is the database a PostgreSQL URL names.
func DatabaseName(t testing.TB, dbURL string) string {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(u.Path, "/")
}

// Querier runs a query: a pool, a connection or a transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Plan is PostgreSQL's answer to explain, an EXPLAIN statement, as text:
// one line of the plan a line.
func Plan(t testing.TB, q Querier, explain string, args ...any) string {
	t.Helper()
	rows, err := q.Query(context.Background(), explain, args...)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}
