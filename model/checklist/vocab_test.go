package checklist_test

import (
	"time"

	"github.com/tripgraph/tripgraph/model/dates"
	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/internal/textnorm"
	"github.com/tripgraph/tripgraph/model/offline"
)

// today is the clock of every case: a Saturday.
var today = time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)

// Number words from one to twenty; Portuguese has a feminine one and two.
var (
	numbersEN = []string{"", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}
	numbersPT = []string{"", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez",
		"onze", "doze", "treze", "catorze", "quinze", "dezesseis", "dezessete", "dezoito", "dezenove", "vinte"}
	numbersPTFem = func() []string {
		out := append([]string(nil), numbersPT...)
		out[1], out[2] = "uma", "duas"
		return out
	}()
	ordinalsEN = []string{"", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
		"eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth"}
)

// spelledEN writes 1 to 31 in English words, cardinal or ordinal
// ("twenty-one", "thirty-first").
func spelledEN(n int, ordinal bool) string {
	words := numbersEN
	if ordinal {
		words = ordinalsEN
	}
	switch {
	case n <= 20:
		return words[n]
	case n == 30 && ordinal:
		return "thirtieth"
	case n == 30:
		return "thirty"
	}
	tens := "twenty"
	if n > 30 {
		tens = "thirty"
	}
	return tens + "-" + words[n%10]
}

// spelledPT writes 1 to 31 in Portuguese words ("vinte e um").
func spelledPT(n int) string {
	switch {
	case n <= 20:
		return numbersPT[n]
	case n == 30:
		return "trinta"
	case n < 30:
		return "vinte e " + numbersPT[n-20]
	}
	return "trinta e " + numbersPT[n-30]
}

var (
	monthsEN   = []string{"", "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	monthsPT   = []string{"", "janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"}
	weekdaysEN = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	shortEN    = []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
	weekdaysPT = []string{"domingo", "segunda", "terça", "quarta", "quinta", "sexta", "sábado"}
)

// holiday is a holiday by its names and its day in a year: the stay read
// for it must hold that day.
type holiday struct {
	en, pt string
	day    func(y int) time.Time
}

func fixed(m time.Month, d int) func(int) time.Time {
	return func(y int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
}

func easter(off int) func(int) time.Time {
	return func(y int) time.Time { return dates.Easter(y).AddDate(0, 0, off) }
}

// nthWeekday is the nth weekday of a month (n < 0: the last).
func nthWeekday(m time.Month, wd time.Weekday, n int) func(int) time.Time {
	return func(y int) time.Time {
		if n < 0 {
			last := time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC)
			return last.AddDate(0, 0, -((int(last.Weekday()) - int(wd) + 7) % 7))
		}
		first := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
		return first.AddDate(0, 0, (int(wd)-int(first.Weekday())+7)%7+7*(n-1))
	}
}

var holidays = []holiday{
	{"Christmas", "Natal", fixed(time.December, 25)},
	{"New Year's Eve", "réveillon", fixed(time.December, 31)},
	{"Easter", "Páscoa", easter(0)},
	{"Good Friday", "Sexta-feira Santa", easter(-2)},
	{"Carnival", "Carnaval", easter(-47)},
	{"Corpus Christi", "Corpus Christi", easter(60)},
	{"Pentecost", "Pentecostes", easter(49)},
	{"Thanksgiving", "Ação de Graças", nthWeekday(time.November, time.Thursday, 4)},
	{"Memorial Day", "Memorial Day", nthWeekday(time.May, time.Monday, -1)},
	{"Labor Day", "Labor Day", nthWeekday(time.September, time.Monday, 1)},
	{"Presidents' Day", "Presidents Day", nthWeekday(time.February, time.Monday, 3)},
	{"MLK Day", "MLK Day", nthWeekday(time.January, time.Monday, 3)},
	{"Columbus Day", "Columbus Day", nthWeekday(time.October, time.Monday, 2)},
	{"Juneteenth", "Juneteenth", fixed(time.June, 19)},
	{"the 4th of July", "4th of July", fixed(time.July, 4)},
	{"Halloween", "Halloween", fixed(time.October, 31)},
	{"St Patrick's Day", "St Patrick", fixed(time.March, 17)},
	{"Valentine's Day", "Valentine's Day", fixed(time.February, 14)},
	{"Dia dos Namorados", "Dia dos Namorados", fixed(time.June, 12)},
	{"Boxing Day", "Boxing Day", fixed(time.December, 26)},
	{"Tiradentes", "Tiradentes", fixed(time.April, 21)},
	{"Dia do Trabalho", "Dia do Trabalho", fixed(time.May, 1)},
	{"the May Day bank holiday", "", nthWeekday(time.May, time.Monday, 1)},
	{"Finados", "Finados", fixed(time.November, 2)},
	{"Independence Day", "", fixed(time.July, 4)},
	{"", "Independência", fixed(time.September, 7)},
	{"Nossa Senhora Aparecida", "Nossa Senhora Aparecida", fixed(time.October, 12)},
	{"São João", "São João", fixed(time.June, 24)},
	{"Proclamação da República", "Proclamação da República", fixed(time.November, 15)},
	{"Consciência Negra", "Consciência Negra", fixed(time.November, 20)},
}

// city is a destination the gazetteer reads on its own, with its names in
// both languages.
type city struct{ en, pt string }

// cities are the most populous cities the model reads as the destination
// of "hotel in <name>" and "hotel em <nome>", up to n.
func cities(n int) []city {
	var out []city
	for _, c := range gazetteer.Largest(4 * n) {
		pt := gazetteer.CityName(c.Name, "pt")
		if !reads(c.Name, "hotel in "+c.Name) || !reads(c.Name, "hotel em "+pt) || wordy(c.Name) || wordy(pt) {
			continue
		}
		out = append(out, city{c.Name, pt})
		if len(out) == n {
			break
		}
	}
	return out
}

// reads reports whether the model takes the city for the destination.
func reads(name, text string) bool {
	e := offline.Understand([]string{text}, today)
	return e.Location == name && len(e.Unsure) == 0
}

// wordy reports a name with a number or a date word in it ("Rio de
// Janeiro" is fine, "Natal" is Christmas in Portuguese): such a city's
// cases test the city, not the capability.
func wordy(name string) bool {
	for _, w := range textnorm.Words(name) {
		if w.Fold == "natal" {
			return true
		}
		if w.Fold[0] >= '0' && w.Fold[0] <= '9' {
			return true
		}
	}
	return false
}
