// Package upgrade rolls `tripgraph serve` processes from the previous
// release to this one on one database, as a rolling update does, while
// travellers' runs are in flight and their streams open: the old
// processes serve on the old schema, this release's migrations are
// applied under them, and each old process is replaced by a new one, one
// at a time, stopped gracefully. No run may be lost or run twice, no
// stream may miss an event, and every process must log JSON throughout.
package upgrade

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/testing/faultproxy"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/servetest"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "upgrade", &testURL)) }

// previousRelease is the commit of the release before this one: the
// processes a rolling update replaces run it.
const previousRelease = "dedd31844a6d6606a7a42422d0a9a3ca0be97cc9"

// travellers is how many clients keep runs going through the upgrade,
// each on a thread of its own.
const travellers = 6

// env is every process's: one worker, which the travellers keep busy with
// runs waiting, short leases, and no grace on SIGTERM, so that a stopped
// process hands the run it is executing back to the queue, where a
// process of the other release resumes it from its last checkpoint.
var env = []string{"TRIPGRAPH_WORKERS=1", "TRIPGRAPH_RUN_LEASE=2s", "TRIPGRAPH_SHUTDOWN_GRACE=0s"}

func TestRollingUpgradeKeepsRunsAndStreams(t *testing.T) {
	pgtest.Skip(t)
	oldBin := buildPrevious(t)
	newBin := servetest.Build(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	// The previous release on its own schema, two processes.
	if out, err := migrate(ctx, oldBin); err != nil {
		t.Fatalf("the previous release's migrations: %v\n%s", err, out)
	}
	keys := servetest.Populate(t, testURL, "upgrade-ana", "upgrade-rui")
	f := &fleet{db: slowDatabase(t)}
	a := f.start(t, oldBin, "old A")
	load := startLoad(ctx, t, f, keys)
	f.learnWorker(t, a)
	b := f.start(t, oldBin, "old B")
	f.learnWorker(t, b)
	pause := func() { time.Sleep(2 * time.Second) }
	pause()
	// This release's expand migrations, under the old processes' runs.
	if out, err := migrate(ctx, newBin); err != nil {
		t.Fatalf("this release's migrations under the previous release: %v\n%s", err, out)
	}
	pause()
	// Replace them one by one.
	f.learnWorker(t, f.start(t, newBin, "new C"))
	pause()
	f.stop(t, a)
	pause()
	f.learnWorker(t, f.start(t, newBin, "new D"))
	pause()
	f.stop(t, b)
	pause()
	runs := load.finish(t)

	checkRuns(t, f, runs)
	for _, p := range f.all() {
		if p.alive {
			p.worker = "" // the travellers are done: no run to stop it in
			f.stop(t, p)
		}
	}
	for _, p := range f.all() {
		checkJSONLog(t, p)
	}
	handedBack := 0
	if err := servetest.QueryRow(testURL, `SELECT count(*) FROM runs WHERE attempts > $1`, 1, &handedBack); err != nil {
		t.Fatal(err)
	}
	rejoined := 0
	for _, r := range runs {
		rejoined += r.joins - 1
	}
	t.Logf("%d runs through the upgrade, %d of them resumed by another process; %d streams joined again after a process stopped",
		len(runs), handedBack, rejoined)
}

// dbDelay is how much longer each of the processes' round trips to the
// database takes, as across a network: runs take long enough that a
// process stopped while the travellers keep it busy is mid-run.
const dbDelay = 2 * time.Millisecond

// slowDatabase is the test's database URL through a loopback proxy that
// delays its answers by dbDelay.
func slowDatabase(t *testing.T) string {
	t.Helper()
	u, err := url.Parse(testURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy, err := faultproxy.Start(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proxy.Close() }) // after the processes, which were started later
	proxy.Delay(dbDelay)
	through, err := proxy.Through(testURL)
	if err != nil {
		t.Fatal(err)
	}
	return through
}

// buildPrevious builds the previous release's binary from this clone's
// history, with -trimpath, so that a second build takes every package
// from Go's build cache though the sources are in a new folder. It skips
// the test when the clone lacks that commit.
func buildPrevious(t *testing.T) string {
	t.Helper()
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git clone, so the previous release cannot be built: %v", err)
	}
	repo := strings.TrimSpace(string(root))
	if exec.Command("git", "-C", repo, "cat-file", "-e", previousRelease+"^{commit}").Run() != nil {
		t.Skipf("this clone lacks the previous release, commit %s (a shallow clone?); fetch it to run the upgrade test", previousRelease)
	}
	src := t.TempDir()
	archive := exec.Command("git", "-C", repo, "archive", "--format=tar", previousRelease)
	untar := exec.Command("tar", "-x", "-C", src)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	untar.Stdin = pipe
	if err := untar.Start(); err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	archive.Stderr = &stderr
	if err := archive.Run(); err != nil {
		t.Fatalf("extracting the previous release: %v\n%s", err, stderr.String())
	}
	if err := untar.Wait(); err != nil {
		t.Fatalf("extracting the previous release: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "tripgraph-previous")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", bin, "./cmd/tripgraph")
	build.Dir = src
	start := time.Now()
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the previous release: %v\n%s", err, out)
	}
	t.Logf("built the previous release in %s", time.Since(start).Round(time.Second))
	return bin
}

