package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	trace "go.opentelemetry.io/proto/otlp/trace/v1"
)

// timeline keeps the spans of each trace and, at the end, says where the
// time of a streamed run went before its first node's output was
// durable: from the request's start to its run's creation, the claim, the
// run's start up to its first node, that node, and the checkpoint write
// that follows it. What happens after (the follower is handed the step,
// the frame is written) is the client's time to the first node's output
// less the last of these.
type timeline struct {
	mu     sync.Mutex
	traces map[string][]*trace.Span
}

func (tl *timeline) add(s *trace.Span) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	if tl.traces == nil {
		tl.traces = map[string][]*trace.Span{}
	}
	id := string(s.TraceId)
	tl.traces[id] = append(tl.traces[id], s)
}

// phases are the steps of a run up to its first node's checkpoint, in
// order, each as the time it took.
var phases = []string{"auth and run creation", "queue claim", "run start to the first node", "first node (extraction)",
	"its checkpoint write", "= request start to the first step durable"}

// of is the phases of one trace, false when it is not a streamed run that
// reached its first node's checkpoint.
func of(spans []*trace.Span) ([]time.Duration, bool) {
	var req, run, node *trace.Span
	for _, s := range spans {
		switch {
		case len(s.ParentSpanId) == 0 && strings.HasPrefix(s.Name, "POST ") && strings.HasSuffix(s.Name, "/stream"):
			req = s
		case s.Name == "run":
			run = s
		case s.Name == "node extraction":
			node = s
		}
	}
	if req == nil || run == nil || node == nil {
		return nil, false
	}
	var created, written uint64
	for _, s := range spans { // the batch that ends last before the run starts created it
		if s.Name == "batch start" && s.EndTimeUnixNano <= run.StartTimeUnixNano && s.EndTimeUnixNano > created {
			created = s.EndTimeUnixNano
		}
		if s.Name == "checkpoint write" && s.StartTimeUnixNano >= node.EndTimeUnixNano && (written == 0 || s.EndTimeUnixNano < written) {
			written = s.EndTimeUnixNano
		}
	}
	if created == 0 || written == 0 {
		return nil, false
	}
	d := func(from, to uint64) time.Duration { return time.Duration(int64(to) - int64(from)) }
	t0 := req.StartTimeUnixNano
	return []time.Duration{d(t0, created), d(created, run.StartTimeUnixNano), d(run.StartTimeUnixNano, node.StartTimeUnixNano),
		d(node.StartTimeUnixNano, node.EndTimeUnixNano), d(node.EndTimeUnixNano, written), d(t0, written)}, true
}

// print writes the phases' p50 and p99 over the traces.
func (tl *timeline) print(w io.Writer) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	per := make([][]time.Duration, len(phases))
	n := 0
	for _, spans := range tl.traces {
		if p, ok := of(spans); ok {
			n++
			for i, d := range p {
				per[i] = append(per[i], d)
			}
		}
	}
	fmt.Fprintf(w, "%d streamed runs traced to their first node's checkpoint\n", n)
	if n == 0 {
		return
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
	for i, name := range phases {
		slices.Sort(per[i])
		fmt.Fprintf(w, "| %s | %s | %s |\n", name, ms(per[i][len(per[i])/2]), ms(per[i][len(per[i])*99/100]))
	}
}
