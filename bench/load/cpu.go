package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/bench/internal/procstat"
)

// cpuClock reads the CPU time of the server and of the PostgreSQL cluster
// its database is on (every process under the postmaster, ended backends
// included), from a start.
type cpuClock struct {
	server, postmaster int
	serverAt, pgAt     time.Duration
	wallAt             time.Time
}

// startCPU finds the postmaster of dbURL's cluster, which must run on this
// machine, and reads both clocks.
func startCPU(ctx context.Context, dbURL string, serverPID int) (*cpuClock, error) {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return nil, fmt.Errorf("connecting to find the postmaster: %w", err)
	}
	defer conn.Close(ctx)
	var backend int
	if err := conn.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&backend); err != nil {
		return nil, fmt.Errorf("asking for a backend's pid: %w", err)
	}
	c := &cpuClock{server: serverPID}
	if c.postmaster, err = procstat.Parent(backend); err != nil {
		return nil, fmt.Errorf("finding the postmaster (is PostgreSQL on this machine?): %w", err)
	}
	if c.serverAt, err = procstat.ProcessCPU(serverPID); err != nil {
		return nil, err
	}
	if c.pgAt, err = procstat.TreeCPU(c.postmaster); err != nil {
		return nil, err
	}
	c.wallAt = time.Now()
	return c, nil
}

// cpuUsed is the CPU time each side used over a wall-clock time.
type cpuUsed struct {
	server, pg, wall time.Duration
}

// since is the CPU time used since the start.
func (c *cpuClock) since() (cpuUsed, error) {
	s, err := procstat.ProcessCPU(c.server)
	if err != nil {
		return cpuUsed{}, err
	}
	p, err := procstat.TreeCPU(c.postmaster)
	if err != nil {
		return cpuUsed{}, err
	}
	return cpuUsed{server: s - c.serverAt, pg: p - c.pgAt, wall: time.Since(c.wallAt)}, nil
}

// print writes CPU per run that succeeded, runs per CPU second, and how
// many cores each side kept busy on average.
func (u cpuUsed) print(w io.Writer, r result, err error) {
	if err != nil {
		fmt.Fprintln(w, "CPU: unknown:", err)
		return
	}
	ok := r.ok()
	if ok == 0 || u.wall <= 0 {
		fmt.Fprintln(w, "CPU: no run succeeded")
		return
	}
	for _, side := range []struct {
		name string
		cpu  time.Duration
	}{{"serve", u.server}, {"PostgreSQL", u.pg}} {
		perRun := side.cpu.Seconds() * 1000 / float64(ok)
		fmt.Fprintf(w, "CPU of %s: %.1f ms/run, %.1f runs per CPU second, %.2f cores busy on average\n",
			side.name, perRun, 1000/perRun, side.cpu.Seconds()/u.wall.Seconds())
	}
}

// loadAverage is the machine's 1-, 5- and 15-minute load averages.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