// migrate applies a release's migrations with its own binary.
func migrate(ctx context.Context, bin string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, bin, "migrate", "up")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+testURL)
	return cmd.CombinedOutput()
}

// proc is one serve process of the fleet.
type proc struct {
	*servetest.Process
	name, addr string
	worker     string // the id its one worker claims runs under, once learnt
	alive      bool   // still taking requests
}

// fleet is the serve processes behind the travellers' load balancer: a
// request goes to one that is alive.
type fleet struct {
	db    string // the database URL the processes use
	mu    sync.Mutex
	procs []*proc
	next  int
}

// start starts a process and lets it take requests.
func (f *fleet) start(t *testing.T, bin, name string) *proc {
	t.Helper()
	addr := servetest.FreeAddr(t)
	p := &proc{Process: servetest.Start(t, bin, addr, f.db, env...), name: name, addr: addr, alive: true}
	f.mu.Lock()
	f.procs = append(f.procs, p)
	f.mu.Unlock()
	return p
}

// stop takes a process out of the balancer and stops it with SIGTERM, as
// an orchestrator does, and waits for it to exit cleanly. It sends the
// signal while the process executes a run, when it can within a few
// seconds: an orchestrator does not wait for a lull.
func (f *fleet) stop(t *testing.T, p *proc) {
	t.Helper()
	if p.worker != "" {
		waitForARun(p.worker)
	}
	f.mu.Lock()
	p.alive = false
	f.mu.Unlock()
	if err := p.Process.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("stopping %s: %v", p.name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- p.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("%s exited with %v after SIGTERM", p.name, err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not exit within 30 s of SIGTERM", p.name)
	}
}

// waitForARun returns once the worker executes a run, or after five
// seconds.
func waitForARun(worker string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, testURL)
	if err != nil {
		return
	}
	defer conn.Close(context.Background())
	for ctx.Err() == nil {
		var running bool
		err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM runs WHERE status = 'running' AND worker_id = $1)`, worker).Scan(&running)
		if err == nil && running {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// learnWorker finds the id of p's worker: the first worker seen running a
// run that is no other process's. p must be the newest process, and the
// travellers at work.
func (f *fleet) learnWorker(t *testing.T, p *proc) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	known := map[string]bool{}
	for _, q := range f.all() {
		known[q.worker] = true
	}
	for ctx.Err() == nil {
		rows, err := conn.Query(ctx, `SELECT DISTINCT worker_id FROM runs WHERE status = 'running'`)
		if err != nil {
			t.Fatal(err)
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if !known[id] {
				f.mu.Lock()
				p.worker = id
				f.mu.Unlock()
				return
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("%s ran no run within 20 s", p.name)
}

// pick is the address of the next live process, round robin.
func (f *fleet) pick() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	for range f.procs {
		p := f.procs[f.next%len(f.procs)]
		f.next++
		if p.alive {
			return p.addr
		}
	}
	return ""
}

// all is every process started, alive or not.
func (f *fleet) all() []*proc {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*proc(nil), f.procs...)
}

// frame is a stored event as a stream carries it: its seq and its name.
type frame struct {
	id    int64
	event string
}

// run is one run a traveller created, and what its streams carried.
type run struct {
	thread, id string
	key        string
	streamed   []frame // the frames with an id, from every stream that followed it
	joins      int     // how many streams it took
}

// load is the travellers at work: each creates runs on its thread and
// follows their streams through whichever process is alive, until told
// to finish.
type load struct {
	stopping atomic.Bool
	wg       sync.WaitGroup
	mu       sync.Mutex
	runs     []*run
	errs     []error
}

func startLoad(ctx context.Context, t *testing.T, f *fleet, keys []string) *load {
	t.Helper()
	l := &load{}
	for i := range travellers {
		c := &client{f: f, key: keys[i%len(keys)]}
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			if err := l.travel(ctx, c, i); err != nil {
				l.mu.Lock()
				l.errs = append(l.errs, fmt.Errorf("traveller %d: %w", i, err))
				l.mu.Unlock()
			}
		}()
	}
	return l
}

// travel is one traveller's conversation: each turn puts a note in the
// long-term store and sends two messages at once, the second queued
// behind the first (every third turn's first delayed by a second), and
// follows both runs to their end.
func (l *load) travel(ctx context.Context, c *client, i int) error {
	var th struct {
		ThreadID string `json:"thread_id"`
	}
	if err := c.call(ctx, http.MethodPost, "/threads", `{}`, &th); err != nil {
		return err
	}
	for turn := 0; !l.stopping.Load(); turn++ {
		note := fmt.Sprintf(`{"namespace":["upgrade","t%d"],"key":"turn","value":{"turn":%d}}`, i, turn)
		if err := c.call(ctx, http.MethodPut, "/store/items", note, nil); err != nil {
			return err
		}
		var turnRuns []*run
		for j := range 2 {
			delay := 0
			if turn%3 == 2 && j == 0 {
				delay = 1
			}
			body := fmt.Sprintf(`{"assistant_id":"trip-planner","multitask_strategy":"enqueue","after_seconds":%d,`+
				`"input":{"messages":[{"role":"user","content":"%d nights in Lisbon in May, %d of us (turn %d.%d)"}]}}`,
				delay, 2+j, 1+turn%4, turn, j)
			var created struct {
				RunID string `json:"run_id"`
			}
			if err := c.call(ctx, http.MethodPost, "/threads/"+th.ThreadID+"/runs", body, &created); err != nil {
				return err
			}
			r := &run{thread: th.ThreadID, id: created.RunID, key: c.key}
			l.mu.Lock()
			l.runs = append(l.runs, r)
			l.mu.Unlock()
			turnRuns = append(turnRuns, r)
		}
		for _, r := range turnRuns {
			if err := c.follow(ctx, r); err != nil {
				return err
			}
		}
	}
	return nil
}

// finish stops the travellers' next turns, waits for them to follow
// their runs to the end, and returns the runs.
func (l *load) finish(t *testing.T) []*run {
	t.Helper()
	l.stopping.Store(true)
	l.wg.Wait()
	for _, err := range l.errs {
		t.Error(err)
	}
	if t.Failed() {
		t.FailNow()
	}
	return l.runs
}

// client is a traveller's HTTP client, in front of the fleet.
type client struct {
	f   *fleet
	key string
}

// tries is how many processes a request is sent to before it fails: one
// may be stopping under it.
const tries = 10

// call sends a request to a live process and decodes its JSON answer into
// out (when not nil). It tries another process when the one it reached
// is stopping: refused connection, or 503.
func (c *client) call(ctx context.Context, method, path, body string, out any) error {
	var last error
	for range tries {
		addr := c.f.pick()
		req, _ := http.NewRequestWithContext(ctx, method, "http://"+addr+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+c.key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			last = err
			time.Sleep(50 * time.Millisecond)
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusServiceUnavailable:
			last = fmt.Errorf("%s %s on %s: %d %s", method, path, addr, resp.StatusCode, b)
			time.Sleep(50 * time.Millisecond)
			continue
		case resp.StatusCode/100 != 2:
			return fmt.Errorf("%s %s on %s: %d %s", method, path, addr, resp.StatusCode, b)
		}
		if out == nil {
			return nil
		}
		if err := json.Unmarshal(b, out); err != nil {
			return fmt.Errorf("%s %s on %s: %w: %s", method, path, addr, err, b)
		}
		return nil
	}
	return fmt.Errorf("%s %s: no process took it: %w", method, path, last)
}

// everyMode asks a join for every mode a run stores.
const everyMode = "stream_mode=values&stream_mode=updates&stream_mode=messages-tuple&stream_mode=custom"

// follow streams a run until it ends. A stream that a stopping process
// cuts (with its UNAVAILABLE frame, or by closing the connection) is
// joined again on another process from the last event it carried, as the
// frame says to.
func (c *client) follow(ctx context.Context, r *run) error {
	var last int64
	for range tries {
		addr := c.f.pick()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet,
			"http://"+addr+"/threads/"+r.thread+"/runs/"+r.id+"/stream?"+everyMode, nil)
		req.Header.Set("Authorization", "Bearer "+c.key)
		if last > 0 {
			req.Header.Set("Last-Event-ID", strconv.FormatInt(last, 10))
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if resp.StatusCode == http.StatusServiceUnavailable {
			resp.Body.Close()
			continue
		}
		if resp.StatusCode != http.StatusOK {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			return fmt.Errorf("joining run %s on %s: %d %s", r.id, addr, resp.StatusCode, b)
		}
		r.joins++
		cut, err := readStream(resp.Body, r, &last)
		resp.Body.Close()
		if err != nil && ctx.Err() != nil {
			return err
		}
		if !cut && err == nil {
			return nil
		}
	}
	return fmt.Errorf("run %s: its stream was cut %d times", r.id, tries)
}

// readStream reads a run's SSE stream into r.streamed, the frames with an
// id, moving last past each. cut is true when the stream ended with a
// frame without an id that says the process is going away (the only
// frame without an id after metadata); err when the connection broke.
func readStream(body io.Reader, r *run, last *int64) (cut bool, err error) {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var id int64
	var event, data string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			switch {
			case id > 0:
				r.streamed = append(r.streamed, frame{id, event})
				*last = id
				cut = false
			case event == "error":
				if !strings.Contains(data, `"UNAVAILABLE"`) {
					return false, fmt.Errorf("run %s: an error frame without an id: %s", r.id, data)
				}
				cut = true
			}
			id, event, data = 0, "", ""
		case strings.HasPrefix(line, "id: "):
			id, _ = strconv.ParseInt(strings.TrimPrefix(line, "id: "), 10, 64)
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = strings.TrimPrefix(line, "data: ")
		}
	}
	if err := sc.Err(); err != nil {
		return cut, err
	}
	return cut, nil
}

// checkRuns checks that every run the travellers created, and no other,
// ended once in success; that the streams that followed each carried
// every event it stored, once, in order; and that each thread holds each
// message it was sent once.
func checkRuns(t *testing.T, f *fleet, runs []*run) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT id::text, status FROM runs`)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]string{}
	for rows.Next() {
		var id, status string
		if err := rows.Scan(&id, &status); err != nil {
			t.Fatal(err)
		}
		stored[id] = status
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	created := map[string]bool{}
	perThread := map[string]int{}
	for _, r := range runs {
		if created[r.id] {
			t.Errorf("run %s was created twice", r.id)
		}
		created[r.id] = true
		perThread[r.thread]++
		if status, ok := stored[r.id]; !ok {
			t.Errorf("run %s is not in the store", r.id)
		} else if status != "success" {
			t.Errorf("run %s ended %s, want success", r.id, status)
		}
	}
	for id, status := range stored {
		if !created[id] {
			t.Errorf("the store has run %s (%s), which no traveller created", id, status)
		}
	}
	for _, r := range runs {
		checkStream(ctx, t, conn, r)
	}
	for thread, n := range perThread {
		checkThread(ctx, t, f, runs, thread, n)
	}
}

