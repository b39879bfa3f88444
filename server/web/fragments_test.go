package web

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/ui"
)

// storedEvent is a run event as the worker stores it.
func storedEvent(t *testing.T, name string, v any) store.RunEvent {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return store.RunEvent{Event: name, Data: data}
}

func tokenEvent(t *testing.T, msgID, text string) store.RunEvent {
	return storedEvent(t, "messages", []any{map[string]string{"type": "AIMessageChunk", "id": msgID, "content": text}, map[string]any{}})
}

func uiEvent(t *testing.T, c nodes.UIComponent) store.RunEvent {
	return storedEvent(t, "custom", map[string]any{"type": "ui", "id": c.ID, "name": c.Name, "props": c.Props,
		"metadata": map[string]string{"message_id": c.MessageID}})
}

func props(t *testing.T, v any) json.RawMessage {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Each stored event becomes the fragment that shows it, given what the
// page already shows: the steps run in order on one view, as a stream's
// events do.
func TestLiveFragments(t *testing.T) {
	trip := nodes.UIComponent{ID: "trip-details-h1", Name: card.TripDetails, MessageID: "h1",
		Props: props(t, nodes.TripDetailsProps{TripDetails: nodes.TripDetails{Location: "Lisbon", Country: "Portugal",
			StartDate: "2026-05-01", EndDate: "2026-05-05", NumberOfGuests: 3}, Nights: 4})}
	stays := nodes.UIComponent{ID: "call_1", Name: card.Accommodations, MessageID: "a1",
		Props: props(t, nodes.AccommodationsListProps{Location: "Lisbon", Covered: true, StartDate: "2026-05-01", EndDate: "2026-05-05", Guests: 3,
			Accommodations: []nodes.Accommodation{{ID: "h1", Name: "Casa <Azul>", NightlyPrice: 90, Currency: "EUR"}}})}
	staysAgain := stays
	staysAgain.Props = props(t, nodes.AccommodationsListProps{Location: "Lisbon", Covered: true,
		Accommodations: []nodes.Accommodation{{ID: "h2", Name: "Casa Verde", NightlyPrice: 80, Currency: "EUR"}}})
	booking := nodes.UIComponent{ID: "book_1", Name: card.BookingConfirmation, MessageID: "a2",
		Props: props(t, nodes.BookingConfirmationProps{AccommodationID: "h1", Name: "Casa Azul", StartDate: "2026-05-01",
			EndDate: "2026-05-05", Nights: 4, Guests: 3, NightlyPrice: 90, Total: 360, Currency: "EUR", Key: "123.abc", Status: nodes.BookingPending})}
	three := 3
	steps := []struct {
		name    string
		event   store.RunEvent
		want    []string // in this order
		notWant []string
	}{
		{"the person's message on the page is not added again",
			storedEvent(t, "values", nodes.State{Messages: []nodes.Message{{ID: "h1", Type: nodes.Human, Content: "4 nights in Lisbon"}}}),
			nil, []string{"<"}},
		{"a component of a message on the page goes into it",
			uiEvent(t, trip),
			[]string{`hx-swap-oob="beforeend:#msg-h1"`, `id="ui-trip-details-h1"`, `class="component trip-details"`, "Lisbon, Portugal"},
			[]string{`hx-swap-oob="true"`}},
		{"a tool call's start replaces the status line, with the trip's place",
			storedEvent(t, "custom", map[string]any{"type": "mcp_calling", "server": "tripgraph", "tool": "list-accommodations", "card": card.Accommodations}),
			[]string{`id="` + ui.StatusDOMID(ui.LiveReply) + `"`, `hx-swap-oob="true"`, "Searching stays in Lisbon…"}, nil},
		{"a tool call's end says what came back",
			storedEvent(t, "custom", map[string]any{"type": "mcp_complete", "server": "tripgraph", "tool": "list-accommodations", "card": card.Accommodations, "items": three}),
			[]string{`hx-swap-oob="true"`, "Found 3 places to stay"}, nil},
		{"a component of a new message creates the message first, escaping data",
			uiEvent(t, stays),
			[]string{`hx-swap-oob="beforebegin:#live"`, `<article id="msg-a1" class="message ai">`, `id="msg-a1-body"`,
				`hx-swap-oob="beforeend:#msg-a1"`, `id="ui-call_1"`, "Casa &lt;Azul&gt;", `name="id" value="h1"`, `name="guests" value="3"`, `button type="submit" class="book"`},
			[]string{"Casa <Azul>"}},
		{"a token of that message is appended to its body, escaped",
			tokenEvent(t, "a1", "Here <are> "),
			[]string{`hx-swap-oob="beforeend:#msg-a1-body"`, "Here &lt;are&gt; "},
			[]string{"<article"}},
		{"an upsert replaces the component where it is",
			uiEvent(t, staysAgain),
			[]string{`id="ui-call_1"`, `hx-swap-oob="true"`, "Casa Verde"},
			[]string{"beforeend:", "Casa &lt;Azul&gt;"}},
		{"the state gives a streamed message its final text and adds an unannounced one",
			storedEvent(t, "values", nodes.State{Messages: []nodes.Message{{ID: "h1", Type: nodes.Human, Content: "4 nights"},
				{ID: "a1", Type: nodes.AI, Content: "Here are 2 <places>."}, {ID: "a0", Type: nodes.AI, Content: "Which city?"}}}),
			[]string{`<div id="msg-a1-body" class="body" hx-swap-oob="true">Here are 2 &lt;places&gt;.</div>`,
				`hx-swap-oob="beforebegin:#live"`, `<article id="msg-a0" class="message ai">`, "Which city?"},
			[]string{"msg-h1"}},
		{"tokens of a message shown whole are not appended",
			tokenEvent(t, "a1", "more"), nil, []string{"<"}},
		{"the booking interrupt shows the pending booking with Confirm and Cancel",
			storedEvent(t, "updates", map[string]any{"__interrupt__": []map[string]any{{"id": "i1", "value": booking}}}),
			[]string{`<article id="msg-a2"`, `hx-swap-oob="beforeend:#msg-a2"`, `id="ui-book_1"`, "booking-pending",
				`<form class="answer" method="post" action="/app/threads/t1/booking"`, `name="csrf_token" value="tok"`,
				`name="key" value="123.abc"`, `name="confirmed" value="true"`, `name="confirmed" value="false"`}, nil},
		{"a node's plain update shows nothing",
			storedEvent(t, "updates", map[string]any{"extraction": map[string]any{"intent": "trip"}}), nil, []string{"<"}},
		{"an error shows its code's next step, never its text",
			storedEvent(t, "error", map[string]string{"error": "INTERNAL", "message": "pq: relation does not exist"}),
			[]string{`hx-swap-oob="beforebegin:#live"`, `role="alert"`, `data-code="INTERNAL"`, "Send your message again"},
			[]string{"pq:", "relation"}},
	}
	cx := ui.WithActions(context.Background(), ui.Actions{BookingURL: "/app/threads/t1/booking", BookURL: "/app/threads/t1/book",
		TripURL: "/app/threads/t1/trip", CSRFToken: "tok"})
	v := newLiveView(cx, nodes.State{}, "h1")
	for _, s := range steps {
		got, err := v.fragment(s.event)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		rest := got
		for _, w := range s.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s: %q not found (in order) in\n%s", s.name, w, got)
				break
			}
			rest = rest[i+len(w):]
		}
		for _, nw := range s.notWant {
			if strings.Contains(got, nw) {
				t.Errorf("%s: %q found in\n%s", s.name, nw, got)
			}
		}
	}
}

