package memory_test

import (
	"testing"

	"github.com/tripgraph/tripgraph/mcpserver/backendtest"
	"github.com/tripgraph/tripgraph/mcpserver/memory"
)

// BenchmarkTools calls tools through an MCP client session on the memory
// backend holding the suite's catalog and one user's demo albums.
func BenchmarkTools(b *testing.B) {
	const user = "11111111-1111-4111-8111-111111111111"
	cs := backendtest.Connect(b, backendtest.Config(memory.NewDemo(backendtest.Cities(), user), user))
	for _, bc := range []struct {
		name, tool string
		args       map[string]any
	}{
		{"list-accommodations", "list-accommodations", map[string]any{"location": "Lisboa", "startDate": "2030-07-01", "endDate": "2030-07-04", "guests": 2}},
		{"list-restaurants", "list-restaurants", map[string]any{"location": "Tokyo", "cuisine": "japonesa"}},
		{"searchPhotosAcrossAlbums", "searchPhotosAcrossAlbums", map[string]any{"query": "aniversario da vivi"}},
		{"getAlbumByName", "getAlbumByName", map[string]any{"name": "Lisbon"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if r := backendtest.Call(b, cs, bc.tool, bc.args); r.Code != "" {
					b.Fatal(r.Code, r.Message)
				}
			}
		})
	}
}
