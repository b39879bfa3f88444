// Package devdb runs a project-local PostgreSQL cluster for development and
// tests, so that a fresh machine needs no database set-up.
//
// The cluster lives under <project>/.data/pg, listens on a unix socket under
// .data/ and on 127.0.0.1 at a free port, and trusts local connections: it is
// for one developer's machine, never for production. When DATABASE_URL is
// set, none of this is used.
//
// Ensure is safe to call from several processes at once (go test runs test
// packages in parallel): a file lock serialises start-up, and a cluster that
// is already running is reused.
package devdb

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// Superuser is the cluster's superuser role and the default database name.
const Superuser = "tripgraph"

// Cluster is a local PostgreSQL cluster rooted in a project directory.
type Cluster struct {
	Root string // the project directory that holds .data/
	bin  string // directory of initdb, pg_ctl and postgres
}

// URL returns configured, the operator's DATABASE_URL, when it is set;
// otherwise it starts the local cluster of the project that holds the
// working directory, if needed, and returns its URL.
func URL(ctx context.Context, configured string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding the working directory: %w", err)
	}
	c, err := New(wd)
	if err != nil {
		return "", err
	}
	return c.Ensure(ctx)
}

// New returns the cluster of the project that contains dir (the nearest
// ancestor with a go.mod). It installs nothing yet.
func New(dir string) (*Cluster, error) {
	root, err := projectRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Cluster{Root: root}, nil
}

// Ensure starts the cluster if it is not running (creating and, as root,
// installing it first), creates the default database, and returns its URL.
func (c *Cluster) Ensure(ctx context.Context) (string, error) {
	unlock, err := c.lock("devdb.lock")
	if err != nil {
		return "", err
	}
	defer unlock()
	if err := c.findBinaries(ctx); err != nil {
		return "", err
	}
	if err := c.initIfMissing(ctx); err != nil {
		return "", err
	}
	port, err := c.startIfStopped(ctx)
	if err != nil {
		return "", err
	}
	admin := c.url(port, "postgres")
	if err := waitReady(ctx, admin); err != nil {
		return "", err
	}
	if err := CreateDatabase(ctx, admin, Superuser); err != nil {
		return "", err
	}
	return c.url(port, Superuser), nil
}

// Stop stops the cluster with a fast shutdown; a stopped cluster is fine.
func (c *Cluster) Stop(ctx context.Context) error {
	if _, ok := c.runningPort(); !ok {
		return nil
	}
	if err := c.findBinaries(ctx); err != nil {
		return err
	}
	return c.runAsOwner(ctx, filepath.Join(c.bin, "pg_ctl"), "stop", "-D", c.dataDir(), "-m", "fast", "-w")
}

// Reset stops the cluster and deletes all of its data.
func (c *Cluster) Reset(ctx context.Context) error {
	if err := c.Stop(ctx); err != nil {
		return fmt.Errorf("stopping the cluster before wiping it: %w", err)
	}
	for _, d := range []string{c.dataDir(), c.socketDir()} {
		if err := os.RemoveAll(d); err != nil {
			return fmt.Errorf("wiping the cluster: %w", err)
		}
	}
	return nil
}

// url builds the TCP connection URL of a database in the cluster.
func (c *Cluster) url(port int, database string) string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.User(Superuser),
		Host:     net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		Path:     "/" + database,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}

// CreateDatabase creates database name on the server at adminURL unless it
// exists already.
func CreateDatabase(ctx context.Context, adminURL, name string) error {
	conn, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return fmt.Errorf("connecting to create database %q: %w", name, err)
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return fmt.Errorf("checking for database %q: %w", name, err)
	}
	if exists {
		return nil
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		var pgErr interface{ SQLState() string }
		if errors.As(err, &pgErr) && pgErr.SQLState() == "42P04" { // created meanwhile
			return nil
		}
		return fmt.Errorf("creating database %q: %w", name, err)
	}
	return nil
}

// waitReady polls until the server accepts connections, for up to 30 s.
func waitReady(ctx context.Context, adminURL string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, adminURL)
		if err == nil {
			return conn.Close(ctx)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the local PostgreSQL cluster to accept connections: %w", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// projectRoot walks up from dir to the directory that holds go.mod.
func projectRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("finding the project root: %w", err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("finding the project root: no go.mod above %s", dir)
		}
	}
}

// lock takes the exclusive file lock .data/name, so that parallel
// processes start the cluster once (devdb.lock), or copy it one at a time.
func (c *Cluster) lock(name string) (func(), error) {
	dir := filepath.Join(c.Root, ".data")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening the cluster lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking the cluster: %w", err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// runningPort reads postmaster.pid and reports the port of a live server.
func (c *Cluster) runningPort() (int, bool) {
	data, err := os.ReadFile(filepath.Join(c.dataDir(), "postmaster.pid"))
	if err != nil {
		return 0, false
	}
	lines := strings.Split(string(data), "\n")
	if len(lines) < 4 {
		return 0, false
	}
	pid, err1 := strconv.Atoi(strings.TrimSpace(lines[0]))
	port, err2 := strconv.Atoi(strings.TrimSpace(lines[3]))
	if err1 != nil || err2 != nil || syscall.Kill(pid, 0) != nil {
		return 0, false
	}
	return port, true
}

// freePort asks the kernel for a free loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
