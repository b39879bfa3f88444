// Package apptest gives a test tripgraph's whole HTTP server in its own
// process, on loopback: the REST API, the browser app and the runner, on
// the in-memory twin (no database, so under -short too) or on a
// PostgreSQL store, with two users and an API key each, and the helpers
// to send it requests and read its answers.
package apptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/secretbox"
	"github.com/tripgraph/tripgraph/server"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/store/mcpservers"
	"github.com/tripgraph/tripgraph/store/memstore"
	"github.com/tripgraph/tripgraph/store/quota"
	"github.com/tripgraph/tripgraph/testing/plannertest"
)

// Server is the server under test, its data and its two users.
type Server struct {
	t   testing.TB
	Srv *server.Server
	URL string
	// Mem is the in-memory twin the server runs on; nil on PostgreSQL.
	Mem *memstore.Store
	// Store is the PostgreSQL store the server runs on; nil in memory.
	Store *store.Store
	// Data is the server's data, either way.
	Data    server.Data
	Planner *nodes.Planner
	// Tools are each user's tools.
	Tools      func(mcpbridge.User) nodes.Tools
	Alice, Bob accounts.User
	AliceKey   string
	BobKey     string
	// Logs are the server's log lines, as JSON.
	Logs *SyncBuffer
	// Accounts are the users and keys of the server's data.
	Accounts Accounts
	// ahead is how far Advance has moved the twin's clock, shared with
	// the servers With makes.
	ahead *atomic.Int64
}

// now is the twin's clock: the time, moved on by Advance.
func (s *Server) now() time.Time { return time.Now().Add(time.Duration(s.ahead.Load())) }

// Advance moves the in-memory twin's clock on by d, so that sessions,
// links, leases and items that would expire by then have: the test sees
// the server after that much time. It fails the test on PostgreSQL, whose
// clock is the database's.
func (s *Server) Advance(d time.Duration) {
	s.t.Helper()
	if s.Mem == nil {
		s.t.Fatal("Advance moves the in-memory twin's clock; this server runs on PostgreSQL")
	}
	s.ahead.Add(int64(d))
}

// Accounts is what the tests make users and keys with, in either store.
type Accounts interface {
	EnsureUser(ctx context.Context, name string) (accounts.User, error)
	CreateAPIKey(ctx context.Context, n accounts.NewKey) (string, accounts.Key, error)
	RevokeAPIKey(ctx context.Context, userID, keyID string) (accounts.Key, error)
	UserByAPIKey(ctx context.Context, key string) (accounts.User, accounts.Key, error)
}

// Option configures a Server.
type Option func(*options)

type options struct {
	tools   func(mcpbridge.User) nodes.Tools
	store   *store.Store
	started bool
	noBox   bool
	quota   quota.Limits
	tune    []func(*server.Config)
}

// WithTools gives each user tools (a plannertest.Gate's Tools, say); none
// by default.
func WithTools(tools func(mcpbridge.User) nodes.Tools) Option {
	return func(o *options) { o.tools = tools }
}

// OnPostgres runs the server on st instead of the in-memory twin.
func OnPostgres(st *store.Store) Option { return func(o *options) { o.store = st } }

// Started starts the server's runner: it executes the runs it queues.
func Started() Option { return func(o *options) { o.started = true } }

// NoSecretKey runs the server without the key that seals users' MCP
// server credentials: servers with one are refused.
func NoSecretKey() Option { return func(o *options) { o.noBox = true } }

// Quota holds each user of the in-memory twin to limits (quota.Default's
// where not set). On PostgreSQL the store's own limits hold, as it was
// opened (store.Options.Limits), and a test that asks for others fails.
func Quota(limits quota.Limits) Option { return func(o *options) { o.quota = limits } }

// Tune changes the server's configuration before it is built.
func Tune(tune func(*server.Config)) Option {
	return func(o *options) { o.tune = append(o.tune, tune) }
}

// BoxKey seals the secrets of users' MCP servers.
var BoxKey = bytes.Repeat([]byte{7}, 32)

// Limits are the default limits with a rate no test reaches.
func Limits() httpx.Limits {
	l := httpx.DefaultLimits
	l.RatePerSec, l.RateBurst = 1e6, 1e6
	return l
}

// New starts a server for the test, which stops it when it ends.
func New(t testing.TB, opts ...Option) *Server {
	t.Helper()
	o := options{tools: NoTools}
	for _, opt := range opts {
		opt(&o)
	}
	guard, err := netguard.New(netguard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	box, err := secretbox.New(BoxKey)
	if err != nil {
		t.Fatal(err)
	}
	if o.noBox {
		box = nil
	}
	s := &Server{t: t, Planner: plannertest.Planner(t), Tools: o.tools, Logs: &SyncBuffer{}, Store: o.store, ahead: new(atomic.Int64)}
	var data server.Data
	if o.store != nil && o.quota != (quota.Limits{}) {
		t.Fatal("apptest.Quota sets the in-memory twin's limits; open the PostgreSQL store with store.Options.Limits")
	}
	if o.store != nil {
		data, s.Accounts = server.OnPostgres(o.store, mcpservers.Registry{Pool: o.store.Pool, Guard: guard, Box: box}), o.store.Accounts
	} else {
		s.Mem = memstore.New(memstore.Options{Guard: guard, Box: box, Now: s.now, Limits: o.quota})
		data, s.Accounts = server.InMemory(s.Mem), s.Mem.Accounts
	}
	cfg := server.Config{Data: data, Planner: s.Planner, Tools: o.tools, Limits: Limits(),
		Logger: slog.New(slog.NewJSONHandler(s.Logs, nil))}
	for _, tune := range o.tune {
		tune(&cfg)
	}
	s.Data = data
	if s.Srv, err = server.New(cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Srv.Close() })
	if o.started {
		s.Srv.Start()
	}
	ts := httptest.NewServer(s.Srv.Handler())
	t.Cleanup(ts.Close)
	s.URL = ts.URL
	s.Alice, s.AliceKey = s.NewUser()
	s.Bob, s.BobKey = s.NewUser()
	if o.store != nil && o.started {
		// The queue serves every owner, and a database may be shared by a
		// package's tests: the runs this server leaves must not be taken
		// up by the next test's workers, so its users' threads go with it.
		t.Cleanup(func() {
			if _, err := o.store.Pool.Exec(context.Background(), `DELETE FROM threads WHERE owner_id = ANY($1::uuid[])`,
				[]string{s.Alice.ID, s.Bob.ID}); err != nil {
				t.Errorf("deleting the test's threads: %v", err)
			}
		})
	}
	return s
}

