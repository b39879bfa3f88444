package dates

import (
	"testing"
	"time"
)

var today = time.Date(2026, 11, 21, 15, 4, 0, 0, time.UTC) // a Saturday

func fmtDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("2006-01-02")
}

func TestParse(t *testing.T) {
	tests := []struct {
		lang, text, start, end string
		nights                 int
	}{
		{"en", "4 nights in Lisbon from May 3 to 7", "2027-05-03", "2027-05-07", 4},
		// A trip that was gives no dates.
		{"en", "we went to Rome in June, now Paris in March", "2027-03-01", "", 0},
		{"pt", "ano passado fomos em julho; agora queremos ir em maio", "2027-05-01", "", 0},
		{"en", "last summer was great, this time 3 nights in April", "2027-04-01", "2027-04-04", 3},
		{"en", "from 3rd to 7th of May", "2027-05-03", "2027-05-07", 4},
		{"en", "May 28 - June 2", "2027-05-28", "2027-06-02", 5},
		{"en", "dec 28 to jan 3", "2026-12-28", "2027-01-03", 6},
		{"pt", "de 3 a 7 de maio", "2027-05-03", "2027-05-07", 4},
		{"pt", "do dia 10 ao dia 15 de janeiro", "2027-01-10", "2027-01-15", 5},
		{"pt", "entre 28 de dezembro e 2 de janeiro", "2026-12-28", "2027-01-02", 5},
		{"en", "2027-05-03 to 2027-05-07", "2027-05-03", "2027-05-07", 4},
		{"pt", "chegando 03/05 saindo 07/05", "2027-05-03", "2027-05-07", 4},
		{"en", "arriving 05/03, leaving 05/07", "2027-05-03", "2027-05-07", 4},
		{"en", "next weekend", "2026-11-27", "2026-11-29", 2},
		{"en", "this weekend", "2026-11-21", "2026-11-22", 1},
		{"pt", "no próximo fim de semana", "2026-11-27", "2026-11-29", 2},
		{"pt", "fim de semana que vem", "2026-11-27", "2026-11-29", 2},
		{"pt", "na próxima semana", "2026-11-23", "", 0},
		{"en", "next week for 3 nights", "2026-11-23", "2026-11-26", 3},
		{"pt", "em julho", "2027-07-01", "", 0},
		{"en", "in July for a week", "2027-07-01", "2027-07-08", 7},
		{"en", "in two weeks", "2026-12-05", "", 0},
		{"pt", "daqui a 2 semanas", "2026-12-05", "", 0},
		{"en", "tomorrow", "2026-11-22", "", 0},
		{"pt", "amanhã por 2 noites", "2026-11-22", "2026-11-24", 2},
		{"en", "for christmas", "2026-12-24", "2026-12-26", 2},
		{"pt", "passar o natal em Natal", "2026-12-24", "2026-12-26", 2},
		{"pt", "réveillon em Copacabana", "2026-12-30", "2027-01-02", 3},
		{"en", "for 5 nights", "", "", 5},
		{"pt", "por uma semana", "", "", 7},
		{"en", "for a week", "", "", 7},
		{"pt", "4 noites", "", "", 4},
		{"pt", "um fim de semana em Paris", "", "", 2},
		{"en", "a long weekend in Rome", "", "", 3},
		{"en", "3 of us, 2 adults and a kid", "", "", 0},
		{"en", "I may go to Paris", "", "", 0},
		{"en", "in may", "2027-05-01", "", 0},
		{"en", "march 10 for five nights", "2027-03-10", "2027-03-15", 5},
		{"pt", "dia 15 de março, 3 noites", "2027-03-15", "2027-03-18", 3},
		{"pt", "15/03/2027", "2027-03-15", "", 0},
		{"en", "June 5th 2027 for 2 weeks", "2027-06-05", "2027-06-19", 14},
		{"pt", "de sexta a domingo", "2026-11-27", "2026-11-29", 2},
		{"en", "this friday", "2026-11-27", "", 0},
		{"pt", "vista para o mar, 2 pessoas", "", "", 0},
		{"en", "3 to 4 people", "", "", 0},
		{"pt", "dez dias em Roma", "", "", 10},
		{"en", "in december", "2026-12-01", "", 0},
		{"pt", "em novembro", "2026-11-21", "", 0},
		{"en", "5 days 4 nights", "", "", 4},
	}
	for _, tt := range tests {
		r := Parse(tt.text, tt.lang, today)
		if got := fmtDate(r.Start); got != tt.start {
			t.Errorf("Parse(%q) start = %q, want %q", tt.text, got, tt.start)
		}
		if got := fmtDate(r.End); got != tt.end {
			t.Errorf("Parse(%q) end = %q, want %q", tt.text, got, tt.end)
		}
		if r.Nights != tt.nights {
			t.Errorf("Parse(%q) nights = %d, want %d", tt.text, r.Nights, tt.nights)
		}
	}
}

