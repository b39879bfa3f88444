package metrics

import (
	"context"
	"net/http/httptest"
	"strings"
	"time"

	"log/slog"
	"testing"

	"github.com/tripgraph/tripgraph/telemetry"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	dto "github.com/prometheus/client_model/go"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpbridge"
)

func TestNodeTimerCountsToolCalls(t *testing.T) {
	for _, tc := range []struct {
		name    string
		event   string
		payload any
		want    map[[2]string]float64 // by server and outcome
	}{
		{"ok", mcpbridge.EventComplete, mcpbridge.Complete{Server: "maps", Tool: "route"}, map[[2]string]float64{{"user", "ok"}: 1}},
		{"error code", mcpbridge.EventComplete, mcpbridge.Complete{Server: "maps", Tool: "route", Error: "UNAVAILABLE"},
			map[[2]string]float64{{"user", "UNAVAILABLE"}: 1, {"user", "ok"}: 0}},
		// Users name their own servers: only ours keeps its name as a label.
		{"our server", mcpbridge.EventComplete, mcpbridge.Complete{Server: mcpbridge.OurServer, Tool: "route"},
			map[[2]string]float64{{mcpbridge.OurServer, "ok"}: 1, {"user", "ok"}: 0}},
		{"another event", mcpbridge.EventProgress, mcpbridge.Complete{Server: "maps", Tool: "route"}, map[[2]string]float64{{"user", "ok"}: 0}},
		{"another payload", mcpbridge.EventComplete, map[string]any{"server": "maps"}, map[[2]string]float64{{"user", "ok"}: 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := New(nil, slog.Default())
			m.NodeTimer(context.Background()).See(graph.Custom, "enrich", tc.event, tc.payload)
			for k, want := range tc.want {
				var dm dto.Metric
				if err := m.toolCalls.WithLabelValues(k[0], k[1]).Write(&dm); err != nil {
					t.Fatal(err)
				}
				if got := dm.GetCounter().GetValue(); got != want {
					t.Errorf("tool calls %v = %v, want %v", k, got, want)
				}
			}
		})
	}
}

// A request's and a node's durations carry an exemplar naming the trace
// they were part of, when it is sampled; an OpenMetrics scrape shows it.
func TestDurationsPointAtTraces(t *testing.T) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()))
	defer tp.Shutdown(context.Background())
	defer telemetry.Install(tp, telemetry.Contents{})()
	ctx, span := telemetry.Tracer().Start(context.Background(), "request")
	defer span.End()
	traceID := span.SpanContext().TraceID().String()

	m := New(nil, slog.New(slog.DiscardHandler))
	m.Request(ctx, "POST", "/threads/:thread_id/runs", "200", 30*time.Millisecond)
	timer := m.NodeTimer(ctx)
	timer.See(graph.NodeStarted, "extraction", "", nil)
	timer.See(graph.NodeFinished, "extraction", "", nil)
	m.Request(context.Background(), "GET", "/healthz", "200", time.Millisecond) // no trace, no exemplar

	req := httptest.NewRequest("GET", "/metrics", nil)
	req.Header.Set("Accept", "application/openmetrics-text; version=1.0.0")
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, req)
	body := rec.Body.String()
	for _, family := range []string{"tripgraph_http_request_duration_seconds_bucket{method=\"POST\"", "tripgraph_node_duration_seconds_bucket{node=\"extraction\""} {
		if !hasExemplar(body, family, traceID) {
			t.Errorf("%s has no exemplar with trace_id %s:\n%s", family, traceID, body)
		}
	}
	if hasExemplar(body, "tripgraph_http_request_duration_seconds_bucket{method=\"GET\"", "") {
		t.Errorf("a request without a trace has an exemplar:\n%s", body)
	}
}

// hasExemplar reports whether a line of family's has an exemplar naming
// traceID (any trace when "").
func hasExemplar(body, family, traceID string) bool {
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, family) && strings.Contains(line, `# {trace_id="`+traceID) {
			return true
		}
	}
	return false
}
