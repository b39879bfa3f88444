package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// InjectMeta returns meta (an MCP request's _meta) with ctx's trace
// context as "traceparent" (and "tracestate"), so that the MCP server's
// spans join the caller's trace; meta as it is without a valid span.
func InjectMeta(ctx context.Context, meta map[string]any) map[string]any {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return meta
	}
	c := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, c)
	if meta == nil {
		meta = map[string]any{}
	}
	for k, v := range c {
		meta[k] = v
	}
	return meta
}

// ExtractMeta returns ctx with the remote parent an MCP request's _meta
// names (InjectMeta), or ctx as it is.
func ExtractMeta(ctx context.Context, meta map[string]any) context.Context {
	c := propagation.MapCarrier{}
	for _, k := range (propagation.TraceContext{}).Fields() {
		if v, ok := meta[k].(string); ok {
			c[k] = v
		}
	}
	if len(c) == 0 {
		return ctx
	}
	return propagation.TraceContext{}.Extract(ctx, c)
}
