package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/mcpauth"
	"github.com/tripgraph/tripgraph/store"
)

// limitedServer serves the tools over HTTP without auth, with opts.
func limitedServer(t testing.TB, f *fixture, opts HTTPOptions) *httptest.Server {
	t.Helper()
	return serveHTTP(t, New(testConfig(f, f.ana.ID)), opts)
}

// reply is an HTTP answer, with its JSON-RPC messages (from a JSON body or
// an event stream).
type reply struct {
	status  int
	header  http.Header
	body    string
	rpc     []rpcReply
	session string
}

type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func post(t testing.TB, url, session, body string) reply {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set(sessionHeader, session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, header: resp.Header, body: string(data), session: resp.Header.Get(sessionHeader)}
	var payloads []string
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for line := range strings.Lines(r.body) {
			if p, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok {
				payloads = append(payloads, p)
			}
		}
	} else if len(data) > 0 {
		payloads = []string{string(data)}
	}
	for _, p := range payloads {
		var one rpcReply
		var many []rpcReply
		if json.Unmarshal([]byte(p), &many) == nil {
			r.rpc = append(r.rpc, many...)
		} else if json.Unmarshal([]byte(p), &one) == nil {
			r.rpc = append(r.rpc, one)
		}
	}
	return r
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// session opens a session the raw way and returns its id.
func session(t testing.TB, url string) string {
	t.Helper()
	r := post(t, url, "", initialize)
	if r.status != http.StatusOK || r.session == "" {
		t.Fatalf("initialize: %d %s", r.status, r.body)
	}
	post(t, url, r.session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r.session
}

// rpcError returns the one JSON-RPC error of a reply.
func onlyError(t *testing.T, r reply) (int64, string) {
	t.Helper()
	if len(r.rpc) != 1 || r.rpc[0].Error == nil || r.rpc[0].Error.Code == 0 {
		t.Fatalf("reply %d %q is not one well-formed JSON-RPC error", r.status, r.body)
	}
	return r.rpc[0].Error.Code, r.rpc[0].Error.Message
}

// Protocol errors are JSON-RPC errors with a real code, and an HTTP status
// that says what went wrong.
func TestHTTPProtocolErrors(t *testing.T) {
	f := setup(t)
	url := limitedServer(t, f, HTTPOptions{}).URL
	sid := session(t, url)
	for _, tc := range []struct {
		name       string
		session    string
		body       string
		wantStatus int
		wantCode   int64
	}{
		{"a call without a session", "", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, http.StatusBadRequest, -32600},
		{"an unknown method", sid, `{"jsonrpc":"2.0","id":8,"method":"foo/bar"}`, http.StatusOK, -32601},
		{"an undeclared capability", sid, `{"jsonrpc":"2.0","id":9,"method":"prompts/list"}`, http.StatusOK, -32601},
		{"logging/setLevel", sid, `{"jsonrpc":"2.0","id":10,"method":"logging/setLevel","params":{"level":"debug"}}`, http.StatusOK, -32601},
		{"not JSON", sid, `{"jsonrpc":`, http.StatusBadRequest, -32700},
		{"null", sid, `null`, http.StatusBadRequest, -32700},
		{"an empty batch", sid, `[]`, http.StatusBadRequest, -32600},
		{"a broken batch", sid, `[{"jsonrpc":"2.0","id":1,"method":"ping"},`, http.StatusBadRequest, -32700},
		{"a batch with trailing data", sid, `[{"jsonrpc":"2.0","id":1,"method":"ping"}] x`, http.StatusBadRequest, -32700},
		{"an unknown session", "no-such-session", `{"jsonrpc":"2.0","id":11,"method":"tools/list"}`, http.StatusNotFound, codeServerError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := post(t, url, tc.session, tc.body)
			code, _ := onlyError(t, r)
			if r.status != tc.wantStatus || code != tc.wantCode {
				t.Errorf("status %d code %d (%s), want %d and %d", r.status, code, r.body, tc.wantStatus, tc.wantCode)
			}
		})
	}
	if r := post(t, url, sid, `{"jsonrpc":"2.0","id":12,"method":"tools/list"}`); r.status != http.StatusOK || len(r.rpc) != 1 || r.rpc[0].Error != nil {
		t.Fatalf("tools/list in the session: %d %s", r.status, r.body)
	}
}

