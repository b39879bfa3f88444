package dates

import "testing"

// Dates composed from parts, on the Saturday clock of the other tests
// (2026-11-21): numbers in words, weekdays in a week named relative to
// this one, ordinal weekends, and numeric dates read the way the message
// shows.
func TestComposedForms(t *testing.T) {
	tests := []parseCase{
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
	checkParse(t, tests)
}

// A stay's own days among others: a return in the same message, an
// arrival and a flight home, ages that are no range, a range beside a
// day of its own, and a start day in a month named alone.
func TestStayAmongOtherDays(t *testing.T) {
	tests := []parseCase{
		{"pt", "dia 12 de dezembro, volto dia 15", "2026-12-12", "2026-12-15", 3},
		{"en", "we land on April 2 and fly home on the 12th", "2027-04-02", "2027-04-12", 10},
		{"en", "our kids (7 and 10) come too", "", "", 0},
		{"pt", "filhos de 5 e 8 anos", "", "", 0},
		{"pt", "casamos dia 20 de junho e depois vamos, de 22 de junho a 1 de julho", "2027-06-22", "2027-07-01", 9},
		{"pt", "15 dias em dezembro, a partir do dia 10", "2026-12-10", "2026-12-25", 15},
	}
	checkParse(t, tests)
}

// Corrections of a stay of Dec 3 to 6: a shift moves both ends unless
// one is named, a stretch moves the end, a replace keeps the days.
func TestCorrectionKinds(t *testing.T) {
	earlier := Parse("Dec 3 to Dec 6", "en", today)
	tests := []struct {
		lang, text, start, end string
	}{
		{"en", "push it back a week", "2026-12-10", "2026-12-13"},
		{"en", "can we push it a day later?", "2026-12-04", "2026-12-07"},
		{"en", "move it forward two days", "2026-12-01", "2026-12-04"},
		{"pt", "antecipa dois dias", "2026-12-01", "2026-12-04"},
		{"pt", "adiar uma semana", "2026-12-10", "2026-12-13"},
		{"en", "arrive a day later", "2026-12-04", "2026-12-06"},
		{"pt", "quero sair um dia antes", "2026-12-03", "2026-12-05"},
		{"en", "add one more night", "2026-12-03", "2026-12-07"},
		{"en", "two extra nights", "2026-12-03", "2026-12-08"},
		{"en", "extend by 2 nights", "2026-12-03", "2026-12-08"},
		{"pt", "2 noites a mais", "2026-12-03", "2026-12-08"},
		{"pt", "menos uma noite", "2026-12-03", "2026-12-05"},
		{"pt", "muda pra agosto, mesmos dias", "2027-08-03", "2027-08-06"},
		{"en", "same dates but in April", "2027-04-03", "2027-04-06"},
	}
	for _, tt := range tests {
		r := Update(earlier, tt.text, tt.lang, today)
		if fmtDate(r.Start) != tt.start || fmtDate(r.End) != tt.end {
			t.Errorf("Update(Dec 3–6, %q) = %s → %s, want %s → %s", tt.text, fmtDate(r.Start), fmtDate(r.End), tt.start, tt.end)
		}
	}
}

// Clauses: a dash ends one, "have been saving" is no trip that was, and
// ages end at punctuation.
func TestClauses(t *testing.T) {
	tests := []parseCase{
		{"en", "we have been saving for ages — we land on April 2 and fly home on the 12th", "2027-04-02", "2027-04-12", 10},
		{"en", "we've been to Rome in May, now Paris in June", "2027-06-01", "", 0},
		{"pt", "2 adultos e 3 crianças, de 5 a 10 de janeiro", "2027-01-05", "2027-01-10", 5},
	}
	checkParse(t, tests)
}

// Misspelt months and weekdays are the names they are one edit from.
func TestTypos(t *testing.T) {
	tests := []struct {
		lang, text, start, end string
	}{
		{"en", "febuary 3 to 7", "2027-02-03", "2027-02-07"},
		{"en", "feburary 3 to 7", "2027-02-03", "2027-02-07"},
		{"pt", "de 3 a 7 de setembor", "2027-09-03", "2027-09-07"},
		{"pt", "de 3 a 7 de dezenbro", "2026-12-03", "2026-12-07"},
		{"en", "from wednsday to saturday", "2026-11-25", "2026-11-28"},
		{"en", "what a match in march", "2027-03-01", ""},
	}
	for _, tt := range tests {
		r := Parse(tt.text, tt.lang, today)
		if fmtDate(r.Start) != tt.start || fmtDate(r.End) != tt.end {
			t.Errorf("Parse(%q) = %s → %s, want %s → %s", tt.text, fmtDate(r.Start), fmtDate(r.End), tt.start, tt.end)
		}
	}
}

func TestConnectorsInARow(t *testing.T) {
	r := Parse("chego dia 28 e volto dia 2", "pt", today)
	if fmtDate(r.Start) != "2026-11-28" || fmtDate(r.End) != "2026-12-02" {
		t.Errorf("chego dia 28 e volto dia 2 = %s → %s, want 2026-11-28 → 2026-12-02", fmtDate(r.Start), fmtDate(r.End))
	}
}

// A return after a relative start ends the stay.
func TestReturnAfterRelativeStart(t *testing.T) {
	tests := []struct{ lang, text, start, end string }{
		{"pt", "amanhã, volto domingo", "2026-11-22", "2026-11-29"},
		{"en", "tomorrow, back on Tuesday", "2026-11-22", "2026-11-24"},
		{"pt", "amanhã e volto dia 25", "2026-11-22", "2026-11-25"},
	}
	for _, tt := range tests {
		r := Parse(tt.text, tt.lang, today)
		if fmtDate(r.Start) != tt.start || fmtDate(r.End) != tt.end {
			t.Errorf("Parse(%q) = %s → %s, want %s → %s", tt.text, fmtDate(r.Start), fmtDate(r.End), tt.start, tt.end)
		}
	}
}

// parseCase is a message and the dates Parse should read from it.
type parseCase struct {
	lang, text, start, end string
	nights                 int
}

// checkParse parses each case on the Saturday clock and reports those
// read otherwise.
func checkParse(t *testing.T, tests []parseCase) {
	t.Helper()
	for _, tt := range tests {
		r := Parse(tt.text, tt.lang, today)
		if fmtDate(r.Start) != tt.start || fmtDate(r.End) != tt.end || r.Nights != tt.nights {
			t.Errorf("Parse(%q) = %s → %s (%d), want %s → %s (%d)", tt.text, fmtDate(r.Start), fmtDate(r.End), r.Nights, tt.start, tt.end, tt.nights)
		}
	}
}
