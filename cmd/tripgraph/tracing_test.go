package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/testing/otlptest"
	"github.com/tripgraph/tripgraph/testing/servetest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// A whole trip run on PostgreSQL, traced by serve as configured and sent
// through the OTLP exporter to a receiver, is one tree: the request that
// created the run, the run under it (and linked to it), the nodes under
// the run, the model's calls and the tool calls under their node, the
// tool's server span under the call, the statements under the request,
// the checkpoint writes and the tool; the model's span follows the GenAI
// conventions and is marked offline. Contents are absent unless turned
// on, and then cut to their length. The run's metadata names the trace.
func TestTripRunIsOneTrace(t *testing.T) {
	_, url := storetest.OpenURL(t, "cmdtrace")
	key := servetest.Prepare(t, url, "traveller")[0]
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.DiscardHandler))
	t.Cleanup(func() { slog.SetDefault(prev) })

	for _, contents := range []bool{false, true} {
		t.Run("contents="+strconv.FormatBool(contents), func(t *testing.T) {
			rec := otlptest.New(t)
			addr, stop := serveTraced(t, url, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": rec.HTTPURL,
				"TRIPGRAPH_TRACE_CONTENTS": strconv.FormatBool(contents), "TRIPGRAPH_TRACE_CONTENT_BYTES": "64"})
			run := startRun(t, addr, key, "4 nights in Lisbon in May, 3 of us")
			stop() // flushes the spans
			traceID, _ := run["metadata"].(map[string]any)["trace_id"].(string)
			spans := rec.Trace(traceID)
			if traceID == "" || len(spans) == 0 {
				t.Fatalf("the run's metadata names trace %q, with %d spans", traceID, len(spans))
			}
			t.Logf("trace %s:\n%s", traceID, otlptest.Tree(spans))
			checkTree(t, spans, run["run_id"].(string))
			checkContents(t, spans, contents, 64)
		})
	}
}

// serveTraced runs serve in this process on the database at url, with
// vars over the configuration, until stop, which waits for it to end.
func serveTraced(t *testing.T, url string, vars map[string]string) (addr string, stop func()) {
	t.Helper()
	addr = servetest.FreeAddr(t)
	all := map[string]string{"DATABASE_URL": url, "TRIPGRAPH_MEDIA_ROOT": t.TempDir(), "TRIPGRAPH_WORKERS": "4"}
	for k, v := range vars {
		all[k] = v
	}
	cfg, err := config.FromMap(all)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runServe(ctx, cfg, []string{"--addr", addr}) }()
	stop = func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get("http://" + addr + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return addr, stop
			}
		}
		if time.Now().After(deadline) { // a bound on a hang, not a timing assertion
			stop()
			t.Fatal("serve was not ready within a minute")
		}
	}
}

// startRun creates a thread and a background run of message on it,
// joins the run, and returns the run as the API answered it.
func startRun(t *testing.T, addr, key, message string) map[string]any {
	t.Helper()
	thread := servetest.PostJSON(t, addr, key, "/threads", `{}`)["thread_id"].(string)
	body, _ := json.Marshal(map[string]any{"assistant_id": "trip-planner",
		"input": map[string]any{"messages": []map[string]string{{"role": "user", "content": message}}}})
	run := servetest.PostJSON(t, addr, key, "/threads/"+thread+"/runs", string(body))
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("http://%s/threads/%s/runs/%s/join", addr, thread, run["run_id"]), nil)
	req.Header.Set("x-api-key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK {
		t.Fatalf("joining the run: %d %s", resp.StatusCode, b)
	}
	return run
}

