package server_test

import (
	"net/http"
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
