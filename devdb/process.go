package devdb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
)

// findBinaries locates initdb and pg_ctl on PATH or under
// /usr/lib/postgresql/*/bin, installing PostgreSQL from Debian's packages
// when they are missing and we run as root.
func (c *Cluster) findBinaries(ctx context.Context) error {
	if c.bin != "" {
		return nil
	}
	if dir := lookBinaries(); dir != "" {
		c.bin = dir
		return nil
	}
	if os.Geteuid() != 0 {
		return errors.New("PostgreSQL's initdb and pg_ctl were not found on PATH or under /usr/lib/postgresql/*/bin: " +
			"install them (Debian: apt-get install postgresql postgresql-contrib) or set DATABASE_URL")
	}
	for _, args := range [][]string{{"update"}, {"install", "-y", "--no-install-recommends", "postgresql", "postgresql-contrib"}} {
		cmd := exec.CommandContext(ctx, "apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("installing PostgreSQL with apt-get %v: %w\n%s", args, err, out)
		}
	}
	if c.bin = lookBinaries(); c.bin == "" {
		return errors.New("PostgreSQL was installed but initdb is still not found under /usr/lib/postgresql/*/bin")
	}
	return nil
}

// lookBinaries returns the directory holding initdb, preferring PATH and then
// the newest Debian version.
func lookBinaries() string {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("pg_ctl"); err == nil {
			// A link on PATH (/usr/local/bin/initdb) leads to the
			// directory of the version's other programs (pg_basebackup).
			if real, err := filepath.EvalSymlinks(p); err == nil {
				p = real
			}
			return filepath.Dir(p)
		}
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	sort.Slice(matches, func(i, j int) bool { return versionOf(matches[i]) > versionOf(matches[j]) })
	if len(matches) == 0 {
		return ""
	}
	return filepath.Dir(matches[0])
}

func versionOf(initdb string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return v
}

// base is the directory that holds the cluster's data and socket. It is the
// project's .data/ unless the server's non-root owner could not reach it (a
// checkout under /root) or the socket path would be too long; then it is a
// directory under the system temp dir named after the project path.
func (c *Cluster) base() string {
	dir := filepath.Join(c.Root, ".data")
	if len(dir) < 80 && (os.Geteuid() != 0 || othersCanTraverse(c.Root)) {
		return dir
	}
	sum := sha256.Sum256([]byte(c.Root))
	return filepath.Join(os.TempDir(), "tripgraph-"+hex.EncodeToString(sum[:6]))
}

func othersCanTraverse(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		st, err := os.Stat(d)
		if err != nil || st.Mode().Perm()&0o001 == 0 {
			return false
		}
		if filepath.Dir(d) == d {
			return true
		}
	}
}

func (c *Cluster) dataDir() string   { return filepath.Join(c.base(), "pg") }
func (c *Cluster) socketDir() string { return filepath.Join(c.base(), "run") }

// initIfMissing creates the cluster with initdb when it does not exist yet.
func (c *Cluster) initIfMissing(ctx context.Context) error {
	data := c.dataDir()
	if _, err := os.Stat(filepath.Join(data, "PG_VERSION")); err == nil {
		return nil
	}
	// The base must be enterable by the cluster's owner, who is not root.
	if err := os.MkdirAll(c.base(), 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", c.base(), err)
	}
	for _, d := range []string{data, c.socketDir()} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return fmt.Errorf("creating %s: %w", d, err)
		}
		if err := c.chownToOwner(d); err != nil {
			return err
		}
	}
	if err := c.runAsOwner(ctx, filepath.Join(c.bin, "initdb"), "-D", data, "-U", Superuser,
		"--auth=trust", "-E", "UTF8", "--no-locale"); err != nil {
		return fmt.Errorf("creating the local cluster with initdb: %w", err)
	}
	conf := fmt.Sprintf("\n# tripgraph development cluster\nlisten_addresses = '127.0.0.1'\n"+
		"unix_socket_directories = '%s'\nfsync = on\nmax_connections = 300\nshared_buffers = 16MB\n", c.socketDir())
	f, err := os.OpenFile(filepath.Join(data, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("configuring the local cluster: %w", err)
	}
	defer f.Close()
	if _, err := f.WriteString(conf); err != nil {
		return fmt.Errorf("configuring the local cluster: %w", err)
	}
	return nil
}

// startIfStopped starts the server at a free port unless it runs already,
// and returns the port it listens on.
func (c *Cluster) startIfStopped(ctx context.Context) (int, error) {
	if port, ok := c.runningPort(); ok {
		return port, nil
	}
	port, err := freePort()
	if err != nil {
		return 0, err
	}
	logFile := filepath.Join(c.socketDir(), "postgres.log")
	if err := c.runAsOwner(ctx, filepath.Join(c.bin, "pg_ctl"), "start", "-D", c.dataDir(), "-w", "-t", "60",
		"-l", logFile, "-o", "-p "+strconv.Itoa(port)); err != nil {
		return 0, fmt.Errorf("starting the local cluster (log: %s): %w", logFile, err)
	}
	return port, nil
}

// runAsOwner runs a PostgreSQL program, as the cluster's non-root owner when
// we are root (PostgreSQL refuses to run as root).
func (c *Cluster) runAsOwner(ctx context.Context, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = c.base()
	if os.Geteuid() == 0 {
		uid, gid, err := owner()
		if err != nil {
			return err
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid}}
		cmd.Dir = "/"
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %v: %w\n%s", filepath.Base(name), args, err, out)
	}
	return nil
}

func (c *Cluster) chownToOwner(dir string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	uid, gid, err := owner()
	if err != nil {
		return err
	}
	if err := os.Chown(dir, int(uid), int(gid)); err != nil {
		return fmt.Errorf("giving %s to the cluster's owner: %w", dir, err)
	}
	return nil
}

// owner is the non-root account that owns the cluster: Debian's postgres
// user, or a system user tripgraph created on first use.
func owner() (uint32, uint32, error) {
	for _, name := range []string{"postgres", "tripgraph"} {
		if u, err := user.Lookup(name); err == nil {
			uid, _ := strconv.Atoi(u.Uid)
			gid, _ := strconv.Atoi(u.Gid)
			return uint32(uid), uint32(gid), nil
		}
	}
	if out, err := exec.Command("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "tripgraph").CombinedOutput(); err != nil {
		return 0, 0, fmt.Errorf("creating a system user to own the cluster: %w\n%s", err, out)
	}
	return owner()
}
