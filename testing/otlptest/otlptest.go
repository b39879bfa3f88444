// Package otlptest is an OpenTelemetry collector for tests: it receives
// spans over OTLP, as HTTP protobuf and as gRPC, the way a real back end
// would, keeps them, and answers questions about their trees.
package otlptest

import (
	"compress/gzip"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	collector "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	common "go.opentelemetry.io/proto/otlp/common/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// Span is a received span, its ids in hex.
type Span struct {
	TraceID, SpanID, ParentID string
	Name                      string
	Kind                      string // "server", "client", "internal", "consumer", "producer"
	Start, End                time.Time
	Attrs                     map[string]string // every value written as text
	Resource                  map[string]string // the attributes of the process that sent it
	Events                    []string          // names, in order
	Links                     []Link
	Error                     bool   // its status is Error
	Message                   string // its status message
}

// Link is a span's link to another.
type Link struct {
	TraceID, SpanID string
	Attrs           map[string]string
}

// Duration is how long the span lasted.
func (s Span) Duration() time.Duration { return s.End.Sub(s.Start) }

// Receiver collects spans. HTTPURL is the base of its OTLP/HTTP endpoint
// (spans go to HTTPURL+"/v1/traces"); GRPCURL its gRPC one.
type Receiver struct {
	HTTPURL, GRPCURL string

	mu    sync.Mutex
	spans []Span
}

// New starts a receiver on loopback ports until the test ends.
func New(t testing.TB) *Receiver {
	t.Helper()
	r := &Receiver{}
	hs := httptest.NewServer(http.HandlerFunc(r.serveHTTP))
	t.Cleanup(hs.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	collector.RegisterTraceServiceServer(gs, grpcService{r: r})
	go gs.Serve(ln)
	t.Cleanup(gs.Stop)
	r.HTTPURL, r.GRPCURL = hs.URL, "http://"+ln.Addr().String()
	return r
}

// serveHTTP takes one OTLP/HTTP export, in protobuf.
func (r *Receiver) serveHTTP(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path != "/v1/traces" || req.Method != http.MethodPost {
		http.NotFound(w, req)
		return
	}
	var body io.Reader = req.Body
	if req.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	data, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var export collector.ExportTraceServiceRequest
	if err := proto.Unmarshal(data, &export); err != nil {
		http.Error(w, "decoding an export: "+err.Error(), http.StatusBadRequest)
		return
	}
	r.take(&export)
	out, _ := proto.Marshal(&collector.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

type grpcService struct {
	collector.UnimplementedTraceServiceServer
	r *Receiver
}

func (g grpcService) Export(_ context.Context, req *collector.ExportTraceServiceRequest) (*collector.ExportTraceServiceResponse, error) {
	g.r.take(req)
	return &collector.ExportTraceServiceResponse{}, nil
}

// take keeps the spans of an export.
func (r *Receiver) take(export *collector.ExportTraceServiceRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range export.ResourceSpans {
		res := attrs(rs.GetResource().GetAttributes())
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				r.spans = append(r.spans, convertSpan(s, res))
			}
		}
	}
}

// Spans are the spans received so far.
func (r *Receiver) Spans() []Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.spans)
}

// Trace is the spans of one trace, by start time.
func (r *Receiver) Trace(traceID string) []Span {
	var out []Span
	for _, s := range r.Spans() {
		if s.TraceID == traceID {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out
}

// Wait waits until ok holds of the spans received, for at most a minute.
func (r *Receiver) Wait(t testing.TB, what string, ok func([]Span) bool) []Span {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		spans := r.Spans()
		if ok(spans) {
			return spans
		}
		if time.Now().After(deadline) { // a bound on a hang, not a timing assertion
			t.Fatalf("waiting for %s: %d spans received, none fit", what, len(spans))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Find is the first of spans named name, and whether there is one.
func Find(spans []Span, name string) (Span, bool) {
	for _, s := range spans {
		if s.Name == name {
			return s, true
		}
	}
	return Span{}, false
}

// Tree writes spans (one trace) as an indented tree, children under their
// parent by start time, each with its offset from the trace's start and
// its duration; a span whose parent is not among them is a root.
func Tree(spans []Span) string {
	if len(spans) == 0 {
		return ""
	}
	byID := map[string]bool{}
	children := map[string][]Span{}
	t0 := spans[0].Start
	for _, s := range spans {
		byID[s.SpanID] = true
		if s.Start.Before(t0) {
			t0 = s.Start
		}
	}
	var roots []Span
	for _, s := range spans {
		if byID[s.ParentID] {
			children[s.ParentID] = append(children[s.ParentID], s)
		} else {
			roots = append(roots, s)
		}
	}
	var b strings.Builder
	var walk func(s Span, depth int)
	walk = func(s Span, depth int) {
		fmt.Fprintf(&b, "%s%s  +%s %s%s\n", strings.Repeat("  ", depth), s.Name, ms(s.Start.Sub(t0)), ms(s.Duration()), note(s))
		kids := children[s.SpanID]
		sort.SliceStable(kids, func(i, j int) bool { return kids[i].Start.Before(kids[j].Start) })
		for _, k := range kids {
			walk(k, depth+1)
		}
	}
	sort.SliceStable(roots, func(i, j int) bool { return roots[i].Start.Before(roots[j].Start) })
	for _, r := range roots {
		walk(r, 0)
	}
	return b.String()
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

// note is what Tree says of a span beside its timing: the process that
// made it, its errors and links.
func note(s Span) string {
	var parts []string
	if id := s.Resource["service.instance.id"]; id != "" {
		parts = append(parts, "process "+id[:8])
	}
	if s.Error {
		parts = append(parts, "ERROR "+s.Message)
	}
	for _, l := range s.Links {
		parts = append(parts, "link→"+l.SpanID[:8])
	}
	if len(parts) == 0 {
		return ""
	}
	return "  [" + strings.Join(parts, "; ") + "]"
}

var kinds = map[int32]string{1: "internal", 2: "server", 3: "client", 4: "producer", 5: "consumer"}

// attrs writes attributes as text.
func attrs(kvs []*common.KeyValue) map[string]string {
	out := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		out[kv.Key] = value(kv.Value)
	}
	return out
}

func value(v *common.AnyValue) string {
	switch x := v.GetValue().(type) {
	case *common.AnyValue_StringValue:
		return x.StringValue
	case *common.AnyValue_IntValue:
		return fmt.Sprint(x.IntValue)
	case *common.AnyValue_BoolValue:
		return fmt.Sprint(x.BoolValue)
	case *common.AnyValue_DoubleValue:
		return fmt.Sprint(x.DoubleValue)
	case *common.AnyValue_ArrayValue:
		parts := make([]string, len(x.ArrayValue.Values))
		for i, e := range x.ArrayValue.Values {
			parts[i] = value(e)
		}
		return strings.Join(parts, ",")
	}
	return ""
}

func hexID(b []byte) string { return hex.EncodeToString(b) }
