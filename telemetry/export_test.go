package telemetry

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// memory is the SDK's in-memory exporter, for tests that need no OTLP.
type memory struct{ *tracetest.InMemoryExporter }

// install traces into memory until the test ends.
func install(t *testing.T, c Contents) memory {
	t.Helper()
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	restore := Install(tp, c)
	t.Cleanup(func() { restore(); tp.Shutdown(context.Background()) })
	return memory{exp}
}

// named is the span called name, which must be there.
func (m memory) named(t *testing.T, name string) tracetest.SpanStub {
	t.Helper()
	for _, s := range m.GetSpans() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no span named %q among %d", name, len(m.GetSpans()))
	return tracetest.SpanStub{}
}
