package offline

import (
	"slices"
	"testing"
	"time"
)

// A misspelling only one destination is near is read with no question,
// and the reply names the place with what the traveller wrote; a place
// spelt right gets no note.
func TestMisspeltPlaceIsNamed(t *testing.T) {
	today := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		turn, lang, reply, want string
	}{
		{"hotel in budapset 3 nights from May 2", "en", "Found 8 places to stay in Budapest.", "Found 8 places to stay in Budapest (you wrote budapset)."},
		{"pousada em gramdo no feriado", "pt", "Encontrei 5 hospedagens em Gramado.", "Encontrei 5 hospedagens em Gramado (você escreveu gramdo)."},
		{"hotel em londre 2 noites", "pt", "Encontrei 9 hospedagens.", "Londres (você escreveu londre): Encontrei 9 hospedagens."},
		{"hotel in Budapest 3 nights from May 2", "en", "Found 8 places to stay in Budapest.", "Found 8 places to stay in Budapest."},
	}
	for _, tt := range tests {
		e := Understand([]string{tt.turn}, today)
		if slices.Contains(e.Unsure, "location") {
			t.Errorf("%q: the place is unsure; want it read", tt.turn)
		}
		if got := withSpellings(tt.reply, e); got != tt.want {
			t.Errorf("%q: reply %q, want %q", tt.turn, got, tt.want)
		}
	}
}
