package checklist_test

import (
	"fmt"
	"time"

	"github.com/tripgraph/tripgraph/model/offline"
)

// destinations are the cities of the cases, read once.
var destinations = cities(150)

// nightsInWords: every number word from one to twenty as a length of
// stay, in both languages.
func nightsInWords() []test {
	var out []test
	for n := 1; n <= 20; n++ {
		for i, c := range pick(destinations, 5, n) {
			night := "nights"
			noite := "noites"
			if n == 1 {
				night, noite = "night", "noite"
			}
			for _, tc := range []struct{ lang, text string }{
				{"en", fmt.Sprintf("%s for %s %s", c.en, numbersEN[n], night)},
				{"en", fmt.Sprintf("%s %s in %s", numbersEN[n], night, c.en)},
				{"pt", fmt.Sprintf("%s %s em %s", numbersPTFem[n], noite, c.pt)},
				{"pt", fmt.Sprintf("%s por %s %s", c.pt, numbersPTFem[n], noite)},
			} {
				if i%2 == 1 && tc.lang == "en" {
					tc.text = "hotel: " + tc.text
				}
				out = append(out, test{"dates/nights in words", "MFT", tc.lang, []string{tc.text}, wantNights(n)})
			}
		}
	}
	return out
}

// dayMonthRanges: ranges of days in every month, with every connective.
func dayMonthRanges() []test {
	var out []test
	for m := 1; m <= 12; m++ {
		for _, d := range []int{1, 4, 9, 12, 15, 19, 22, 25} {
			start := next(time.Month(m), d)
			end := start.AddDate(0, 0, 3)
			for i, c := range pick(destinations, 45, m+d) {
				en, pt := monthsEN[m], monthsPT[m]
				if i%2 == 1 {
					en = en[:3]
				}
				for _, tc := range []struct{ lang, text string }{
					{"en", fmt.Sprintf("%s from %s %d to %d", c.en, en, d, d+3)},
					{"en", fmt.Sprintf("%s, %d-%d %s", c.en, d, d+3, en)},
					{"en", fmt.Sprintf("%s %d through %d in %s", c.en, d, d+3, c.en)},
					{"en", fmt.Sprintf("hotel in %s between %s %d and %s %d", c.en, en, d, en, d+3)},
					{"pt", fmt.Sprintf("%s de %d a %d de %s", c.pt, d, d+3, pt)},
					{"pt", fmt.Sprintf("%s do dia %d ao dia %d de %s", c.pt, d, d+3, pt)},
					{"pt", fmt.Sprintf("hotel em %s entre %d e %d de %s", c.pt, d, d+3, pt)},
					{"pt", fmt.Sprintf("%s, %d/%d a %d/%d", c.pt, d, m, d+3, m)},
				} {
					if tc.text == fmt.Sprintf("%s %d through %d in %s", c.en, d, d+3, c.en) {
						tc.text = fmt.Sprintf("%s %s %d through %d", c.en, en, d, d+3)
					}
					out = append(out, test{"dates/day ranges", "MFT", tc.lang, []string{tc.text}, wantDates(start, end)})
				}
			}
		}
	}
	return out
}

// ordinalDays: every day of every month written in words, as a start.
func ordinalDays() []test {
	var out []test
	for m := 1; m <= 12; m++ {
		for d := 1; d <= 31; d++ {
			if date(2027, time.Month(m), d).Month() != time.Month(m) {
				continue
			}
			start := next(time.Month(m), d)
			want := all(wantDates(start, start.AddDate(0, 0, 2)), wantNights(2))
			c := destinations[(m*31+d)%len(destinations)]
			ptDay := spelledPT(d)
			if d == 1 {
				ptDay = "primeiro"
			}
			out = append(out,
				test{"dates/days in words", "MFT", "en", []string{fmt.Sprintf("%s from the %s of %s, 2 nights", c.en, spelledEN(d, true), monthsEN[m])}, want},
				test{"dates/days in words", "MFT", "en", []string{fmt.Sprintf("%s, %s %s for two nights", c.en, monthsEN[m], spelledEN(d, true))}, want},
				test{"dates/days in words", "MFT", "pt", []string{fmt.Sprintf("%s a partir de %s de %s, 2 noites", c.pt, ptDay, monthsPT[m])}, want},
				test{"dates/days in words", "MFT", "pt", []string{fmt.Sprintf("%s dia %s de %s, duas noites", c.pt, ptDay, monthsPT[m])}, want},
			)
		}
	}
	return out
}

