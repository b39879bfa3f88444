package nodes

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
)

const bookCall = `{"id":"h1","startDate":"2027-05-03","endDate":"2027-05-07","guests":3,"idempotencyKey":"from-the-model"}`

// bookingTools answer get-accommodation and record book-accommodation.
func bookingTools(booked *[]json.RawMessage) FuncTools {
	return FuncTools{
		{Tool: Tool{Name: toolGetAccommodation, Card: card.Accommodations}, Run: func(_ context.Context, args json.RawMessage) (any, error) {
			if !strings.Contains(string(args), `"h1"`) {
				return nil, errcode.New(errcode.NotFound, "no such accommodation")
			}
			return map[string]any{"id": "h1", "name": "Casa Azul", "city": "Lisbon", "nightlyPrice": 87.45, "currency": "EUR", "capacity": 4}, nil
		}},
		{Tool: Tool{Name: toolBook, Card: card.BookingConfirmation}, Run: func(_ context.Context, args json.RawMessage) (any, error) {
			*booked = append(*booked, args)
			return map[string]any{"booking": map[string]any{"id": "b1", "totalPrice": 349.8}}, nil
		}},
	}
}

// bookingRun runs one turn of the planner and returns how it ended and its
// last state.
func bookingRun(t *testing.T, g *Graph, cfg graph.RunConfig[Update]) (graph.Event[State, Update], State) {
	t.Helper()
	var last graph.Event[State, Update]
	for ev, err := range g.Run(context.Background(), cfg) {
		if err != nil {
			t.Fatal(err)
		}
		last = ev
	}
	return last, last.State
}

