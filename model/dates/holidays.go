package dates

import "time"

// A holiday is a festive period travellers plan around. Its dates are the
// stay around it: a one-day holiday is the night before to the day after,
// and one on a Monday the long weekend from Saturday. Periods (Carnaval,
// Christmas week, Thanksgiving to Sunday) have their own span.
type holiday struct {
	words []string // folded words that name it, in order
	span  func(year int) (time.Time, int)
	day   func(year int) time.Time // the day of a one-day holiday, nil for periods
}

// holidays are the ones of Brazil, Portugal, the United States and the
// United Kingdom that people travel for. Longer names come before the
// shorter ones they contain ("christmas week" before "christmas").
var holidays = []holiday{
	{[]string{"christmas", "week"}, fixedSpan(time.December, 24, 7), nil},
	{[]string{"semana", "do", "natal"}, fixedSpan(time.December, 24, 7), nil},
	{[]string{"semana", "de", "natal"}, fixedSpan(time.December, 24, 7), nil},
	{[]string{"christmas"}, fixedSpan(time.December, 24, 2), nil},
	{[]string{"xmas"}, fixedSpan(time.December, 24, 2), nil},
	{[]string{"boxing", "day"}, oneDay(time.December, 26), onDay(time.December, 26)},
	{[]string{"new", "year", "s", "eve"}, fixedSpan(time.December, 30, 3), nil},
	{[]string{"new", "years", "eve"}, fixedSpan(time.December, 30, 3), nil},
	{[]string{"new", "year"}, fixedSpan(time.December, 30, 3), nil},
	{[]string{"new", "years"}, fixedSpan(time.December, 30, 3), nil},
	{[]string{"nye"}, fixedSpan(time.December, 30, 3), nil},
	{[]string{"hogmanay"}, fixedSpan(time.December, 30, 3), nil},
	{[]string{"reveillon"}, fixedSpan(time.December, 30, 3), nil},
	{[]string{"virada", "do", "ano"}, fixedSpan(time.December, 30, 3), nil},
	{[]string{"passagem", "de", "ano"}, fixedSpan(time.December, 30, 3), nil},
	{[]string{"ano", "novo"}, fixedSpan(time.December, 30, 3), nil},
	{[]string{"week", "after", "easter"}, easterSpan(1, 7), nil},
	{[]string{"semana", "depois", "da", "pascoa"}, easterSpan(1, 7), nil},
	{[]string{"semana", "apos", "a", "pascoa"}, easterSpan(1, 7), nil},
	{[]string{"semana", "seguinte", "a", "pascoa"}, easterSpan(1, 7), nil},
	{[]string{"semana", "santa"}, easterSpan(-7, 7), nil},
	{[]string{"holy", "week"}, easterSpan(-7, 7), nil},
	{[]string{"easter"}, easterSpan(-2, 3), nil},
	{[]string{"pascoa"}, easterSpan(-2, 3), nil},
	{[]string{"good", "friday"}, easterSpan(-2, 3), nil},
	{[]string{"sexta", "feira", "santa"}, easterSpan(-2, 3), nil},
	{[]string{"sexta", "santa"}, easterSpan(-2, 3), nil},
	{[]string{"carnaval"}, easterSpan(-50, 4), nil},
	{[]string{"carnival"}, easterSpan(-50, 4), nil},
	{[]string{"mardi", "gras"}, easterSpan(-50, 4), nil},
	{[]string{"corpus", "christi"}, easterSpan(60, 3), nil},
	{[]string{"thanksgiving"}, nthWeekdaySpan(time.November, time.Thursday, 4, 0, 3), nil},
	{[]string{"acao", "de", "gracas"}, nthWeekdaySpan(time.November, time.Thursday, 4, 0, 3), nil},
	{[]string{"memorial", "day"}, lastMondaySpan(time.May), nil},
	{[]string{"spring", "bank", "holiday"}, lastMondaySpan(time.May), nil},
	{[]string{"summer", "bank", "holiday"}, lastMondaySpan(time.August), nil},
	{[]string{"august", "bank", "holiday"}, lastMondaySpan(time.August), nil},
	{[]string{"early", "may", "bank", "holiday"}, nthWeekdaySpan(time.May, time.Monday, 1, -2, 2), nil},
	{[]string{"may", "day", "bank", "holiday"}, nthWeekdaySpan(time.May, time.Monday, 1, -2, 2), nil},
	{[]string{"presidents", "day"}, nthMondaySpan(time.February, 3), nil},
	{[]string{"president", "s", "day"}, nthMondaySpan(time.February, 3), nil},
	{[]string{"washington", "s", "birthday"}, nthMondaySpan(time.February, 3), nil},
	{[]string{"mlk", "day"}, nthMondaySpan(time.January, 3), nil},
	{[]string{"martin", "luther", "king", "day"}, nthMondaySpan(time.January, 3), nil},
	{[]string{"columbus", "day"}, nthMondaySpan(time.October, 2), nil},
	{[]string{"indigenous", "peoples", "day"}, nthMondaySpan(time.October, 2), nil},
	{[]string{"veterans", "day"}, oneDay(time.November, 11), onDay(time.November, 11)},
	{[]string{"juneteenth"}, oneDay(time.June, 19), onDay(time.June, 19)},
	{[]string{"easter", "monday"}, easterSpan(-2, 3), nil},
	{[]string{"whitsun"}, easterSpan(48, 2), nil},
	{[]string{"pentecost"}, easterSpan(48, 2), nil},
	{[]string{"pentecostes"}, easterSpan(48, 2), nil},
	{[]string{"consciencia", "negra"}, oneDay(time.November, 20), onDay(time.November, 20)},
	{[]string{"imaculada", "conceicao"}, oneDay(time.December, 8), onDay(time.December, 8)},
	{[]string{"restauracao", "da", "independencia"}, oneDay(time.December, 1), onDay(time.December, 1)},
	{[]string{"dia", "de", "reis"}, oneDay(time.January, 6), onDay(time.January, 6)},
	{[]string{"labor", "day"}, nthWeekdaySpan(time.September, time.Monday, 1, -2, 2), nil},
	{[]string{"labour", "day"}, nthWeekdaySpan(time.September, time.Monday, 1, -2, 2), nil},
	{[]string{"4th", "of", "july"}, oneDay(time.July, 4), onDay(time.July, 4)},
	{[]string{"fourth", "of", "july"}, oneDay(time.July, 4), onDay(time.July, 4)},
	{[]string{"july", "4th"}, oneDay(time.July, 4), onDay(time.July, 4)},
	{[]string{"independence", "day"}, oneDay(time.July, 4), onDay(time.July, 4)},
	{[]string{"halloween"}, oneDay(time.October, 31), onDay(time.October, 31)},
	{[]string{"st", "patrick"}, oneDay(time.March, 17), onDay(time.March, 17)},
	{[]string{"saint", "patrick"}, oneDay(time.March, 17), onDay(time.March, 17)},
	{[]string{"tiradentes"}, oneDay(time.April, 21), onDay(time.April, 21)},
	{[]string{"dia", "do", "trabalho"}, oneDay(time.May, 1), onDay(time.May, 1)},
	{[]string{"dia", "do", "trabalhador"}, oneDay(time.May, 1), onDay(time.May, 1)},
	{[]string{"25", "de", "abril"}, oneDay(time.April, 25), onDay(time.April, 25)},
	{[]string{"dia", "da", "liberdade"}, oneDay(time.April, 25), onDay(time.April, 25)},
	{[]string{"dia", "de", "portugal"}, oneDay(time.June, 10), onDay(time.June, 10)},
	{[]string{"santo", "antonio"}, oneDay(time.June, 13), onDay(time.June, 13)},
	{[]string{"sao", "joao"}, oneDay(time.June, 24), onDay(time.June, 24)},
	{[]string{"festa", "junina"}, oneDay(time.June, 24), onDay(time.June, 24)},
	{[]string{"festas", "juninas"}, oneDay(time.June, 24), onDay(time.June, 24)},
	{[]string{"independencia"}, oneDay(time.September, 7), onDay(time.September, 7)},
	{[]string{"7", "de", "setembro"}, oneDay(time.September, 7), onDay(time.September, 7)},
	{[]string{"nossa", "senhora", "aparecida"}, oneDay(time.October, 12), onDay(time.October, 12)},
	{[]string{"finados"}, oneDay(time.November, 2), onDay(time.November, 2)},
	{[]string{"proclamacao", "da", "republica"}, oneDay(time.November, 15), onDay(time.November, 15)},
	{[]string{"implantacao", "da", "republica"}, oneDay(time.October, 5), onDay(time.October, 5)},
	{[]string{"todos", "os", "santos"}, oneDay(time.November, 1), onDay(time.November, 1)},
	{[]string{"dia", "dos", "namorados"}, oneDay(time.June, 12), onDay(time.June, 12)},
	{[]string{"valentine", "s", "day"}, oneDay(time.February, 14), onDay(time.February, 14)},
	{[]string{"valentines", "day"}, oneDay(time.February, 14), onDay(time.February, 14)},
}

