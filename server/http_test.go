package server_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/server"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/testing/apptest"
)

func TestRequestBodies(t *testing.T) {
	limits := apptest.Limits()
	limits.MaxBodyBytes = 512
	h := apptest.New(t, apptest.Tune(func(c *server.Config) { c.Limits = limits }))
	cases := []struct {
		name        string
		contentType string
		body        string
		want        int
		code        string
		fields      []string // the fields reported, in order
	}{
		{"malformed", "application/json", `{"metadata":`, http.StatusBadRequest, "BAD_REQUEST", nil},
		{"not an object", "application/json", `[1,2]`, http.StatusUnprocessableEntity, "BAD_REQUEST", []string{"(body)"}},
		{"two unknown fields", "application/json", `{"zeta":1,"alpha":2,"metadata":{}}`, http.StatusUnprocessableEntity, "BAD_REQUEST", []string{"alpha", "zeta"}},
		{"wrong types", "application/json", `{"thread_id":7,"if_exists":true}`, http.StatusUnprocessableEntity, "BAD_REQUEST", []string{"if_exists", "thread_id"}},
		{"rule broken", "application/json", `{"thread_id":"not-a-uuid","if_exists":"maybe"}`, http.StatusUnprocessableEntity, "BAD_REQUEST", []string{"thread_id", "if_exists"}},
		{"not JSON", "application/xml", `{}`, http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA", nil},
		{"JSON as text/plain, with an API key", "text/plain;charset=UTF-8", `{"metadata":{"via":"proxy"}}`, http.StatusOK, "", nil},
		{"oversized", "application/json", `{"metadata":{"a":"` + strings.Repeat("x", 600) + `"}}`, http.StatusRequestEntityTooLarge, "BAD_REQUEST", nil},
		{"metadata not an object", "application/json", `{"metadata":[1]}`, http.StatusUnprocessableEntity, "BAD_REQUEST", []string{"metadata"}},
		{"metadata a number", "application/json", `{"metadata":5}`, http.StatusUnprocessableEntity, "BAD_REQUEST", []string{"metadata"}},
		{"metadata null", "application/json", `{"metadata":null}`, http.StatusOK, "", nil},
		{"NUL in metadata", "application/json", `{"metadata":{"a":"x\u0000"}}`, http.StatusUnprocessableEntity, "BAD_REQUEST", []string{"metadata"}},
		{"invalid UTF-8 in metadata", "application/json", "{\"metadata\":{\"a\":\"\xff\"}}", http.StatusUnprocessableEntity, "BAD_REQUEST", []string{"metadata"}},
		{"lone surrogate in metadata", "application/json", `{"metadata":{"\ud800":1}}`, http.StatusUnprocessableEntity, "BAD_REQUEST", []string{"metadata"}},
		{"NUL in a thread id", "application/json", `{"thread_id":"\u0000"}`, http.StatusUnprocessableEntity, "BAD_REQUEST", []string{"thread_id"}},
		{"empty body", "", ``, http.StatusOK, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := h.With(t)
			req, _ := http.NewRequest(http.MethodPost, h.URL+"/threads", strings.NewReader(c.body))
			req.Header.Set("X-Api-Key", h.AliceKey)
			if c.contentType != "" {
				req.Header.Set("Content-Type", c.contentType)
			}
			r := h.Send(req)
			if r.Status != c.want {
				t.Fatalf("status %d %s, want %d", r.Status, r.Body, c.want)
			}
			if c.code == "" {
				return
			}
			var e wire.Error
			r.Decode(t, &e)
			if e.Error != c.code || e.Message == "" {
				t.Errorf("body %s, want code %s and a message", r.Body, c.code)
			}
			var fields []string
			for _, f := range e.Fields {
				fields = append(fields, f.Field)
				if f.Message == "" {
					t.Errorf("field %s has no message", f.Field)
				}
			}
			if !slices.Equal(fields, c.fields) {
				t.Errorf("fields %v, want %v (%s)", fields, c.fields, r.Body)
			}
			if strings.Contains(string(r.Body), "json:") || strings.Contains(string(r.Body), "wire.") {
				t.Errorf("Go internals reach the client: %s", r.Body)
			}
		})
	}
}

// A body that stops arriving is answered 408 once the body deadline
// passes, and the connection is not held.
func TestSlowBody(t *testing.T) {
	limits := apptest.Limits()
	limits.BodyTimeout = 200 * time.Millisecond
	h := apptest.New(t, apptest.Tune(func(c *server.Config) { c.Limits = limits }))
	conn, err := net.Dial("tcp", strings.TrimPrefix(h.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /threads HTTP/1.1\r\nHost: x\r\nX-Api-Key: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"meta", h.AliceKey)
	conn.SetReadDeadline(time.Now().Add(30 * time.Second)) // a bound on the test, not an assertion
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("status %d, want 408", resp.StatusCode)
	}
}

