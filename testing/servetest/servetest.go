// Package servetest runs a real `tripgraph serve` for tests that drive it
// from outside, as a client would: it builds the binary, prepares a small
// database, starts the server on a free loopback port and waits until it
// is ready.
package servetest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/accounts"
)

// Build compiles the tripgraph binary into the test's temporary folder.
func Build(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tripgraph")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/tripgraph/tripgraph/cmd/tripgraph").CombinedOutput(); err != nil {
		t.Fatalf("building tripgraph: %v\n%s", err, out)
	}
	return bin
}

// FreeAddr returns a loopback address with a port nothing listens on now.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// Prepare migrates the database at dbURL, seeds a one-city catalog (so
// that serve does not seed its own 500 cities) and makes each named user
// with an API key, which it returns in order.
func Prepare(t testing.TB, dbURL string, users ...string) []string {
	t.Helper()
	if err := migrations.Up(context.Background(), dbURL); err != nil {
		t.Fatal(err)
	}
	return Populate(t, dbURL, users...)
}

// Populate is Prepare on a database some release has migrated already:
// it seeds and makes the users, and migrates nothing.
func Populate(t testing.TB, dbURL string, users ...string) []string {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	lisbon := seed.City{Name: "Lisbon", GeoName: "Lisboa", Country: "PT", Population: 550_000, Lat: 38.72, Lng: -9.14}
	if err := seed.Run(ctx, st, seed.Options{Cities: []seed.City{lisbon}}); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, name := range users {
		u, err := st.Accounts.EnsureUser(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		k, _, err := st.Accounts.CreateAPIKey(ctx, accounts.NewKey{UserID: u.ID, Label: "test"})
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	return keys
}

// Serve runs `bin serve` on addr against the database at dbURL, with the
// offline model unless env says otherwise, until the test ends (or the test
// kills the process it returns). It returns once /readyz answers 200, and
// shows the server's log when the test fails.
func Serve(t testing.TB, bin, addr, dbURL string, env ...string) *exec.Cmd {
	t.Helper()
	return Start(t, bin, addr, dbURL, env...).Cmd
}

// Process is a `serve` that Start started, and what it writes.
type Process struct {
	*exec.Cmd
	log *lockedBuffer
}

// Log is what the process wrote so far, its standard output and error
// together.
func (p *Process) Log() string { return p.log.String() }

// Start is Serve, for a test that reads what the process writes too.
func Start(t testing.TB, bin, addr, dbURL string, env ...string) *Process {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--addr", addr)
	cmd.Env = append(append(os.Environ(), "DATABASE_URL="+dbURL, "TRIPGRAPH_MEDIA_ROOT="+t.TempDir(),
		"MCP_SECRET=", "TRIPGRAPH_MODEL="), env...)
	log := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("serve %s log:\n%s", addr, log.String())
		}
	})
	waitReady(t, addr)
	return &Process{Cmd: cmd, log: log}
}

// waitReady waits until /readyz answers 200, for at most a minute.
func waitReady(t testing.TB, addr string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if resp, err := http.Get("http://" + addr + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("serve on %s was not ready within a minute", addr)
}

// lockedBuffer is a bytes.Buffer a process's output and a test may share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// PostJSON posts a JSON body to the server at addr with an API key and
// returns the JSON object it answers; any status but 2xx, or an answer
// that is not an object, fails the test.
func PostJSON(t testing.TB, addr, key, path, body string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if resp.StatusCode/100 != 2 || json.Unmarshal(b, &out) != nil {
		t.Fatalf("POST %s: %d %s", path, resp.StatusCode, b)
	}
	return out
}

// QueryRow reads one row of the database at dbURL into dst, on a
// connection of its own, within 10 seconds.
func QueryRow(dbURL, sql string, arg any, dst ...any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return fmt.Errorf("connecting to read a row: %w", err)
	}
	defer conn.Close(ctx)
	return conn.QueryRow(ctx, sql, arg).Scan(dst...)
}

// SSEFrame is one server-sent event: its id (0 when it has none), its
// event name and its data (the last data line).
type SSEFrame struct {
	ID          int64
	Event, Data string
}

// ReadSSE reads server-sent events until r ends; an event without a name
// (a keep-alive comment) is skipped.
func ReadSSE(r io.Reader) []SSEFrame {
	var frames []SSEFrame
	var f SSEFrame
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if f.Event != "" {
				frames = append(frames, f)
			}
			f = SSEFrame{}
		case strings.HasPrefix(line, "event: "):
			f.Event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "id: "):
			f.ID, _ = strconv.ParseInt(strings.TrimPrefix(line, "id: "), 10, 64)
		case strings.HasPrefix(line, "data: "):
			f.Data = strings.TrimPrefix(line, "data: ")
		}
	}
	return frames
}
