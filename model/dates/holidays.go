package dates

import "time"

// A holiday is a festive period travellers plan around. Its dates are the
// stay around it: a one-day holiday is the night before to the day after,
// and one on a Monday the long weekend from Saturday. Periods (Carnaval,
// Christmas week, Thanksgiving to Sunday) have their own span.
type holiday struct {
	words []string // folded words that name it, in order
	span  func(year int) (time.Time, int)
}

// holidays are the ones of Brazil, Portugal, the United States and the
// United Kingdom that people travel for. Longer names come before the
// shorter ones they contain ("christmas week" before "christmas").
var holidays = []holiday{
	{[]string{"christmas", "week"}, fixedSpan(time.December, 24, 7)},
	{[]string{"semana", "do", "natal"}, fixedSpan(time.December, 24, 7)},
	{[]string{"semana", "de", "natal"}, fixedSpan(time.December, 24, 7)},
	{[]string{"christmas"}, fixedSpan(time.December, 24, 2)},
	{[]string{"xmas"}, fixedSpan(time.December, 24, 2)},
	{[]string{"boxing", "day"}, oneDay(time.December, 26)},
	{[]string{"new", "year", "s", "eve"}, fixedSpan(time.December, 30, 3)},
	{[]string{"new", "years", "eve"}, fixedSpan(time.December, 30, 3)},
	{[]string{"new", "year"}, fixedSpan(time.December, 30, 3)},
	{[]string{"new", "years"}, fixedSpan(time.December, 30, 3)},
	{[]string{"nye"}, fixedSpan(time.December, 30, 3)},
	{[]string{"hogmanay"}, fixedSpan(time.December, 30, 3)},
	{[]string{"reveillon"}, fixedSpan(time.December, 30, 3)},
	{[]string{"virada", "do", "ano"}, fixedSpan(time.December, 30, 3)},
	{[]string{"passagem", "de", "ano"}, fixedSpan(time.December, 30, 3)},
	{[]string{"ano", "novo"}, fixedSpan(time.December, 30, 3)},
	{[]string{"semana", "santa"}, easterSpan(-7, 7)},
	{[]string{"holy", "week"}, easterSpan(-7, 7)},
	{[]string{"easter"}, easterSpan(-2, 3)},
	{[]string{"pascoa"}, easterSpan(-2, 3)},
	{[]string{"good", "friday"}, easterSpan(-2, 3)},
	{[]string{"sexta", "feira", "santa"}, easterSpan(-2, 3)},
	{[]string{"sexta", "santa"}, easterSpan(-2, 3)},
	{[]string{"carnaval"}, easterSpan(-50, 4)},
	{[]string{"carnival"}, easterSpan(-50, 4)},
	{[]string{"mardi", "gras"}, easterSpan(-50, 4)},
	{[]string{"corpus", "christi"}, easterSpan(60, 3)},
	{[]string{"thanksgiving"}, nthWeekdaySpan(time.November, time.Thursday, 4, 0, 3)},
	{[]string{"acao", "de", "gracas"}, nthWeekdaySpan(time.November, time.Thursday, 4, 0, 3)},
	{[]string{"memorial", "day"}, lastMondaySpan(time.May)},
	{[]string{"spring", "bank", "holiday"}, lastMondaySpan(time.May)},
	{[]string{"summer", "bank", "holiday"}, lastMondaySpan(time.August)},
	{[]string{"august", "bank", "holiday"}, lastMondaySpan(time.August)},
	{[]string{"early", "may", "bank", "holiday"}, nthWeekdaySpan(time.May, time.Monday, 1, -2, 2)},
	{[]string{"may", "day", "bank", "holiday"}, nthWeekdaySpan(time.May, time.Monday, 1, -2, 2)},
	{[]string{"labor", "day"}, nthWeekdaySpan(time.September, time.Monday, 1, -2, 2)},
	{[]string{"labour", "day"}, nthWeekdaySpan(time.September, time.Monday, 1, -2, 2)},
	{[]string{"4th", "of", "july"}, oneDay(time.July, 4)},
	{[]string{"fourth", "of", "july"}, oneDay(time.July, 4)},
	{[]string{"july", "4th"}, oneDay(time.July, 4)},
	{[]string{"independence", "day"}, oneDay(time.July, 4)},
	{[]string{"halloween"}, oneDay(time.October, 31)},
	{[]string{"st", "patrick"}, oneDay(time.March, 17)},
	{[]string{"saint", "patrick"}, oneDay(time.March, 17)},
	{[]string{"tiradentes"}, oneDay(time.April, 21)},
	{[]string{"dia", "do", "trabalho"}, oneDay(time.May, 1)},
	{[]string{"dia", "do", "trabalhador"}, oneDay(time.May, 1)},
	{[]string{"25", "de", "abril"}, oneDay(time.April, 25)},
	{[]string{"dia", "da", "liberdade"}, oneDay(time.April, 25)},
	{[]string{"dia", "de", "portugal"}, oneDay(time.June, 10)},
	{[]string{"santo", "antonio"}, oneDay(time.June, 13)},
	{[]string{"sao", "joao"}, oneDay(time.June, 24)},
	{[]string{"festa", "junina"}, oneDay(time.June, 24)},
	{[]string{"festas", "juninas"}, oneDay(time.June, 24)},
	{[]string{"independencia"}, oneDay(time.September, 7)},
	{[]string{"7", "de", "setembro"}, oneDay(time.September, 7)},
	{[]string{"nossa", "senhora", "aparecida"}, oneDay(time.October, 12)},
	{[]string{"finados"}, oneDay(time.November, 2)},
	{[]string{"proclamacao", "da", "republica"}, oneDay(time.November, 15)},
	{[]string{"implantacao", "da", "republica"}, oneDay(time.October, 5)},
	{[]string{"todos", "os", "santos"}, oneDay(time.November, 1)},
	{[]string{"dia", "dos", "namorados"}, oneDay(time.June, 12)},
	{[]string{"valentine", "s", "day"}, oneDay(time.February, 14)},
	{[]string{"valentines", "day"}, oneDay(time.February, 14)},
}