func TestRequestIDsAndLogs(t *testing.T) {
	h := apptest.New(t)
	cases := []struct {
		name, sent string
		kept       bool
	}{
		{"client id kept", "abc-123.x_y", true},
		{"unsafe id replaced", "evil\"id with spaces", false},
		{"none sent", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := h.With(t)
			req, _ := http.NewRequest(http.MethodGet, h.URL+"/threads/00000000-0000-0000-0000-000000000000", nil)
			req.Header.Set("X-Api-Key", h.AliceKey)
			if c.sent != "" {
				req.Header.Set(httpx.RequestIDHeader, c.sent)
			}
			r := h.Send(req)
			id := r.Header.Get(httpx.RequestIDHeader)
			if id == "" || (id == c.sent) != c.kept {
				t.Fatalf("request id %q for %q sent", id, c.sent)
			}
			var found bool
			for _, line := range strings.Split(strings.TrimSpace(h.Logs.String()), "\n") {
				var entry map[string]any
				if err := json.Unmarshal([]byte(line), &entry); err != nil {
					t.Fatalf("a log line is not JSON: %q", line)
				}
				if entry["request_id"] == id && entry["msg"] == "request" {
					found = entry["status"] == float64(404) && entry["route"] == "/threads/:thread_id" && entry["user_id"] == h.Alice.ID
				}
			}
			if !found {
				t.Fatalf("no request log line with id %s, status 404, route and user:\n%s", id, h.Logs.String())
			}
		})
	}
}

func TestUnknownRoutes(t *testing.T) {
	h := apptest.New(t)
	r := h.Must(http.StatusNotFound, http.MethodGet, "/nowhere", h.AliceKey, "")
	if r.ErrorCode(t) != "NOT_FOUND" {
		t.Errorf("body %s", r.Body)
	}
	r = h.Must(http.StatusMethodNotAllowed, http.MethodPut, "/threads/search", h.AliceKey, "")
	if r.ErrorCode(t) != "BAD_REQUEST" {
		t.Errorf("body %s", r.Body)
	}
}

// Path and query parameters that are not text, or not whole numbers where
// numbers are asked for, are refused naming the parameter, never 500 or a
// misleading 404; every answer tells browsers not to sniff its type.
func TestParametersAreChecked(t *testing.T) {
	h := apptest.New(t)
	tid := h.Thread(h.AliceKey, "")
	for _, c := range []struct{ path, field string }{
		{"/threads/%00", "thread_id"},
		{"/threads/%ff%fe", "thread_id"},
		{"/threads/%ED%A0%80", "thread_id"}, // a lone surrogate, encoded
		{"/threads/" + tid + "/runs/%01", "run_id"},
		{"/threads/" + tid + "/runs?limit=0x10", "limit"},
		{"/threads/" + tid + "/runs?offset=1%20junk", "offset"},
		{"/threads/" + tid + "/runs?limit=0", "limit"},
		{"/threads/" + tid + "/runs?limit=+5", "limit"},
	} {
		r := h.With(t).Do(http.MethodGet, c.path, h.AliceKey, "")
		var e wire.Error
		r.Decode(t, &e)
		if r.Status != http.StatusUnprocessableEntity || len(e.Fields) != 1 || e.Fields[0].Field != c.field {
			t.Errorf("GET %s = %d %s, want 422 naming %s", c.path, r.Status, r.Body, c.field)
		}
	}
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs?limit=5&offset=0", h.AliceKey, "")
	h.Must(http.StatusNotFound, http.MethodGet, "/threads/not-a-thread", h.AliceKey, "")
	for _, path := range []string{"/threads/" + tid, "/nowhere", "/ok"} {
		r := h.Do(http.MethodGet, path, h.AliceKey, "")
		if got := r.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("GET %s: X-Content-Type-Options %q, want nosniff", path, got)
		}
	}
}

// A request framed twice, with both Content-Length and Transfer-Encoding,
// may be an attempt to smuggle a second request past a proxy that reads
// the other framing: it is answered, with Connection: close, and the
// connection is closed (RFC 9112 §6.1), so nothing after it on the
// connection is read as a request. So is an HTTP/1.0 request that names a
// Transfer-Encoding, whose framing that section calls faulty. A plain
// request keeps its connection.
func TestDoubleFramingClosesTheConnection(t *testing.T) {
	h := apptest.New(t)
	smuggled := "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n"
	for _, c := range []struct {
		name, head, body string
		closed           bool
	}{
		{"Content-Length and chunked", "HTTP/1.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked", "2\r\n{}\r\n0\r\n\r\n", true},
		{"chunked before Content-Length", "HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 40", "2\r\n{}\r\n0\r\n\r\n", true},
		{"HTTP/1.0 with Transfer-Encoding", "HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\nContent-Length: 2", "{}", true},
		{"Content-Length alone", "HTTP/1.1\r\nContent-Length: 2", "{}", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(h.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST /threads %s\r\nHost: x\r\nX-Api-Key: %s\r\nContent-Type: application/json\r\n\r\n%s%s",
				c.head, h.AliceKey, c.body, smuggled)
			conn.SetReadDeadline(time.Now().Add(30 * time.Second)) // a bound on the test, not an assertion
			rd := bufio.NewReader(conn)
			resp, err := http.ReadResponse(rd, nil)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			resp.Body.Close()
			if resp.StatusCode >= 500 {
				t.Errorf("status %d", resp.StatusCode)
			}
			if resp.Close != c.closed { // Connection: close, which ReadResponse takes out of the header
				t.Errorf("answered with Connection: close: %v, want %v", resp.Close, c.closed)
			}
			next, err := http.ReadResponse(rd, nil)
			if c.closed && err == nil {
				next.Body.Close()
				t.Errorf("the connection stayed open: what followed the request was answered %d", next.StatusCode)
			}
			if !c.closed && (err != nil || next.StatusCode != http.StatusNotFound) {
				t.Errorf("the next request on a plain connection: %v", err)
			}
		})
	}
}
