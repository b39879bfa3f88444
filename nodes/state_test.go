package nodes

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/graph"
)

func comp(id, props string) UIComponent {
	return UIComponent{ID: id, Name: card.Accommodations, Props: json.RawMessage(props), MessageID: "m"}
}

func TestReduce(t *testing.T) {
	lisbon := &TripDetails{Location: "Lisbon", StartDate: "2027-05-03", EndDate: "2027-05-07", NumberOfGuests: 3}
	base := State{
		Messages:    []Message{{ID: "1", Type: Human, Content: "hi"}},
		UI:          []UIComponent{comp("a", `{"x":1,"y":2}`)},
		TripDetails: lisbon,
	}
	tests := []struct {
		name   string
		update Update
		check  func(t *testing.T, s State)
	}{
		{"messages are appended", Update{Messages: []Message{{ID: "2", Type: AI, Content: "hello"}}}, func(t *testing.T, s State) {
			if len(s.Messages) != 2 || s.Messages[1].ID != "2" {
				t.Fatalf("messages = %+v", s.Messages)
			}
		}},
		{"a message with an id the state has replaces it in place", Update{Messages: []Message{{ID: "1", Type: Human, Content: "hello"}, {ID: "3", Type: AI, Content: "ok"}}}, func(t *testing.T, s State) {
			if len(s.Messages) != 2 || s.Messages[0].Content != "hello" || s.Messages[1].ID != "3" {
				t.Fatalf("messages = %+v", s.Messages)
			}
			if base.Messages[0].Content != "hi" {
				t.Fatal("the replaced message was changed in the old state")
			}
		}},
		{"a new component is added", Update{UI: []UIUpsert{{UIComponent: comp("b", `{}`)}}}, func(t *testing.T, s State) {
			if len(s.UI) != 2 || s.UI[1].ID != "b" {
				t.Fatalf("ui = %+v", s.UI)
			}
		}},
		{"a component with the same id is replaced", Update{UI: []UIUpsert{{UIComponent: comp("a", `{"z":3}`)}}}, func(t *testing.T, s State) {
			if len(s.UI) != 1 || string(s.UI[0].Props) != `{"z":3}` {
				t.Fatalf("ui = %+v", s.UI)
			}
		}},
		{"props are merged when asked", Update{UI: []UIUpsert{{UIComponent: comp("a", `{"y":5,"z":3}`), Merge: true}}}, func(t *testing.T, s State) {
			var got map[string]int
			json.Unmarshal(s.UI[0].Props, &got)
			if !reflect.DeepEqual(got, map[string]int{"x": 1, "y": 5, "z": 3}) {
				t.Fatalf("merged props = %s", s.UI[0].Props)
			}
		}},
		{"trip details are cleared", Update{ClearTripDetails: true}, func(t *testing.T, s State) {
			if s.TripDetails != nil {
				t.Fatal("trip details survived a clear")
			}
		}},
		{"trip details are set", Update{ClearTripDetails: true, TripDetails: &TripDetails{Location: "Porto"}}, func(t *testing.T, s State) {
			if s.TripDetails == nil || s.TripDetails.Location != "Porto" {
				t.Fatalf("trip details = %+v", s.TripDetails)
			}
		}},
		{"intent, language and timestamp are set", Update{Intent: IntentPhotos, Language: "pt", Timestamp: 7}, func(t *testing.T, s State) {
			if s.Intent != IntentPhotos || s.Language != "pt" || s.Timestamp != 7 {
				t.Fatalf("state = %+v", s)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := json.Marshal(base)
			tt.check(t, Reduce(base, tt.update))
			after, _ := json.Marshal(base)
			if string(before) != string(after) {
				t.Fatalf("Reduce changed its input:\n%s\n%s", before, after)
			}
		})
	}
}

// The reducer must not share spare slice capacity between states.
func TestReduceDoesNotAliasMessages(t *testing.T) {
	s := State{Messages: make([]Message, 1, 10)}
	a := Reduce(s, Update{Messages: []Message{{ID: "a"}}})
	b := Reduce(s, Update{Messages: []Message{{ID: "b"}}})
	if a.Messages[1].ID != "a" || b.Messages[1].ID != "b" {
		t.Fatalf("two states share a backing array: %v %v", a.Messages, b.Messages)
	}
}

func TestRouters(t *testing.T) {
	td := &TripDetails{Location: "Lisbon"}
	tests := []struct {
		name  string
		route func(State) string
		state State
		want  string
	}{
		{"start without details extracts", RouteStart, State{}, NodeExtraction},
		{"start with details classifies", RouteStart, State{TripDetails: td}, NodeClassify},
		{"start with a booking request books", RouteStart, State{TripDetails: td, BookingRequest: &BookingRequest{AccommodationID: "h1"}}, NodeCallTools},
		{"cleared details are re-extracted", RouteAfterClassifying, State{}, NodeExtraction},
		{"relevant details call tools", RouteAfterClassifying, State{TripDetails: td}, NodeCallTools},
		{"extracted details call tools", RouteAfterExtraction, State{TripDetails: td}, NodeCallTools},
		{"photo questions need no destination", RouteAfterExtraction, State{Intent: IntentPhotos}, NodeCallTools},
		{"no destination ends the run", RouteAfterExtraction, State{Intent: IntentTrip}, graph.END},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.route(tt.state); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// Reduce copies each list it adds to once, with room for what it adds:
// one allocation for the messages and one for the components.
func TestReduceCopiesAListOnce(t *testing.T) {
	s := State{
		Messages: []Message{{ID: "h1", Type: Human, Content: "Lisbon"}, {ID: "a1", Type: AI, Content: "Where to?"}},
		UI:       []UIComponent{{ID: "c1", Name: "n", Props: []byte(`{"a":1}`)}},
	}
	u := Update{
		Messages: []Message{{ID: "a2", Type: AI, Content: "Here are 5 places"}},
		UI:       []UIUpsert{{UIComponent: UIComponent{ID: "c2", Name: "n", Props: []byte(`{"b":2}`)}}},
	}
	if n := testing.AllocsPerRun(100, func() { Reduce(s, u) }); n != 2 {
		t.Errorf("Reduce allocated %v times to add a message and a component, want 2", n)
	}
}
