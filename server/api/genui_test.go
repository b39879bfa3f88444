package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/nodes"
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
	// The cards' forms are there for the script, which sends them through
	// the page's stream: no URL, no CSRF field, what each does named.
	stays := `{"location":"Lisbon","covered":true,"startDate":"2027-05-01","endDate":"2027-05-05","guests":3,` +
		`"accommodations":[{"id":"h1","name":"Casa Azul","nightlyPrice":90,"currency":"EUR"}]}`
	h.Must(http.StatusOK, http.MethodPost, "/ui/trip-planner/render", h.AliceKey,
		`{"name":"accommodations-list","lang":"en","props":`+stays+`}`).Decode(t, &out)
	if !strings.Contains(out.HTML, `<form class="book" data-action="book">`) || !strings.Contains(out.HTML, `name="id" value="h1"`) ||
		strings.Contains(out.HTML, "csrf_token") {
		t.Errorf("the stays' Book button: %s", out.HTML)
	}
	h.Must(http.StatusOK, http.MethodPost, "/ui/trip-planner/render", h.AliceKey,
		`{"name":"trip-details","lang":"en","props":`+props+`}`).Decode(t, &out)
	if !strings.Contains(out.HTML, `<form class="trip-edit" data-action="trip"`) {
		t.Errorf("the trip's edit: %s", out.HTML)
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

// A booking asked for from a card (a bookingRequest input) pauses on its
// confirmation, a human-in-the-loop request; useStream answers it from the
// checkpoint its branch is at (Agent Chat UI's Approve sends
// {"decisions":[{"type":"approve"}]} with checkpoint_id), and that books,
// as the same answer without a checkpoint does; a rejection does not.
func TestBookingAnsweredFromACheckpoint(t *testing.T) {
	for _, tt := range []struct {
		name, decision, status string
	}{{"approved", "approve", "booked"}, {"rejected", "reject", "declined"}} {
		t.Run(tt.name, func(t *testing.T) {
			h := apptest.New(t, apptest.WithTools(bookable), apptest.Started())
			tid := h.Thread(h.AliceKey, "")
			var trip struct {
				TripDetails struct {
					StartDate, EndDate string
					NumberOfGuests     int
				}
				UI []struct {
					Name  string
					Props struct{ Accommodations []struct{ ID string } }
				}
			}
			h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, apptest.RunBody(plannertest.Lisbon)).Decode(t, &trip)
			stay := ""
			for _, c := range trip.UI {
				if c.Name == card.Accommodations && len(c.Props.Accommodations) > 0 {
					stay = c.Props.Accommodations[0].ID
				}
			}
			if stay == "" {
				t.Fatalf("no stays to book: %+v", trip)
			}
			td := trip.TripDetails
			ask, _ := json.Marshal(map[string]any{"assistant_id": "trip-planner", "input": map[string]any{"bookingRequest": map[string]any{
				"id": stay, "startDate": td.StartDate, "endDate": td.EndDate, "guests": td.NumberOfGuests}}})
			h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, string(ask))
			var state struct {
				Checkpoint struct {
					CheckpointID string `json:"checkpoint_id"`
				}
				Tasks []struct {
					Interrupts []struct {
						Value struct {
							ActionRequests []struct{ Name string } `json:"action_requests"`
						}
					}
				}
			}
			h.Must(http.StatusOK, http.MethodGet, "/threads/"+tid+"/state", h.AliceKey, "").Decode(t, &state)
			if len(state.Tasks) != 1 || len(state.Tasks[0].Interrupts) != 1 || len(state.Tasks[0].Interrupts[0].Value.ActionRequests) != 1 {
				t.Fatalf("the booking's human-in-the-loop request: %+v", state)
			}
			var after struct {
				UI []struct {
					Name  string
					Props struct{ Status string }
				}
			}
			h.Must(http.StatusOK, http.MethodPost, "/threads/"+tid+"/runs/wait", h.AliceKey, `{"assistant_id":"trip-planner","checkpoint_id":"`+
				state.Checkpoint.CheckpointID+`","command":{"resume":{"decisions":[{"type":"`+tt.decision+`"}]}}}`).Decode(t, &after)
			last := after.UI[len(after.UI)-1]
			if last.Name != card.BookingConfirmation || last.Props.Status != tt.status {
				t.Fatalf("after %s from the checkpoint: %+v", tt.decision, after.UI)
			}
		})
	}
}

// bookable are the tools of a stay that can be booked: the gate's list,
// the stay looked up again, and its booking.
func bookable(u mcpbridge.User) nodes.Tools {
	stay := map[string]any{"id": "h1", "name": "Casa Azul", "city": "Lisbon", "nightlyPrice": 90, "currency": "EUR", "capacity": 4}
	return append((&plannertest.Gate{}).Tools(u).(nodes.FuncTools),
		nodes.FuncTool{Tool: nodes.Tool{Name: "get-accommodation", Card: card.Accommodations},
			Run: func(context.Context, json.RawMessage) (any, error) { return stay, nil }},
		nodes.FuncTool{Tool: nodes.Tool{Name: "book-accommodation", Card: card.BookingConfirmation},
			Run: func(context.Context, json.RawMessage) (any, error) {
				return map[string]any{"booking": map[string]any{"id": "b1", "reference": "K7QM-4X2D", "totalPrice": 360}}, nil
			}})
}