// checkTree holds the trace of one run to its shape.
func checkTree(t *testing.T, spans []otlptest.Span, runID string) {
	t.Helper()
	byID := map[string]otlptest.Span{}
	for _, s := range spans {
		byID[s.SpanID] = s
	}
	parent := func(s otlptest.Span) otlptest.Span { return byID[s.ParentID] }
	must := func(name string) otlptest.Span {
		t.Helper()
		s, ok := otlptest.Find(spans, name)
		if !ok {
			t.Fatalf("no span %q in the trace", name)
		}
		return s
	}
	req := must("POST /threads/:thread_id/runs")
	run := must("run")
	if req.Kind != "server" || req.ParentID != "" || req.Attrs["http.route"] != "/threads/:thread_id/runs" || req.Attrs["http.response.status_code"] != "200" {
		t.Errorf("request span: %+v", req)
	}
	if run.ParentID != req.SpanID || len(run.Links) != 1 || run.Links[0].SpanID != req.SpanID || run.Attrs["tripgraph.run.id"] != runID ||
		run.Attrs["tripgraph.run.status"] != "success" {
		t.Errorf("run span: %+v", run)
	}
	for _, node := range []string{"node extraction", "node callTools"} {
		if n := must(node); n.ParentID != run.SpanID {
			t.Errorf("%s is under %q, not the run", node, parent(n).Name)
		}
	}
	var chats, tools, toolServers, sqlUnder = 0, 0, 0, map[string]bool{}
	for _, s := range spans {
		switch {
		case s.Name == "chat offline":
			chats++
			if !strings.HasPrefix(parent(s).Name, "node ") || s.Kind != "client" || s.Attrs["gen_ai.operation.name"] != "chat" ||
				s.Attrs["gen_ai.provider.name"] != "tripgraph.offline" || s.Attrs["gen_ai.request.model"] != "offline" || s.Attrs["tripgraph.model.offline"] != "true" {
				t.Errorf("model span under %q: %+v", parent(s).Name, s.Attrs)
			}
		case strings.HasPrefix(s.Name, "execute_tool "):
			tools++
			if parent(s).Name != "node callTools" || s.Attrs["gen_ai.operation.name"] != "execute_tool" || s.Attrs["gen_ai.tool.name"] == "" ||
				s.Attrs["tripgraph.mcp.server"] != "tripgraph" || s.Attrs["tripgraph.tool.outcome"] != "ok" || s.Attrs["tripgraph.mcp.breaker"] != "closed" {
				t.Errorf("tool span under %q: %+v", parent(s).Name, s.Attrs)
			}
		case strings.HasPrefix(s.Name, "tools/call "):
			toolServers++
			if !strings.HasPrefix(parent(s).Name, "execute_tool ") || s.Kind != "server" {
				t.Errorf("tool server span under %q", parent(s).Name)
			}
		case s.Attrs["db.query.text"] != "":
			for a := parent(s); a.SpanID != ""; a = parent(a) {
				sqlUnder[strings.Fields(a.Name)[0]] = true
			}
		}
	}
	if chats == 0 || tools == 0 || toolServers != tools {
		t.Errorf("%d model calls, %d tool calls, %d tool server spans", chats, tools, toolServers)
	}
	for _, under := range []string{"POST", "run", "checkpoint", "tools/call"} {
		if !sqlUnder[under] {
			t.Errorf("no statement under a %q span; statements are under %v", under, sqlUnder)
		}
	}
}

// checkContents holds the spans' contents to the setting: none when off;
// the messages and the tools' arguments, each at most max bytes, when on.
func checkContents(t *testing.T, spans []otlptest.Span, on bool, max int) {
	t.Helper()
	found, cut := map[string]bool{}, false
	for _, s := range spans {
		for _, k := range []string{"gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.tool.call.arguments", "gen_ai.tool.call.result"} {
			v, ok := s.Attrs[k]
			if !ok {
				continue
			}
			found[k] = true
			if !on {
				t.Errorf("%s recorded although contents are off: %q", k, v)
			}
			if len(v) > max {
				t.Errorf("%s is %d bytes, over %d", k, len(v), max)
			}
			cut = cut || strings.HasSuffix(v, "…")
		}
	}
	if on && (!found["gen_ai.input.messages"] || !found["gen_ai.output.messages"] || !found["gen_ai.tool.call.arguments"] || !found["gen_ai.tool.call.result"]) {
		t.Errorf("contents on, yet only %v recorded", found)
	}
	if on && !cut {
		t.Error("contents on, yet none was cut to its length")
	}
}