func TestMerge(t *testing.T) {
	tests := []struct {
		turns      []string
		start, end string
		nights     int
	}{
		{[]string{"Lisbon May 3 to 7", "make it 5 nights"}, "2027-05-03", "2027-05-08", 5},
		{[]string{"Lisbon for 4 nights", "starting June 10"}, "2027-06-10", "2027-06-14", 4},
		{[]string{"May 3 to 7", "actually June 1 to 4"}, "2027-06-01", "2027-06-04", 3},
		{[]string{"May 3 to 7", "and restaurants?"}, "2027-05-03", "2027-05-07", 4},
	}
	for _, tt := range tests {
		var r Result
		for _, turn := range tt.turns {
			r = Merge(r, Parse(turn, "en", today))
		}
		if fmtDate(r.Start) != tt.start || fmtDate(r.End) != tt.end || r.Nights != tt.nights {
			t.Errorf("turns %q = %s %s %d, want %s %s %d", tt.turns, fmtDate(r.Start), fmtDate(r.End), r.Nights, tt.start, tt.end, tt.nights)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		Parse("4 nights in Lisbon from May 3 to 7 for 3 of us", "en", today)
	}
}

func TestDay(t *testing.T) {
	tests := []struct{ lang, text, want string }{
		{"en", "photos from my Japan album on March 15", "2026-03-15"},
		{"pt", "fotos do álbum Japão de 15/03/2024", "2024-03-15"},
		{"en", "photos from Nov 2", "2026-11-02"},
		{"en", "photos from my Japan album", ""},
		{"pt", "fotos de julho", ""},
	}
	for _, tt := range tests {
		d, ok := Day(tt.text, tt.lang, today)
		got := ""
		if ok {
			got = fmtDate(d)
		}
		if got != tt.want {
			t.Errorf("Day(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestParseMore(t *testing.T) {
	tests := []struct {
		lang, text, start, end string
		nights                 int
	}{
		{"pt", "chego dia 8 de janeiro e saio dia 11", "2027-01-08", "2027-01-11", 3},
		{"pt", "para Lisboa dia 1 de junho, volta dia 6", "2027-06-01", "2027-06-06", 5},
		{"pt", "somos 5, em agosto", "2027-08-01", "", 0},
		{"pt", "hotel em Roma pra 2 em junho", "2027-06-01", "", 0},
		{"en", "rio de janeiro for new year's", "2026-12-30", "2027-01-02", 3},
		{"en", "for 2 nigths", "", "", 2},
		{"en", "from the 24th to the 27th", "2026-11-24", "2026-11-27", 3},
		{"en", "hotel 2 weeks from today", "2026-12-05", "", 0},
		{"en", "3 days from now for 2 nights", "2026-11-24", "2026-11-26", 2},
	}
	for _, tt := range tests {
		r := Parse(tt.text, tt.lang, today)
		if fmtDate(r.Start) != tt.start || fmtDate(r.End) != tt.end || r.Nights != tt.nights {
			t.Errorf("Parse(%q) = %s %s %d, want %s %s %d", tt.text, fmtDate(r.Start), fmtDate(r.End), r.Nights, tt.start, tt.end, tt.nights)
		}
	}
}

func TestUpdateBareRange(t *testing.T) {
	earlier := Parse("de 10 a 14 de dezembro", "pt", today)
	r := Update(earlier, "pode ser de 12 a 16?", "pt", today)
	if fmtDate(r.Start) != "2026-12-12" || fmtDate(r.End) != "2026-12-16" || r.Nights != 4 {
		t.Errorf("Update = %s %s %d, want 2026-12-12 2026-12-16 4", fmtDate(r.Start), fmtDate(r.End), r.Nights)
	}
}
