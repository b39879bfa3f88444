package telemetry

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/testing/otlptest"
)

// Spans reach an OTLP back end over both protocols, with the process's
// resource, and the trace context kept as a traceparent brings a later
// span (a run's, in another process) into the same trace as a child of
// the span that made it, linked to it.
func TestSpansReachAnOTLPReceiver(t *testing.T) {
	rec := otlptest.New(t)
	for _, c := range []struct{ protocol, endpoint string }{{HTTPProtobuf, rec.HTTPURL}, {GRPC, rec.GRPCURL}} {
		t.Run(c.protocol, func(t *testing.T) {
			ctx := context.Background()
			stop, err := Start(ctx, Config{Endpoint: c.endpoint, Protocol: c.protocol, ServiceName: "trips-test",
				Resource: map[string]string{"deployment.environment.name": "test"}, SampleRatio: 1})
			if err != nil {
				t.Fatal(err)
			}
			reqCtx, req := Tracer().Start(ctx, "POST "+c.protocol)
			parent := TraceParent(reqCtx)
			req.End()
			runCtx, run := StartRun(ctx, Run{ID: "r1", ThreadID: "t1", Attempt: 1, CreatedBy: parent})
			if TraceID(runCtx) != TraceID(reqCtx) {
				t.Errorf("the run's trace %s is not the request's %s", TraceID(runCtx), TraceID(reqCtx))
			}
			EndRun(run, "success", false, "")
			if err := stop(ctx); err != nil {
				t.Fatal(err)
			}
			if Enabled() {
				t.Error("tracing is still on after its shutdown")
			}
			spans := rec.Trace(TraceID(reqCtx))
			r, _ := otlptest.Find(spans, "POST "+c.protocol)
			w, ok := otlptest.Find(spans, "run")
			if !ok || w.ParentID != r.SpanID || len(w.Links) != 1 || w.Links[0].SpanID != r.SpanID {
				t.Fatalf("want the run under the request and linked to it:\n%s", otlptest.Tree(spans))
			}
			if w.Attrs["tripgraph.run.id"] != "r1" || w.Attrs["tripgraph.run.status"] != "success" || w.Kind != "consumer" {
				t.Errorf("run span %+v", w)
			}
			if r.Resource["service.name"] != "trips-test" || r.Resource["deployment.environment.name"] != "test" || r.Resource["service.instance.id"] == "" {
				t.Errorf("resource %v", r.Resource)
			}
		})
	}
}

// A run nothing traced created starts a trace of its own.
func TestRunWithoutCreatorIsARoot(t *testing.T) {
	exp := install(t, Contents{})
	ctx, outer := Tracer().Start(context.Background(), "worker")
	_, run := StartRun(ctx, Run{ID: "r", ThreadID: "t"})
	EndRun(run, "error", true, "the model failed")
	outer.End()
	s := exp.named(t, "run")
	if s.Parent.IsValid() || s.Status.Code.String() != "Error" {
		t.Errorf("run span: parent %v, status %v", s.Parent, s.Status)
	}
}

// A node's span is its run's child; a node that waits for a person ends
// it with an event, one that fails with an error.
func TestNodeSpans(t *testing.T) {
	exp := install(t, Contents{})
	ctx, run := Tracer().Start(context.Background(), "run")
	wait := Node("callTools", func(context.Context, int) (int, error) {
		return 0, fmt.Errorf("callTools waits: %w", graph.ErrInterrupted)
	})
	fail := Node("extraction", func(context.Context, int) (int, error) { return 0, errors.New("no model") })
	wait(ctx, 0)
	fail(ctx, 0)
	run.End()
	w, f := exp.named(t, "node callTools"), exp.named(t, "node extraction")
	if w.Parent.SpanID() != run.SpanContext().SpanID() || len(w.Events) != 1 || w.Events[0].Name != "interrupted" || w.Status.Code.String() == "Error" {
		t.Errorf("waiting node: %+v", w)
	}
	if f.Status.Code.String() != "Error" {
		t.Errorf("failed node: status %v", f.Status)
	}
}

// Contents are recorded only when turned on, then cut to their length at
// a character's start.
func TestContents(t *testing.T) {
	long := strings.Repeat("é", 100) // 200 bytes
	for _, c := range []struct {
		contents Contents
		want     string
	}{{Contents{}, ""}, {Contents{Record: true, Bytes: 11}, "éééé…"}, {Contents{Record: true, Bytes: 1000}, long}} {
		exp := install(t, c.contents)
		_, span := Tracer().Start(context.Background(), "chat")
		Content(span, "gen_ai.input.messages", func() string { return long })
		span.End()
		got := ""
		for _, a := range exp.named(t, "chat").Attributes {
			if a.Key == "gen_ai.input.messages" {
				got = a.Value.AsString()
			}
		}
		if got != c.want {
			t.Errorf("%+v: recorded %q, want %q", c.contents, got, c.want)
		}
	}
	for n := range 12 {
		if s := Cut(long, n); len(s) > n || !utf8.ValidString(s) {
			t.Errorf("Cut(%d) = %q", n, s)
		}
	}
}

// A log line written with a span's context carries its trace and span ids.
func TestLogLinesCarryTheirTrace(t *testing.T) {
	install(t, Contents{})
	var buf bytes.Buffer
	log := slog.New(LogHandler(slog.NewJSONHandler(&buf, nil))).With("run_id", "r1")
	ctx, span := Tracer().Start(context.Background(), "run")
	defer span.End()
	log.InfoContext(ctx, "a run failed")
	log.Info("no context")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	var first, second map[string]any
	json.Unmarshal([]byte(lines[0]), &first)
	json.Unmarshal([]byte(lines[1]), &second)
	if first["trace_id"] != span.SpanContext().TraceID().String() || first["span_id"] != span.SpanContext().SpanID().String() || first["run_id"] != "r1" {
		t.Errorf("line with a span: %s", lines[0])
	}
	if _, ok := second["trace_id"]; ok {
		t.Errorf("line without a span: %s", lines[1])
	}
}

// An MCP request's _meta carries the caller's trace to the server.
func TestMetaCarriesTheTrace(t *testing.T) {
	install(t, Contents{})
	ctx, span := Tracer().Start(context.Background(), "execute_tool")
	defer span.End()
	meta := InjectMeta(ctx, map[string]any{"progressToken": "p1"})
	got := ExtractMeta(context.Background(), meta)
	if TraceID(got) != TraceID(ctx) || meta["progressToken"] != "p1" {
		t.Errorf("meta %v carried trace %q, want %q", meta, TraceID(got), TraceID(ctx))
	}
	if m := InjectMeta(context.Background(), nil); m != nil {
		t.Errorf("no span, yet meta %v", m)
	}
}
