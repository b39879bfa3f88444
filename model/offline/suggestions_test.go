package offline

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/intent"
	"github.com/tripgraph/tripgraph/model/suggest"
)

// A traveller who asks for a kind of place and names none gets three to
// five destinations to pick from, and picks one by its number or name in
// the next message; a request that names its destination gets none.
func TestSuggestionsAndPick(t *testing.T) {
	m := newModel(t)
	system := "Today: 2026-11-28"
	tests := []struct {
		turns     []string
		suggested bool   // the reply proposes destinations
		location  string // the trip's place after the last turn, "" for none
	}{
		{[]string{"somewhere warm in December?"}, true, ""},
		{[]string{"praia perto de SP pra um fds"}, true, ""},
		{[]string{"praia perto de SP pra um fds", "a 2"}, false, "Ilhabela"},
		{[]string{"somewhere warm in December?", "Recife, 2 of us"}, false, "Recife"},
		{[]string{"beach hotel in Salvador in May"}, false, "Salvador"},
		{[]string{"Lisbon in May, 2 of us", "any good beaches?"}, false, "Lisbon"},
		{[]string{"Lisbon in May, 2 of us", "hmm, somewhere warmer instead?"}, true, ""},
	}
	for _, tt := range tests {
		got := extractOf(t, m, system, tt.turns...)
		if got.Location != tt.location {
			t.Errorf("%q: location %q, want %q", tt.turns, got.Location, tt.location)
		}
		resp, err := m.GenerateContent(context.Background(), conversationOf(system, tt.turns), llms.WithTools([]llms.Tool{toolDef(toolAccommodations), toolDef(toolRestaurants)}))
		if err != nil {
			t.Fatal(err)
		}
		reply := resp.Choices[0].Content
		if tt.suggested != strings.Contains(reply, " 1. ") {
			t.Errorf("%q: reply %q; suggested %v", tt.turns, reply, tt.suggested)
		} else if tt.suggested && (strings.Contains(reply, " 6. ") || !strings.Contains(reply, " 3. ")) {
			t.Errorf("%q: reply %q proposes fewer than 3 or more than 5", tt.turns, reply)
		}
	}
}

// Suggestions asked for after a trip's dates are for the trip's month.
func TestSuggestionsKeepTheTripsMonth(t *testing.T) {
	m := newModel(t)
	turns := []string{"Lisbon in May, 2 of us", "hmm, somewhere warmer instead?"}
	resp, err := m.GenerateContent(context.Background(), conversationOf("Today: 2026-11-28", turns), llms.WithTools([]llms.Tool{toolDef(toolAccommodations)}))
	if err != nil {
		t.Fatal(err)
	}
	if reply := resp.Choices[0].Content; !strings.Contains(reply, "in May") || strings.Contains(reply, "December") {
		t.Errorf("reply %q: want destinations for May", reply)
	}
}

// A message asking for ideas after a trip is no follow-up the results
// answer: classify says the trip no longer stands as it was.
func TestAskingForIdeasIsNotRelevant(t *testing.T) {
	today := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	if relevant([]string{"Lisbon in May, 2 of us", "somewhere warmer instead?"}, today) {
		t.Error("asking for somewhere warmer keeps the Lisbon results")
	}
	if !relevant([]string{"Lisbon in May, 2 of us", "any good beaches?"}, today) {
		t.Error("asking about beaches drops the Lisbon results")
	}
}

// Distances are from where the trip starts: the place the question is
// near, the one it leaves from, or where the traveller lives.
func TestSuggestionsStartWhereTheTripDoes(t *testing.T) {
	m := newModel(t)
	tests := []struct{ turn, from string }{
		{"praia perto de SP pra um fds", "km de São Paulo"},
		{"flying from Lisbon, somewhere warm in December?", "km from Lisbon"},
		{"we live in Porto. somewhere warm in December?", "km from Porto"},
	}
	for _, tt := range tests {
		resp, err := m.GenerateContent(context.Background(), conversationOf("Today: 2026-11-28", []string{tt.turn}), llms.WithTools([]llms.Tool{toolDef(toolAccommodations)}))
		if err != nil {
			t.Fatal(err)
		}
		if reply := resp.Choices[0].Content; !strings.Contains(reply, " 3. ") || !strings.Contains(reply, tt.from) {
			t.Errorf("%q: reply %q, want destinations %s", tt.turn, reply, tt.from)
		}
	}
}

