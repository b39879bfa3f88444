package server_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/server/internal/metrics"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// scrape reads /metrics as a map from each series (name and labels) to its
// value, and returns the text too.
func scrape(h *apptest.Server) (map[string]float64, string) {
	h.T().Helper()
	text := string(h.Must(http.StatusOK, http.MethodGet, "/metrics", "", "").Body)
	series := map[string]float64{}
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(strings.TrimSpace(line[i+1:]), 64)
		if err != nil {
			h.T().Fatalf("metrics line %q: %v", line, err)
		}
		series[line[:i]] = v
	}
	return series, text
}

// streamClosed reads a stream to its end and closes it.
func streamClosed(t *testing.T, resp *http.Response) {
	t.Helper()
	if _, err := io.Copy(io.Discard, bufio.NewReader(resp.Body)); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}

func TestMetricsAfterAStreamedRun(t *testing.T) {
	for _, tc := range []struct {
		protocol, path string
		body           func(tid string) string
	}{
		{metrics.LangGraph, "/threads/{tid}/runs/stream", func(string) string { return apptest.StreamBody(plannertest.Lisbon, `"values"`, "") }},
		{metrics.AISDK, "/api/chat", func(tid string) string {
			return `{"messages":[{"role":"user","content":` + apptest.JSONString(plannertest.Lisbon) + `}]}`
		}},
	} {
		t.Run(tc.protocol, func(t *testing.T) {
			gate := &plannertest.Gate{Started: make(chan string, 4), Release: make(chan struct{}), Server: "lodging"}
			h := apptest.New(t, apptest.WithTools(gate.Tools), apptest.Started())
			tid := h.Thread(h.AliceKey, "")
			open := `tripgraph_sse_streams_open{protocol="` + tc.protocol + `"}`
			resp := h.OpenStream(context.Background(), http.MethodPost, strings.ReplaceAll(tc.path, "{tid}", tid), tc.body(tid), nil)
			<-gate.Started
			during, _ := scrape(h)
			if during[open] != 1 {
				t.Errorf("while streaming: %s = %v", open, during[open])
			}
			if during[`tripgraph_runs{status="running"}`] < 1 {
				t.Errorf("while a run runs, runs by status %v", during[`tripgraph_runs{status="running"}`])
			}
			close(gate.Release)
			apptest.Drain(t, resp)

			after, text := scrape(h)
			if v, ok := after[open]; !ok || v != 0 {
				t.Errorf("after the stream ended: %s = %v (present %v), want 0", open, v, ok)
			}
			if after[`tripgraph_tool_calls_total{outcome="ok",server="user"}`] != 1 {
				t.Errorf("tool calls: %s", grep(text, "tripgraph_tool_calls_total"))
			}
			if after[`tripgraph_runs{status="success"}`] < 1 {
				t.Errorf("runs by status: %s", grep(text, "tripgraph_runs"))
			}
			for _, st := range []string{"pending", "queued"} {
				if _, ok := after[`tripgraph_queue_depth{state="`+st+`"}`]; !ok {
					t.Errorf("queue depth lacks %s: %s", st, grep(text, "tripgraph_queue_depth"))
				}
			}
			nodes := h.Planner.Shape().Nodes
			timed := 0
			for s, v := range after {
				if name, ok := strings.CutPrefix(s, `tripgraph_node_duration_seconds_count{node="`); ok {
					if !slices.Contains(nodes, strings.TrimSuffix(name, `"}`)) {
						t.Errorf("node duration for %s, not a node of the planner", s)
					}
					timed += int(v)
				}
			}
			if timed < 2 {
				t.Errorf("node durations: %s", grep(text, "tripgraph_node_duration_seconds_count"))
			}
			// Labels are bounded: no ids or paths.
			for _, id := range []string{tid, h.Alice.ID, "/threads/" + tid} {
				if strings.Contains(text, id) {
					t.Errorf("a metric label carries %q", id)
				}
			}
		})
	}
}

// grep is the lines of text that start with prefix.
func grep(text, prefix string) string {
	var out []string
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, prefix) {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return strings.Join(out, "; ")
}

func TestMetricsStoreFailureStaysInside(t *testing.T) {
	h := apptest.New(t, apptest.OnPostgres(storetest.Open(t, "metrics")))
	series, _ := scrape(h)
	if _, ok := series[`tripgraph_runs{status="queued"}`]; !ok {
		t.Fatalf("runs by status lacks queued before the failure")
	}
	h.Store.Close()
	series, text := scrape(h)
	for s := range series {
		if strings.HasPrefix(s, "tripgraph_runs{") || strings.HasPrefix(s, "tripgraph_queue_depth{") {
			t.Errorf("scrape with the store closed has %s", s)
		}
	}
	if strings.Contains(text, "closed") || strings.Contains(text, "counting") {
		t.Errorf("a store error reached the scrape:\n%s", text)
	}
	if !strings.Contains(h.Logs.String(), "scraping runs by status") {
		t.Errorf("the store failure was not logged: %s", h.Logs.String())
	}
}