// datedHolidays are holidays named by their date ("feriado de 15 de
// novembro"): the date is a holiday only next to a word for one, else it
// is a plain date; and with a length of stay ("feriado de 15 de novembro,
// 3 noites") the stay starts on it, unless its long weekend is named.
var datedHolidays = []holiday{
	{[]string{"1", "de", "janeiro"}, oneDay(time.January, 1), onDay(time.January, 1)},
	{[]string{"21", "de", "abril"}, oneDay(time.April, 21), onDay(time.April, 21)},
	{[]string{"1", "de", "maio"}, oneDay(time.May, 1), onDay(time.May, 1)},
	{[]string{"10", "de", "junho"}, oneDay(time.June, 10), onDay(time.June, 10)},
	{[]string{"5", "de", "outubro"}, oneDay(time.October, 5), onDay(time.October, 5)},
	{[]string{"12", "de", "outubro"}, oneDay(time.October, 12), onDay(time.October, 12)},
	{[]string{"2", "de", "novembro"}, oneDay(time.November, 2), onDay(time.November, 2)},
	{[]string{"15", "de", "novembro"}, oneDay(time.November, 15), onDay(time.November, 15)},
	{[]string{"20", "de", "novembro"}, oneDay(time.November, 20), onDay(time.November, 20)},
	{[]string{"1", "de", "dezembro"}, oneDay(time.December, 1), onDay(time.December, 1)},
	{[]string{"8", "de", "dezembro"}, oneDay(time.December, 8), onDay(time.December, 8)},
}

