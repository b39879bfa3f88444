package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// LangGraph's generative UI asks /ui/{assistant} for a component's code:
// the answer loads tripgraph's stylesheet and script into the SDK's shadow
// root, and the script asks for the component's HTML, rendered by the
// pages' own templates, in the page's language.
func TestGenerativeUI(t *testing.T) {
	h := newHarness(t, testLimits())
	r := h.must(http.StatusOK, http.MethodPost, "/ui/trip-planner", h.aliceKey, `{"name":"trip-details"}`)
	body := string(r.body)
	if !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") || strings.Count(body, "{{shadowRootId}}") != 1 ||
		!strings.Contains(body, `/static/langgraph-ui.js" onload="__tripgraph_ui.render(&#34;trip-details&#34;, '{{shadowRootId}}')"`) ||
		!strings.Contains(body, `/static/app.css`) {
		t.Fatalf("the component's code: %s %s", r.header.Get("Content-Type"), body)
	}
	h.must(http.StatusNotFound, http.MethodPost, "/ui/trip-planner", h.aliceKey, `{"name":"chart"}`)
	h.must(http.StatusUnauthorized, http.MethodPost, "/ui/trip-planner", "", `{"name":"trip-details"}`)
	h.must(http.StatusOK, http.MethodGet, "/static/langgraph-ui.js", "", "")

	props := `{"tripDetails":{"location":"Lisbon","country":"Portugal","startDate":"2027-05-01","endDate":"2027-05-05","numberOfGuests":3},"nights":4}`
	var out struct{ HTML string }
	for lang, words := range map[string][2]string{"en-GB": {"Lisbon", "Nights"}, "pt-BR": {"Lisboa", "Noites"}} {
		h.must(http.StatusOK, http.MethodPost, "/ui/trip-planner/render", h.aliceKey,
			`{"name":"trip-details","lang":"`+lang+`","props":`+props+`}`).decode(t, &out)
		if !strings.Contains(out.HTML, words[0]) || !strings.Contains(out.HTML, words[1]) {
			t.Errorf("trip-details in %s: %s", lang, out.HTML)
		}
	}
	raw, _ := json.Marshal(map[string]any{"name": "trip-details", "props": json.RawMessage(`{"tripDetails":{"location":"<script>alert(1)</script>"}}`)})
	h.must(http.StatusOK, http.MethodPost, "/ui/trip-planner/render", h.aliceKey, string(raw)).decode(t, &out)
	if strings.Contains(out.HTML, "<script>") {
		t.Fatalf("props were not escaped: %s", out.HTML)
	}
}
