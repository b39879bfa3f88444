package nodes

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/tmc/langchaingo/llms"
)

// The state and the trip-details props record which trip fields were
// assumed, and the answer says what was assumed, in the traveller's
// language; stated fields are not mentioned.
func TestAssumedFieldsAreRecordedAndSaid(t *testing.T) {
	tests := []struct {
		name, extract, answer string
		assumed               []string
		want, notWant         string
	}{
		{"nothing but the city, in Portuguese", `{"location":"Paris","intent":"trip","language":"pt"}`, "Encontrei opções.",
			[]string{FieldStartDate, FieldEndDate, FieldGuests}, "Considerei 2 hóspedes e de 19 a 26 de dezembro; me diga se não for isso.", ""},
		{"guests stated, dates assumed", `{"location":"Paris","numberOfGuests":3,"intent":"trip","language":"en"}`, "Found some.",
			[]string{FieldStartDate, FieldEndDate}, "I assumed 19–26 December; tell me if that's wrong.", "guests"},
		{"an end alone: the start is assumed", `{"location":"Paris","endDate":"2027-01-10","numberOfGuests":2,"intent":"trip","language":"en"}`, "Found some.",
			[]string{FieldStartDate}, "I assumed arriving on 3 January; tell me", ""},
		{"a start and no length, in Portuguese", `{"location":"Paris","startDate":"2027-05-03","numberOfGuests":2,"intent":"trip","language":"pt"}`, "Encontrei.",
			[]string{FieldEndDate}, "Considerei 7 noites (saída em 10 de maio); me diga se não for isso.", "hóspedes"},
		{"everything stated", `{"location":"Paris","startDate":"2027-05-03","nights":4,"numberOfGuests":3,"intent":"trip","language":"en"}`, "Found some.",
			nil, "Found some.", "assumed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var toolCalls []string
			m := &scripted{replies: []llms.ContentChoice{calls("extract", tt.extract), text(tt.answer)}}
			g := newPlanner(t, m, testTools(&toolCalls))
			thread := uuid.NewString()
			r := runTurn(t, g, thread, "quero ir a Paris")
			if !slices.Equal(r.state.Assumed, tt.assumed) {
				t.Fatalf("state assumed = %v, want %v", r.state.Assumed, tt.assumed)
			}
			var props TripDetailsProps
			if err := json.Unmarshal(r.state.UI[0].Props, &props); err != nil || !slices.Equal(props.Assumed, tt.assumed) {
				t.Fatalf("trip-details props assumed = %v (%v), want %v", props.Assumed, err, tt.assumed)
			}
			got := lastAI(r.state)
			if !strings.Contains(got, tt.want) || tt.notWant != "" && strings.Contains(got, tt.notWant) {
				t.Fatalf("answer %q, want it to contain %q and not %q", got, tt.want, tt.notWant)
			}
			// A later turn on the same trip does not repeat it.
			m.replies = append(m.replies, calls("classify", `{"isRelevant":true}`), text("You're welcome."))
			if got := lastAI(runTurn(t, g, thread, "thanks").state); got != "You're welcome." {
				t.Fatalf("second answer %q", got)
			}
		})
	}
}

// A question the tools cannot serve is answered without asking for a
// destination and without tools.
func TestOffTopicNeedsNoDestination(t *testing.T) {
	var toolCalls []string
	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"intent":"other","language":"pt"}`),
		text("Desculpe, com isso eu não consigo ajudar."),
	}}
	r := runTurn(t, newPlanner(t, m, testTools(&toolCalls)), uuid.NewString(), "quem pintou a Mona Lisa?")
	if !slices.Equal(r.nodes, []string{NodeExtraction, NodeCallTools}) || len(toolCalls) != 0 {
		t.Fatalf("nodes %v, tool calls %v", r.nodes, toolCalls)
	}
	if r.state.TripDetails != nil || lastAI(r.state) != "Desculpe, com isso eu não consigo ajudar." {
		t.Fatalf("state %+v", r.state)
	}
}

// Clearing the trip details clears what was assumed about them.
func TestReduceClearsAssumed(t *testing.T) {
	s := Reduce(State{}, Update{TripDetails: &TripDetails{Location: "Paris"}, Assumed: []string{FieldGuests}})
	if !slices.Equal(s.Assumed, []string{FieldGuests}) {
		t.Fatalf("assumed = %v", s.Assumed)
	}
	if s = Reduce(s, Update{ClearTripDetails: true}); s.Assumed != nil {
		t.Fatalf("assumed after clearing = %v", s.Assumed)
	}
}
