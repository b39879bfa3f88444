package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/testing/apptest"
)

func TestMetrics(t *testing.T) {
	h := apptest.New(t)
	h.Must(http.StatusOK, http.MethodGet, "/assistants/trip-planner", h.AliceKey, "")
	h.Must(http.StatusNotFound, http.MethodGet, "/threads/00000000-0000-0000-0000-000000000000", h.AliceKey, "")
	h.Must(http.StatusNotFound, http.MethodGet, "/no/such/route-1", "", "")
	text := string(h.Must(http.StatusOK, http.MethodGet, "/metrics", "", "").Body)
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

// A mounted handler gets request ids and logs but keeps its own auth.
func TestMount(t *testing.T) {
	h := apptest.New(t)
	h.Srv.Mount(http.MethodPost, "/mcp", "MCP", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer mcp-token" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Write(body)
	}))
	big := strings.Repeat("x", int(httpx.DefaultLimits.MaxBodyBytes)+10)
	req, _ := http.NewRequest(http.MethodPost, h.URL+"/mcp", strings.NewReader(big))
	req.Header.Set("Authorization", "Bearer mcp-token")
	r := h.Send(req)
	if r.Status != http.StatusOK || len(r.Body) != len(big) || r.Header.Get(httpx.RequestIDHeader) == "" {
		t.Fatalf("mounted handler: %d, %d bytes, request id %q", r.Status, len(r.Body), r.Header.Get(httpx.RequestIDHeader))
	}
	if r := h.Do(http.MethodPost, "/mcp", "", "{}"); r.Status != http.StatusUnauthorized {
		t.Fatalf("the mounted handler's own auth: %d", r.Status)
	}
}
