package server

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/store"
)

// metrics are the families the server feeds. Each is registered only where
// something records it.
type metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec
	duration  *prometheus.HistogramVec
	nodes     *prometheus.HistogramVec // graph node durations, by node
	toolCalls *prometheus.CounterVec   // tool calls, by server and outcome
	streams   *prometheus.GaugeVec     // open SSE streams, by protocol
}

func newMetrics(st *store.Store, log *slog.Logger) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tripgraph_http_requests_total", Help: "HTTP requests answered, by method, route and status.",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "tripgraph_http_request_duration_seconds", Help: "Time to answer an HTTP request, by method and route.",
			Buckets: prometheus.DefBuckets,
		}, []string{"method", "route"}),
		nodes: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "tripgraph_node_duration_seconds", Help: "Time a graph node took in a run this process executed, by node.",
			Buckets: prometheus.DefBuckets,
		}, []string{"node"}),
		toolCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "tripgraph_tool_calls_total", Help: "Tool calls made by runs this process executed, by MCP server (tripgraph, or user for users' own servers) and outcome (ok or the error code).",
		}, []string{"server", "outcome"}),
		streams: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "tripgraph_sse_streams_open", Help: "Event streams open on this process, by protocol (langgraph, ai_sdk or html).",
		}, []string{"protocol"}),
	}
	m.reg.MustRegister(m.requests, m.duration, m.nodes, m.toolCalls, m.streams, runsCollector{st: st, log: log},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// The protocols of the open-streams gauge.
const (
	protoLangGraph = "langgraph"
	protoAISDK     = "ai_sdk"
	protoHTML      = "html" // the browser's live fragments
)

// streamOpened counts a stream of protocol as open until the returned func
// is called.
func (m *metrics) streamOpened(protocol string) (closed func()) {
	g := m.streams.WithLabelValues(protocol)
	g.Inc()
	return g.Dec
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// nodeTimer turns the graph events of one run into node durations and
// tool call counts.
type nodeTimer struct {
	m       *metrics
	started map[string]time.Time // by node, within the current step
}

func (m *metrics) nodeTimer() *nodeTimer {
	return &nodeTimer{m: m, started: map[string]time.Time{}}
}

// see records what an event reports: a node's start or end, or the end of
// a tool call (the tool bridge's mcp_complete event).
func (t *nodeTimer) see(kind graph.EventKind, node, name string, payload any) {
	switch kind {
	case graph.NodeStarted:
		t.started[node] = time.Now()
	case graph.NodeFinished:
		if at, ok := t.started[node]; ok {
			t.m.nodes.WithLabelValues(node).Observe(time.Since(at).Seconds())
			delete(t.started, node)
		}
	case graph.Custom:
		if done, ok := payload.(mcpbridge.Complete); ok && name == mcpbridge.EventComplete {
			outcome := "ok"
			if done.Error != "" {
				outcome = done.Error
			}
			t.m.toolCalls.WithLabelValues(serverLabel(done.Server), outcome).Inc()
		}
	}
}

// scrapeTimeout bounds the store queries of one scrape.
const scrapeTimeout = 2 * time.Second

var (
	runsDesc = prometheus.NewDesc("tripgraph_runs", "Runs in the store, of every owner and process, by status.",
		[]string{"status"}, nil)
	queueDesc = prometheus.NewDesc("tripgraph_queue_depth", "Runs waiting in the store: pending (ready to claim) and queued (behind an active run on their thread).",
		[]string{"state"}, nil)
)

// runsCollector reads run counts from the store on each scrape. When the
// store fails, its families are left out of that scrape and the cause is
// logged, never shown.
type runsCollector struct {
	st  *store.Store
	log *slog.Logger
}

// Describe sends the collector's descriptors.
func (c runsCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- runsDesc
	ch <- queueDesc
}

// Collect queries the store and sends the counts.
func (c runsCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	counts, err := c.st.RunsByStatus(ctx)
	if err != nil {
		c.log.Error("scraping runs by status", "err", err)
	}
	for status, n := range counts {
		ch <- prometheus.MustNewConstMetric(runsDesc, prometheus.GaugeValue, float64(n), status)
	}
	d, err := c.st.RunQueueDepth(ctx)
	if err != nil {
		c.log.Error("scraping the run queue depth", "err", err)
		return
	}
	ch <- prometheus.MustNewConstMetric(queueDesc, prometheus.GaugeValue, float64(d.Pending), "pending")
	ch <- prometheus.MustNewConstMetric(queueDesc, prometheus.GaugeValue, float64(d.Queued), "queued")
}

// serverLabel keeps the server label bounded: tripgraph's own server by
// name, and every server a user registered (whose names users choose) as
// "user".
func serverLabel(name string) string {
	if name == mcpbridge.OurServer {
		return name
	}
	return "user"
}
