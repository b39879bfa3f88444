package twoproc

import (
	"context"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/testing/otlptest"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/servetest"
)

// A run queued through one process and executed by another's worker is
// one trace: the run's span, sent by the process that ran it, is the
// child of the request's span, sent by the process that took the request,
// and links to it; the model's call is under the run, in the second
// process. A sends its spans over OTLP/gRPC, B over OTLP/HTTP.
func TestRunExecutedElsewhereContinuesTheRequestsTrace(t *testing.T) {
	pgtest.Skip(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	key := servetest.Prepare(t, testURL, "twoproc-tracer")[0]
	bin := servetest.Build(t)
	rec := otlptest.New(t)

	// A's one worker is held by a first run whose first model request is
	// never answered, so that the second run can only be executed by B.
	modelURL, held := heldModel(t)

	addrA, addrB := servetest.FreeAddr(t), servetest.FreeAddr(t)
	serveTraced(t, bin, addrA, modelURL, "OTEL_EXPORTER_OTLP_PROTOCOL=grpc", "OTEL_EXPORTER_OTLP_ENDPOINT="+rec.GRPCURL)
	first := servetest.PostJSON(t, addrA, key, "/threads", `{}`)["thread_id"].(string)
	servetest.PostJSON(t, addrA, key, "/threads/"+first+"/runs", runBody)
	select {
	case <-held:
	case <-ctx.Done():
		t.Fatal("process A never asked the model")
	}
	serveTraced(t, bin, addrB, modelURL, "OTEL_EXPORTER_OTLP_ENDPOINT="+rec.HTTPURL)

	second := servetest.PostJSON(t, addrA, key, "/threads", `{}`)["thread_id"].(string)
	run := servetest.PostJSON(t, addrA, key, "/threads/"+second+"/runs", runBody)
	traceID, _ := run["metadata"].(map[string]any)["trace_id"].(string)
	if traceID == "" {
		t.Fatalf("the run's metadata names no trace: %v", run["metadata"])
	}
	rec.Wait(t, "the run's spans from both processes", func(all []otlptest.Span) bool {
		var req, ran, chat bool
		for _, s := range all {
			if s.TraceID == traceID {
				req = req || s.Name == "POST /threads/:thread_id/runs"
				ran = ran || (s.Name == "run" && s.Attrs["tripgraph.run.status"] != "")
				chat = chat || s.Name == "chat scripted"
			}
		}
		return req && ran && chat
	})
	trace := rec.Trace(traceID)
	t.Logf("trace %s:\n%s", traceID, otlptest.Tree(trace))
	req, _ := otlptest.Find(trace, "POST /threads/:thread_id/runs")
	w, _ := otlptest.Find(trace, "run")
	chat, _ := otlptest.Find(trace, "chat scripted")
	a, b := req.Resource["service.instance.id"], w.Resource["service.instance.id"]
	if a == "" || a == b {
		t.Errorf("the request's process %q and the run's %q must differ", a, b)
	}
	if w.ParentID != req.SpanID || len(w.Links) != 1 || w.Links[0].SpanID != req.SpanID || w.Links[0].TraceID != traceID {
		t.Errorf("the run span is not the request's child and linked to it: %+v", w)
	}
	if chat.Resource["service.instance.id"] != b || chat.Attrs["gen_ai.provider.name"] != "openai" || chat.Attrs["gen_ai.request.model"] != "scripted" ||
		chat.Attrs["tripgraph.model.offline"] != "false" {
		t.Errorf("model span: %+v", chat)
	}
}

const runBody = `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"two days in Lisbon"}]}}`

// serveTraced runs `serve` with one worker, its model at modelURL, and
// the tracing variables in env.
func serveTraced(t *testing.T, bin, addr, modelURL string, env ...string) {
	t.Helper()
	servetest.Serve(t, bin, addr, testURL, append([]string{"TRIPGRAPH_MODEL=openai:scripted", "OPENAI_API_KEY=test",
		"OPENAI_BASE_URL=" + modelURL, "TRIPGRAPH_WORKERS=1"}, env...)...)
}