// weekdayRanges: every pair of weekdays, this week or the next, in full
// and short, in both languages.
func weekdayRanges() []test {
	var out []test
	monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
	for a := 0; a < 7; a++ {
		for b := 0; b < 7; b++ {
			if a == b {
				continue
			}
			gap := (b - a + 7) % 7
			ahead := (a - int(today.Weekday()) + 7) % 7
			if ahead == 0 {
				ahead = 7
			}
			plain := today.AddDate(0, 0, ahead)
			nextWeek := monday.AddDate(0, 0, 7+(a+6)%7)
			for i, c := range pick(destinations, 25, a*7+b) {
				if i > 5 {
					break
				}
				pw := func(wd int) string {
					if wd == 0 || wd == 6 {
						return weekdaysPT[wd]
					}
					return weekdaysPT[wd] + "-feira"
				}
				for _, tc := range []struct {
					lang, text string
					start      time.Time
				}{
					{"en", fmt.Sprintf("%s from %s to %s", c.en, weekdaysEN[a], weekdaysEN[b]), plain},
					{"en", fmt.Sprintf("%s %s-%s", c.en, shortEN[a], shortEN[b]), plain},
					{"en", fmt.Sprintf("%s %s to %s next week", c.en, shortEN[a], shortEN[b]), nextWeek},
					{"en", fmt.Sprintf("%s next week, %s through %s", c.en, weekdaysEN[a], weekdaysEN[b]), nextWeek},
					{"pt", fmt.Sprintf("%s de %s a %s", c.pt, pw(a), pw(b)), plain},
					{"pt", fmt.Sprintf("%s de %s a %s da semana que vem", c.pt, weekdaysPT[a], weekdaysPT[b]), nextWeek},
					{"pt", fmt.Sprintf("%s na próxima semana, de %s a %s", c.pt, pw(a), pw(b)), nextWeek},
				} {
					out = append(out, test{"dates/weekdays", "MFT", tc.lang, []string{tc.text}, wantDates(tc.start, tc.start.AddDate(0, 0, gap))})
				}
			}
		}
	}
	return out
}

// holidaysRead: every holiday, in both languages, gives a stay that holds
// its day.
func holidaysRead() []test {
	var out []test
	for i, h := range holidays {
		check := func(e offline.Extraction) string {
			s, en := e.Dates.Start, e.Dates.End
			if s.IsZero() || en.IsZero() || !en.After(s) || e.Dates.Nights > 8 {
				return fmt.Sprintf("dates %s → %s", day(s), day(en))
			}
			for y := today.Year(); y <= today.Year()+1; y++ {
				if d := h.day(y); !d.Before(s) && !d.After(en) {
					return ""
				}
			}
			return fmt.Sprintf("dates %s → %s do not hold %s", day(s), day(en), h.en)
		}
		for j, c := range pick(destinations, 9, i) {
			for _, tc := range []struct{ lang, text string }{
				{"en", fmt.Sprintf("%s for %s", c.en, h.en)},
				{"en", fmt.Sprintf("hotel in %s over %s", c.en, h.en)},
				{"pt", fmt.Sprintf("%s no feriado de %s", c.pt, h.pt)},
				{"pt", fmt.Sprintf("hotel em %s para o %s", c.pt, h.pt)},
			} {
				if tc.lang == "pt" && h.pt == "" || tc.lang == "en" && h.en == "" {
					continue
				}
				if j%3 == 2 {
					tc.text += ", 2 people"
				}
				out = append(out, test{"dates/holidays", "MFT", tc.lang, []string{tc.text}, check})
			}
		}
	}
	return out
}

