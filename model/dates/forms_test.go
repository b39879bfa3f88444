package dates

import "testing"

// The forms travellers write besides plain dates, on the Saturday clock
// of the other tests.
func TestForms(t *testing.T) {
	tests := []struct {
		lang, text, start, end string
		nights                 int
	}{
		{"en", "a room tonight", "2026-11-21", "2026-11-22", 1},
		{"pt", "hotel hoje à noite", "2026-11-21", "2026-11-22", 1},
		{"pt", "pousada pra esta noite", "2026-11-21", "2026-11-22", 1},
		{"en", "the weekend after next", "2026-12-04", "2026-12-06", 2},
		{"pt", "o fim de semana depois do próximo", "2026-12-04", "2026-12-06", 2},
		{"en", "end of next month", "2026-12-21", "", 0},
		{"pt", "fim do mês que vem, 3 noites", "2026-12-21", "2026-12-24", 3},
		{"pt", "início do próximo mês", "2026-12-01", "", 0},
		{"en", "first half of January", "2027-01-01", "2027-01-15", 14},
		{"pt", "segunda quinzena de dezembro", "2026-12-16", "2026-12-31", 15},
		{"pt", "2ª quinzena de março", "2027-03-16", "2027-03-31", 15},
		{"pt", "1a quinzena de fevereiro", "2027-02-01", "2027-02-15", 14},
		{"en", "the week after Easter", "2027-03-29", "2027-04-05", 7},
		{"pt", "semana depois da Páscoa", "2027-03-29", "2027-04-05", 7},
		// A holiday's long weekend: its days off with the weekend, a
		// working day between them bridged.
		{"pt", "feriadão da Independência", "2027-09-04", "2027-09-07", 3},
		{"pt", "feriadão de 15 de novembro", "2027-11-13", "2027-11-15", 2},
		{"pt", "Nossa Senhora Aparecida, feriado prolongado", "2027-10-09", "2027-10-12", 3},
		{"en", "the Tiradentes long weekend", "2027-04-20", "2027-04-22", 2},
		// A return given as a bare day or a weekday.
		{"en", "leaving Dec 3, back on the 9th", "2026-12-03", "2026-12-09", 6},
		{"pt", "vou sexta e volto domingo", "2026-11-27", "2026-11-29", 2},
		// A date that is not the stay.
		{"en", "my sister's wedding is on Dec 12, hotel from the 11th to the 13th", "2026-12-11", "2026-12-13", 2},
		{"pt", "o aniversário dela é dia 5/12, queremos ficar de 4 a 6", "2026-12-04", "2026-12-06", 2},
		{"en", "23/12 to 27/12", "2026-12-23", "2026-12-27", 4},
	}
	for _, tt := range tests {
		r := Parse(tt.text, tt.lang, today)
		if fmtDate(r.Start) != tt.start || fmtDate(r.End) != tt.end || r.Nights != tt.nights {
			t.Errorf("Parse(%q) = %s → %s (%d), want %s → %s (%d)", tt.text, fmtDate(r.Start), fmtDate(r.End), r.Nights, tt.start, tt.end, tt.nights)
		}
	}
}

// Corrections of the dates stated before.
func TestCorrections(t *testing.T) {
	earlier := Parse("Dec 3 to Dec 6", "en", today)
	tests := []struct {
		lang, text, start, end string
		nights                 int
	}{
		{"en", "can we do a day later?", "2026-12-04", "2026-12-07", 3},
		{"pt", "um dia antes", "2026-12-02", "2026-12-05", 3},
		{"en", "a week later please", "2026-12-10", "2026-12-13", 3},
		{"en", "add one more night", "2026-12-03", "2026-12-07", 4},
		{"pt", "mais duas noites", "2026-12-03", "2026-12-08", 5},
		{"en", "one night less", "2026-12-03", "2026-12-05", 2},
		{"en", "same days in January", "2027-01-03", "2027-01-06", 3},
		{"pt", "mesmos dias em fevereiro", "2027-02-03", "2027-02-06", 3},
		{"pt", "volto dia 9", "2026-12-03", "2026-12-09", 6},
		{"en", "back on Tuesday", "2026-12-03", "2026-12-08", 5},
	}
	for _, tt := range tests {
		r := Update(earlier, tt.text, tt.lang, today)
		if fmtDate(r.Start) != tt.start || fmtDate(r.End) != tt.end || r.Nights != tt.nights {
			t.Errorf("Update(Dec 3–6, %q) = %s → %s (%d), want %s → %s (%d)", tt.text, fmtDate(r.Start), fmtDate(r.End), r.Nights, tt.start, tt.end, tt.nights)
		}
	}
	if r := Update(Result{}, "a day later", "en", today); !r.Empty() {
		t.Errorf("a day later with no dates before = %+v, want nothing", r)
	}
}

func TestAlternatives(t *testing.T) {
	tests := []struct {
		lang, text string
		want       bool
	}{
		{"en", "arriving the 14th or the 15th of March", true},
		{"pt", "chego dia 3 ou 4 de maio", true},
		{"en", "May 3 or May 10, not sure yet", true},
		{"en", "May 3 to 7, 2 or 3 of us", false},
		{"pt", "de 3 a 7 de maio, hotel ou pousada", false},
		{"en", "March 14 to 17", false},
	}
	for _, tt := range tests {
		if got := Alternatives(tt.text, tt.lang, today); got != tt.want {
			t.Errorf("Alternatives(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
