package server_test

import (
	"net/http"
	"syscall"
	"testing"

	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// BenchmarkGetState is one authenticated GET /threads/{id}/state of a
// thread after one planner turn, over loopback, with PostgreSQL.
func BenchmarkGetState(b *testing.B) {
	h := apptest.New(b, apptest.OnPostgres(storetest.Open(b, "serverbench")))
	id := h.Thread(h.AliceKey, "")
	h.Turn(h.Alice.ID, id, "4 nights in Lisbon in May, 3 of us")
	b.ResetTimer()
	for b.Loop() {
		h.Must(http.StatusOK, http.MethodGet, "/threads/"+id+"/state", h.AliceKey, "")
	}
}

// BenchmarkHistory is one POST /threads/{id}/history of ten states.
func BenchmarkHistory(b *testing.B) {
	h := apptest.New(b, apptest.OnPostgres(storetest.Open(b, "serverbench")))
	id := h.Thread(h.AliceKey, "")
	for _, msg := range []string{"4 nights in Lisbon in May, 3 of us", "restaurants too", "and in June?", "we are 4 now"} {
		h.Turn(h.Alice.ID, id, msg)
	}
	b.ResetTimer()
	for b.Loop() {
		h.Must(http.StatusOK, http.MethodPost, "/threads/"+id+"/history", h.AliceKey, `{"limit":10}`)
	}
}

// BenchmarkRunWait is one stateless run of the planner through the API on
// the in-memory twin (POST /runs/wait): a request, a queued run, a worker,
// the nodes, the offline model and the tools. With tracing off it measures
// what the tracing code costs when nothing is traced.
func BenchmarkRunWait(b *testing.B) {
	h := apptest.New(b, apptest.Started())
	body := `{"assistant_id":"trip-planner","input":{"messages":[{"role":"user","content":"4 nights in Lisbon in May, 3 of us"}]}}`
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		h.Must(http.StatusOK, http.MethodPost, "/runs/wait", h.AliceKey, body)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time this process has used, user and system, in
// nanoseconds: what a run costs whatever else the machine is doing.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
