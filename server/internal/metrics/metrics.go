// Package metrics holds the Prometheus families the server feeds: requests
// and their durations, open event streams, graph node durations and tool
// calls of the runs this process executes, and the run queue as the store
// sees it.
package metrics

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
	"github.com/tripgraph/tripgraph/store/replica"
	"github.com/tripgraph/tripgraph/telemetry"
)

// Metrics are the families the server feeds.
type Metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec
	duration  *prometheus.HistogramVec
	nodes     *prometheus.HistogramVec // graph node durations, by node
	toolCalls *prometheus.CounterVec   // tool calls, by server and outcome
	streams   *prometheus.GaugeVec     // open SSE streams, by protocol
}

// QueueStats is what a scrape reads of the run queue.
type QueueStats interface {
	RunsByStatus(ctx context.Context) (map[string]int64, error)
	RunQueueDepth(ctx context.Context) (store.QueueDepth, error)
}

// ReadStats says who served the reads a replica may serve: a store with
// a read replica (store.Store) is one.
type ReadStats interface {
	Reads() *replica.Router
}

// New registers the families, the queue's counts read from queue at each
// scrape, the reads by who served them when queue is also ReadStats, and
// the Go and process collectors.
func New(queue QueueStats, log *slog.Logger) *Metrics {
	m := &Metrics{
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
	m.reg.MustRegister(m.requests, m.duration, m.nodes, m.toolCalls, m.streams, runsCollector{st: queue, log: log},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if rs, ok := queue.(ReadStats); ok {
		m.reg.MustRegister(readsServed(rs.Reads())...)
	}
	return m
}

// readsServed are the counts of the reads a replica may serve, by who
// served them (served_by: replica or primary), read from reads at each
// scrape.
func readsServed(reads *replica.Router) []prometheus.Collector {
	var out []prometheus.Collector
	for _, by := range []replica.Served{replica.ByPrimary, replica.ByReplica} {
		out = append(out, prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name:        "tripgraph_db_reads_total",
			Help:        "Reads a read replica may serve (history, state, searches, finished runs' streams), by who served them: the replica, or the primary (no replica, or it was behind or down).",
			ConstLabels: prometheus.Labels{"served_by": by.String()},
		}, func() float64 { return float64(reads.Served(by)) }))
	}
	return out
}

// The protocols of the open-streams gauge.
const (
	LangGraph = "langgraph"
	AISDK     = "ai_sdk"
	HTML      = "html" // the browser's live fragments
)

// Request counts an answered request and its duration, with an exemplar
// pointing at the request's trace when ctx's span is sampled.
func (m *Metrics) Request(ctx context.Context, method, route, status string, took time.Duration) {
	m.requests.WithLabelValues(method, route, status).Inc()
	observe(m.duration.WithLabelValues(method, route), took.Seconds(), telemetry.SampledTraceID(ctx))
}

// observe records v, with an exemplar naming traceID when there is one: a
// histogram's bucket then leads to a trace that fell in it.
func observe(o prometheus.Observer, v float64, traceID string) {
	if eo, ok := o.(prometheus.ExemplarObserver); ok && traceID != "" {
		eo.ObserveWithExemplar(v, prometheus.Labels{"trace_id": traceID})
		return
	}
	o.Observe(v)
}

// StreamOpened counts a stream of protocol as open until the returned func
// is called.
func (m *Metrics) StreamOpened(protocol string) (closed func()) {
	g := m.streams.WithLabelValues(protocol)
	g.Inc()
	return g.Dec
}

// Handler serves the families in Prometheus's text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError, EnableOpenMetrics: true})
}

// NodeTimer turns the graph events of one run into node durations and
// tool call counts.
type NodeTimer struct {
	m       *Metrics
	started map[string]time.Time // by node, within the current step
	traceID string               // the run's trace, when sampled: the durations' exemplar
}

// NodeTimer starts timing the nodes of the run ctx's span is.
func (m *Metrics) NodeTimer(ctx context.Context) *NodeTimer {
	return &NodeTimer{m: m, started: map[string]time.Time{}, traceID: telemetry.SampledTraceID(ctx)}
}

// See records what an event reports: a node's start or end, or the end of
// a tool call (the tool bridge's mcp_complete event).
func (t *NodeTimer) See(kind graph.EventKind, node, name string, payload any) {
	switch kind {
	case graph.NodeStarted:
		t.started[node] = time.Now()
	case graph.NodeFinished:
		if at, ok := t.started[node]; ok {
			observe(t.m.nodes.WithLabelValues(node), time.Since(at).Seconds(), t.traceID)
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
	st  QueueStats
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
