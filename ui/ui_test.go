package ui_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/ui"
)

// render renders a component in a language and returns its HTML.
func render(t *testing.T, lang string, c templ.Component) string {
	t.Helper()
	var b bytes.Buffer
	if err := c.Render(ui.WithLanguage(context.Background(), lang), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// component builds a UI record with props encoded as JSON.
func component(t testing.TB, id, name string, props any) nodes.UIComponent {
	t.Helper()
	data, err := json.Marshal(props)
	if err != nil {
		t.Fatal(err)
	}
	return nodes.UIComponent{ID: id, Name: name, Props: data, MessageID: "m1"}
}

// checkHTML asserts that html contains every want and none of the absent.
func checkHTML(t *testing.T, html string, want, absent []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(html, w) {
			t.Errorf("missing %q in\n%s", w, html)
		}
	}
	for _, a := range absent {
		if strings.Contains(html, a) {
			t.Errorf("unexpected %q in\n%s", a, html)
		}
	}
}

// A conversation is named by its trip, briefly, in the page's language.
func TestTripTitle(t *testing.T) {
	legs := nodes.TripDetails{Location: "Lisbon", StartDate: "2027-05-03", EndDate: "2027-05-09", NumberOfGuests: 2,
		Legs: []nodes.Leg{{Location: "Lisbon", StartDate: "2027-05-03", EndDate: "2027-05-06"}, {Location: "Porto", StartDate: "2027-05-06", EndDate: "2027-05-09"}}}
	tests := []struct {
		lang string
		td   nodes.TripDetails
		want string
	}{
		{"en", nodes.TripDetails{Location: "Lisbon", Country: "Portugal", StartDate: "2027-05-01", EndDate: "2027-05-05", NumberOfGuests: 3}, "Lisbon · 1–5 May · 3 guests"},
		{"pt", nodes.TripDetails{Location: "Lisbon", StartDate: "2027-05-01", EndDate: "2027-05-05", NumberOfGuests: 1}, "Lisboa · 1–5 mai · 1 hóspede"},
		{"en", nodes.TripDetails{Location: "Kyoto", StartDate: "2027-04-30", EndDate: "2027-05-03", NumberOfGuests: 2}, "Kyoto · 30 Apr – 3 May · 2 guests"},
		{"en", nodes.TripDetails{Location: "Rio de Janeiro", StartDate: "2026-12-30", EndDate: "2027-01-02", NumberOfGuests: 4}, "Rio de Janeiro · 30 Dec 2026 – 2 Jan 2027 · 4 guests"},
		{"pt", legs, "Lisboa → Porto · 3–9 mai · 2 hóspedes"},
	}
	for _, tt := range tests {
		if got := ui.TripTitle(ui.WithLanguage(t.Context(), tt.lang), tt.td); got != tt.want {
			t.Errorf("TripTitle(%s, %+v) = %q, want %q", tt.lang, tt.td, got, tt.want)
		}
	}
}