// holidaysByFirst and datedByFirst are the holidays by their first word,
// in order, so that a word is compared only with those it may begin.
var holidaysByFirst, datedByFirst = byFirst(holidays), byFirst(datedHolidays)

func byFirst(list []holiday) map[string][]holiday {
	m := map[string][]holiday{}
	for _, h := range list {
		m[h.words[0]] = append(m[h.words[0]], h)
	}
	return m
}

// fixedSpan is a period that starts on the same day every year.
func fixedSpan(m time.Month, d, nights int) func(int) (time.Time, int) {
	return func(y int) (time.Time, int) { return date(y, m, d), nights }
}

// onDay is the day of a one-day holiday.
func onDay(m time.Month, d int) func(int) time.Time {
	return func(y int) time.Time { return date(y, m, d) }
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

// nthMondaySpan is the long weekend of a month's nth Monday.
func nthMondaySpan(m time.Month, n int) func(int) (time.Time, int) {
	return func(y int) (time.Time, int) {
		first := date(y, m, 1)
		return around(first.AddDate(0, 0, (int(time.Monday)-int(first.Weekday())+7)%7+7*(n-1)))
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
// A one-day holiday named with its long weekend ("feriadão de 7 de
// setembro") is the days off it makes with the weekend.
func (p parser) holidayAt(i int) (Result, int, bool) {
	if i >= len(p.toks) {
		return Result{}, 0, false
	}
	first := p.toks[i].text
	if p.toks[i].kind == num && p.toks[i].ordinal {
		first += "th"
	}
	list := holidaysByFirst[first]
	if len(datedByFirst[first]) > 0 && p.holidayWordBefore(i) && (p.longWeekendNear(i, 3) || !p.statesLength()) {
		list = append(datedByFirst[first][:len(datedByFirst[first]):len(datedByFirst[first])], list...)
	}
	for _, h := range list {
		if !p.wordsAt(i, h.words) {
			continue
		}
		if h.day != nil && p.longWeekendNear(i, len(h.words)) {
			return p.holidayOf(longWeekend(h.day)), len(h.words), true
		}
		return p.holidayOf(h.span), len(h.words), true
	}
	if p.word(i) == "natal" && p.christmasNatal(i) {
		return p.holidayOf(fixedSpan(time.December, 24, 2)), 1, true
	}
	return Result{}, 0, false
}

// longWeekend is the stay of a holiday's long weekend: from the first day
// off to the last, a working day between the holiday and the weekend
// bridged (a Tuesday's long weekend starts on Saturday, a Thursday's ends
// on Sunday). A holiday on a Wednesday makes none: the stay is around it.
func longWeekend(day func(int) time.Time) func(int) (time.Time, int) {
	return func(y int) (time.Time, int) {
		d := day(y)
		switch d.Weekday() {
		case time.Monday:
			return d.AddDate(0, 0, -2), 2
		case time.Tuesday:
			return d.AddDate(0, 0, -3), 3
		case time.Thursday:
			return d, 3
		case time.Friday:
			return d, 2
		case time.Saturday:
			return d.AddDate(0, 0, -1), 2
		case time.Sunday:
			return d.AddDate(0, 0, -2), 2
		}
		return around(d)
	}
}

// statesLength reports a length of stay written as a count and a unit
// ("3 noites", "a week").
func (p parser) statesLength() bool {
	for i, t := range p.toks {
		if t.kind == word && units[t.text] > 0 && i > 0 {
			if _, ok := p.count(i - 1); ok {
				return true
			}
		}
	}
	return false
}

// holidayWordBefore reports a word for a holiday just before toks[i]:
// "feriado de 15 de novembro", "holiday on".
func (p parser) holidayWordBefore(i int) bool {
	for j := i - 1; j >= max(0, i-3); j-- {
		switch p.word(j) {
		case "feriado", "feriadao", "holiday", "prolongado":
			return true
		}
	}
	return false
}

// longWeekendNear reports words that make a holiday's long weekend near
// toks[i:i+n]: "feriadão", "feriado prolongado", "long weekend".
func (p parser) longWeekendNear(i, n int) bool {
	for j := max(0, i-3); j < min(len(p.toks), i+n+3); j++ {
		switch p.word(j) {
		case "feriadao", "prolongado", "emenda":
			return true
		case "long":
			if p.word(j+1) == "weekend" {
				return true
			}
		}
	}
	return false
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

// NamesHoliday reports whether a text names a holiday ("Corpus Christi",
// "Natal", "Tiradentes"): a town of that name may be the holiday.
func NamesHoliday(text string) bool {
	p := parser{toks: lex(text)}
	for i := range p.toks {
		if _, _, ok := p.holidayAt(i); ok {
			return true
		}
		if p.word(i) == "natal" {
			return true
		}
	}
	return false
}
