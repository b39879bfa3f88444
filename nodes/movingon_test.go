package nodes

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/model/offline"
)

// The conversation never gets stuck: new input abandons a booking
// confirmation that waits, a message that is not a follow-up is not
// answered by repeating the last search, and a stay booked already is
// warned about and refused in plain words.

func TestReduceSetsAStandingRequestAside(t *testing.T) {
	r := BookingRequest{AccommodationID: "h1", StartDate: "2027-05-03", EndDate: "2027-05-07", Guests: 3, After: "a1"}
	r2 := BookingRequest{AccommodationID: "h2", StartDate: "2027-05-03", EndDate: "2027-05-07", Guests: 3}
	standing := State{Messages: []Message{{ID: "h0", Type: Human}, {ID: "a1", Type: AI}}, BookingRequest: &r}
	tests := []struct {
		name        string
		update      Update
		wantRequest *BookingRequest
		wantAside   []BookingRequest
	}{
		{"a person's message sets it aside", Update{Messages: []Message{{ID: "h2", Type: Human}}}, nil, []BookingRequest{r}},
		{"another request sets it aside, and is stamped", Update{BookingRequest: &r2},
			&BookingRequest{AccommodationID: "h2", StartDate: "2027-05-03", EndDate: "2027-05-07", Guests: 3, After: "a1"}, []BookingRequest{r}},
		{"a node's reply keeps it", Update{Messages: []Message{{ID: "a2", Type: AI}}}, &r, nil},
		{"its own answer clears it", Update{Messages: []Message{{ID: "a2", Type: AI}}, ClearBookingRequest: true}, nil, nil},
		{"an update without input keeps it", Update{Timestamp: 5}, &r, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Reduce(standing, tt.update)
			if !equalRequest(got.BookingRequest, tt.wantRequest) || !slices.Equal(got.SetAside, tt.wantAside) {
				t.Fatalf("request %+v, set aside %+v; want %+v, %+v", got.BookingRequest, got.SetAside, tt.wantRequest, tt.wantAside)
			}
			if standing.BookingRequest.After != "a1" || standing.SetAside != nil {
				t.Fatal("Reduce wrote into the state it was given")
			}
		})
	}
	shown := Reduce(State{SetAside: []BookingRequest{r}}, Update{ClearSetAside: true})
	if shown.SetAside != nil {
		t.Fatalf("ClearSetAside left %+v", shown.SetAside)
	}
}

func equalRequest(a, b *BookingRequest) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// searchAndBookTools are the search tools of testTools with the booking
// tools of bookingTools.
func searchAndBookTools(record *[]string, booked *[]json.RawMessage) FuncTools {
	return slices.Concat(testTools(record), bookingTools(booked))
}

// pendingBooking plans Lisbon on the thread and presses Book on Casa Azul
// (h1): the run pauses for the confirmation, whose card it returns.
func pendingBooking(t *testing.T, g *Graph, thread string) UIComponent {
	t.Helper()
	runTurn(t, g, thread, "4 nights in Lisbon from May 3, 3 of us")
	ev, _ := bookingRun(t, g, graph.RunConfig[Update]{ThreadID: thread, Input: Update{
		BookingRequest: &BookingRequest{AccommodationID: "h1", StartDate: "2027-05-03", EndDate: "2027-05-07", Guests: 3}}})
	if ev.Kind != graph.Interrupted {
		t.Fatalf("pressing Book ended the run with %v, want a pause for the confirmation", ev.Kind)
	}
	var ask UIComponent
	json.Unmarshal(ev.Interrupt.Payload, &ask)
	return ask
}

