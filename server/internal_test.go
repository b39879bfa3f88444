package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/model"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/store/memstore"
)

// These tests reach into the server (its echo, its browser app's routes);
// the others are in package server_test, on testing/apptest.

// memServer is a server on the in-memory twin with limits, on loopback,
// and its log lines.
func memServer(t *testing.T, limits httpx.Limits) (*Server, string, *logLines) {
	t.Helper()
	m, err := model.Config{}.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	planner, err := nodes.Build(nodes.Deps{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	logs := &logLines{}
	srv, err := New(Config{Data: InMemory(memstore.New(memstore.Options{})), Planner: planner, Limits: limits,
		Tools: func(mcpbridge.User) nodes.Tools { return nodes.FuncTools{} }, Logger: slog.New(slog.NewJSONHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return srv, ts.URL, logs
}

// logLines is a log sink the server writes while the test reads.
type logLines struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// send sends a request and returns its status and body.
func send(t *testing.T, req *http.Request) (int, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

// A handler still at work after its body's deadline has passed is not
// cancelled: the deadline is only on reading the body.
func TestBodyDeadlineDoesNotCancelTheHandler(t *testing.T) {
	limits := httpx.DefaultLimits
	limits.BodyTimeout = 50 * time.Millisecond
	srv, url, _ := memServer(t, limits)
	srv.echo.Add(http.MethodPost, "/slow-handler", func(c echo.Context) error {
		io.ReadAll(c.Request().Body)
		select {
		case <-c.Request().Context().Done():
			return errcode.New(errcode.Unavailable, "cancelled")
		case <-time.After(6 * limits.BodyTimeout):
			return c.NoContent(http.StatusNoContent)
		}
	}, httpx.Bounded(limits, false))
	for _, body := range []string{`{"x":1}`, ""} {
		req, _ := http.NewRequest(http.MethodPost, url+"/slow-handler", strings.NewReader(body))
		if status, got := send(t, req); status != http.StatusNoContent {
			t.Errorf("a slow handler with the body %q answered %d %s", body, status, got)
		}
	}
}

// A handler that panics is answered 500 with the usual INTERNAL body, the
// panic is logged once as JSON with the request id and the stack, and the
// server goes on serving.
func TestPanicIsRecovered(t *testing.T) {
	srv, url, logs := memServer(t, httpx.DefaultLimits)
	srv.echo.Add(http.MethodGet, "/panics", func(echo.Context) error { panic("a bug in a handler") })
	req, _ := http.NewRequest(http.MethodGet, url+"/panics", nil)
	req.Header.Set(httpx.RequestIDHeader, "panic-1")
	status, body := send(t, req)
	var e struct{ Error string }
	json.Unmarshal(body, &e)
	if status != http.StatusInternalServerError || e.Error != "INTERNAL" || strings.Contains(string(body), "a bug") {
		t.Fatalf("a panicking handler answered %d %s", status, body)
	}
	logged := 0
	for line := range strings.Lines(logs.String()) {
		if strings.Contains(line, "a bug in a handler") {
			logged++
			if !strings.Contains(line, `"request_id":"panic-1"`) || !strings.Contains(line, "goroutine") {
				t.Errorf("the panic's log line lacks the request id or the stack: %s", line)
			}
		}
	}
	if logged != 1 {
		t.Errorf("the panic is logged %d times, want once:\n%s", logged, logs.String())
	}
	req, _ = http.NewRequest(http.MethodGet, url+"/healthz", nil)
	if status, _ := send(t, req); status != http.StatusOK {
		t.Errorf("after the panic healthz answered %d", status)
	}
}

// The OpenAPI description holds every route the server serves but the
// browser's pages, each with a summary and its answers, and nothing else.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	srv, url, _ := memServer(t, httpx.DefaultLimits)
	srv.Mount(http.MethodGet, "/media/*", "Photos", http.NotFoundHandler())
	req, _ := http.NewRequest(http.MethodGet, url+"/openapi.json", nil)
	status, body := send(t, req)
	var doc struct {
		OpenAPI string                               `json:"openapi"`
		Paths   map[string]map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(body, &doc); err != nil || status != http.StatusOK || doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi.json = %d, %q (%v)", status, doc.OpenAPI, err)
	}
	var documented, served []string
	for path, ops := range doc.Paths {
		for method, op := range ops {
			documented = append(documented, strings.ToUpper(method)+" "+path)
			if op["summary"] == "" || op["responses"] == nil {
				t.Errorf("%s %s lacks a summary or responses", method, path)
			}
		}
	}
	pages := map[string]bool{}
	for _, r := range srv.web.Routes() {
		pages[r.Method+" "+r.Path] = true
	}
	for _, r := range srv.echo.Routes() {
		if pages[r.Method+" "+r.Path] {
			if _, ok := doc.Paths[httpx.OpenAPIPath(r.Path)][strings.ToLower(r.Method)]; ok {
				t.Errorf("the browser's %s %s is in the OpenAPI description", r.Method, r.Path)
			}
			continue
		}
		served = append(served, r.Method+" "+httpx.OpenAPIPath(r.Path))
	}
	if len(pages) == 0 {
		t.Error("no browser routes registered")
	}
	slices.Sort(documented)
	slices.Sort(served)
	if !slices.Equal(documented, served) {
		t.Fatalf("documented:\n%s\nserved:\n%s", strings.Join(documented, "\n"), strings.Join(served, "\n"))
	}
	if !slices.Contains(served, "GET /media/{path}") || !slices.Contains(served, "POST /threads/{thread_id}/state") {
		t.Fatalf("routes missing: %v", served)
	}
}
