package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// readyz is 503 until the database has every migration, then 200.
func TestReadiness(t *testing.T) {
	ctx := context.Background()
	url, drop, err := pgtest.NewDatabase(ctx, "server_ready")
	if err != nil {
		t.Fatal(err)
	}
	defer drop()
	st := openStore(t, url)
	srv, _ := newServer(t, st, testLimits(), io.Discard)
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	get := func(path string) (int, wire.Health) {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var h wire.Health
		json.NewDecoder(resp.Body).Decode(&h)
		return resp.StatusCode, h
	}
	if status, h := get("/readyz"); status != http.StatusServiceUnavailable || h.Reason != "migrations pending" {
		t.Fatalf("readyz on an empty database = %d %+v", status, h)
	}
	if status, _ := get("/healthz"); status != http.StatusOK {
		t.Fatalf("healthz = %d: the process is alive and reaches its database", status)
	}
	if err := migrations.Up(ctx, url); err != nil {
		t.Fatal(err)
	}
	if status, h := get("/readyz"); status != http.StatusOK || h.Status != "ok" {
		t.Fatalf("readyz after migrating = %d %+v", status, h)
	}
	st.Close()
	if status, h := get("/readyz"); status != http.StatusServiceUnavailable || h.Reason != "database unreachable" {
		t.Fatalf("readyz with the pool closed = %d %+v", status, h)
	}
	if status, _ := get("/healthz"); status != http.StatusServiceUnavailable {
		t.Fatalf("healthz with the pool closed = %d", status)
	}
}

func TestMetrics(t *testing.T) {
	h := newHarness(t, testLimits())
	h.must(http.StatusOK, http.MethodGet, "/assistants/trip-planner", h.aliceKey, "")
	h.must(http.StatusNotFound, http.MethodGet, "/threads/00000000-0000-0000-0000-000000000000", h.aliceKey, "")
	h.must(http.StatusNotFound, http.MethodGet, "/no/such/route-1", "", "")
	text := string(h.must(http.StatusOK, http.MethodGet, "/metrics", "", "").body)
	for _, want := range []string{
		`tripgraph_http_requests_total{method="GET",route="/assistants/:assistant_id",status="200"} 1`,
		`tripgraph_http_requests_total{method="GET",route="/threads/:thread_id",status="404"} 1`,
		`tripgraph_http_request_duration_seconds_count{method="GET",route="/assistants/:assistant_id"} 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	// The run store's counts are read on each scrape; the families the
	// worker and streams feed have no series before a run or a stream.
	for _, want := range []string{`tripgraph_runs{status="success"}`, `tripgraph_queue_depth{state="pending"}`} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	for _, absent := range []string{"tripgraph_node", "tripgraph_tool", "tripgraph_sse"} {
		if strings.Contains(text, absent) {
			t.Errorf("metrics have %s before any run or stream", absent)
		}
	}
	// A path no route matches is not a label: labels are routes, a bounded set.
	if strings.Contains(text, "route-1") || strings.Contains(text, "00000000-0000") {
		t.Errorf("a request path became a metric label")
	}
}

// The OpenAPI description has exactly the routes echo serves.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	h := newHarness(t, testLimits())
	h.srv.Mount(http.MethodGet, "/media/*", "Photos", http.NotFoundHandler())
	var doc struct {
		OpenAPI string                               `json:"openapi"`
		Paths   map[string]map[string]map[string]any `json:"paths"`
	}
	h.must(http.StatusOK, http.MethodGet, "/openapi.json", "", "").decode(t, &doc)
	if doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi %q", doc.OpenAPI)
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
	for _, r := range h.srv.web.Routes() {
		pages[r.Method+" "+r.Path] = true
	}
	for _, r := range h.srv.echo.Routes() {
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

// A mounted handler gets request ids and logs but keeps its own auth.
func TestMount(t *testing.T) {
	h := newHarness(t, testLimits())
	h.srv.Mount(http.MethodPost, "/mcp", "MCP", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer mcp-token" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Write(body)
	}))
	big := strings.Repeat("x", int(httpx.DefaultLimits.MaxBodyBytes)+10)
	req, _ := http.NewRequest(http.MethodPost, h.url+"/mcp", strings.NewReader(big))
	req.Header.Set("Authorization", "Bearer mcp-token")
	r := h.send(req)
	if r.status != http.StatusOK || len(r.body) != len(big) || r.header.Get(httpx.RequestIDHeader) == "" {
		t.Fatalf("mounted handler: %d, %d bytes, request id %q", r.status, len(r.body), r.header.Get(httpx.RequestIDHeader))
	}
	if r := h.do(http.MethodPost, "/mcp", "", "{}"); r.status != http.StatusUnauthorized {
		t.Fatalf("the mounted handler's own auth: %d", r.status)
	}
}