// monthParts: early, mid and late, halves, fortnights and ordinal
// weekends of every month.
func monthParts() []test {
	var out []test
	for m := 1; m <= 12; m++ {
		mon := time.Month(m)
		y := today.Year()
		if mon < today.Month() {
			y++
		}
		clip := func(t time.Time) time.Time {
			if t.Before(today) {
				return today
			}
			return t
		}
		last := date(y, mon+1, 0)
		weekend := func(n int) time.Time { // the Saturday of the nth weekend
			if n < 0 {
				return last.AddDate(0, 0, -((int(last.Weekday()) - 6 + 7) % 7))
			}
			first := date(y, mon, 1)
			return first.AddDate(0, 0, (6-int(first.Weekday())+7)%7+7*(n-1))
		}
		for i, c := range pick(destinations, 12, m) {
			if i > 3 {
				break
			}
			type tc struct {
				lang, text string
				check      func(offline.Extraction) string
			}
			cases := []tc{
				{"en", fmt.Sprintf("%s in early %s", c.en, monthsEN[m]), wantDates(clip(date(y, mon, 1)), time.Time{})},
				{"en", fmt.Sprintf("%s mid-%s", c.en, monthsEN[m]), wantDates(clip(date(y, mon, 11)), time.Time{})},
				{"en", fmt.Sprintf("%s late %s", c.en, monthsEN[m]), wantDates(clip(date(y, mon, 21)), time.Time{})},
				{"pt", fmt.Sprintf("%s no início de %s", c.pt, monthsPT[m]), wantDates(clip(date(y, mon, 1)), time.Time{})},
				{"pt", fmt.Sprintf("%s em meados de %s", c.pt, monthsPT[m]), wantDates(clip(date(y, mon, 11)), time.Time{})},
				{"pt", fmt.Sprintf("%s no fim de %s", c.pt, monthsPT[m]), wantDates(clip(date(y, mon, 21)), time.Time{})},
			}
			if m != int(today.Month()) {
				cases = append(cases,
					tc{"en", fmt.Sprintf("%s the first half of %s", c.en, monthsEN[m]), wantDates(date(y, mon, 1), date(y, mon, 15))},
					tc{"en", fmt.Sprintf("%s second half of %s", c.en, monthsEN[m]), wantDates(date(y, mon, 16), last)},
					tc{"pt", fmt.Sprintf("%s na primeira quinzena de %s", c.pt, monthsPT[m]), wantDates(date(y, mon, 1), date(y, mon, 15))},
					tc{"pt", fmt.Sprintf("%s na segunda quinzena de %s", c.pt, monthsPT[m]), wantDates(date(y, mon, 16), last)},
					tc{"en", fmt.Sprintf("%s the first weekend of %s", c.en, monthsEN[m]), wantDates(weekend(1).AddDate(0, 0, -1), weekend(1).AddDate(0, 0, 1))},
					tc{"en", fmt.Sprintf("%s the last weekend of %s", c.en, monthsEN[m]), wantDates(weekend(-1).AddDate(0, 0, -1), weekend(-1).AddDate(0, 0, 1))},
					tc{"pt", fmt.Sprintf("%s no segundo fim de semana de %s", c.pt, monthsPT[m]), wantDates(weekend(2).AddDate(0, 0, -1), weekend(2).AddDate(0, 0, 1))},
					tc{"pt", fmt.Sprintf("%s no último fim de semana de %s", c.pt, monthsPT[m]), wantDates(weekend(-1).AddDate(0, 0, -1), weekend(-1).AddDate(0, 0, 1))},
				)
			}
			for _, k := range cases {
				out = append(out, test{"dates/parts of a month", "MFT", k.lang, []string{k.text}, k.check})
			}
		}
	}
	return out
}

// monthTypos: a month misspelt by one letter reads as the month.
func monthTypos() []test {
	var out []test
	for m := 1; m <= 12; m++ {
		for i, c := range pick(destinations, 15, m) {
			for _, lang := range []string{"en", "pt"} {
				name := monthsEN[m]
				if lang == "pt" {
					name = monthsPT[m]
				}
				if len(name) < 5 {
					continue
				}
				typo := perturb(name, i+m)
				text := fmt.Sprintf("%s from %s 10 to %s 14", c.en, typo, typo)
				if lang == "pt" {
					text = fmt.Sprintf("%s de 10 a 14 de %s", c.pt, typo)
				}
				start := next(time.Month(m), 10)
				out = append(out, test{"dates/misspelt months", "INV", lang, []string{text}, wantDates(start, start.AddDate(0, 0, 4))})
			}
		}
	}
	return out
}
