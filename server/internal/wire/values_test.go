package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
)

// Values shows ui entries as LangGraph's UI messages and empty lists as
// lists; StateOf reads them back as they were saved.
func TestValuesRoundTrip(t *testing.T) {
	saved := nodes.State{Messages: []nodes.Message{{ID: "m1", Type: nodes.AI, Content: "Here"}},
		UI: []nodes.UIComponent{{ID: "u1", Name: card.TripDetails, Props: json.RawMessage(`{"nights":4}`), MessageID: "m1"}}, Timestamp: 7}
	raw, _ := json.Marshal(saved)
	shown := Values(raw)
	var v struct {
		UI []UIMessage `json:"ui"`
	}
	if err := json.Unmarshal(shown, &v); err != nil || len(v.UI) != 1 || v.UI[0].Type != "ui" || v.UI[0].Metadata["message_id"] != "m1" {
		t.Fatalf("shown %s", shown)
	}
	back, err := StateOf(shown)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if string(again) != string(raw) {
		t.Fatalf("read back\n%s\nwant\n%s", again, raw)
	}
	if got := string(Values(json.RawMessage(`{"messages":null,"ui":null}`))); got != `{"messages":[],"ui":[]}` {
		t.Fatalf("an empty state is shown %s", got)
	}
}

// Values reshapes saved text in one pass: it keeps what it does not know
// (strings holding brackets and escaped quotes, other members in their
// order), adds a missing messages list, and returns text it cannot read,
// or a ui list that holds no components, as it is.
func TestValuesReshapesText(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"messages added", `{"timestamp":3}`, `{"timestamp":3,"messages":[]}`},
		{"empty object", `{}`, `{"messages":[]}`},
		{"other members kept", `{"note":"a \"}]{[\" b","n":[1,{"x":null}],"ok":true,"ui":null}`,
			`{"note":"a \"}]{[\" b","n":[1,{"x":null}],"ok":true,"ui":[],"messages":[]}`},
		{"ui converted", `{"messages":[],"ui":[{"id":"u1","name":"trip-details","props":{"a":"]"},"messageId":"m1"},{"id":"u2","name":"x"}]}`,
			`{"messages":[],"ui":[{"type":"ui","id":"u1","name":"trip-details","props":{"a":"]"},"metadata":{"message_id":"m1"}},` +
				`{"type":"ui","id":"u2","name":"x","props":null,"metadata":{"message_id":""}}]}`},
		{"ui of no components", `{"messages":[],"ui":[1,2]}`, `{"messages":[],"ui":[1,2]}`},
		{"not an object", `[1]`, `[1]`},
		{"cut short", `{"messages":[{"id":"m1"}`, `{"messages":[{"id":"m1"}`},
		{"unterminated string", `{"messages":"abc}`, `{"messages":"abc}`},
		{"null", `null`, `null`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := string(Values(json.RawMessage(tt.in)))
			if got != tt.want {
				t.Fatalf("Values(%s)\n got %s\nwant %s", tt.in, got, tt.want)
			}
			if json.Valid([]byte(tt.in)) && !json.Valid([]byte(got)) {
				t.Fatalf("Values(%s) made invalid JSON: %s", tt.in, got)
			}
		})
	}
}

// A component on the traveller's message (the trip it understood) is
// shown on the reply to that message, where LangGraph's front ends (Agent
// Chat UI) look for a message's components; without a reply yet, on the
// traveller's message. Components on AI messages, or on messages not in
// the state, keep theirs.
func TestValuesShowComponentsOnReplies(t *testing.T) {
	saved := nodes.State{
		Messages: []nodes.Message{
			{ID: "h1", Type: nodes.Human, Content: "somewhere"}, {ID: "a1", Type: nodes.AI, Content: "Where?"},
			{ID: "h2", Type: nodes.Human, Content: "Lisbon"}, {ID: "h3", Type: nodes.Human, Content: "in May"},
			{ID: "a2", Type: nodes.AI, Content: "Found 5 places"}, {ID: "a3", Type: nodes.AI, Content: "Booked"},
			{ID: "h4", Type: nodes.Human, Content: "now Porto"},
		},
		UI: []nodes.UIComponent{
			{ID: "trip-details-h3", Name: card.TripDetails, Props: json.RawMessage(`{}`), MessageID: "h3"},
			{ID: "stays", Name: card.Accommodations, Props: json.RawMessage(`{}`), MessageID: "a2"},
			{ID: "trip-details-h2", Name: card.TripDetails, Props: json.RawMessage(`{}`), MessageID: "h2"},
			{ID: "trip-details-h4", Name: card.TripDetails, Props: json.RawMessage(`{}`), MessageID: "h4"},
			{ID: "gone", Name: card.TripDetails, Props: json.RawMessage(`{}`), MessageID: "h0"},
		},
	}
	raw, _ := json.Marshal(saved)
	var v struct {
		UI []UIMessage `json:"ui"`
	}
	if err := json.Unmarshal(Values(raw), &v); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"trip-details-h3": "a2", "stays": "a2", "trip-details-h2": "a2", "trip-details-h4": "h4", "gone": "h0"}
	for _, m := range v.UI {
		if m.Metadata["message_id"] != want[m.ID] {
			t.Errorf("%s is shown on %v, want %s", m.ID, m.Metadata["message_id"], want[m.ID])
		}
	}
}

