package dates

import (
	"testing"
	"time"
)

// "This weekend" and "next weekend", in every way travellers type them,
// give the same days on each day of the week. Monday to Friday, this
// weekend is the coming Friday to Sunday; on a Saturday it is today to
// Sunday, on a Sunday today to Monday (the weekend under way, one night
// left). Next weekend is the Friday to Sunday of the following week.
func TestWeekendOnEveryDay(t *testing.T) {
	this := []struct{ lang, text string }{
		{"en", "this weekend"}, {"en", "this wknd"}, {"en", "over the weekend"}, {"en", "for the weekend"},
		{"en", "this coming weekend"}, {"en", "during the weekend"},
		{"pt", "no fds"}, {"pt", "neste fds"}, {"pt", "esse fds"}, {"pt", "pro fds"}, {"pt", "no fim de semana"},
		{"pt", "no final de semana"}, {"pt", "nesse final de semana"}, {"pt", "no fim-de-semana"}, {"pt", "pro final de semana"},
		{"pt", "para o fim de semana"}, {"pt", "este fim de semana"},
	}
	next := []struct{ lang, text string }{
		{"en", "next weekend"}, {"en", "next wknd"}, {"en", "the following weekend"},
		{"pt", "fds que vem"}, {"pt", "próximo fds"}, {"pt", "no proximo fds"}, {"pt", "fim de semana que vem"},
		{"pt", "final de semana que vem"}, {"pt", "no próximo final de semana"}, {"pt", "fim de semana seguinte"},
	}
	monday := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	for d := 0; d < 7; d++ {
		now := monday.AddDate(0, 0, d)
		today := day(now)
		fri := day(monday).AddDate(0, 0, 4)
		thisStart, thisEnd := fri, fri.AddDate(0, 0, 2)
		switch now.Weekday() {
		case time.Saturday:
			thisStart, thisEnd = today, today.AddDate(0, 0, 1)
		case time.Sunday:
			thisStart, thisEnd = today, today.AddDate(0, 0, 1)
		}
		nextStart := fri.AddDate(0, 0, 7)
		check := func(lang, text string, start, end time.Time) {
			r := Parse(text, lang, now)
			if !r.Start.Equal(start) || !r.End.Equal(end) || r.Nights != int(end.Sub(start).Hours()/24) {
				t.Errorf("%s, %q: %s → %s (%d nights), want %s → %s", now.Weekday(), text, fmtDate(r.Start), fmtDate(r.End), r.Nights, fmtDate(start), fmtDate(end))
			}
		}
		for _, tc := range this {
			check(tc.lang, tc.text, thisStart, thisEnd)
		}
		for _, tc := range next {
			check(tc.lang, tc.text, nextStart, nextStart.AddDate(0, 0, 2))
		}
	}
}

// A weekend with an article of its own ("a weekend", "um fds") is a
// length, not a date.
func TestWeekendAsLength(t *testing.T) {
	for _, tc := range []struct{ lang, text string }{
		{"en", "a weekend in Porto"}, {"en", "just a wknd"}, {"pt", "um fds em Paraty"}, {"pt", "um final de semana na serra"},
	} {
		if r := Parse(tc.text, tc.lang, today); r.HasStart() || r.Nights != 2 {
			t.Errorf("%q: %s → %s (%d nights), want 2 nights and no dates", tc.text, fmtDate(r.Start), fmtDate(r.End), r.Nights)
		}
	}
}
