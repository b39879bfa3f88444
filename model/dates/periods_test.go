package dates

import (
	"testing"
	"time"
)

// Named periods, parts of months, bare days and an end alone, on the
// Saturday clock of the other tests; south reads seasons for the southern
// hemisphere.
func TestPeriods(t *testing.T) {
	tests := []struct {
		lang, text string
		south      bool
		start, end string
		nights     int
	}{
		{"en", "Easter in Rome", false, "2027-03-26", "2027-03-29", 3},
		{"pt", "Páscoa em Ouro Preto", false, "2027-03-26", "2027-03-29", 3},
		{"pt", "no Carnaval", false, "2027-02-06", "2027-02-10", 4},
		{"en", "Thanksgiving", false, "2026-11-26", "2026-11-29", 3},
		{"en", "Thanksgiving weekend", false, "2026-11-26", "2026-11-29", 3},
		{"en", "Christmas week", false, "2026-12-24", "2026-12-31", 7},
		{"pt", "no Natal", false, "2026-12-24", "2026-12-26", 2},
		{"pt", "em Natal", false, "", "", 0},
		{"en", "New Year's Eve", false, "2026-12-30", "2027-01-02", 3},
		{"pt", "réveillon", false, "2026-12-30", "2027-01-02", 3},
		{"en", "Memorial Day weekend", false, "2027-05-29", "2027-05-31", 2},
		{"en", "4th of July", false, "2027-07-03", "2027-07-05", 2},
		{"pt", "25 de Abril", false, "2027-04-24", "2027-04-26", 2},
		{"pt", "Corpus Christi", false, "2027-05-27", "2027-05-30", 3},
		{"en", "Christmas for 5 nights", false, "2026-12-24", "2026-12-29", 5},
		{"en", "Christmas from Dec 22 to Dec 27", false, "2026-12-22", "2026-12-27", 5},
		{"en", "summer", false, "2027-06-01", "", 0},
		{"pt", "verão", true, "2026-12-01", "", 0},
		{"en", "spring", true, "2026-11-21", "", 0},
		{"pt", "inverno", true, "2027-06-01", "", 0},
		{"en", "late April", false, "2027-04-21", "", 0},
		{"pt", "início de fevereiro", false, "2027-02-01", "", 0},
		{"en", "mid-January", false, "2027-01-11", "", 0},
		{"en", "the second week of May", false, "2027-05-08", "2027-05-15", 7},
		{"pt", "última semana de dezembro", false, "2026-12-24", "2026-12-31", 7},
		{"en", "the day after tomorrow", false, "2026-11-23", "", 0},
		{"pt", "depois de amanhã", false, "2026-11-23", "", 0},
		{"en", "from the 28th", false, "2026-11-28", "", 0},
		{"pt", "a partir do dia 3", false, "2026-12-03", "", 0},
		{"en", "until April 12", false, "", "2027-04-12", 0},
		{"pt", "até 12 de abril", false, "", "2027-04-12", 0},
		{"pt", "até o dia 30", false, "", "2026-11-30", 0},
		{"pt", "até sexta", false, "", "2026-11-27", 0},
		{"en", "checking out on the 2nd of January", false, "", "2027-01-02", 0},
		{"en", "for 3 from Oct 2 to Oct 6", false, "2027-10-02", "2027-10-06", 4},
		{"pt", "somos dez", false, "", "", 0},
		{"pt", "somos em dez, em janeiro", false, "2027-01-01", "", 0},
	}
	for _, tt := range tests {
		r := UpdateIn(Result{}, tt.text, tt.lang, today, tt.south)
		if fmtDate(r.Start) != tt.start || fmtDate(r.End) != tt.end || r.Nights != tt.nights {
			t.Errorf("UpdateIn(%q, south=%v) = %s → %s (%d), want %s → %s (%d)", tt.text, tt.south,
				fmtDate(r.Start), fmtDate(r.End), r.Nights, tt.start, tt.end, tt.nights)
		}
	}
}

func TestEaster(t *testing.T) {
	for y, want := range map[int]string{2024: "2024-03-31", 2025: "2025-04-20", 2026: "2026-04-05", 2027: "2027-03-28", 2028: "2028-04-16", 2038: "2038-04-25"} {
		if got := Easter(y).Format(time.DateOnly); got != want {
			t.Errorf("Easter(%d) = %s, want %s", y, got, want)
		}
	}
}
