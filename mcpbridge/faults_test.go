package mcpbridge

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
)

func mustAdd(t *testing.T, b *Bridge) {
	reg := registry(nil)
	t.Helper()
	res, err := as(b, reg, "ana").Call(bg, "add", json.RawMessage(`{"a":1,"b":1}`))
	if err != nil || string(res.Full) != `{"sum":2}` {
		t.Fatalf("add = %s, %v", res.Full, err)
	}
}

// When the server restarts and forgets the session, the bridge opens a
// new one and the call succeeds.
func TestSessionLost(t *testing.T) {
	for _, sse := range []bool{false, true} {
		h := newHTTPServer(t, sse)
		t.Run(string(h.config("").Transport), func(t *testing.T) {
			b := newBridge(t, Options{Servers: []ServerConfig{h.config("test")}})
			mustAdd(t, b)
			h.restart()
			mustAdd(t, b)
		})
	}
}

// A 401 is answered with a new session and one retry; a server that
// keeps answering 401 gets exactly one retry and the call is UNAVAILABLE.
func TestUnauthorized(t *testing.T) {
	reg := registry(nil)
	h := newHTTPServer(t, false)
	b := newBridge(t, Options{Servers: []ServerConfig{h.config("test")}})
	mustAdd(t, b)
	h.reject.Store(1)
	mustAdd(t, b)

	h.reject.Store(100)
	h.resetRejected()
	_, err := as(b, reg, "ana").Call(bg, "add", json.RawMessage(`{"a":1,"b":1}`))
	if errcode.Of(err) != errcode.Unavailable {
		t.Fatalf("error = %v, want UNAVAILABLE", err)
	}
	calls, inits := h.rejectedCalls("tools/call"), h.rejectedCalls("initialize")
	if calls != 1 || inits != 1 {
		t.Errorf("to a server answering 401 the bridge sent %d calls and opened %d sessions, want 1 and 1: %q", calls, inits, h.rejected)
	}
	if strings.Contains(errcode.Message(err), "401") || strings.Contains(errcode.Message(err), "127.0.0.1") {
		t.Errorf("the message reveals the transport: %q", errcode.Message(err))
	}
}

// A tool that never answers is cut off at the server's deadline, and the
// session still serves the next call.
func TestHangingTool(t *testing.T) {
	reg := registry(nil)
	for transport, cfg := range testConfigs(t) {
		t.Run(string(transport), func(t *testing.T) {
			t.Parallel()                  // each waits out the whole timeout
			cfg.Timeout = 2 * time.Second // room for a slow start under the race detector
			b := newBridge(t, Options{Servers: []ServerConfig{cfg}})
			_, err := as(b, reg, "ana").Call(bg, "hang", nil)
			if errcode.Of(err) != errcode.Unavailable || !strings.Contains(errcode.Message(err), "did not answer within 2s") {
				t.Fatalf("error = %v, want UNAVAILABLE for the deadline", err)
			}
			mustAdd(t, b)
		})
	}
}

// A response over the cap is refused with a clear error, whatever the
// transport, and the next call works.
func TestOversizedResponse(t *testing.T) {
	reg := registry(nil)
	for transport, cfg := range testConfigs(t) {
		t.Run(string(transport), func(t *testing.T) {
			t.Parallel()
			cfg.MaxResponseBytes = 64 << 10
			b := newBridge(t, Options{Servers: []ServerConfig{cfg}})
			if _, err := as(b, reg, "ana").Call(bg, "big", json.RawMessage(`{"n":25,"size":1000}`)); err != nil {
				t.Fatalf("a 50 KB response was refused: %v", err)
			}
			_, err := as(b, reg, "ana").Call(bg, "big", json.RawMessage(`{"n":100,"size":1000}`))
			if errcode.Of(err) != errcode.Unavailable || !strings.Contains(errcode.Message(err), "larger than the 64 KB limit") {
				t.Fatalf("error = %v, want the size limit", err)
			}
			mustAdd(t, b)
		})
	}
}

// A server that keeps failing opens its breaker: calls then fail fast
// without reaching it, until a probe after OpenFor finds it well again.
func TestBreaker(t *testing.T) {
	reg := registry(nil)
	h := newHTTPServer(t, false)
	b := newBridge(t, Options{Servers: []ServerConfig{h.config("test")}, Breaker: BreakerSettings{Failures: 3, OpenFor: 50 * time.Millisecond}})
	mustAdd(t, b)
	h.down.Store(true)
	for range 3 {
		if _, err := as(b, reg, "ana").Call(bg, "add", json.RawMessage(`{"a":1,"b":1}`)); errcode.Of(err) != errcode.Unavailable {
			t.Fatalf("error = %v, want UNAVAILABLE", err)
		}
	}
	before := h.hits.Load()
	_, err := as(b, reg, "ana").Call(bg, "add", json.RawMessage(`{"a":1,"b":1}`))
	if errcode.Of(err) != errcode.Unavailable || !strings.Contains(errcode.Message(err), "failing") {
		t.Fatalf("error = %v, want the open breaker's UNAVAILABLE", err)
	}
	if h.hits.Load() != before {
		t.Fatal("a call went through an open breaker")
	}
	h.down.Store(false)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		_, err := as(b, reg, "ana").Call(bg, "add", json.RawMessage(`{"a":1,"b":1}`))
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the breaker never closed: %v", err)
		}
	}
	mustAdd(t, b)
}

// A session nobody used for the idle timeout is closed, and the next call
// opens a new one.
func TestIdleSessions(t *testing.T) {
	h := newHTTPServer(t, false)
	b := newBridge(t, Options{Servers: []ServerConfig{h.config("test")}, IdleSessionTimeout: time.Hour})
	mustAdd(t, b)
	if n := sessionCount(b); n != 1 {
		t.Fatalf("%d sessions, want 1", n)
	}
	b.closeIdle(time.Now().Add(30 * time.Minute))
	if n := sessionCount(b); n != 1 {
		t.Fatalf("a session used half an idle timeout ago was closed")
	}
	b.closeIdle(time.Now().Add(2 * time.Hour))
	if n := sessionCount(b); n != 0 {
		t.Fatalf("%d sessions after the idle timeout, want 0", n)
	}
	mustAdd(t, b)
}

func sessionCount(b *Bridge) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.sessions)
}
