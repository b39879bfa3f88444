package ui

import (
	"strconv"
	"strings"

	"github.com/tripgraph/tripgraph/nodes"
)

// ProfileView is the page that shows and edits what the planner remembers
// of the traveller, and their consent to it.
type ProfileView struct {
	AssetsURL string
	SaveURL   string // posts the form
	ForgetURL string // posts the forget button
	BackURL   string // the conversations
	CSRFToken string
	Remember  bool // the traveller agreed to be remembered
	Profile   nodes.Profile
	Saved     bool // the page follows a save
	Forgotten bool // the page follows a forget
}

// profileLabels are the page's labels, added to the catalog.
var profileLabels = map[string]map[string]string{
	"profile.title":           {English: "What I remember about you", Portuguese: "O que lembro sobre você"},
	"profile.open":            {English: "What I remember about you", Portuguese: "O que lembro sobre você"},
	"profile.intro":           {English: "With your consent, the planner keeps these details between conversations and uses them when you leave them out, telling you so.", Portuguese: "Com o seu consentimento, o planejador guarda estes dados entre as conversas e os usa quando você não os diz, avisando."},
	"profile.remember":        {English: "Remember me between conversations", Portuguese: "Lembrar de mim entre as conversas"},
	"profile.home":            {English: "Home city", Portuguese: "Cidade onde mora"},
	"profile.country":         {English: "Home country", Portuguese: "País"},
	"profile.currency":        {English: "Currency (such as EUR, BRL)", Portuguese: "Moeda (como BRL, EUR)"},
	"profile.party":           {English: "Usual party (people)", Portuguese: "Quantas pessoas costumam viajar"},
	"profile.children":        {English: "Children's ages (such as 5, 8)", Portuguese: "Idade das crianças (como 5, 8)"},
	"profile.diet":            {English: "Diets (such as vegetarian, gluten-free)", Portuguese: "Dietas (como vegetarian, gluten-free)"},
	"profile.budget":          {English: "Usual budget a night", Portuguese: "Orçamento de costume por noite"},
	"profile.budget.currency": {English: "Budget currency", Portuguese: "Moeda do orçamento"},
	"profile.language":        {English: "Language", Portuguese: "Idioma"},
	"profile.language.none":   {English: "Not set", Portuguese: "Não definido"},
	"profile.save":            {English: "Save", Portuguese: "Salvar"},
	"profile.saved":           {English: "Saved.", Portuguese: "Salvo."},
	"profile.forget":          {English: "Forget what you know about me", Portuguese: "Esquecer meus dados"},
	"profile.forgotten":       {English: "Done: nothing is remembered about you now.", Portuguese: "Pronto: nada mais é lembrado sobre você."},
	"profile.empty":           {English: "Nothing is remembered about you yet.", Portuguese: "Ainda não há nada lembrado sobre você."},
	"profile.back":            {English: "Back to your conversations", Portuguese: "Voltar às conversas"},
}

func init() {
	for k, v := range profileLabels {
		catalog[k] = v
	}
}

// intsField writes ages as the form shows them: "5, 8".
func intsField(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

// budgetField writes a budget's amount, "" without one.
func budgetField(b *nodes.Budget) string {
	if b == nil {
		return ""
	}
	return strconv.FormatFloat(b.Amount, 'f', -1, 64)
}

func budgetCurrency(b *nodes.Budget) string {
	if b == nil {
		return ""
	}
	return b.Currency
}

func partyField(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}