// ClientValues reads what clients send into the planner's form, and
// refuses, by field, what the planner would lose.
func TestClientValues(t *testing.T) {
	tests := []struct {
		name, in, want, wantField string
	}{
		{"content blocks are joined, user is human",
			`{"messages":[{"id":"x","role":"user","content":[{"type":"text","text":"4 nights "},{"type":"text","text":"in Lisbon"}]}]}`,
			`{"messages":[{"content":"4 nights in Lisbon","id":"x","type":"human"}]}`, ""},
		{"empty LangChain members are dropped",
			`{"messages":[{"type":"ai","content":"ok","additional_kwargs":{},"response_metadata":{},"tool_calls":[],"name":null,"example":false}]}`,
			`{"messages":[{"content":"ok","type":"ai"}]}`, ""},
		{"a UI message becomes an upsert",
			`{"ui":[{"type":"ui","id":"u1","name":"trip-details","props":{"a":1},"metadata":{"message_id":"m1","merge":true}}]}`,
			`{"ui":[{"id":"u1","name":"trip-details","props":{"a":1},"messageId":"m1","merge":true}]}`, ""},
		{"other members stay", `{"tripDetails":{"location":"Lisbon"}}`, `{"tripDetails":{"location":"Lisbon"}}`, ""},
		{"an image block is refused", `{"messages":[{"type":"human","content":[{"type":"image_url","image_url":"x"}]}]}`, "", "messages[0].content"},
		{"a tool call is refused", `{"messages":[{"type":"ai","content":"","tool_calls":[{"name":"x"}]}]}`, "", "messages[0].tool_calls"},
		{"a system message is refused", `{"messages":[{"type":"system","content":"be nice"}]}`, "", "messages[0].type"},
		{"an unknown message member is refused", `{"messages":[{"type":"human","content":"hi","mood":"happy"}]}`, "", "messages[0]"},
		{"remove-ui is refused", `{"ui":[{"type":"remove-ui","id":"u1"}]}`, "", "ui[0].type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ClientValues(json.RawMessage(tt.in))
			var ve *ValueError
			if tt.wantField != "" {
				if !errors.As(err, &ve) || ve.Field != tt.wantField {
					t.Fatalf("error %v, want one naming %s", err, tt.wantField)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %s, %v; want %s", got, err, tt.want)
			}
		})
	}
}

// A pending booking confirmation is shown with a human-in-the-loop
// request, and a decision on it is read as the planner's answer carrying
// the confirmation's key; other payloads and answers pass unchanged.
func TestBookingAsHumanInTheLoop(t *testing.T) {
	props := nodes.BookingConfirmationProps{AccommodationID: "acc-1", Name: "Casa Azul", City: "Lisbon", StartDate: "2027-05-01",
		EndDate: "2027-05-05", Nights: 4, Guests: 3, Total: 480, Currency: "EUR", Key: "1800000000.abc", Status: nodes.BookingPending}
	propsJSON, _ := json.Marshal(props)
	payload, _ := json.Marshal(nodes.UIComponent{ID: "book-1", Name: card.BookingConfirmation, Props: propsJSON, MessageID: "m1"})
	shown := InterruptValue(payload)
	var req struct {
		nodes.UIComponent
		ActionRequests []ActionRequest `json:"action_requests"`
		ReviewConfigs  []ReviewConfig  `json:"review_configs"`
	}
	if err := json.Unmarshal(shown, &req); err != nil || req.ID != "book-1" || len(req.ActionRequests) != 1 ||
		req.ActionRequests[0].Name != "book-accommodation" || len(req.ReviewConfigs) != 1 ||
		req.ReviewConfigs[0].ActionName != "book-accommodation" {
		t.Fatalf("shown %s", shown)
	}
	if other := `{"confirm":true}`; string(InterruptValue(json.RawMessage(other))) != other {
		t.Fatal("another payload was changed")
	}

	pending := []graph.PendingInterrupt{{ID: "i1", Node: "callTools", Payload: payload}}
	for decision, want := range map[string]string{"approve": `{"confirmed":true,"key":"1800000000.abc"}`, "reject": `{"confirmed":false,"key":"1800000000.abc"}`} {
		got, err := ResumeValue(json.RawMessage(`{"decisions":[{"type":"`+decision+`"}]}`), pending)
		if err != nil || string(got) != want {
			t.Errorf("%s: %s, %v; want %s", decision, got, err, want)
		}
	}
	if _, err := ResumeValue(json.RawMessage(`{"decisions":[{"type":"edit","edited_action":{}}]}`), pending); err == nil {
		t.Error("an edit was accepted")
	}
	if _, err := ResumeValue(json.RawMessage(`{"decisions":[{"type":"approve"}]}`), nil); err == nil {
		t.Error("a decision with no booking pending was accepted")
	}
	if own := `{"confirmed":true,"key":"k"}`; func() string { v, _ := ResumeValue(json.RawMessage(own), pending); return string(v) }() != own {
		t.Error("the planner's own answer was changed")
	}
}

// A failed run says LangGraph's error name where it has one, the code and
// message of an error meant to be shown, and else which node failed.
func TestFailureOf(t *testing.T) {
	tests := []struct {
		err       error
		name, msg string
	}{
		{fmt.Errorf("running: %w", &graph.StepLimitError{Limit: 1, Next: "extraction"}), "GraphRecursionError",
			`Recursion limit of 1 reached without hitting a stop condition. You can increase the limit by setting the "recursion_limit" config key.`},
		{&graph.NodeError{Node: "callTools", Err: errcode.New(errcode.Unavailable, "the tools are down")}, "UNAVAILABLE", "the tools are down"},
		{&graph.NodeError{Node: "callTools", Err: errors.New("dial tcp: secret host")}, "INTERNAL", `node "callTools" failed; the server's log has the cause, under the run's id`},
	}
	for _, tt := range tests {
		got := FailureOf(tt.err)
		if got.Error != tt.name || got.Message != tt.msg {
			t.Errorf("FailureOf(%v) = %+v, want %s %q", tt.err, got, tt.name, tt.msg)
		}
	}
}
