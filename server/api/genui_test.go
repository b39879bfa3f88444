package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/testing/apptest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
)

// LangGraph's generative UI asks /ui/{assistant} for a component's code:
// the answer loads tripgraph's stylesheet and script into the SDK's shadow
// root, and the script asks for the component's HTML, rendered by the
// pages' own templates, in the page's language.
func TestGenerativeUI(t *testing.T) {
	h := apptest.New(t)
	r := h.Must(http.StatusOK, http.MethodPost, "/ui/trip-planner", h.AliceKey, `{"name":"trip-details"}`)
	body := string(r.Body)
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") || strings.Count(body, "{{shadowRootId}}") != 1 ||
		!strings.Contains(body, `/static/langgraph-ui.js" onload="__tripgraph_ui.render(&#34;trip-details&#34;, '{{shadowRootId}}')"`) ||
		!strings.Contains(body, `/static/app.css`) {
		t.Fatalf("the component's code: %s %s", r.Header.Get("Content-Type"), body)
	}
	h.Must(http.StatusNotFound, http.MethodPost, "/ui/trip-planner", h.AliceKey, `{"name":"chart"}`)
	h.Must(http.StatusUnauthorized, http.MethodPost, "/ui/trip-planner", "", `{"name":"trip-details"}`)
	h.Must(http.StatusOK, http.MethodGet, "/static/langgraph-ui.js", "", "")

	props := `{"tripDetails":{"location":"Lisbon","country":"Portugal","startDate":"2027-05-01","endDate":"2027-05-05","numberOfGuests":3},"nights":4}`
	var out struct{ HTML string }
	for lang, words := range map[string][2]string{"en-GB": {"Lisbon", "Nights"}, "pt-BR": {"Lisboa", "Noites"}} {
		h.Must(http.StatusOK, http.MethodPost, "/ui/trip-planner/render", h.AliceKey,
			`{"name":"trip-details","lang":"`+lang+`","props":`+props+`}`).Decode(t, &out)
		if !strings.Contains(out.HTML, words[0]) || !strings.Contains(out.HTML, words[1]) {
			t.Errorf("trip-details in %s: %s", lang, out.HTML)
		}
	}
	raw, _ := json.Marshal(map[string]any{"name": "trip-details", "props": json.RawMessage(`{"tripDetails":{"location":"<script>alert(1)</script>"}}`)})
	h.Must(http.StatusOK, http.MethodPost, "/ui/trip-planner/render", h.AliceKey, string(raw)).Decode(t, &out)
	if strings.Contains(out.HTML, "<script>") {
		t.Fatalf("props were not escaped: %s", out.HTML)
	}
}

// The trip the planner understood is attached to the traveller's message
// in its state; LangGraph's clients get it on the reply to that message,
// where Agent Chat UI shows a message's components (under AI messages
// only), above the places to stay.
func TestTripDetailsOnTheReply(t *testing.T) {
	h := runHarness(t, &plannertest.Gate{})
	tid := h.Thread(h.AliceKey, "")
	var state struct {
		Messages []struct{ ID, Type string }
		UI       []struct {
			Name     string
			Metadata struct {
				MessageID string `json:"message_id"`
			}
		}
	}
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, apptest.RunBody(plannertest.Lisbon)).Decode(t, &state)
	if len(state.Messages) != 2 || state.Messages[1].Type != "ai" || len(state.UI) < 2 {
		t.Fatalf("the state after a trip: %+v", state)
	}
	reply := state.Messages[1].ID
	if state.UI[0].Name != card.TripDetails || state.UI[0].Metadata.MessageID != reply || state.UI[1].Metadata.MessageID != reply {
		t.Fatalf("the components are not on the reply %s: %+v", reply, state.UI)
	}
}