func TestBookingIsConfirmedFirst(t *testing.T) {
	tests := []struct {
		name       string
		answer     func(summary BookingConfirmationProps) BookingAnswer
		later      time.Duration // how long the traveller takes to answer
		wantStatus string
	}{
		{"confirmed", func(s BookingConfirmationProps) BookingAnswer { return BookingAnswer{Confirmed: true, Key: s.Key} }, time.Minute, BookingBooked},
		{"declined", func(s BookingConfirmationProps) BookingAnswer { return BookingAnswer{Confirmed: false, Key: s.Key} }, time.Minute, BookingDeclined},
		{"expired", func(s BookingConfirmationProps) BookingAnswer { return BookingAnswer{Confirmed: true, Key: s.Key} }, ConfirmationTTL + time.Second, BookingExpired},
		{"for another booking", func(s BookingConfirmationProps) BookingAnswer {
			other := "0"
			if strings.HasSuffix(s.Key, other) {
				other = "1"
			}
			return BookingAnswer{Confirmed: true, Key: s.Key[:len(s.Key)-1] + other}
		}, time.Minute, BookingChanged},
		{"without a key", func(BookingConfirmationProps) BookingAnswer { return BookingAnswer{Confirmed: true} }, time.Minute, BookingChanged},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := fixedNow()
			m := &scripted{replies: []llms.ContentChoice{
				calls("extract", `{"location":"Lisbon","startDate":"2027-05-03","nights":4,"numberOfGuests":3,"intent":"accommodations","language":"en"}`),
				calls(toolBook, bookCall), // the run pauses here
				calls(toolBook, bookCall), // callTools runs again on resume
				text("Done."),
			}}
			var booked []json.RawMessage
			g, err := bound(Deps{Model: m, Now: func() time.Time { return now }}, Traveller{Tools: bookingTools(&booked)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			thread := uuid.NewString()
			input := Update{Messages: []Message{{ID: uuid.NewString(), Type: Human, Content: "book Casa Azul"}}}
			ev, _ := bookingRun(t, g, graph.RunConfig[Update]{ThreadID: thread, Input: input})
			if ev.Kind != graph.Interrupted || len(booked) != 0 {
				t.Fatalf("the run ended with %v after %d bookings, want a pause before any", ev.Kind, len(booked))
			}
			var ask UIComponent
			json.Unmarshal(ev.Interrupt.Payload, &ask)
			var summary BookingConfirmationProps
			json.Unmarshal(ask.Props, &summary)
			want := BookingConfirmationProps{AccommodationID: "h1", Name: "Casa Azul", City: "Lisbon", StartDate: "2027-05-03", EndDate: "2027-05-07",
				Nights: 4, Guests: 3, NightlyPrice: 87.45, Total: 349.8, Currency: "EUR", Status: BookingPending,
				ExpiresAt: now.Add(ConfirmationTTL).Format(time.RFC3339)}
			got := summary
			got.ToolProps, got.Key = ToolProps{}, ""
			if ask.Name != card.BookingConfirmation || !reflect.DeepEqual(got, want) || summary.Key == "" {
				t.Fatalf("the confirmation shows %s %+v\nwant %+v", ask.Name, summary, want)
			}
			_, cp, _ := g.GetState(context.Background(), thread, "")
			if len(cp.Interrupts) != 1 || cp.Interrupts[0].Node != NodeCallTools {
				t.Fatalf("the thread's pending interrupts are %+v", cp.Interrupts)
			}

			now = now.Add(tt.later)
			ev, s := bookingRun(t, g, graph.RunConfig[Update]{ThreadID: thread, Command: &graph.Command[Update]{Resume: tt.answer(summary)}})
			if ev.Kind != graph.RunFinished {
				t.Fatalf("the resumed run ended with %v", ev.Kind)
			}
			if wantBooked := tt.wantStatus == BookingBooked; (len(booked) == 1) != wantBooked || len(booked) > 1 {
				t.Fatalf("%d bookings made, want booked = %v", len(booked), wantBooked)
			}
			if len(booked) == 1 && !strings.Contains(string(booked[0]), `"idempotencyKey":"`+summary.Key+`"`) {
				t.Fatalf("booked with %s, want the confirmation's key as the idempotency key", booked[0])
			}
			i := slices.IndexFunc(s.UI, func(c UIComponent) bool { return c.Name == card.BookingConfirmation })
			var outcome BookingConfirmationProps
			json.Unmarshal(s.UI[i].Props, &outcome)
			if outcome.Status != tt.wantStatus || outcome.Total != 349.8 {
				t.Fatalf("the state shows status %q, total %v; want %q", outcome.Status, outcome.Total, tt.wantStatus)
			}
			told := m.asked[3].messages[len(m.asked[3].messages)-1].Parts[0].(llms.ToolCallResponse).Content
			if tt.wantStatus != BookingBooked && !strings.Contains(told, `"status":"`+tt.wantStatus+`"`) {
				t.Fatalf("the model was told %s", told)
			}
		})
	}
}