// A batch holds at most MaxBatch messages, and its results at most
// MaxBatchResultBytes: the calls past the budget are refused.
func TestHTTPBatchLimits(t *testing.T) {
	f := setup(t)
	url := limitedServer(t, f, HTTPOptions{MaxBatch: 3, MaxBatchResultBytes: 1}).URL
	sid := session(t, url)
	calls := func(n int) string {
		var parts []string
		for i := range n {
			parts = append(parts, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"getUserAlbums","arguments":{}}}`, 100+i))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	r := post(t, url, sid, calls(4))
	if code, msg := onlyError(t, r); r.status != http.StatusBadRequest || code != -32600 || !strings.Contains(msg, "at most 3 messages") {
		t.Fatalf("a batch of 4 = %d %s", r.status, r.body)
	}
	r = post(t, url, sid, calls(3))
	if r.status != http.StatusOK || len(r.rpc) != 3 {
		t.Fatalf("a batch of 3 = %d %s", r.status, r.body)
	}
	answered, refused := 0, 0
	for _, m := range r.rpc {
		switch {
		case m.Error == nil:
			answered++
		case m.Error.Code == codeServerError:
			refused++
		}
	}
	if answered != 1 || refused != 2 {
		t.Fatalf("%d calls answered and %d refused, want 1 and 2: %s", answered, refused, r.body)
	}
}

// A body that stalls is cut at BodyTimeout with 408, instead of holding
// its connection for ever.
func TestHTTPBodyTimeout(t *testing.T) {
	f := setup(t)
	srv := limitedServer(t, f, HTTPOptions{BodyTimeout: 50 * time.Millisecond})
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second)) // a failing server fails the test, not hangs it
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":", srv.Listener.Addr())
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !bytes.Contains(body, []byte(`"code":-32600`)) {
		t.Fatalf("a stalled body = %d %s, want 408 and a JSON-RPC error", resp.StatusCode, body)
	}
}

// Past MaxSessions, a new session closes the one idle for longest; when
// every session is busy, it is refused.
func TestHTTPSessionCap(t *testing.T) {
	f := setup(t)
	url := limitedServer(t, f, HTTPOptions{MaxSessions: 2}).URL
	list := `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`
	a := session(t, url)
	b := session(t, url)
	post(t, url, a, list) // a is now the most recently used
	c := session(t, url)  // evicts b
	for _, tc := range []struct {
		name, session string
		want          int
	}{{"a", a, http.StatusOK}, {"b", b, http.StatusNotFound}, {"c", c, http.StatusOK}} {
		if r := post(t, url, tc.session, list); r.status != tc.want {
			t.Errorf("session %s after a third: %d %s, want %d", tc.name, r.status, r.body, tc.want)
		}
	}

	// Both live sessions busy, each with an open event stream.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, s := range []string{a, c} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set(sessionHeader, s)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET stream of a session: %v %v", err, resp)
		}
		defer resp.Body.Close()
	}
	r := post(t, url, "", initialize)
	if code, _ := onlyError(t, r); r.status != http.StatusServiceUnavailable || code != codeServerError {
		t.Fatalf("a session past the cap with all busy = %d %s, want 503", r.status, r.body)
	}
}

// When the credential check itself fails, the client gets a generic 503
// with the request id, and the cause is logged under that id.
func TestHTTPCredentialCheckFails(t *testing.T) {
	f := setup(t)
	broken, err := store.Open(context.Background(), testURL)
	if err != nil {
		t.Fatal(err)
	}
	broken.Close()
	var logs syncBuffer
	srv := serveHTTP(t, New(testConfig(f, "")), HTTPOptions{
		Authenticate: Authenticator(broken.Accounts, testSecret),
		Logger:       slog.New(slog.NewJSONHandler(&logs, nil)),
	})
	req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(initialize))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer tg_somekey")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body errorBody
	data, _ := io.ReadAll(resp.Body)
	json.Unmarshal(data, &body)
	id := resp.Header.Get(requestIDHeader)
	if resp.StatusCode != http.StatusServiceUnavailable || body.Error.Code != errcode.Unavailable || id == "" ||
		!strings.Contains(body.Error.Message, id) || strings.Contains(string(data), "pool") {
		t.Fatalf("a failing credential check = %d %s (request id %q)", resp.StatusCode, data, id)
	}
	if !strings.Contains(logs.String(), `"request_id":"`+id+`"`) || !strings.Contains(logs.String(), "closed pool") {
		t.Fatalf("log %q lacks the request id %s or the cause", logs.String(), id)
	}
}

// BenchmarkOversizedBatch posts the batch that used to take the server to
// 931 MB of memory (33,504 calls in about 4 MB) to a session, and measures
// what refusing it costs.
func BenchmarkOversizedBatch(b *testing.B) {
	f := setup(b)
	url := limitedServer(b, f, HTTPOptions{}).URL
	sid := session(b, url)
	var sb strings.Builder
	sb.WriteString("[")
	for i := range 33_504 {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"getUserAlbums","arguments":{}}}`, i)
	}
	sb.WriteString("]")
	body := sb.String()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set(sessionHeader, sid)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			b.Fatalf("status %d, want 400", resp.StatusCode)
		}
	}
}

// A credential that is refused gets 401 with the code that says so,
// UNAUTHENTICATED, whether it is missing, unknown or forged.
func TestHTTPRefusedCredentials(t *testing.T) {
	f := setup(t)
	srv := httpServer(t, f)
	forged, _ := mcpauth.Mint([]byte("some other secret, long enough"), f.ana.ID, time.Minute)
	for _, tc := range []struct{ name, authorization string }{
		{"none", ""},
		{"an unknown API key", "Bearer tg_nope"},
		{"a forged token", "Bearer " + forged},
		{"not a credential", "Bearer hello"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(initialize))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.authorization != "" {
				req.Header.Set("Authorization", tc.authorization)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body errorBody
			data, _ := io.ReadAll(resp.Body)
			json.Unmarshal(data, &body)
			if resp.StatusCode != http.StatusUnauthorized || body.Error.Code != errcode.Unauthenticated || resp.Header.Get("WWW-Authenticate") == "" {
				t.Fatalf("got %d %s, want 401 UNAUTHENTICATED with a challenge", resp.StatusCode, data)
			}
		})
	}
}
