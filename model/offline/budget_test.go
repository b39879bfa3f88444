package offline

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/model/intent"
	"github.com/tripgraph/tripgraph/model/internal/chatwords"
)

// stays is a list-accommodations result of four places of the kinds the
// catalog has, not in price order.
const stays = `{"accommodations":[` +
	`{"name":"Grand Palace","kind":"hotel","nightlyPrice":310.4,"currency":"EUR"},` +
	`{"name":"Casa Azul","kind":"guesthouse","nightlyPrice":92,"currency":"EUR"},` +
	`{"name":"Bunk House","kind":"hostel","nightlyPrice":28.6,"currency":"EUR"},` +
	`{"name":"Loft Nove","kind":"apartment","nightlyPrice":140,"currency":"EUR"}]}`

// Budget words and price caps, in both languages: the cap reaches the
// search with its currency and whether it is a night's or the stay's;
// the reply says the price level asked for (cheapest first, or the
// dearest) and the kind of stay asked for, from the list; a search that
// finds nothing under the cap says so, with the cap.
func TestBudgetIsAppliedAndSaid(t *testing.T) {
	m := newModel(t)
	tests := []struct {
		text     string
		wantArgs []string // "key=value" the list-accommodations call has
		noArgs   []string // keys it must not have
		result   string   // the tool's answer
		wantText []string // parts of the reply
	}{
		{"budget-friendly hostel in Porto for 3 backpackers, 2 nights from May 5", nil, []string{"maxNightlyPrice", "maxTotalPrice"}, stays,
			[]string{"The cheapest hostels: Bunk House (€29 a night)"}},
		{"cheap hotel in porto may 3-6 for 2", nil, []string{"maxNightlyPrice"}, stays,
			[]string{"Cheapest first: Bunk House (€29 a night), Casa Azul (€92 a night) and Loft Nove (€140 a night)."}},
		{"luxury stay in porto may 3-6, 2 of us", nil, nil, stays,
			[]string{"The most upscale first: Grand Palace (€310 a night)"}},
		{"apartment in porto may 3 to 8 for 4", nil, nil, stays, []string{"The apartment among them: Loft Nove."}},
		{"hostel in porto under €80 a night, may 2-5, just me", []string{"maxNightlyPrice=80", "currency=EUR"}, nil,
			`{"accommodations":[{"name":"Bunk House","kind":"hostel","nightlyPrice":28.6,"currency":"EUR"}]}`,
			[]string{"up to €80 a night", "The hostel among them: Bunk House."}},
		{"hotel in porto max 100/night jun 3-6 2 ppl", []string{"maxNightlyPrice=100", "currency=EUR"}, nil,
			`{"accommodations":[],"message":"no accommodation in Porto free from 2027-06-03 to 2027-06-06 for 2 guests keeps to the price cap; 7 cost more"}`,
			[]string{"No place to stay in Porto costs up to €100 a night for those dates: 7 cost more."}},
		{"total budget 900 euros, Porto jun 3-6, 2 adults", []string{"maxTotalPrice=900", "currency=EUR"}, nil, stays,
			[]string{"up to €900 in total"}},
		{"hotel barato em salvador de 3 a 6 de março, 2 pessoas", nil, []string{"maxNightlyPrice"},
			strings.ReplaceAll(stays, "EUR", "BRL"), []string{"As mais baratas primeiro: Bunk House (R$ 29 por noite)"}},
		{"hotel economico em recife de 3 a 6 de março, 2 pessoas", nil, nil, stays, []string{"As mais baratas primeiro:"}},
		{"pousada barata em paraty ate 200 reais a diaria, casal, 14 a 16 de marco", []string{"maxNightlyPrice=200", "currency=BRL"}, nil,
			`{"accommodations":[],"message":"no accommodation in Paraty free from 2027-03-14 to 2027-03-16 for 2 guests keeps to the price cap; 9 cost more"}`,
			[]string{"Nenhuma hospedagem em Paraty custa até R$ 200 por noite nessas datas: 9 custam mais."}},
		{"hotel em bh no maximo R$ 300 por noite, 10 a 12 de janeiro, 2 pessoas", []string{"maxNightlyPrice=300", "currency=BRL"}, nil, stays,
			[]string{"até R$ 300 por noite"}},
		{"pousada em paraty 150 reais por noite no maximo, 3 a 5 de abril, eu e ela", []string{"maxNightlyPrice=150", "currency=BRL"}, nil, stays,
			[]string{"até R$ 150 por noite", "A pousada entre elas: Casa Azul."}},
		{"albergue em floripa pra 2, de 3 a 6 de abril, nada muito caro", nil, nil, stays,
			[]string{"Os hostels mais baratos: Bunk House"}},
		{"hotel em curitiba ate 1.200 reais pela estadia toda, 3 a 5 de abril, 2 pessoas", []string{"maxTotalPrice=1200", "currency=BRL"}, nil, stays,
			[]string{"até R$ 1200 no total"}},
	}
	tools := []llms.Tool{toolDef(toolAccommodations)}
	for _, tt := range tests {
		turns := []string{chatwords.Expand(tt.text)}
		resp, err := m.GenerateContent(context.Background(), conversationOf("Today: 2026-11-21", turns), llms.WithTools(tools))
		if err != nil {
			t.Fatal(err)
		}
		calls := resp.Choices[0].ToolCalls
		if len(calls) != 1 || calls[0].FunctionCall.Name != toolAccommodations {
			t.Errorf("%q: calls %v, want list-accommodations", tt.text, calls)
			continue
		}
		args := calls[0].FunctionCall.Arguments
		for _, kv := range tt.wantArgs {
			k, v, _ := strings.Cut(kv, "=")
			if !strings.Contains(args, `"`+k+`":`+v) && !strings.Contains(args, `"`+k+`":"`+v+`"`) {
				t.Errorf("%q: args %s, want %s", tt.text, args, kv)
			}
		}
		for _, k := range tt.noArgs {
			if strings.Contains(args, `"`+k+`"`) {
				t.Errorf("%q: args %s, want no %s", tt.text, args, k)
			}
		}
		msgs := withResults(conversationOf("Today: 2026-11-21", turns), map[string]string{toolAccommodations + ":" + args: tt.result})
		resp, err = m.GenerateContent(context.Background(), msgs, llms.WithTools(tools))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range tt.wantText {
			if !strings.Contains(resp.Choices[0].Content, want) {
				t.Errorf("%q: reply %q, want %q", tt.text, resp.Choices[0].Content, want)
			}
		}
	}
}

// A later message asking for cheaper places, or a kind, changes what the
// reply picks; a message saying nothing of price keeps what was asked.
func TestBudgetFollowUps(t *testing.T) {
	for _, tt := range []struct {
		turns  []string
		budget intent.Budget
		kind   string
	}{
		{[]string{"hotel in Porto may 3-6 for 2", "anything cheaper?"}, intent.Cheap, ""},
		{[]string{"hotel em Porto de 3 a 6 de maio pra 2", "tem algo mais em conta?"}, intent.Cheap, ""},
		{[]string{"cheap hotel in Porto may 3-6 for 2", "make it 3 people"}, intent.Cheap, ""},
		{[]string{"hotel em Porto de 3 a 6 de maio pra 2", "prefiro hostel"}, "", "hostel"},
		{[]string{"hotel in Porto may 3-6 for 2"}, "", ""},
	} {
		e := Understand(tt.turns, time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC))
		if e.Budget != tt.budget || e.StayKind != tt.kind {
			t.Errorf("%q: budget %q, kind %q; want %q, %q", tt.turns, e.Budget, e.StayKind, tt.budget, tt.kind)
		}
	}
}
