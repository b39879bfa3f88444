package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/nodes"
)

// silentServer is an HTTP server on loopback that accepts every request
// and never answers it, counting the initialize requests it was sent.
type silentServer struct {
	*httptest.Server
	inits atomic.Int32
}

func newSilentServer(t *testing.T) *silentServer {
	t.Helper()
	s := &silentServer{}
	stop := make(chan struct{})
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"method":"initialize"`) {
			s.inits.Add(1)
		}
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	t.Cleanup(func() { close(stop); s.Close() })
	return s
}

// A user's server that never answers initialize costs a run one timeout,
// not one per use: the enrichment, the tool list and each tool call of a
// run, and the runs right after it, do not dial it again. Another user's
// runs pay their own.
func TestUnansweredInitializeCostsOneTimeout(t *testing.T) {
	silent := newSilentServer(t)
	mine := ServerConfig{Name: "crm", ID: "s1", Transport: Streamable, URL: silent.URL, Enabled: true, Timeout: 200 * time.Millisecond}
	builtin := ServerConfig{Name: OurServer, Transport: Memory, NewServer: newTestServer, Enabled: true, Builtin: true}
	reg := registry{"ana": {mine}, "bob": {mine}}
	b := newBridge(t, Options{Servers: []ServerConfig{builtin}, Breaker: BreakerSettings{OpenFor: time.Second}})

	run := func(user string) {
		t.Helper()
		ctx := bg
		if _, err := as(b, reg, user).Enrich(ctx, nodes.EnrichRequest{Text: "hotels in Lisbon"}); err != nil {
			t.Fatalf("enrichment: %v", err)
		}
		tools, err := as(b, reg, user).List(ctx)
		if err != nil || len(tools) == 0 {
			t.Fatalf("tools = %v, %v; want the built-in ones", names(tools), err)
		}
		for range 2 {
			res, err := as(b, reg, user).Call(ctx, "add", json.RawMessage(`{"a":1,"b":1}`))
			if err != nil || string(res.Full) != `{"sum":2}` {
				t.Fatalf("add = %s, %v", res.Full, err)
			}
		}
		if _, err := as(b, reg, user).Call(ctx, "crm__add", json.RawMessage(`{}`)); errcode.Of(err) != errcode.NotFound {
			t.Fatalf("a tool of the silent server: %v, want NOT_FOUND (it could not be listed)", err)
		}
	}
	run("ana")
	run("ana")
	if n := silent.inits.Load(); n != 1 {
		t.Fatalf("two runs of ana's sent the silent server %d initialize requests, want 1", n)
	}
	run("bob")
	if n := silent.inits.Load(); n != 2 {
		t.Fatalf("after bob's run the silent server saw %d initialize requests, want 2 (one per user)", n)
	}
	// The failure is remembered for a short time only: once the breaker
	// lets a probe through, a run tries the server again, once.
	for deadline := time.Now().Add(10 * time.Second); silent.inits.Load() == 2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("ana's server was never tried again")
		}
		run("ana")
	}
	if n := silent.inits.Load(); n != 3 {
		t.Fatalf("the silent server saw %d initialize requests, want 3", n)
	}
}

// A run that gives up while the server is being dialled (its context
// ends first) does not count against the server: the next run dials it.
func TestCallerGivingUpIsNotTheServersFailure(t *testing.T) {
	silent := newSilentServer(t)
	mine := ServerConfig{Name: "crm", Transport: Streamable, URL: silent.URL, Enabled: true, Timeout: time.Minute}
	reg := registry{"ana": {mine}}
	b := newBridge(t, Options{})
	for i := range 2 {
		ctx, cancel := context.WithTimeout(bg, 100*time.Millisecond)
		_, err := as(b, reg, "ana").List(ctx)
		cancel()
		if err == nil {
			t.Fatal("the silent server's tools were listed")
		}
		if n := silent.inits.Load(); n != int32(i+1) {
			t.Fatalf("after %d runs that gave up the silent server saw %d initialize requests, want %d", i+1, n, i+1)
		}
	}
}

// Only a user's server that cannot be reached opens at once; its other
// failures, and every failure of a built-in server, count towards the
// usual number, also after the breaker closed again.
func TestBreakerOpensAtOnceOnlyWhenUnreachable(t *testing.T) {
	b := newBridge(t, Options{Breaker: BreakerSettings{Failures: 3, OpenFor: 10 * time.Millisecond}})
	mine := ServerConfig{Name: "crm", Transport: Streamable, URL: "http://127.0.0.1:1/mcp", Enabled: true}
	ours := ServerConfig{Name: OurServer, Transport: Memory, NewServer: newTestServer, Enabled: true, Builtin: true}
	fail := func(cfg ServerConfig, err error) gobreaker.State {
		t.Helper()
		guarded(bg, b, "ana", cfg, func() (any, error) { return nil, err })
		return b.breaker("ana", cfg).cb.State()
	}
	refused := errors.New("invalid params") // an answer, not a failure to reach the server
	notOpened := &dialError{state: &connState{}, err: errors.New("connection refused")}
	if s := fail(mine, refused); s != gobreaker.StateClosed {
		t.Fatalf("one ordinary failure of a user's server: breaker %v, want closed", s)
	}
	if s := fail(ours, notOpened); s != gobreaker.StateClosed {
		t.Fatalf("a built-in server that could not be dialled once: breaker %v, want closed", s)
	}
	if s := fail(mine, notOpened); s != gobreaker.StateOpen {
		t.Fatalf("a user's server that could not be dialled: breaker %v, want open", s)
	}
	for deadline := time.Now().Add(10 * time.Second); b.breaker("ana", mine).cb.State() == gobreaker.StateOpen; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the breaker never let a probe through")
		}
	}
	if _, err := guarded(bg, b, "ana", mine, func() (any, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	if s := fail(mine, refused); s != gobreaker.StateClosed {
		t.Fatalf("an ordinary failure after the server came back: breaker %v, want closed", s)
	}
}
