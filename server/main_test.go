package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/secretbox"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/store/mcpservers"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "server", &testURL)) }

// harness is a server on loopback with two users, each with an API key.
type harness struct {
	t          testing.TB
	srv        *Server
	planner    *nodes.Planner
	tools      func(mcpbridge.User) nodes.Tools // each user's tools
	anyThread  *nodes.Graph                     // the planner on every thread, with no tools
	url        string
	st         *store.Store
	alice, bob accounts.User
	aliceKey   string
	bobKey     string
	logs       *syncBuffer
}

// syncBuffer is a log sink tests read while the server writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var migrateOnce sync.Once

func openStore(t testing.TB, url string) *store.Store {
	t.Helper()
	pgtest.Skip(t)
	ctx := context.Background()
	st, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	return st
}

// migratedStore opens the test database, migrated once per package run.
func migratedStore(t testing.TB) *store.Store {
	t.Helper()
	pgtest.Skip(t)
	var merr error
	migrateOnce.Do(func() { merr = migrations.Up(context.Background(), testURL) })
	if merr != nil {
		t.Fatal(merr)
	}
	return openStore(t, testURL)
}

func newHarness(t testing.TB, limits httpx.Limits) *harness {
	t.Helper()
	st := migratedStore(t)
	h := &harness{t: t, st: st, logs: &syncBuffer{}}
	h.srv, h.planner = newServer(t, st, limits, h.logs)
	h.tools, h.anyThread = noTools, h.planner.For(nodes.Traveller{Tools: nodes.FuncTools{}}, st.Checkpoints)
	ts := httptest.NewServer(h.srv.Handler())
	t.Cleanup(ts.Close)
	h.url = ts.URL
	h.alice, h.aliceKey = newUser(t, st)
	h.bob, h.bobKey = newUser(t, st)
	return h
}

// noTools gives every user no tools.
func noTools(mcpbridge.User) nodes.Tools { return nodes.FuncTools{} }

func newServer(t testing.TB, st *store.Store, limits httpx.Limits, logs io.Writer) (*Server, *nodes.Planner) {
	t.Helper()
	planner := plannertest.Planner(t)
	return newServerWith(t, st, planner, noTools, limits, logs), planner
}

// newServerWith is a server on st with the planner and tools given, and a
// secret box for its users' MCP servers (testBoxKey).
func newServerWith(t testing.TB, st *store.Store, planner *nodes.Planner, tools func(mcpbridge.User) nodes.Tools, limits httpx.Limits, logs io.Writer) *Server {
	t.Helper()
	return newServerTuned(t, st, planner, tools, logs, func(cfg *Config) { cfg.Limits = limits })
}

// newServerTuned is a server on st with the planner and tools given, a
// secret box for its users' MCP servers (testBoxKey) and the test limits,
// configured then by tune.
func newServerTuned(t testing.TB, st *store.Store, planner *nodes.Planner, tools func(mcpbridge.User) nodes.Tools, logs io.Writer, tune func(*Config)) *Server {
	t.Helper()
	box, err := secretbox.New(testBoxKey)
	if err != nil {
		t.Fatal(err)
	}
	guard, err := netguard.New(netguard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Store: st, Planner: planner, Tools: tools, Servers: mcpservers.Registry{Pool: st.Pool, Guard: guard, Box: box},
		Limits: testLimits(), Logger: slog.New(slog.NewJSONHandler(logs, nil))}
	tune(&cfg)
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

var userSeq struct {
	sync.Mutex
	n int
}

func newUser(t testing.TB, st *store.Store) (accounts.User, string) {
	t.Helper()
	userSeq.Lock()
	userSeq.n++
	name := fmt.Sprintf("user%d-%d", userSeq.n, time.Now().UnixNano())
	userSeq.Unlock()
	ctx := context.Background()
	u, err := st.Accounts.EnsureUser(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	key, err := st.Accounts.CreateAPIKey(ctx, u.ID, "test")
	if err != nil {
		t.Fatal(err)
	}
	return u, key
}

// response is what a request got back.
type response struct {
	status int
	header http.Header
	body   []byte
}

// decode reads the body as JSON into v.
func (r response) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
}

// errorCode is the code of an error body.
func (r response) errorCode(t testing.TB) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	r.decode(t, &e)
	return e.Error
}

// do sends a request with key (none when "") and a JSON body (none when "").
func (h *harness) do(method, path, key, body string) response {
	h.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, h.url+path, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("X-Api-Key", key)
	}
	return h.send(req)
}

func (h *harness) send(req *http.Request) response {
	h.t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: data}
}

// must sends a request that must answer want.
func (h *harness) must(want int, method, path, key, body string) response {
	h.t.Helper()
	r := h.do(method, path, key, body)
	if r.status != want {
		h.t.Fatalf("%s %s = %d %s, want %d", method, path, r.status, r.body, want)
	}
	return r
}

// thread creates a thread of the user with key and returns its id.
func (h *harness) thread(key, body string) string {
	h.t.Helper()
	var th struct {
		ThreadID string `json:"thread_id"`
	}
	h.must(http.StatusOK, http.MethodPost, "/threads", key, body).decode(h.t, &th)
	return th.ThreadID
}

// turn runs one planner turn on a thread with the offline model, as a run
// will, so that the thread has real checkpoints.
func (h *harness) turn(threadID, text string) nodes.State {
	h.t.Helper()
	s, err := h.anyThread.Invoke(context.Background(), graph.RunConfig[nodes.Update]{ThreadID: threadID,
		Input: nodes.Update{Messages: []nodes.Message{{ID: uuid.NewString(), Type: nodes.Human, Content: text}}}})
	if err != nil {
		h.t.Fatal(err)
	}
	return s
}

// with is the harness for a subtest: its failures are the subtest's.
func (h *harness) with(t *testing.T) *harness {
	c := *h
	c.t = t
	return &c
}

// testLimits are the default limits with a rate no test reaches.
func testLimits() httpx.Limits {
	l := httpx.DefaultLimits
	l.RatePerSec, l.RateBurst = 1e6, 1e6
	return l
}

// testBoxKey seals the secrets of users' MCP servers in tests.
var testBoxKey = bytes.Repeat([]byte{7}, 32)

// tenant is userID's part of tripgraph as the server sees it.
func (h *harness) tenant(userID string) tenant.Tenant {
	return tenant.Factory{Records: tenant.OnPostgres(h.st, mcpservers.Registry{Pool: h.st.Pool}), Planner: h.planner, Tools: h.tools}.For(userID)
}
