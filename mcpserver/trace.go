package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/tripgraph/tripgraph/telemetry"
)

// traced makes each tool call a server span, child of the caller's span
// when the request's _meta carries its trace context (as the bridge
// sends it), so that the statements a tool makes join the run's trace.
// It passes everything through while tracing is off.
func traced(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.GetParams().(*mcp.CallToolParamsRaw)
		if !telemetry.Enabled() || method != "tools/call" || !ok {
			return next(ctx, method, req)
		}
		ctx = telemetry.ExtractMeta(ctx, call.Meta)
		ctx, span := telemetry.Tracer().Start(ctx, "tools/call "+call.Name, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(telemetry.MCPMethodKey.String(method), telemetry.GenAIToolNameKey.String(call.Name)))
		defer span.End()
		res, err := next(ctx, method, req)
		if err != nil {
			telemetry.Fail(span, err)
		} else if r, ok := res.(*mcp.CallToolResult); ok && r.IsError {
			span.SetAttributes(attribute.Bool("tripgraph.tool.refused", true))
		}
		return res, err
	}
}