// A page rendered from a checkpoint shows its messages, components and
// pending booking: the stream of the same run adds none of them again.
func TestLiveFragmentsSkipWhatThePageShows(t *testing.T) {
	comp := nodes.UIComponent{ID: "c1", Name: card.Restaurants, MessageID: "a1",
		Props: props(t, nodes.RestaurantsListProps{Location: "Lisbon", Covered: true})}
	shown := nodes.State{Messages: []nodes.Message{{ID: "h1", Type: nodes.Human, Content: "hi"}, {ID: "a1", Type: nodes.AI, Content: "Hello."}},
		UI: []nodes.UIComponent{comp}}
	cases := []struct {
		name  string
		event store.RunEvent
		want  string // "" for nothing
	}{
		{"token of a message shown", tokenEvent(t, "a1", "Hello"), ""},
		{"state whose messages are shown", storedEvent(t, "values", shown), ""},
		{"component shown is replaced, not added", uiEvent(t, comp), `id="ui-c1" class="component restaurants" hx-swap-oob="true"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := newLiveView(context.Background(), shown).fragment(c.event)
			if err != nil {
				t.Fatal(err)
			}
			if (c.want == "" && got != "") || !strings.Contains(got, c.want) {
				t.Fatalf("fragment %q, want %q", got, c.want)
			}
		})
	}
}

// The trip a stream shows retitles the thread in the thread list, unless
// its client titled it.
func TestLiveFragmentsRetitleTheThread(t *testing.T) {
	trip := nodes.UIComponent{ID: "trip-details-h1", Name: card.TripDetails, MessageID: "h1",
		Props: props(t, nodes.TripDetailsProps{TripDetails: nodes.TripDetails{Location: "Lisbon", Country: "Portugal",
			StartDate: "2026-05-01", EndDate: "2026-05-05", NumberOfGuests: 3}, Nights: 4})}
	cx := ui.WithLanguage(context.Background(), "pt")
	v := newLiveView(cx, nodes.State{}, "h1")
	v.thread = "t1"
	got, err := v.fragment(uiEvent(t, trip))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`<li id="thread-t1" hx-swap-oob="true"><a href="/app/threads/t1#latest" aria-current="page">Lisboa · 1–5 mai · 3 hóspedes</a></li>`, `id="ui-trip-details-h1"`} {
		if !strings.Contains(got, w) {
			t.Errorf("%q not in\n%s", w, got)
		}
	}
	titled := newLiveView(cx, nodes.State{}, "h1")
	if got, _ := titled.fragment(uiEvent(t, trip)); strings.Contains(got, "thread-") {
		t.Errorf("a thread its client titled is retitled:\n%s", got)
	}
}