// bookingCard is the state's booking-confirmation card with this id.
func bookingCard(t *testing.T, s State, id string) (UIComponent, BookingConfirmationProps) {
	t.Helper()
	var found []UIComponent
	for _, c := range s.UI {
		if c.Name == card.BookingConfirmation && c.ID == id {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		t.Fatalf("the state has %d booking cards %s, want one", len(found), id)
	}
	var p BookingConfirmationProps
	if err := json.Unmarshal(found[0].Props, &p); err != nil {
		t.Fatal(err)
	}
	return found[0], p
}

// A message sent while a booking confirmation waits is answered like any
// other, and the confirmation's card says it was set aside, in its place.
func TestNewMessageSetsAWaitingBookingAside(t *testing.T) {
	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"location":"Lisbon","startDate":"2027-05-03","nights":4,"numberOfGuests":3,"intent":"accommodations","language":"en"}`),
		calls("list-accommodations", `{"location":"Lisbon","startDate":"2027-05-03","endDate":"2027-05-07","guests":3}`),
		text("Here are places to stay."),
		// (pressing Book asks no model)
		calls("classify", `{"isRelevant":true}`),
		calls("list-restaurants", `{"location":"Lisbon"}`),
		text("Here are restaurants."),
	}}
	var record []string
	var booked []json.RawMessage
	g := newPlanner(t, m, searchAndBookTools(&record, &booked))
	thread := uuid.NewString()
	ask := pendingBooking(t, g, thread)

	r := runTurn(t, g, thread, "what about restaurants?")
	if r.state.Messages == nil || lastAI(r.state) != "Here are restaurants." {
		t.Fatalf("the message was not answered: the conversation ends %q (nodes %v)", lastAI(r.state), r.nodes)
	}
	if len(booked) != 0 || r.state.BookingRequest != nil || r.state.SetAside != nil {
		t.Fatalf("after the message: %d bookings, request %+v, set aside %+v", len(booked), r.state.BookingRequest, r.state.SetAside)
	}
	c, p := bookingCard(t, r.state, ask.ID)
	if p.Status != BookingSetAside || p.Name != "Casa Azul" || p.Key != "" || c.MessageID != ask.MessageID {
		t.Fatalf("the waiting card became %s %+v, want it set aside in its place (message %s)", c.MessageID, p, ask.MessageID)
	}
	if !slices.Contains(r.ui, card.BookingConfirmation) || !slices.Contains(r.ui, card.Restaurants) {
		t.Fatalf("the turn streamed %v, want the set-aside card and the answer's", r.ui)
	}
	_, cp, err := g.GetState(context.Background(), thread, "")
	if err != nil || len(cp.Interrupts) != 0 {
		t.Fatalf("the thread still waits on %+v (%v)", cp.Interrupts, err)
	}
	if ask.MessageID == "" {
		t.Fatalf("the confirmation is shown with no message: %+v", ask)
	}
}

// Pressing Book on another stay while one waits sets the first aside and
// asks about the second.
func TestAnotherBookingSetsTheWaitingOneAside(t *testing.T) {
	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"location":"Lisbon","startDate":"2027-05-03","nights":4,"numberOfGuests":3,"intent":"accommodations","language":"en"}`),
		calls("list-accommodations", `{"location":"Lisbon","startDate":"2027-05-03","endDate":"2027-05-07","guests":3}`),
		text("Here are places to stay."),
	}}
	var record []string
	var booked []json.RawMessage
	g := newPlanner(t, m, searchAndBookTools(&record, &booked))
	thread := uuid.NewString()
	first := pendingBooking(t, g, thread)
	ev, _ := bookingRun(t, g, graph.RunConfig[Update]{ThreadID: thread, Input: Update{
		BookingRequest: &BookingRequest{AccommodationID: "h1", StartDate: "2027-05-10", EndDate: "2027-05-12", Guests: 2}}})
	if ev.Kind != graph.Interrupted {
		t.Fatalf("the second Book ended the run with %v, want a pause", ev.Kind)
	}
	var second UIComponent
	json.Unmarshal(ev.Interrupt.Payload, &second)
	if second.ID == first.ID {
		t.Fatal("the second booking reuses the first one's card")
	}
	var summary BookingConfirmationProps
	json.Unmarshal(second.Props, &summary)
	ev, s := bookingRun(t, g, graph.RunConfig[Update]{ThreadID: thread,
		Command: &graph.Command[Update]{Resume: BookingAnswer{Confirmed: true, Key: summary.Key}}})
	if ev.Kind != graph.RunFinished || len(booked) != 1 || !strings.Contains(string(booked[0]), `"startDate":"2027-05-10"`) {
		t.Fatalf("confirming the second ended with %v after bookings %s", ev.Kind, booked)
	}
	if _, p := bookingCard(t, s, first.ID); p.Status != BookingSetAside {
		t.Fatalf("the first booking is %q, want set aside", p.Status)
	}
	if _, p := bookingCard(t, s, second.ID); p.Status != BookingBooked {
		t.Fatalf("the second booking is %q, want booked", p.Status)
	}
}

