package ui

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/locale"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/replay"
)

// europeanPortuguese matches words and constructions of European
// Portuguese that Brazilian Portuguese does not use: the interface speaks
// Brazilian Portuguese, as the planner's replies do.
var europeanPortuguese = regexp.MustCompile(`(?i)` +
	`\b(está|estão|estou|estava) a [a-zà-ú]+(ar|er|ir)\b|^a [a-zà-ú]+(ar|er|ir)\b|continuar a falhar` + // "está a responder", "A procurar"
	`|^(a|o|as|os) (sua|seu|suas|seus)\b` + // "A sua viagem"
	`|\butilizador|\bregist(e|ar)\b|\bplanear\b|\bguardad[oa]s?\b|\bnoutr[oa]s?\b|\bnum(a)?\b` +
	`|\bcorreu mal\b|\bdaqui a\b|\bsaltar\b|\balgarismos?\b|\balojamentos?\b|\bequipa\b|\becrã\b|\bfacto\b|\bcontacto\b`)

func TestPortugueseIsBrazilian(t *testing.T) {
	for key, entry := range catalog {
		if s := entry[Portuguese]; europeanPortuguese.MatchString(s) {
			t.Errorf("%s is European Portuguese: %q (%q)", key, s, europeanPortuguese.FindString(s))
		}
	}
}

// TestEuropeanPortugueseIsCaught checks the pattern on sentences the
// interface once had.
func TestEuropeanPortugueseIsCaught(t *testing.T) {
	for _, s := range []string{"A sua viagem", "Novo por aqui? Registe-se", "Nome de utilizador", "A procurar alojamento em %s…",
		"O serviço não está a responder.", "Algo correu mal", "noutro ramo", "Começar a planear"} {
		if !europeanPortuguese.MatchString(s) {
			t.Errorf("%q is not caught", s)
		}
	}
}

func TestHTMLLang(t *testing.T) {
	tests := []struct{ header, want string }{
		{"pt-BR", "pt-BR"},
		{"pt-PT,pt;q=0.9", "pt-BR"}, // Portuguese is served to pt-PT browsers too, in its Brazilian form
		{"pt", "pt-BR"},
		{"en-GB", "en"},
		{"de", "en"},
	}
	for _, tt := range tests {
		if got := htmlLang(WithLanguage(t.Context(), locale.FromAcceptLanguage(tt.header))); got != tt.want {
			t.Errorf("htmlLang for Accept-Language %q = %q, want %q", tt.header, got, tt.want)
		}
	}
}

func TestFixStep(t *testing.T) {
	pt, en := WithLanguage(t.Context(), Portuguese), WithLanguage(t.Context(), English)
	tests := []struct {
		name   string
		ctx    any
		code   string
		fields []Field
		want   string
	}{
		{"one field", pt, "BAD_REQUEST", named("endDate"), "Confira a data de saída e envie o formulário de novo."},
		{"two fields, one repeated", pt, "BAD_REQUEST", named("startDate", "numberOfGuests", "startDate"),
			"Confira a data de entrada e o número de hóspedes e envie o formulário de novo."},
		{"three fields", en, "BAD_REQUEST", named("location", "startDate", "endDate"),
			"Check the destination, the check-in date and the check-out date and send the form again."},
		{"the run's message", pt, "BAD_REQUEST", named("input.messages[0].content"), "Confira sua mensagem e envie o formulário de novo."},
		{"fields no form has", pt, "BAD_REQUEST", named("checkpoint_during", "(body)"), "O pedido não foi entendido. Escreva de novo com uma cidade e datas."},
		{"no fields", en, "UNAUTHENTICATED", nil, "Sign in, then try again."},
	}
	for _, tt := range tests {
		ctx := pt
		if tt.ctx == en {
			ctx = en
		}
		if got := fixStep(ctx, tt.code, tt.fields); got != tt.want {
			t.Errorf("%s: fixStep = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func named(names ...string) []Field {
	out := make([]Field, len(names))
	for i, n := range names {
		out[i] = Field{Name: n}
	}
	return out
}

// What was wrong with a field is said in the traveller's words when the
// catalog knows the problem, and never in the server's.
func TestFieldProblems(t *testing.T) {
	pt, en := WithLanguage(t.Context(), Portuguese), WithLanguage(t.Context(), English)
	fields := []Field{{Name: "startDate", Problem: "pastDates"}, {Name: "endDate", Problem: "must be a date"}, {Name: "numberOfGuests", Problem: "tooManyGuests"}}
	if got, want := fieldProblems(en, fields), []string{"The check-in date is in the past.", "There are more than 20 guests."}; !slices.Equal(got, want) {
		t.Errorf("fieldProblems = %q, want %q", got, want)
	}
	if got := fieldProblems(pt, fields[:1]); len(got) != 1 || got[0] != "A data de entrada já passou." {
		t.Errorf("in Portuguese: %q", got)
	}
	if got, want := fieldNames(append(fields, Field{Name: "(body)"}, Field{Name: "startDate"})), "startDate endDate numberOfGuests"; got != want {
		t.Errorf("fieldNames = %q, want %q", got, want)
	}
	for _, f := range nodesFaults {
		if _, ok := catalog["problem."+string(f)]; !ok {
			t.Errorf("no words for the problem %q", f)
		}
	}
}

var nodesFaults = []nodes.StayFault{nodes.EndBeforeStart, nodes.PastDates, nodes.TooFarAhead, nodes.TooLong, nodes.TooManyGuests}

func TestStepWordsInPortuguese(t *testing.T) {
	pt := WithLanguage(t.Context(), Portuguese)
	booking := nodes.UIComponent{ID: "b", Name: card.BookingConfirmation}
	stays := nodes.UIComponent{ID: "s", Name: card.Accommodations}
	step := replay.Step{Node: nodes.NodeCallTools, Pending: []nodes.UIComponent{booking},
		Change: replay.Change{Known: true, ComponentsAdded: []nodes.UIComponent{booking}, ComponentsUpdated: []nodes.UIComponent{stays, {Name: "weather"}},
			TripDetails: &replay.TripChange{After: &nodes.TripDetails{Location: "Lisbon", Country: "Spain"}}}}
	got := strings.Join(StepSummary(pt, step), "; ")
	want := "adicionou a confirmação de reserva; atualizou a lista de hospedagens; atualizou uma parte da resposta; " +
		"detalhes da viagem alterados: Lisboa, Espanha; aguardando resposta para a confirmação de reserva"
	if got != want {
		t.Errorf("StepSummary = %q, want %q", got, want)
	}
	for node, want := range map[string]string{nodes.NodeCallTools: "Fez as buscas", nodes.NodeExtraction: "Leu os detalhes da viagem",
		nodes.NodeClassify: "Classificou a mensagem", "enrich": "Trabalhou na resposta", "": "Você"} {
		if got := StepNode(pt, replay.Step{Node: node}); got != want {
			t.Errorf("StepNode(%q) = %q, want %q", node, got, want)
		}
	}
}
