package server

import (
	"net/http"
	"testing"

	"github.com/tripgraph/tripgraph/server/api"
	"github.com/tripgraph/tripgraph/server/internal/wire"
)

func TestAssistants(t *testing.T) {
	h := newHarness(t, testLimits())
	search := []struct {
		name, body string
		want       int
	}{
		{"all", ``, 1},
		{"by graph", `{"graph_id":"trip-planner","limit":10,"offset":0}`, 1},
		{"other graph", `{"graph_id":"agent"}`, 0},
		{"by metadata", `{"metadata":{"created_by":"system"}}`, 1},
		{"other metadata", `{"metadata":{"created_by":"someone"}}`, 0},
		{"past the end", `{"offset":1}`, 0},
	}
	for _, c := range search {
		t.Run("search "+c.name, func(t *testing.T) {
			h := h.with(t)
			var list []wire.Assistant
			h.must(http.StatusOK, http.MethodPost, "/assistants/search", h.aliceKey, c.body).decode(t, &list)
			if len(list) != c.want {
				t.Fatalf("%d assistants, want %d", len(list), c.want)
			}
			if c.want == 1 && (list[0].AssistantID != api.PlannerAssistantID || list[0].GraphID != "trip-planner") {
				t.Fatalf("assistant %+v", list[0])
			}
		})
	}
	h.must(http.StatusUnprocessableEntity, http.MethodPost, "/assistants/search", h.aliceKey, `{"sort_by":"colour"}`)
	for _, id := range []string{api.PlannerAssistantID, "trip-planner"} {
		var a wire.Assistant
		h.must(http.StatusOK, http.MethodGet, "/assistants/"+id, h.aliceKey, "").decode(t, &a)
		if a.AssistantID != api.PlannerAssistantID {
			t.Errorf("GET /assistants/%s = %+v", id, a)
		}
	}
	h.must(http.StatusNotFound, http.MethodGet, "/assistants/8f0c7d3e-0000-4000-8000-000000000000", h.aliceKey, "")
	h.must(http.StatusNotFound, http.MethodGet, "/assistants/nobody/graph", h.aliceKey, "")

	var g wire.AssistantGraph
	h.must(http.StatusOK, http.MethodGet, "/assistants/"+api.PlannerAssistantID+"/graph", h.aliceKey, "").decode(t, &g)
	shape := h.planner.Shape()
	if len(g.Nodes) != len(shape.Nodes)+2 || len(g.Edges) != len(shape.Edges) {
		t.Fatalf("graph %+v, want the planner's %d nodes with start and end, and its %d edges", g, len(shape.Nodes), len(shape.Edges))
	}
	want := map[wire.GraphEdge]bool{
		{Source: "__start__", Target: "extraction", Conditional: true}: true,
		{Source: "classify", Target: "callTools", Conditional: true}:   true,
		{Source: "callTools", Target: "__end__"}:                       true,
	}
	for _, e := range g.Edges {
		delete(want, e)
	}
	if len(want) > 0 {
		t.Fatalf("edges %+v lack %v", g.Edges, want)
	}
}

// The assistant's id never changes: clients keep it.
func TestAssistantIDIsStable(t *testing.T) {
	if api.PlannerAssistantID != "a6fba709-f008-5742-9bf7-2e668095f295" {
		t.Fatalf("the trip planner's assistant id changed to %q", api.PlannerAssistantID)
	}
}