// On the offline model, as a traveller types: a question while the
// confirmation waits is answered, and after a Cancel a change of plan
// plans the new trip, never the old one again.
func TestOfflineConversationMovesOnFromABooking(t *testing.T) {
	m, err := offline.New(offline.WithClock(fixedNow))
	if err != nil {
		t.Fatal(err)
	}
	var record []string
	var booked []json.RawMessage
	g := newPlanner(t, m, searchAndBookTools(&record, &booked))

	for _, cancelFirst := range []bool{false, true} {
		thread := uuid.NewString()
		ask := pendingBooking(t, g, thread)
		if cancelFirst {
			var summary BookingConfirmationProps
			json.Unmarshal(ask.Props, &summary)
			bookingRun(t, g, graph.RunConfig[Update]{ThreadID: thread,
				Command: &graph.Command[Update]{Resume: BookingAnswer{Confirmed: false, Key: summary.Key}}})
		}
		record = nil
		r := runTurn(t, g, thread, "make it 5 of us and Porto instead")
		td := r.state.TripDetails
		if td == nil || td.Location != "Porto" || td.NumberOfGuests != 5 {
			t.Fatalf("cancel first %v: the trip is %+v, want Porto for 5", cancelFirst, td)
		}
		if len(record) == 0 || slices.ContainsFunc(record, func(c string) bool { return strings.Contains(c, "Lisbon") }) {
			t.Fatalf("cancel first %v: tools called %v, want Porto searched and never Lisbon", cancelFirst, record)
		}
		want := BookingSetAside
		if cancelFirst {
			want = BookingDeclined
		}
		if _, p := bookingCard(t, r.state, ask.ID); p.Status != want {
			t.Fatalf("cancel first %v: the booking card is %q, want %q", cancelFirst, p.Status, want)
		}
	}
}

// A message that is not a follow-up of the last search is not answered
// by repeating it: no tool is called again, no card is added, and the
// reply is not the search's summary. A real change searches again.
func TestNotAFollowUpDoesNotRepeatTheSearch(t *testing.T) {
	m, err := offline.New(offline.WithClock(fixedNow))
	if err != nil {
		t.Fatal(err)
	}
	var record []string
	g := newPlanner(t, m, testTools(&record))
	thread := uuid.NewString()
	first := runTurn(t, g, thread, "4 nights in Lisbon in May, 3 of us")
	summary := lastAI(first.state)
	for _, msg := range []string{"🙂", "<script>alert(1)</script>", "how do I get from the airport?", "thanks!", "???"} {
		record = nil
		r := runTurn(t, g, thread, msg)
		if len(record) != 0 || len(r.ui) != 0 || len(r.state.UI) != len(first.state.UI) || lastAI(r.state) == summary {
			t.Errorf("%q: tools %v, cards %v, reply %q: the search was repeated", msg, record, r.ui, lastAI(r.state))
		}
	}
	record = nil
	runTurn(t, g, thread, "and in Porto?")
	if len(record) == 0 || !strings.Contains(record[0], "Porto") {
		t.Fatalf("a change of city called %v, want a search of Porto", record)
	}
}

