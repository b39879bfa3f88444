package telemetry

import (
	"context"
	"errors"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/tripgraph/tripgraph/graph"
)

// Attribute keys of tripgraph's own spans.
const (
	RunIDKey    = attribute.Key("tripgraph.run.id")
	ThreadIDKey = attribute.Key("tripgraph.thread.id")
	AttemptKey  = attribute.Key("tripgraph.run.attempt")
	StatusKey   = attribute.Key("tripgraph.run.status")
	NodeKey     = attribute.Key("tripgraph.node")
	LinkKey     = attribute.Key("tripgraph.link")
)

// Attribute keys of OpenTelemetry's GenAI and MCP conventions that the
// spans of several packages carry: a model's call (model), a tool's call
// made (mcpbridge) and served (mcpserver).
const (
	GenAIOperationKey = attribute.Key("gen_ai.operation.name")
	GenAIToolNameKey  = attribute.Key("gen_ai.tool.name")
	MCPMethodKey      = attribute.Key("mcp.method.name")
)

// Run is one run being executed: the fields its span is named and
// described by.
type Run struct {
	ID, ThreadID string
	Attempt      int
	// CreatedBy is the W3C traceparent of the request that created the
	// run (kept with the run when it was queued); "" for a run nothing
	// traced created, such as a cron's.
	CreatedBy string
}

// StartRun starts the span of a run a worker executes. The span continues
// the trace of the request that created the run, as its child, whichever
// process took that request, and links to it; a run without one starts a
// trace of its own.
func StartRun(ctx context.Context, r Run) (context.Context, trace.Span) {
	opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindConsumer), trace.WithAttributes(
		RunIDKey.String(r.ID), ThreadIDKey.String(r.ThreadID), AttemptKey.Int(r.Attempt))}
	if creator := FromTraceParent(r.CreatedBy); creator.IsValid() {
		ctx = trace.ContextWithRemoteSpanContext(ctx, creator)
		opts = append(opts, trace.WithLinks(trace.Link{SpanContext: creator,
			Attributes: []attribute.KeyValue{LinkKey.String("created_by")}}))
	} else {
		opts = append(opts, trace.WithNewRoot())
	}
	return Tracer().Start(ctx, "run", opts...)
}

// EndRun ends a run's span with how the run ended: its status, and msg as
// the span's error when the run failed.
func EndRun(span trace.Span, status string, failed bool, msg string) {
	if !span.IsRecording() {
		span.End()
		return
	}
	span.SetAttributes(StatusKey.String(status))
	if failed {
		span.SetStatus(codes.Error, msg)
	}
	span.End()
}

// Node wraps a graph node so that each of its runs is a span, child of
// the run's, under which the node's model calls, tool calls and
// statements are: give it to the planner's Build (nodes.Deps.Around). A
// node that pauses the run for a person (graph.Interrupt) ends its span
// with an event, not an error.
func Node[S, U any](name string, fn func(context.Context, S) (U, error)) func(context.Context, S) (U, error) {
	return func(ctx context.Context, s S) (U, error) {
		ctx, span := Tracer().Start(ctx, "node "+name, trace.WithAttributes(NodeKey.String(name)))
		defer span.End()
		if info, ok := graph.Info(ctx); ok {
			span.SetAttributes(attribute.Int("tripgraph.step", info.Step))
		}
		u, err := fn(ctx, s)
		switch {
		case errors.Is(err, graph.ErrInterrupted):
			span.AddEvent("interrupted", trace.WithAttributes(attribute.String("tripgraph.reason", "waits for a person")))
		case err != nil:
			Fail(span, err)
		}
		return u, err
	}
}

// Fail marks span as failed by err.
func Fail(span trace.Span, err error) {
	span.RecordError(err)
	span.SetStatus(codes.Error, err.Error())
}

// Checkpoints wraps a checkpointer so that each checkpoint write is a
// span, under which its statements are; reads are not traced.
func Checkpoints(cp graph.Checkpointer) graph.Checkpointer { return tracedSaver{cp} }

type tracedSaver struct{ graph.Checkpointer }

var _ graph.BatchPutter = tracedSaver{}

func (t tracedSaver) Put(ctx context.Context, cp graph.Checkpoint, head string) error {
	ctx, span := startWrite(ctx, cp.ThreadID, 1)
	defer span.End()
	err := t.Checkpointer.Put(ctx, cp, head)
	if err != nil {
		Fail(span, fmt.Errorf("writing checkpoint %s: %w", cp.ID, err))
	}
	return err
}

// PutAll writes at once when the wrapped checkpointer can (graph.PutAll).
func (t tracedSaver) PutAll(ctx context.Context, cps []graph.Checkpoint, head string) (int, error) {
	thread := ""
	if len(cps) > 0 {
		thread = cps[0].ThreadID
	}
	ctx, span := startWrite(ctx, thread, len(cps))
	defer span.End()
	n, err := graph.PutAll(ctx, t.Checkpointer, cps, head)
	if err != nil {
		Fail(span, fmt.Errorf("writing %d checkpoints: %w", len(cps), err))
	}
	return n, err
}

func startWrite(ctx context.Context, thread string, n int) (context.Context, trace.Span) {
	return Tracer().Start(ctx, "checkpoint write", trace.WithAttributes(ThreadIDKey.String(thread),
		attribute.Int("tripgraph.checkpoints", n)))
}