// checkStream compares what a run's streams carried with its stored
// events.
func checkStream(ctx context.Context, t *testing.T, conn *pgx.Conn, r *run) {
	t.Helper()
	rows, err := conn.Query(ctx, `SELECT seq, event FROM run_events WHERE run_id = $1 ORDER BY seq`, r.id)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (frame, error) {
		var f frame
		return f, row.Scan(&f.id, &f.event)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) == 0 {
		t.Errorf("run %s stored no events", r.id)
		return
	}
	if len(r.streamed) != len(stored) {
		t.Errorf("run %s: its %d streams carried %d events %v, it stored %d %v", r.id, r.joins, len(r.streamed), r.streamed, len(stored), stored)
		return
	}
	for i := range stored {
		if r.streamed[i] != stored[i] {
			t.Errorf("run %s: event %d streamed as %v, stored as %v", r.id, i, r.streamed[i], stored[i])
		}
	}
}

// checkThread checks that the thread's state holds each of its n runs'
// messages once, and an answer to each: a run that ran twice, or not at
// all, would show.
func checkThread(ctx context.Context, t *testing.T, f *fleet, runs []*run, thread string, n int) {
	t.Helper()
	var key string
	for _, r := range runs {
		if r.thread == thread {
			key = r.key
		}
	}
	var state struct {
		Values struct {
			Messages []struct {
				Type    string `json:"type"`
				Content any    `json:"content"`
			} `json:"messages"`
		} `json:"values"`
	}
	c := &client{f: f, key: key}
	if err := c.call(ctx, http.MethodGet, "/threads/"+thread+"/state", "", &state); err != nil {
		t.Fatal(err)
	}
	sent, answers := map[string]int{}, 0
	for _, m := range state.Values.Messages {
		switch m.Type {
		case "human":
			sent[fmt.Sprint(m.Content)]++
		case "ai":
			answers++
		}
	}
	total := 0
	for text, times := range sent {
		total += times
		if times != 1 {
			t.Errorf("thread %s holds the message %q %d times", thread, text, times)
		}
	}
	if total != n || answers < n {
		t.Errorf("thread %s holds %d messages sent and %d answers after %d runs", thread, total, answers, n)
	}
}

// checkJSONLog checks that every line a process wrote is a JSON object.
func checkJSONLog(t *testing.T, p *proc) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(p.Log(), "\n"), "\n")
	for i, line := range lines {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Errorf("%s's log line %d is not a JSON object: %q", p.name, i+1, line)
		}
	}
	if len(lines) < 2 {
		t.Errorf("%s logged %d lines", p.name, len(lines))
	}
}
