package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/server/api"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
)

func TestAssistants(t *testing.T) {
	h := apptest.New(t)
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
			h := h.With(t)
			var list []wire.Assistant
			h.Must(http.StatusOK, http.MethodPost, "/assistants/search", h.AliceKey, c.body).Decode(t, &list)
			if len(list) != c.want {
				t.Fatalf("%d assistants, want %d", len(list), c.want)
			}
			if c.want == 1 && (list[0].AssistantID != api.PlannerAssistantID || list[0].GraphID != "trip-planner") {
				t.Fatalf("assistant %+v", list[0])
			}
		})
	}
	h.Must(http.StatusUnprocessableEntity, http.MethodPost, "/assistants/search", h.AliceKey, `{"sort_by":"colour"}`)
	for _, id := range []string{api.PlannerAssistantID, "trip-planner"} {
		var a wire.Assistant
		h.Must(http.StatusOK, http.MethodGet, "/assistants/"+id, h.AliceKey, "").Decode(t, &a)
		if a.AssistantID != api.PlannerAssistantID {
			t.Errorf("GET /assistants/%s = %+v", id, a)
		}
	}
	h.Must(http.StatusNotFound, http.MethodGet, "/assistants/8f0c7d3e-0000-4000-8000-000000000000", h.AliceKey, "")
	h.Must(http.StatusNotFound, http.MethodGet, "/assistants/nobody/graph", h.AliceKey, "")

	var g wire.AssistantGraph
	h.Must(http.StatusOK, http.MethodGet, "/assistants/"+api.PlannerAssistantID+"/graph", h.AliceKey, "").Decode(t, &g)
	shape := h.Planner.Shape()
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

