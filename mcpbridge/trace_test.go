package mcpbridge

import (
	"context"
	"slices"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/tripgraph/tripgraph/telemetry"
)

// A tool call is a span with the tool, its server and its outcome; a
// deadline that passes, the breaker it opens and the calls the open
// breaker refuses are its events.
func TestToolCallSpans(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	defer telemetry.Install(tp, telemetry.Contents{})()
	cfg := ServerConfig{Name: "test", Transport: Memory, NewServer: newTestServer, Enabled: true, Timeout: 200 * time.Millisecond}
	b := newBridge(t, Options{Servers: []ServerConfig{cfg}, Breaker: BreakerSettings{Failures: 1, OpenFor: time.Minute}})
	tools := as(b, registry(nil), "ana")
	if _, err := tools.Call(bg, "add", []byte(`{"a":1,"b":2}`)); err != nil {
		t.Fatal(err)
	}
	tools.Call(bg, "hang", nil)
	tools.Call(bg, "add", []byte(`{"a":1,"b":2}`))

	spans := exp.GetSpans()
	if len(spans) != 3 {
		t.Fatalf("%d spans, want one per call", len(spans))
	}
	want := []struct {
		tool, outcome string
		events        []string
	}{
		{"add", "ok", nil},
		{"hang", "UNAVAILABLE", []string{"breaker opened", "deadline exceeded", "exception"}},
		{"add", "UNAVAILABLE", []string{"breaker refused", "exception"}},
	}
	for i, w := range want {
		s := spans[i]
		attrs := map[string]string{}
		for _, a := range s.Attributes {
			attrs[string(a.Key)] = a.Value.Emit()
		}
		var events []string
		for _, e := range s.Events {
			events = append(events, e.Name)
		}
		if s.Name != "execute_tool "+w.tool || attrs["gen_ai.tool.name"] != w.tool || attrs["tripgraph.mcp.server"] != "test" ||
			attrs["tripgraph.tool.outcome"] != w.outcome || !slices.Equal(events, w.events) {
			t.Errorf("call %d: %s %v events %v, want %+v", i, s.Name, attrs, events, w)
		}
		if _, recorded := attrs["gen_ai.tool.call.arguments"]; recorded {
			t.Errorf("call %d recorded its arguments with contents off", i)
		}
	}
}
