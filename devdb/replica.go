package devdb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// Replica is a streaming replica of a local cluster: a hot standby copied
// from the running cluster with pg_basebackup -R, which then follows its
// WAL. It has a data directory and a port of its own, under the cluster's
// .data/replicas/NAME, and its server is started and stopped by its
// process id. It streams through a replication slot of its own on the
// cluster (tripgraph_replica_NAME), so the cluster keeps the WAL it has
// not received, through its copy and while it is stopped; Remove drops
// the slot. Like the cluster, it is for development and tests only: it
// trusts local connections and its copy is not synced to disk.
type Replica struct {
	c    *Cluster
	name string
	port int
	pid  int // the postmaster's, while it runs
}

// NewReplica makes a replica named name (a plain word) of the cluster,
// which Ensure must have started, and starts it. A replica of that name
// left from before (a test that was killed) is stopped and wiped first.
// It returns once the replica accepts connections.
func (c *Cluster) NewReplica(ctx context.Context, name string) (*Replica, error) {
	if name == "" || strings.ContainsAny(name, `/\. `) {
		return nil, fmt.Errorf("making a replica: %q is not a plain name", name)
	}
	primary, ok := c.runningPort()
	if !ok {
		return nil, errors.New("making a replica: the local cluster is not running (call Ensure first)")
	}
	if err := c.findBinaries(ctx); err != nil {
		return nil, err
	}
	r := &Replica{c: c, name: name}
	if err := r.wipe(ctx); err != nil {
		return nil, err
	}
	if err := r.copyPrimaryRetrying(ctx, primary); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	r.port = port
	if err := r.Start(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// URL is the replica's URL of database.
func (r *Replica) URL(database string) string { return r.c.url(r.port, database) }

// Port is the TCP port the replica listens on, on 127.0.0.1.
func (r *Replica) Port() int { return r.port }

// PID is the process id of the replica's server, 0 while it is stopped.
func (r *Replica) PID() int { return r.pid }

// Start starts the replica's server on its port, unless it runs already,
// and waits until it accepts connections (a hot standby does once it has
// replayed up to a consistent state).
func (r *Replica) Start(ctx context.Context) error {
	if r.pid != 0 {
		return nil
	}
	logFile := filepath.Join(r.socketDir(), "postgres.log")
	opts := fmt.Sprintf("-p %d -k %s", r.port, r.socketDir())
	if err := r.c.runAsOwner(ctx, filepath.Join(r.c.bin, "pg_ctl"), "start", "-D", r.dataDir(), "-w", "-t", "60",
		"-l", logFile, "-o", opts); err != nil {
		return fmt.Errorf("starting replica %s (log: %s): %w", r.name, logFile, err)
	}
	pid, ok := postmasterPID(r.dataDir())
	if !ok {
		return fmt.Errorf("starting replica %s: its server wrote no process id", r.name)
	}
	r.pid = pid
	return waitReady(ctx, r.URL("postgres"))
}

// Stop stops the replica's server with a fast shutdown (SIGINT to its
// process) and waits, up to a minute, for the process to end. A stopped
// replica is fine.
func (r *Replica) Stop(ctx context.Context) error {
	if r.pid == 0 {
		return nil
	}
	if err := stopPostmaster(ctx, r.pid); err != nil {
		return fmt.Errorf("stopping replica %s: %w", r.name, err)
	}
	r.pid = 0
	return nil
}

// Remove stops the replica and deletes its directory.
func (r *Replica) Remove(ctx context.Context) error {
	if err := r.Stop(ctx); err != nil {
		return err
	}
	return r.wipe(ctx)
}

// wipe stops a server left running in the replica's directory, drops its
// slot and deletes the directory.
func (r *Replica) wipe(ctx context.Context) error {
	if pid, ok := postmasterPID(r.dataDir()); ok {
		if err := stopPostmaster(ctx, pid); err != nil {
			return fmt.Errorf("stopping the replica %s left running: %w", r.name, err)
		}
	}
	if err := r.dropSlot(ctx); err != nil {
		return err
	}
	if err := os.RemoveAll(r.dir()); err != nil {
		return fmt.Errorf("wiping replica %s: %w", r.name, err)
	}
	return nil
}

// slot is the name of the replica's replication slot on the cluster.
func (r *Replica) slot() string { return "tripgraph_replica_" + r.name }

// dropSlot drops the replica's replication slot, if the cluster runs and
// has it. The cluster's sender may hold it for a moment after the
// replica stopped: it tries for up to 10 s.
func (r *Replica) dropSlot(ctx context.Context) error {
	port, ok := r.c.runningPort()
	if !ok {
		return nil
	}
	conn, err := pgx.Connect(ctx, r.c.url(port, "postgres"))
	if err != nil {
		return fmt.Errorf("connecting to drop the slot of replica %s: %w", r.name, err)
	}
	defer conn.Close(ctx)
	for try := 0; ; try++ {
		_, err := conn.Exec(ctx, `SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1`, r.slot())
		if err == nil {
			return nil
		}
		if try == 100 {
			return fmt.Errorf("dropping the slot of replica %s: %w", r.name, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// copyPrimaryRetrying copies the cluster with copyPrimary, one copy at a
// time across processes, and tries again (twice) when a copy fails: on a
// cluster where tests drop databases, each drop forces a checkpoint, and
// PostgreSQL 15 may invalidate the slot of a copy under way when one
// comes at the wrong moment.
func (r *Replica) copyPrimaryRetrying(ctx context.Context, primary int) error {
	unlock, err := r.c.lock("replicas.lock")
	if err != nil {
		return err
	}
	defer unlock()
	for try := 1; ; try++ {
		err := r.copyPrimary(ctx, primary)
		if err == nil {
			return nil
		}
		if dropErr := r.dropSlot(ctx); dropErr != nil || try == 3 || ctx.Err() != nil {
			return errors.Join(err, dropErr)
		}
	}
}

// copyPrimary copies the cluster listening on port primary into the
// replica's data directory with pg_basebackup, streaming the WAL written
// meanwhile through the replica's slot, which it creates first (-C -S),
// and with -R: standby.signal, and the primary's address and the slot in
// the replica's settings, so that the copy starts as a standby that
// follows the cluster.
func (r *Replica) copyPrimary(ctx context.Context, primary int) error {
	for _, d := range []string{r.dir(), filepath.Join(r.c.base(), "replicas")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("creating %s: %w", d, err)
		}
	}
	for _, d := range []string{r.dataDir(), r.socketDir()} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("creating %s: %w", d, err)
		}
		if err := r.c.chownToOwner(d); err != nil {
			return err
		}
	}
	if err := r.c.runAsOwner(ctx, filepath.Join(r.c.bin, "pg_basebackup"), "-h", "127.0.0.1",
		"-p", strconv.Itoa(primary), "-U", Superuser, "-D", r.dataDir(), "-R", "-X", "stream", "-C", "-S", r.slot(),
		"-c", "fast", "--no-sync"); err != nil {
		return fmt.Errorf("copying the cluster into replica %s: %w", r.name, err)
	}
	return nil
}

func (r *Replica) dir() string       { return filepath.Join(r.c.base(), "replicas", r.name) }
func (r *Replica) dataDir() string   { return filepath.Join(r.dir(), "pg") }
func (r *Replica) socketDir() string { return filepath.Join(r.dir(), "run") }

// postmasterPID reads the process id of the live server of a data
// directory from its postmaster.pid.
func postmasterPID(dataDir string) (int, bool) {
	data, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return 0, false
	}
	first, _, _ := strings.Cut(string(data), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil || pid <= 0 || !alive(pid) {
		return 0, false
	}
	return pid, true
}

// alive reports whether process pid runs: it exists and is not a zombie
// (a server whose parent, pg_ctl, is gone is reaped by whoever adopted it,
// which may be late).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true // no /proc: the signal's answer is all there is
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return !strings.HasPrefix(rest, "Z")
}

// stopPostmaster asks the PostgreSQL server of process pid for a fast
// shutdown (SIGINT: its sessions are ended, nothing is lost) and waits
// for the process to end, for up to a minute.
func stopPostmaster(ctx context.Context, pid int) error {
	if err := syscall.Kill(pid, syscall.SIGINT); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		return fmt.Errorf("signalling process %d: %w", pid, err)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for alive(pid) {
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for process %d to end: %w", pid, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nil
}