// The rule itself: a call repeats the tool's latest card with the same
// arguments, in any key order, and nothing else.
func TestRepeats(t *testing.T) {
	shown := func(id, msg, name, tool, args string, failed bool) UIComponent {
		p := ToolProps{Tool: tool, Args: json.RawMessage(args)}
		if failed {
			p.Error = &ToolError{Code: "UNAVAILABLE"}
		}
		return UIComponent{ID: id, Name: name, MessageID: msg, Props: mustJSON(p)}
	}
	lisbon, porto := `{"guests":3,"location":"Lisbon"}`, `{"guests":3,"location":"Porto"}`
	s := State{UI: []UIComponent{
		shown("1", "a1", card.Accommodations, "list-accommodations", lisbon, false),
		shown("2", "a2", card.Accommodations, "list-accommodations", porto, false),
		shown("3", "a2", card.Restaurants, "list-restaurants", porto, true),
	}}
	tests := []struct {
		name, tool, args string
		want             bool
	}{
		{"the latest card, keys in another order", "list-accommodations", `{"location":"Porto", "guests":3}`, true},
		{"an older card is not the latest", "list-accommodations", lisbon, false},
		{"other arguments", "list-accommodations", `{"guests":4,"location":"Porto"}`, false},
		{"a failed call", "list-restaurants", porto, false},
		{"a tool never called", "searchPhotosAcrossAlbums", `{}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, got := repeats(s, tt.tool, json.RawMessage(tt.args)); got != tt.want {
				t.Fatalf("repeats = %v, want %v", got, tt.want)
			}
		})
	}
}

// Booking a stay this conversation booked already warns before the
// confirmation, and the catalog's refusal says so in plain words.
func TestSameStayTwiceWarnsAndFailsPlainly(t *testing.T) {
	var booked []json.RawMessage
	taken := map[string]bool{} // stays booked, by id and dates
	tools := FuncTools{
		{Tool: Tool{Name: toolGetAccommodation}, Run: func(_ context.Context, raw json.RawMessage) (any, error) {
			var a map[string]string
			json.Unmarshal(raw, &a)
			out := map[string]any{"id": a["id"], "name": "Casa Azul", "city": "Lisbon", "kind": "apartment", "nightlyPrice": 87.45, "currency": "EUR", "availability": "free"}
			if taken[a["id"]+a["startDate"]] || a["id"] == "h-taken" {
				out["availability"] = "booked"
			}
			return out, nil
		}},
		{Tool: Tool{Name: toolBook}, Run: func(_ context.Context, raw json.RawMessage) (any, error) {
			var a map[string]any
			json.Unmarshal(raw, &a)
			key := a["id"].(string) + a["startDate"].(string)
			if taken[key] || a["id"] == "h-taken" {
				return nil, errcode.New(errcode.Conflict, "accommodation 3f1c9a2e-0000-4000-8000-000000000001 is already booked for some of the nights")
			}
			taken[key] = true
			booked = append(booked, raw)
			return map[string]any{"booking": map[string]any{"id": "0193a6f0-1c2d-7e3f-8a4b-5c6d7e8f9a0b", "reference": "K7QM-4X2D"}}, nil
		}},
	}
	g := newPlanner(t, &scripted{}, tools)
	thread := uuid.NewString()
	ask := func(id, start, end string) BookingConfirmationProps {
		t.Helper()
		ev, _ := bookingRun(t, g, graph.RunConfig[Update]{ThreadID: thread, Input: Update{
			Messages:       []Message{{ID: uuid.NewString(), Type: Human, Content: "book it"}},
			BookingRequest: &BookingRequest{AccommodationID: id, StartDate: start, EndDate: end, Guests: 2}}})
		if ev.Kind != graph.Interrupted {
			t.Fatalf("Book ended the run with %v", ev.Kind)
		}
		var c UIComponent
		json.Unmarshal(ev.Interrupt.Payload, &c)
		var p BookingConfirmationProps
		json.Unmarshal(c.Props, &p)
		return p
	}
	confirm := func(p BookingConfirmationProps) State {
		t.Helper()
		_, s := bookingRun(t, g, graph.RunConfig[Update]{ThreadID: thread,
			Command: &graph.Command[Update]{Resume: BookingAnswer{Confirmed: true, Key: p.Key}}})
		return s
	}

	first := ask("h1", "2027-05-03", "2027-05-07")
	if first.Warning != "" || first.Kind != "apartment" {
		t.Fatalf("a first booking warns %q (kind %q)", first.Warning, first.Kind)
	}
	s := confirm(first)
	if _, p := bookingCard(t, s, s.UI[len(s.UI)-1].ID); p.Status != BookingBooked || p.Reference != "K7QM-4X2D" {
		t.Fatalf("the first booking is %q with reference %q", p.Status, p.Reference)
	}

	again := ask("h1", "2027-05-03", "2027-05-07")
	if again.Warning != WarnBookedHere || again.Previous == nil || again.Previous.Reference != "K7QM-4X2D" || again.Previous.StartDate != "2027-05-03" {
		t.Fatalf("booking the same stay again warns %q about %+v, want %q about K7QM-4X2D", again.Warning, again.Previous, WarnBookedHere)
	}
	s = confirm(again)
	last := s.UI[len(s.UI)-1]
	_, p := bookingCard(t, s, last.ID)
	reply := lastAI(s)
	if p.Status != BookingUnavailable || p.Error != nil || len(booked) != 1 {
		t.Fatalf("confirming it anyway: %q, error %+v, %d bookings; want unavailable, no error text", p.Status, p.Error, len(booked))
	}
	if !strings.Contains(reply, "already booked") || strings.Contains(reply, "3f1c9a2e") || strings.Contains(reply, "minute") {
		t.Fatalf("the reply says %q", reply)
	}

	if later := ask("h1", "2027-06-03", "2027-06-05"); later.Warning != WarnBookedBefore || later.Previous == nil {
		t.Fatalf("the same place on other nights warns %q about %+v, want %q", later.Warning, later.Previous, WarnBookedBefore)
	}
	if other := ask("h-taken", "2027-05-03", "2027-05-07"); other.Warning != WarnTaken || other.Previous != nil {
		t.Fatalf("a stay someone else booked warns %q (%+v), want %q", other.Warning, other.Previous, WarnTaken)
	}
}

// cardCall reads a card's tool, arguments and error as a whole decode
// would, without decoding its results.
func TestCardCallReadsWhatADecodeReads(t *testing.T) {
	for _, props := range []string{
		`{"toolCallId":"c1","tool":"list-accommodations","args":{"guests":3,"location":"Porto"},"accommodations":[{"id":"a"}]}`,
		`{"tool":"list-restaurants","args":{"location":"Porto"},"error":{"code":"UNAVAILABLE","message":"down"}}`,
		`{"tool":"list-restaurants","args":null,"error":null}`,
		`{"tool": "list-accommodations", "args": {"location": "Lisbon"}}`,
		`{"tool":"x\u0079z"}`,
		`{"tool":7}`,
		`not json`,
	} {
		var want ToolProps
		wantOK := json.Unmarshal([]byte(props), &want) == nil
		got, ok := cardCall(json.RawMessage(props))
		if ok != wantOK || (ok && (got.Tool != want.Tool || !bytes.Equal(got.Args, want.Args) || !reflect.DeepEqual(got.Error, want.Error))) {
			t.Errorf("%s: read %+v (%v), a decode reads %+v (%v)", props, got, ok, want, wantOK)
		}
	}
}
