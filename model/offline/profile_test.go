package offline

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms"
)

// extractOf asks the model's extract call for a conversation under a
// system prompt.
func extractOf(t *testing.T, m *Model, system string, turns ...string) extractArgsJSON {
	t.Helper()
	resp, err := m.GenerateContent(context.Background(), conversationOf(system, turns), llms.WithTools([]llms.Tool{toolDef("extract")}))
	if err != nil {
		t.Fatal(err)
	}
	var args extractArgsJSON
	if err := json.Unmarshal([]byte(resp.Choices[0].ToolCalls[0].FunctionCall.Arguments), &args); err != nil {
		t.Fatal(err)
	}
	return args
}

// What a traveller tells of themselves reaches the extract call.
func TestExtractSelf(t *testing.T) {
	m := newModel(t)
	for _, c := range []struct {
		turns []string
		check func(a extractArgsJSON) bool
	}{
		{[]string{"4 nights in Lisbon in May, 4 of us, from São Paulo"}, func(a extractArgsJSON) bool {
			return a.Location == "Lisbon" && a.NumberOfGuests == 4 && a.HomeCity == "São Paulo" && a.HomeCountry == "Brazil"
		}},
		{[]string{"moro em Campinas e quero ir pra Salvador em julho"}, func(a extractArgsJSON) bool {
			return a.Location == "Salvador" && a.HomeCity == "Campinas"
		}},
		{[]string{"hotel in Porto for 2 adults and 2 kids aged 5 and 8, one of us is vegetarian"}, func(a extractArgsJSON) bool {
			return slices.Equal(a.ChildrenAges, []int{5, 8}) && slices.Equal(a.Diet, []string{"vegetarian"}) && a.NumberOfGuests == 4
		}},
		{[]string{"a hotel in Lisbon in May under 100 euros per night"}, func(a extractArgsJSON) bool {
			return a.Budget != nil && a.Budget.Amount == 100 && a.Budget.Currency == "EUR" && !a.Budget.Total
		}},
		{[]string{"4 nights in Lisbon in May", "forget what you know about me"}, func(a extractArgsJSON) bool { return a.Intent == "forget" }},
		{[]string{"esqueça meus dados"}, func(a extractArgsJSON) bool { return a.Intent == "forget" && a.Language == "pt" }},
		{[]string{"forget Salvador, Recife in June"}, func(a extractArgsJSON) bool { return a.Intent != "forget" && a.Location == "Recife" }},
	} {
		if a := extractOf(t, m, "Today: 2026-11-21", c.turns...); !c.check(a) {
			t.Errorf("%q: extract %+v", c.turns, a)
		}
	}
}

// The profile line fills the language a message does not show, and the
// budget of stays a message does not state; the extract call still says
// only what the messages stated.
func TestProfileLine(t *testing.T) {
	m := newModel(t)
	profile := `Traveller profile: {"homeCity":"São Paulo","partySize":4,"language":"pt","budget":{"amount":500,"currency":"BRL"}}`
	system := "Today: 2026-11-21\n" + profile
	if a := extractOf(t, m, system, "Lisbon"); a.Language != "pt" || a.Budget != nil {
		t.Errorf("a message in no language: %+v", a)
	}
	if a := extractOf(t, m, system, "hotels in Lisbon in May please"); a.Language != "en" {
		t.Errorf("an English message: language %s", a.Language)
	}
	trip := `Trip details: {"location":"Lisbon","startDate":"2027-05-03","endDate":"2027-05-07","numberOfGuests":4}`
	resp, err := m.GenerateContent(context.Background(), conversationOf(system+"\n"+trip, []string{"Lisbon, May 3 to 7"}),
		llms.WithTools([]llms.Tool{toolDef(toolAccommodations)}))
	if err != nil {
		t.Fatal(err)
	}
	args := resp.Choices[0].ToolCalls[0].FunctionCall.Arguments
	if !strings.Contains(args, `"maxNightlyPrice":500`) || !strings.Contains(args, `"currency":"BRL"`) {
		t.Errorf("the search with a remembered budget: %s", args)
	}
	resp, _ = m.GenerateContent(context.Background(), conversationOf(system+"\n"+trip, []string{"a hotel in Lisbon, May 3 to 7, under 300 reais per night"}),
		llms.WithTools([]llms.Tool{toolDef(toolAccommodations)}))
	if args := resp.Choices[0].ToolCalls[0].FunctionCall.Arguments; !strings.Contains(args, `"maxNightlyPrice":300`) {
		t.Errorf("a stated budget over the remembered one: %s", args)
	}
}

func TestForgetIsNotRelevant(t *testing.T) {
	if relevant([]string{"4 nights in Lisbon in May, 3 of us", "esqueça meus dados"}, newModel(t).now()) {
		t.Error("a request to be forgotten keeps the trip: extraction would not answer it")
	}
}