// A booking whose place cannot be found is not put to the traveller.
func TestBookingOfAnUnknownPlace(t *testing.T) {
	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"location":"Lisbon","startDate":"2027-05-03","nights":4,"numberOfGuests":3,"intent":"accommodations","language":"en"}`),
		calls(toolBook, strings.Replace(bookCall, "h1", "h9", 1)),
		text("I could not find that place."),
	}}
	var booked []json.RawMessage
	g := newPlanner(t, m, bookingTools(&booked))
	ev, s := bookingRun(t, g, graph.RunConfig[Update]{ThreadID: uuid.NewString(),
		Input: Update{Messages: []Message{{ID: uuid.NewString(), Type: Human, Content: "book it"}}}})
	if ev.Kind != graph.RunFinished || len(booked) != 0 {
		t.Fatalf("run ended with %v after %d bookings", ev.Kind, len(booked))
	}
	var outcome BookingConfirmationProps
	json.Unmarshal(s.UI[len(s.UI)-1].Props, &outcome)
	if outcome.Status != BookingFailed || outcome.Error == nil || outcome.Error.Code != "NOT_FOUND" {
		t.Fatalf("outcome = %+v", outcome)
	}
}

// A booking for more guests than the place holds is refused before the
// traveller is asked to confirm it, saying why.
func TestBookingForTooManyGuests(t *testing.T) {
	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"location":"Lisbon","startDate":"2027-05-03","nights":4,"numberOfGuests":6,"intent":"accommodations","language":"en"}`),
		calls(toolBook, strings.Replace(bookCall, `"guests":3`, `"guests":6`, 1)),
		text("That place is too small."),
	}}
	var booked []json.RawMessage
	g := newPlanner(t, m, bookingTools(&booked))
	ev, s := bookingRun(t, g, graph.RunConfig[Update]{ThreadID: uuid.NewString(),
		Input: Update{Messages: []Message{{ID: uuid.NewString(), Type: Human, Content: "book it for 6"}}}})
	if ev.Kind != graph.RunFinished || len(booked) != 0 {
		t.Fatalf("run ended with %v after %d bookings, want finished without asking or booking", ev.Kind, len(booked))
	}
	var outcome BookingConfirmationProps
	json.Unmarshal(s.UI[len(s.UI)-1].Props, &outcome)
	if outcome.Status != BookingFailed || outcome.Error == nil || outcome.Error.Code != "BAD_REQUEST" || !strings.Contains(outcome.Error.Message, "holds 4 guests, not 6") {
		t.Fatalf("outcome = %+v", outcome)
	}
}

// A booking request from a Book button goes to the traveller's
// confirmation without asking the model, and is cleared once answered.
func TestBookingRequest(t *testing.T) {
	tests := []struct {
		name       string
		confirmed  bool
		wantStatus string
		wantBooked int
	}{
		{"confirmed", true, BookingBooked, 1},
		{"declined", false, BookingDeclined, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &scripted{} // any model call fails the run
			var booked []json.RawMessage
			g := newPlanner(t, m, bookingTools(&booked))
			thread := uuid.NewString()
			req := &BookingRequest{AccommodationID: "h1", StartDate: "2027-05-03", EndDate: "2027-05-07", Guests: 3}
			ev, _ := bookingRun(t, g, graph.RunConfig[Update]{ThreadID: thread, Input: Update{
				Messages:       []Message{{ID: uuid.NewString(), Type: Human, Content: "Book Casa Azul"}},
				BookingRequest: req,
			}})
			if ev.Kind != graph.Interrupted || len(booked) != 0 {
				t.Fatalf("the run ended with %v after %d bookings, want a pause before any", ev.Kind, len(booked))
			}
			var ask UIComponent
			json.Unmarshal(ev.Interrupt.Payload, &ask)
			var summary BookingConfirmationProps
			json.Unmarshal(ask.Props, &summary)
			if summary.Total != 349.8 || summary.Status != BookingPending || summary.Key == "" {
				t.Fatalf("the confirmation shows %+v", summary)
			}
			ev, s := bookingRun(t, g, graph.RunConfig[Update]{ThreadID: thread,
				Command: &graph.Command[Update]{Resume: BookingAnswer{Confirmed: tt.confirmed, Key: summary.Key}}})
			if ev.Kind != graph.RunFinished || len(booked) != tt.wantBooked {
				t.Fatalf("the resumed run ended with %v after %d bookings, want %d", ev.Kind, len(booked), tt.wantBooked)
			}
			if len(m.asked) != 0 {
				t.Fatalf("the model was asked %d times, want none", len(m.asked))
			}
			if s.BookingRequest != nil {
				t.Fatal("the booking request is still in the state after its answer")
			}
			var outcome BookingConfirmationProps
			json.Unmarshal(s.UI[len(s.UI)-1].Props, &outcome)
			if s.UI[len(s.UI)-1].ID != ask.ID || outcome.Status != tt.wantStatus || s.UI[len(s.UI)-1].MessageID != ask.MessageID {
				t.Fatalf("the state ends with the card %s %q, want the card %s %q", s.UI[len(s.UI)-1].ID, outcome.Status, ask.ID, tt.wantStatus)
			}
			// A declined booking is said once, by its card; any other
			// outcome also gets the planner's reply.
			last := s.Messages[len(s.Messages)-1]
			wantReply := tt.wantStatus != BookingDeclined
			if gotReply := last.Type == AI; gotReply != wantReply || gotReply && last.Content != reply("en", "booking."+tt.wantStatus) {
				t.Fatalf("the conversation ends with %s %q; want a reply: %v", last.Type, last.Content, wantReply)
			}
		})
	}
}