// fixedSpan is a period that starts on the same day every year.
func fixedSpan(m time.Month, d, nights int) func(int) (time.Time, int) {
	return func(y int) (time.Time, int) { return date(y, m, d), nights }
}

// oneDay is a one-day holiday, with the stay around it.
func oneDay(m time.Month, d int) func(int) (time.Time, int) {
	return func(y int) (time.Time, int) { return around(date(y, m, d)) }
}

// around is the stay around a holiday on day d.
func around(d time.Time) (time.Time, int) {
	if d.Weekday() == time.Monday {
		return d.AddDate(0, 0, -2), 2
	}
	return d.AddDate(0, 0, -1), 2
}

// easterSpan starts off days after Easter Sunday.
func easterSpan(off, nights int) func(int) (time.Time, int) {
	return func(y int) (time.Time, int) { return Easter(y).AddDate(0, 0, off), nights }
}

// nthWeekdaySpan starts off days after the nth such weekday of a month.
func nthWeekdaySpan(m time.Month, wd time.Weekday, n, off, nights int) func(int) (time.Time, int) {
	return func(y int) (time.Time, int) {
		first := date(y, m, 1)
		d := first.AddDate(0, 0, (int(wd)-int(first.Weekday())+7)%7+7*(n-1))
		return d.AddDate(0, 0, off), nights
	}
}

// lastMondaySpan is the long weekend of a month's last Monday.
func lastMondaySpan(m time.Month) func(int) (time.Time, int) {
	return func(y int) (time.Time, int) {
		last := date(y, m+1, 0)
		return around(last.AddDate(0, 0, -((int(last.Weekday()) + 6) % 7)))
	}
}

// Easter returns Easter Sunday of a Gregorian year (the anonymous
// Gregorian algorithm, also known as Meeus/Jones/Butcher).
func Easter(y int) time.Time {
	a, b, c := y%19, y/100, y%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return date(y, time.Month(month), day)
}

// holidayAt reads a holiday named at toks[i]: the next one not yet begun.
func (p parser) holidayAt(i int) (Result, int, bool) {
	for _, h := range holidays {
		if !p.wordsAt(i, h.words) {
			continue
		}
		return p.holidayOf(h.span), len(h.words), true
	}
	if p.word(i) == "natal" && p.christmasNatal(i) {
		return p.holidayOf(fixedSpan(time.December, 24, 2)), 1, true
	}
	return Result{}, 0, false
}

// holidayOf is the next occurrence of a holiday that has not begun.
func (p parser) holidayOf(span func(int) (time.Time, int)) Result {
	start, nights := span(p.today.Year())
	if start.Before(p.today) {
		start, nights = span(p.today.Year() + 1)
	}
	return Result{Start: start, End: start.AddDate(0, 0, nights)}
}

// christmasNatal tells "Natal" the holiday ("no Natal", "Natal em
// Gramado") from Natal the city ("em Natal", "para Natal").
func (p parser) christmasNatal(i int) bool {
	switch p.word(i - 1) {
	case "no", "o", "do", "pro", "proximo", "feliz", "ceia", "de", "ate":
		return true
	case "em", "para", "pra", "a", "conhecer", "visitar", "in", "to":
		return false
	}
	if _, month := months[p.word(i+2)]; p.word(i+1) == "em" && month {
		return false // "Natal em janeiro" is the city
	}
	return p.word(i+1) == "em" || p.word(i+1) == "com" || p.word(i+1) == "e" || i == 0
}

// wordsAt reports whether toks[i:] begin with ws (words or digits).
func (p parser) wordsAt(i int, ws []string) bool {
	if i+len(ws) > len(p.toks) {
		return false
	}
	for j, w := range ws {
		t := p.toks[i+j]
		if t.text != w && !(t.kind == num && t.ordinal && t.text+"th" == w) {
			return false
		}
	}
	return true
}
