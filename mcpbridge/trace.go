package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/sony/gobreaker/v2"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/telemetry"
)

// Attributes of a tool call's span of tripgraph's own, beside those of
// OpenTelemetry's GenAI and MCP conventions (telemetry).
const (
	serverKey  = attribute.Key("tripgraph.mcp.server")
	timeoutKey = attribute.Key("tripgraph.mcp.timeout_ms")
	outcomeKey = attribute.Key("tripgraph.tool.outcome")
	itemsKey   = attribute.Key("tripgraph.tool.items")
	breakerKey = attribute.Key("tripgraph.mcp.breaker")
)

// watchGuard watches a call's breaker and deadline for ctx's span, the
// call's: the returned func, given the call's error, notes on the span
// what they did (noteGuard). It does nothing while the span is not
// recorded.
func (b *Bridge) watchGuard(ctx context.Context, user string, cfg ServerConfig) func(error) {
	if !trace.SpanFromContext(ctx).IsRecording() {
		return func(error) {}
	}
	br := b.breaker(user, cfg)
	before := br.cb.State()
	return func(err error) { noteGuard(ctx, before, br.cb.State(), err, cfg.timeout()) }
}

// startCall starts the span of a tool call: the tool as the model named
// it, its server and its deadline; its arguments only when contents are
// recorded.
func startCall(ctx context.Context, e entry, args json.RawMessage) (context.Context, trace.Span) {
	if !telemetry.Enabled() {
		return ctx, noop.Span{}
	}
	ctx, span := telemetry.Tracer().Start(ctx, "execute_tool "+e.name, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(telemetry.GenAIOperationKey.String("execute_tool"), telemetry.GenAIToolNameKey.String(e.name), telemetry.MCPMethodKey.String("tools/call"),
			serverKey.String(e.server.Name), timeoutKey.Int64(e.server.timeout().Milliseconds())))
	telemetry.Content(span, "gen_ai.tool.call.arguments", func() string { return string(args) })
	return ctx, span
}

// endCall ends a tool call's span with its outcome: ok with the items it
// found (and the result when contents are recorded), or the error's code.
func endCall(span trace.Span, data json.RawMessage, items int, err error) {
	defer span.End()
	if err != nil {
		span.SetAttributes(outcomeKey.String(string(errcode.Of(err))))
		telemetry.Fail(span, err)
		return
	}
	span.SetAttributes(outcomeKey.String("ok"), itemsKey.Int(items))
	telemetry.Content(span, "gen_ai.tool.call.result", func() string { return string(data) })
}

// noteGuard records on ctx's span what the breaker and the deadline did to
// a call or a listing: a refusal by an open breaker, a breaker that the
// failure opened, a deadline that passed.
func noteGuard(ctx context.Context, before, after gobreaker.State, err error, timeout time.Duration) {
	span := trace.SpanFromContext(ctx)
	if !span.IsRecording() {
		return
	}
	span.SetAttributes(breakerKey.String(after.String()))
	switch {
	case errors.Is(err, gobreaker.ErrOpenState), errors.Is(err, gobreaker.ErrTooManyRequests):
		span.AddEvent("breaker refused", trace.WithAttributes(breakerKey.String(before.String())))
	case before != gobreaker.StateOpen && after == gobreaker.StateOpen:
		span.AddEvent("breaker opened")
	}
	if errors.Is(err, context.DeadlineExceeded) {
		span.AddEvent("deadline exceeded", trace.WithAttributes(timeoutKey.Int64(timeout.Milliseconds())))
	}
}