// A run stopped while the catalog books does not show the booking as
// failed (it may have been made): the step is not saved, and the next
// attempt, with the same key, shows it booked.
func TestBookingStoppedMidCallIsRetriedNotFailed(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	var booked []json.RawMessage
	tools := bookingTools(&booked)
	calls := 0
	tools[1].Run = func(callCtx context.Context, args json.RawMessage) (any, error) {
		if calls++; calls == 1 { // the worker stops as the catalog books
			booked = append(booked, args)
			stop()
			<-callCtx.Done()
			return nil, callCtx.Err()
		}
		return map[string]any{"booking": map[string]any{"id": "b1", "totalPrice": 349.8}}, nil
	}
	g := newPlanner(t, &scripted{}, tools)
	thread := uuid.NewString()
	ev, _ := bookingRun(t, g, graph.RunConfig[Update]{ThreadID: thread, Input: Update{
		Messages:       []Message{{ID: uuid.NewString(), Type: Human, Content: "Book Casa Azul"}},
		BookingRequest: &BookingRequest{AccommodationID: "h1", StartDate: "2027-05-03", EndDate: "2027-05-07", Guests: 3}}})
	var ask UIComponent
	json.Unmarshal(ev.Interrupt.Payload, &ask)
	var summary BookingConfirmationProps
	json.Unmarshal(ask.Props, &summary)
	confirm := graph.RunConfig[Update]{ThreadID: thread, Command: &graph.Command[Update]{Resume: BookingAnswer{Confirmed: true, Key: summary.Key}}}

	failed := false
	for _, err := range g.Run(ctx, confirm) {
		failed = failed || err != nil
	}
	if !failed {
		t.Fatal("the stopped run ended well")
	}
	ev, s := bookingRun(t, g, confirm) // the next attempt
	var outcome BookingConfirmationProps
	json.Unmarshal(s.UI[len(s.UI)-1].Props, &outcome)
	if ev.Kind != graph.RunFinished || outcome.Status != BookingBooked || calls != 2 {
		t.Fatalf("the next attempt ended %v with the card %q after %d calls, want booked after 2", ev.Kind, outcome.Status, calls)
	}
}

// The same stay confirmed twice in one thread a moment apart gets two
// keys: a key that named only the second would replay the first booking
// (the catalog's idempotency) instead of refusing the stay as taken.
func TestBookingKeysOfOneSecondDiffer(t *testing.T) {
	ctx := context.Background()
	p := BookingConfirmationProps{AccommodationID: "a1", StartDate: "2027-09-01", EndDate: "2027-09-03", Guests: 2, Total: 56.56, Currency: "EUR"}
	at := time.Date(2027, 8, 1, 10, 0, 0, 0, time.UTC)
	first, second := bookingKey(ctx, p, at.Add(100*time.Millisecond)), bookingKey(ctx, p, at.Add(400*time.Millisecond))
	if first == second {
		t.Fatalf("two confirmations within one second share the key %s", first)
	}
	tr := &turn{planner: &planner{Deps{Now: func() time.Time { return at }}}}
	if got := tr.verdict(ctx, BookingAnswer{Confirmed: true, Key: second}, &p); got != BookingPending {
		t.Fatalf("the answer with its own key: %s, want it to book", got)
	}
}