// NoTools gives every user no tools.
func NoTools(mcpbridge.User) nodes.Tools { return nodes.FuncTools{} }

var userSeq atomic.Int64

// NewUser makes a user with an API key.
func (s *Server) NewUser() (accounts.User, string) {
	s.t.Helper()
	ctx := context.Background()
	u, err := s.Accounts.EnsureUser(ctx, fmt.Sprintf("user%d-%d", userSeq.Add(1), time.Now().UnixNano()))
	if err != nil {
		s.t.Fatal(err)
	}
	key, _, err := s.Accounts.CreateAPIKey(ctx, accounts.NewKey{UserID: u.ID, Label: "test"})
	if err != nil {
		s.t.Fatal(err)
	}
	return u, key
}

// Tenant is userID's part of tripgraph as the server sees it.
func (s *Server) Tenant(userID string) tenant.Tenant {
	var records func(string) tenant.Records
	if s.Mem != nil {
		records = tenant.InMemory(s.Mem)
	} else {
		records = tenant.OnPostgres(s.Store, mcpservers.Registry{Pool: s.Store.Pool})
	}
	return tenant.Factory{Records: records, Planner: s.Planner, Tools: s.Tools}.For(userID)
}

// T is the test the server's helpers fail.
func (s *Server) T() testing.TB { return s.t }

// With is the server for a subtest: its failures are the subtest's.
func (s *Server) With(t testing.TB) *Server {
	c := *s
	c.t = t
	return &c
}

// Response is what a request got back.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Decode reads the body as JSON into v.
func (r Response) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decoding %s: %v", r.Body, err)
	}
}

// ErrorCode is the code of an error body.
func (r Response) ErrorCode(t testing.TB) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	r.Decode(t, &e)
	return e.Error
}

// Do sends a request with key (none when "") and a JSON body (none when
// "").
func (s *Server) Do(method, path, key, body string) Response {
	s.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("X-Api-Key", key)
	}
	return s.Send(req)
}

// Send sends a request and reads the whole answer.
func (s *Server) Send(req *http.Request) Response {
	s.t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
}

// Must sends a request that must answer want.
func (s *Server) Must(want int, method, path, key, body string) Response {
	s.t.Helper()
	r := s.Do(method, path, key, body)
	if r.Status != want {
		s.t.Fatalf("%s %s = %d %s, want %d", method, path, r.Status, r.Body, want)
	}
	return r
}

// Thread creates a thread of the user with key and returns its id.
func (s *Server) Thread(key, body string) string {
	s.t.Helper()
	var th struct {
		ThreadID string `json:"thread_id"`
	}
	s.Must(http.StatusOK, http.MethodPost, "/threads", key, body).Decode(s.t, &th)
	return th.ThreadID
}

// Turn runs one planner turn for userID on a thread with the offline
// model, as a run will, so that the thread has real checkpoints.
func (s *Server) Turn(userID, threadID, text string) nodes.State {
	s.t.Helper()
	st, err := s.Tenant(userID).Planner.Invoke(context.Background(), graph.RunConfig[nodes.Update]{ThreadID: threadID,
		Input: nodes.Update{Messages: []nodes.Message{{ID: uuid.NewString(), Type: nodes.Human, Content: text}}}})
	if err != nil {
		s.t.Fatal(err)
	}
	return st
}

// Finish follows a run of userID's to its end and returns its events with
// the run as it ended; it fails the test when that takes more than a
// minute.
func (s *Server) Finish(userID, runID string) ([]store.RunEvent, store.Run) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	t := s.Tenant(userID)
	var events []store.RunEvent
	for e, err := range t.FollowRunEvents(ctx, runID, 0) {
		if err != nil {
			s.t.Fatalf("following run %s: %v", runID, err)
		}
		events = append(events, e)
	}
	r, err := t.Run(ctx, runID)
	if err != nil {
		s.t.Fatal(err)
	}
	return events, r
}

// SyncBuffer is a log sink tests read while the server writes.
type SyncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Within receives from ch, and fails the test when nothing comes within a
// minute: a bound on a hang, not a timing assertion.
func Within[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(time.Minute):
		t.Fatalf("%s did not come within a minute", what)
		panic("unreachable")
	}
}

// Drain reads a response's body to its end and closes it.
func Drain(t testing.TB, resp *http.Response) {
	t.Helper()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}