// A user's assistants: created, changed as new versions, made current
// again, searched with the built-in one, run (the run names it and its
// thread is stamped with it), and deleted with their threads; another
// user sees none of them. A missing one answers LangGraph's text.
func TestUserAssistants(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	var a wire.Assistant
	h.Must(http.StatusOK, http.MethodPost, "/assistants", h.AliceKey,
		`{"graph_id":"trip-planner","config":{"recursion_limit":30},"metadata":{"team":"x"},"description":"mine"}`).Decode(t, &a)
	if a.Name != "Untitled" || a.Version != 1 || *a.Description != "mine" {
		t.Fatalf("created %+v", a)
	}
	h.Must(http.StatusConflict, http.MethodPost, "/assistants", h.AliceKey, `{"graph_id":"trip-planner","assistant_id":"`+a.AssistantID+`"}`)
	h.Must(http.StatusOK, http.MethodPost, "/assistants", h.AliceKey, `{"graph_id":"trip-planner","assistant_id":"`+a.AssistantID+`","if_exists":"do_nothing"}`)
	if r := h.Must(http.StatusNotFound, http.MethodPost, "/assistants", h.AliceKey, `{"graph_id":"agent"}`); !strings.HasPrefix(string(r.Body), `Graph "agent" not found`) {
		t.Fatalf("an unknown graph: %s", r.Body)
	}
	h.Must(http.StatusUnprocessableEntity, http.MethodPost, "/assistants", h.AliceKey, `{"graph_id":"trip-planner","context":{"tone":"x"}}`)

	var b wire.Assistant
	h.Must(http.StatusOK, http.MethodPatch, "/assistants/"+a.AssistantID, h.AliceKey, `{"name":"woof","metadata":{"k":1}}`).Decode(t, &b)
	var meta map[string]any
	json.Unmarshal(b.Metadata, &meta)
	if b.Version != 2 || b.Name != "woof" || meta["k"] != float64(1) || meta["team"] != "x" {
		t.Fatalf("patched %+v, metadata %s", b, b.Metadata)
	}
	var versions []wire.AssistantVersion
	h.Must(http.StatusOK, http.MethodPost, "/assistants/"+a.AssistantID+"/versions", h.AliceKey, `{}`).Decode(t, &versions)
	if len(versions) != 2 || versions[0].Version != 2 {
		t.Fatalf("versions %+v", versions)
	}
	h.Must(http.StatusOK, http.MethodPost, "/assistants/"+a.AssistantID+"/latest", h.AliceKey, `{"version":1}`).Decode(t, &b)
	if b.Version != 1 || b.Name != "Untitled" {
		t.Fatalf("back to version 1: %+v", b)
	}
	for _, v := range []string{"3", "2147483648", "99999999999", "9223372036854775807"} { // no such version, past the integer column too
		if r := h.Must(http.StatusNotFound, http.MethodPost, "/assistants/"+a.AssistantID+"/latest", h.AliceKey, `{"version":`+v+`}`); string(r.Body) != "Assistant version not found" {
			t.Errorf("version %s: %q", v, r.Body)
		}
	}
	h.Must(http.StatusUnprocessableEntity, http.MethodPost, "/assistants/"+a.AssistantID+"/latest", h.AliceKey, `{"version":99999999999999999999}`)
	h.Must(http.StatusConflict, http.MethodPatch, "/assistants/trip-planner", h.AliceKey, `{}`)

	r := h.Must(http.StatusOK, http.MethodPost, "/assistants/search", h.AliceKey, `{"name":"TITLED","limit":1}`)
	var found []wire.Assistant
	r.Decode(t, &found)
	if len(found) != 1 || found[0].AssistantID != a.AssistantID || r.Header.Get("X-Pagination-Total") != "1" {
		t.Fatalf("search by a part of the name: %s (total %s)", r.Body, r.Header.Get("X-Pagination-Total"))
	}
	if r := h.Must(http.StatusOK, http.MethodPost, "/assistants/count", h.AliceKey, `{}`); string(r.Body) != "2\n" && string(r.Body) != "2" {
		t.Fatalf("count %q, want 2: the built-in and alice's", r.Body)
	}
	if r := h.Must(http.StatusNotFound, http.MethodGet, "/assistants/"+a.AssistantID, h.BobKey, ""); string(r.Body) != "Assistant not found" {
		t.Fatalf("another user's assistant: %q", r.Body)
	}

	tid := h.Thread(h.AliceKey, "")
	var run apptest.RunJSON
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs", h.AliceKey,
		`{"assistant_id":"`+a.AssistantID+`","input":{"messages":[{"role":"user","content":"hi"}]}}`).Decode(t, &run)
	if run.AssistantID != a.AssistantID {
		t.Fatalf("the run is of assistant %s, want %s", run.AssistantID, a.AssistantID)
	}
	var th struct{ Metadata map[string]string }
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid, h.AliceKey, "").Decode(t, &th)
	if th.Metadata["assistant_id"] != a.AssistantID || th.Metadata["graph_id"] != "trip-planner" {
		t.Fatalf("thread metadata after the run %v", th.Metadata)
	}
	h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/runs/"+run.RunID+"/join", h.AliceKey, "")
	if r := h.Must(http.StatusNotFound, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, `{"assistant_id":"nobody","input":{"messages":[{"role":"user","content":"hi"}]}}`); !strings.HasPrefix(string(r.Body), `No assistant found for "nobody"`) {
		t.Fatalf("a run of no assistant: %s", r.Body)
	}

	h.Must(http.StatusOK, http.MethodDelete, "/assistants/"+a.AssistantID+"?delete_threads=true", h.AliceKey, "")
	h.Must(http.StatusNotFound, http.MethodGet, "/assistants/"+a.AssistantID, h.AliceKey, "")
	if r := h.Must(http.StatusNotFound, http.MethodGet, "/threads/"+tid, h.AliceKey, ""); string(r.Body) != "Thread with ID "+tid+" not found" {
		t.Fatalf("a thread deleted with its assistant: %q", r.Body)
	}
}
