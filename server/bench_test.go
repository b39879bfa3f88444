package server

import (
	"net/http"
	"testing"
)

// BenchmarkGetState is one authenticated GET /threads/{id}/state of a
// thread after one planner turn, over loopback, with PostgreSQL.
func BenchmarkGetState(b *testing.B) {
	h := newHarness(b, testLimits())
	id := h.thread(h.aliceKey, "")
	h.turn(id, "4 nights in Lisbon in May, 3 of us")
	b.ResetTimer()
	for b.Loop() {
		h.must(http.StatusOK, http.MethodGet, "/threads/"+id+"/state", h.aliceKey, "")
	}
}

// BenchmarkHistory is one POST /threads/{id}/history of ten states.
func BenchmarkHistory(b *testing.B) {
	h := newHarness(b, testLimits())
	id := h.thread(h.aliceKey, "")
	for _, msg := range []string{"4 nights in Lisbon in May, 3 of us", "restaurants too", "and in June?", "we are 4 now"} {
		h.turn(id, msg)
	}
	b.ResetTimer()
	for b.Loop() {
		h.must(http.StatusOK, http.MethodPost, "/threads/"+id+"/history", h.aliceKey, `{"limit":10}`)
	}
}
