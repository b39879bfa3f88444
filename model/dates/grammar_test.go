package dates

import "testing"

// Dates composed from parts, on the Saturday clock of the other tests
// (2026-11-21): numbers in words, weekdays in a week named relative to
// this one, ordinal weekends, and numeric dates read the way the message
// shows.
func TestComposedForms(t *testing.T) {
	tests := []struct {
		lang, text, start, end string
		nights                 int
	}{
		// Numbers in words, cardinal and ordinal.
		{"en", "from the twenty-first of May for five nights", "2027-05-21", "2027-05-26", 5},
		{"en", "May first to third", "2027-05-01", "2027-05-03", 2},
		{"pt", "de vinte e um a vinte e cinco de maio", "2027-05-21", "2027-05-25", 4},
		{"pt", "dia primeiro de junho, sete noites", "2027-06-01", "2027-06-08", 7},
		{"en", "two to three nights", "", "", 3},
		// Weekdays, alone, short and in a named week.
		{"en", "wed to sat next week", "2026-11-25", "2026-11-28", 3},
		{"en", "next week, thu-sun", "2026-11-26", "2026-11-29", 3},
		{"pt", "de quarta a sábado da semana que vem", "2026-11-25", "2026-11-28", 3},
		{"pt", "semana que vem de qui a dom", "2026-11-26", "2026-11-29", 3},
		{"en", "fri-sun", "2026-11-27", "2026-11-29", 2},
		{"en", "friday the week after next", "2026-12-04", "", 0},
		{"en", "I sat on the sofa", "", "", 0},
		// Ordinal weekends of a month.
		{"en", "the first weekend of March", "2027-03-05", "2027-03-07", 2},
		{"en", "last weekend of January", "2027-01-29", "2027-01-31", 2},
		{"pt", "último fim de semana de janeiro", "2027-01-29", "2027-01-31", 2},
		{"pt", "segundo fim de semana de abril", "2027-04-09", "2027-04-11", 2},
		// "The weekend" without "this" or "next" is the coming one.
		{"pt", "no fim de semana", "2026-11-21", "2026-11-22", 1},
		{"en", "over the weekend", "2026-11-21", "2026-11-22", 1},
		// A numeric date that can only be day first makes the others so.
		{"en", "from 27/12 to 02/01", "2026-12-27", "2027-01-02", 6},
		{"pt", "12/28 a 01/03", "2026-12-28", "2027-01-03", 6},
		// Holidays by their rule.
		{"en", "Presidents' Day weekend", "2027-02-13", "2027-02-15", 2},
		{"en", "MLK day", "2027-01-16", "2027-01-18", 2},
		{"pt", "feriado da Consciência Negra", "2027-11-19", "2027-11-21", 2},
	}
	for _, tt := range tests {
		r := Parse(tt.text, tt.lang, today)
		if fmtDate(r.Start) != tt.start || fmtDate(r.End) != tt.end || r.Nights != tt.nights {
			t.Errorf("Parse(%q) = %s → %s (%d), want %s → %s (%d)", tt.text, fmtDate(r.Start), fmtDate(r.End), r.Nights, tt.start, tt.end, tt.nights)
		}
	}
}
