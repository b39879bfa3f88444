package main

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/devdb"
)

// cluster is the campaign's own PostgreSQL cluster. The campaign stops it
// at once (as a crash would) and starts it again, which it must never do
// to the developer's cluster, so it has one of its own under its
// directory. It listens on the same port after every start, so that the
// fault proxy in front of it keeps its target.
type cluster struct {
	c        *devdb.Cluster
	adminURL string // the cluster's default database
	addr     string // 127.0.0.1:port
	dataDir  string
	pgCtl    string
	log      string
}

// startCluster creates the cluster under dir on first use, starts it and
// finds where its data and programs are.
func startCluster(ctx context.Context, dir string) (*cluster, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating the campaign's cluster directory: %w", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // the cluster's owner is not root
		return nil, fmt.Errorf("opening the campaign's cluster directory: %w", err)
	}
	cl := &cluster{c: &devdb.Cluster{Root: dir}}
	u, err := cl.c.Ensure(ctx)
	if err != nil {
		return nil, fmt.Errorf("starting the campaign's cluster: %w", err)
	}
	cl.adminURL = u
	parsed, err := url.Parse(u)
	if err != nil {
		return nil, fmt.Errorf("reading the cluster's URL: %w", err)
	}
	cl.addr = parsed.Host
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		return nil, fmt.Errorf("connecting to the campaign's cluster: %w", err)
	}
	defer conn.Close(ctx)
	var bin string
	if err := conn.QueryRow(ctx, "SELECT current_setting('data_directory'), (SELECT setting FROM pg_config WHERE name = 'BINDIR')").
		Scan(&cl.dataDir, &bin); err != nil {
		return nil, fmt.Errorf("asking the cluster where its data and programs are: %w", err)
	}
	cl.pgCtl = filepath.Join(bin, "pg_ctl")
	cl.log = filepath.Join(filepath.Dir(cl.dataDir), "run", "postgres.log") // where devdb logs: the owner may write there
	return cl, nil
}

// port is the port the cluster listens on.
func (cl *cluster) port() string {
	_, port, _ := net.SplitHostPort(cl.addr)
	return port
}

// dbURL is the URL of database name in the cluster.
func (cl *cluster) dbURL(name string) string {
	u, _ := url.Parse(cl.adminURL)
	u.Path = "/" + name
	return u.String()
}

// freshDatabase drops database name if it is left from an earlier
// campaign and creates it empty.
func (cl *cluster) freshDatabase(ctx context.Context, name string) error {
	conn, err := pgx.Connect(ctx, cl.dbURL("postgres"))
	if err != nil {
		return fmt.Errorf("connecting to create the campaign's database: %w", err)
	}
	defer conn.Close(ctx)
	id := pgx.Identifier{name}.Sanitize()
	for _, q := range []string{"DROP DATABASE IF EXISTS " + id + " WITH (FORCE)", "CREATE DATABASE " + id} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	return nil
}

// stopNow stops the cluster in immediate mode: every backend is killed at
// once, and the next start recovers from the WAL, as after a crash.
func (cl *cluster) stopNow(ctx context.Context) error {
	return cl.pgctl(ctx, "stop", "-D", cl.dataDir, "-m", "immediate", "-w", "-t", "30")
}

// start starts the stopped cluster on its port again.
func (cl *cluster) start(ctx context.Context) error {
	return cl.pgctl(ctx, "start", "-D", cl.dataDir, "-w", "-t", "60", "-l", cl.log, "-o", "-p "+cl.port())
}

// stop stops the cluster with a fast shutdown; a stopped one is fine.
func (cl *cluster) stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return cl.c.Stop(ctx)
}

// pgctl runs pg_ctl as the owner of the data directory, whom PostgreSQL
// needs (it refuses to run as root).
func (cl *cluster) pgctl(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, cl.pgCtl, args...)
	cmd.Dir = "/"
	if os.Geteuid() == 0 {
		st, err := os.Stat(cl.dataDir)
		if err != nil {
			return fmt.Errorf("finding the owner of the cluster's data: %w", err)
		}
		sys := st.Sys().(*syscall.Stat_t)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: sys.Uid, Gid: sys.Gid}}
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pg_ctl %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}