// Each destination proposed says why: its kind, its weather in the
// trip's month and how far it is from where the trip starts.
func TestSuggestionReasons(t *testing.T) {
	sp, _ := gazetteer.Lookup("São Paulo")
	got := suggest.For(suggest.Query{Month: time.December, Wish: intent.DestinationWish{Kinds: []intent.PlaceKind{intent.Beach}, Near: "SP"}, From: &sp}, 1)
	if len(got) != 1 {
		t.Fatalf("no suggestion")
	}
	if r := reason(got[0], "pt"); !strings.HasPrefix(r, "praias, cerca de ") || !strings.Contains(r, " °C em dezembro, a ") || !strings.HasSuffix(r, " km de São Paulo") {
		t.Errorf("reason %q does not say beach, month and distance", r)
	}
	got = suggest.For(suggest.Query{Month: time.July, Wish: intent.DestinationWish{Kinds: []intent.PlaceKind{intent.Mountain}}}, 1)
	if len(got) != 1 || !strings.HasPrefix(reason(got[0], "en"), "mountains, about ") || !strings.HasSuffix(reason(got[0], "en"), " in July") {
		t.Errorf("a wish for mountains in July: %+v, want a reason that names them and the month", got)
	}
}

// Open questions in many forms are answered with destinations when the
// wish asks something they are ranked by, and restated otherwise; none
// is searched or taken for talk off the trip.
func TestOpenQuestionsAreAnswered(t *testing.T) {
	m := newModel(t)
	suggested := []string{
		"somewhere warm in January?", "any ideas for a beach in July?", "where should we go skiing in February?",
		"somewhere cold in August", "an island for our honeymoon in May?", "mountains near Lisbon for a weekend",
		"a lake trip near Porto in June?", "cheap city break in April?", "where's sunny in November?",
		"suggest somewhere with nature in October", "somewhere mild in March", "beach near Miami for a weekend",
		"where to go in winter for snow?", "somewhere hot in Brazil in June?", "culture and museums in September, ideas?",
		"hiking somewhere in July?", "somewhere cooler in August?", "family friendly beach in December?",
		"algum lugar quente em janeiro?", "praia em julho, alguma ideia?", "onde esquiar em fevereiro?",
		"lugar frio em agosto", "ilha pra lua de mel em maio?", "serra perto de BH pra um fds",
		"lago perto de Curitiba em junho?", "cidade barata em abril?", "onde tem sol em novembro?",
		"sugere um lugar com natureza em outubro", "lugar de clima ameno em março", "praia perto do Rio pra um fim de semana",
		"pra onde ir no inverno com neve?", "lugar quente no Brasil em junho?", "cultura e museus em setembro, ideias?",
		"trilha em julho, onde?", "lugar mais fresco em agosto?", "praia pra família em dezembro?",
	}
	restated := []string{
		"where should we go?", "somewhere romantic in Europe?", "any ideas for a weekend away?",
		"lugar romântico na Europa?", "alguma ideia pra um fim de semana?",
	}
	for i, turn := range append(suggested, restated...) {
		resp, err := m.GenerateContent(context.Background(), conversationOf("Today: 2026-11-28", []string{turn}), llms.WithTools([]llms.Tool{toolDef(toolAccommodations), toolDef(toolRestaurants)}))
		if err != nil {
			t.Fatal(err)
		}
		c := resp.Choices[0]
		got := "other"
		switch {
		case len(c.ToolCalls) > 0:
			got = "searched"
		case strings.Contains(c.Content, " 1. "):
			got = "suggested"
		case strings.Contains(c.Content, "destination would you like") || strings.Contains(c.Content, "destino você prefere"):
			got = "restated"
		}
		want := "suggested"
		if i >= len(suggested) {
			want = "restated"
		}
		if got != want {
			t.Errorf("%q: %s, want %s: %q", turn, got, want, c.Content)
		}
	}
}
