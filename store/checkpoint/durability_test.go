package checkpoint

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/devdb"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/migrations"
)

// A process killed with SIGKILL inside a node loses nothing it committed,
// and a new process resumes the thread from its last checkpoint.
func TestResumeAfterSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills a child process")
	}
	ctx := context.Background()
	s := openTestStore(t)
	_, thread := newThread(t, s, "killed")
	bin := filepath.Join(t.TempDir(), "durable")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/tripgraph/tripgraph/testing/durable").CombinedOutput(); err != nil {
		t.Fatalf("building the child program: %v\n%s", err, out)
	}

	child := exec.Command(bin, "-db", testURL, "-thread", thread, "-turns", "3", "-block", "3")
	before, last := runChild(t, child, "blocked")
	if last != "blocked" {
		t.Fatalf("the child ended with %q before blocking", last)
	}
	if err := child.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	child.Wait()

	cp := New(s.Pool, Options{})
	assertCommitted(t, cp, thread, before)
	latest, err := cp.Latest(ctx, thread)
	if err != nil {
		t.Fatal(err)
	}
	if latest.ID != before[len(before)-1] || !slices.Equal(latest.Next, []string{"tools"}) {
		t.Fatalf("latest checkpoint %s (next %v), want the last committed %s, next [tools]", latest.ID, latest.Next, before[len(before)-1])
	}

	resumed := exec.Command(bin, "-db", testURL, "-thread", thread, "-resume")
	after, last := runChild(t, resumed, "")
	if err := resumed.Wait(); err != nil || last != "done 6" {
		t.Fatalf("the resumed child ended with %q, %v; want done 6", last, err)
	}
	assertCommitted(t, cp, thread, append(before, after...))
	first, err := cp.Get(ctx, thread, after[0])
	if err != nil {
		t.Fatal(err)
	}
	if first.ParentID != latest.ID || first.Node != "tools" {
		t.Fatalf("the resumed run's first checkpoint is %s from %q, want a child of %s from tools", first.ID, first.ParentID, latest.ID)
	}
}

// runChild starts cmd and reads its "committed <id>" lines until a line
// equal to stop, or the end of its output. It returns the ids and the last
// line.
func runChild(t *testing.T, cmd *exec.Cmd, stop string) (ids []string, last string) {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		last = sc.Text()
		if id, ok := strings.CutPrefix(last, "committed "); ok {
			ids = append(ids, id)
		}
		if last == stop {
			go io.Copy(io.Discard, out)
			break
		}
	}
	return ids, last
}

// assertCommitted checks that the thread holds exactly the committed ids.
func assertCommitted(t *testing.T, cp graph.Checkpointer, thread string, committed []string) {
	t.Helper()
	list, err := cp.List(context.Background(), thread, graph.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range list {
		got = append(got, c.ID)
	}
	slices.Reverse(got)
	if !slices.Equal(got, committed) {
		t.Fatalf("thread holds checkpoints\n%v\nwant the committed\n%v", got, committed)
	}
}

// PostgreSQL stopped immediately (as by a crash) mid-run loses nothing that
// was committed; once it restarts, the run resumes. The test runs its own
// throwaway cluster, so the shared one is never stopped.
func TestResumeAfterPostgresCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("creates and crashes a PostgreSQL cluster")
	}
	ctx := context.Background()
	// The cluster's owner (postgres, when we are root) must reach the
	// directory, or devdb falls back to a directory under /tmp it cannot.
	dir, err := os.MkdirTemp("", "tgcrash")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module crashtest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cluster, err := devdb.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	url, err := cluster.Ensure(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cluster.Reset(context.Background()) })
	if err := migrations.Up(ctx, url); err != nil {
		t.Fatal(err)
	}
	s, err := openDB(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	_, thread := newThread(t, s, "crashed")

	blocked, release := make(chan struct{}), make(chan struct{})
	tee := &teeSaver{Saver: New(s.Pool, Options{}), mem: graph.NewMemorySaver()}
	g := tripGraph(t, tee, func(_ context.Context, st chatState) {
		if len(st.Messages) == 3 { // the second turn's human message is in
			close(blocked)
			<-release
		}
	})
	if _, err := g.Invoke(ctx, graph.RunConfig[chatUpdate]{ThreadID: thread, Input: humanInput(1)}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() {
		_, err := g.Invoke(ctx, graph.RunConfig[chatUpdate]{ThreadID: thread, Input: humanInput(2)})
		done <- err
	}()
	<-blocked
	stopImmediately(t, url)
	close(release)
	if err := <-done; err == nil {
		t.Fatal("the run finished although PostgreSQL was down")
	}
	s.Close()

	if url, err = cluster.Ensure(ctx); err != nil {
		t.Fatalf("restarting the crashed cluster: %v", err)
	}
	s2, err := openDB(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	cp := New(s2.Pool, Options{})
	assertCommitted(t, cp, thread, tee.committed)
	compareSavers(t, thread, cp, tee.mem)

	final, err := tripGraph(t, cp, nil).Invoke(ctx, graph.RunConfig[chatUpdate]{ThreadID: thread, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range final.Messages {
		roles = append(roles, m.Role)
	}
	if !slices.Equal(roles, []string{"human", "ai", "human", "ai"}) {
		b, _ := json.Marshal(final)
		t.Fatalf("state after resuming: %s", b)
	}
}

// stopImmediately runs pg_ctl stop -m immediate on the server at url: the
// server exits at once, without a checkpoint, as in a crash.
func stopImmediately(t *testing.T, url string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	var dataDir string
	err = conn.QueryRow(ctx, "SHOW data_directory").Scan(&dataDir)
	conn.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pgCtl(t), "stop", "-D", dataDir, "-m", "immediate", "-w")
	if os.Geteuid() == 0 { // PostgreSQL refuses root: run as the data directory's owner
		st, err := os.Stat(dataDir)
		if err != nil {
			t.Fatal(err)
		}
		owner := st.Sys().(*syscall.Stat_t)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: owner.Uid, Gid: owner.Gid}}
		cmd.Dir = "/"
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pg_ctl stop -m immediate: %v\n%s", err, out)
	}
}

// pgCtl finds pg_ctl as devdb does: on PATH, else the newest Debian version.
func pgCtl(t *testing.T) string {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		return p
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(matches) == 0 {
		t.Fatal("pg_ctl not found")
	}
	sort.Slice(matches, func(i, j int) bool { return versionDir(matches[i]) > versionDir(matches[j]) })
	return matches[0]
}

func versionDir(path string) int {
	var v int
	fmt.Sscan(filepath.Base(filepath.Dir(filepath.Dir(path))), &v)
	return v
}
