package dates

import "time"

var months = map[string]time.Month{
	"january": 1, "jan": 1, "janeiro": 1,
	"february": 2, "feb": 2, "fevereiro": 2, "fev": 2,
	"march": 3, "mar": 3, "marco": 3,
	"april": 4, "apr": 4, "abril": 4, "abr": 4,
	"may": 5, "maio": 5, "mai": 5,
	"june": 6, "jun": 6, "junho": 6,
	"july": 7, "jul": 7, "julho": 7,
	"august": 8, "aug": 8, "agosto": 8, "ago": 8,
	"september": 9, "sep": 9, "sept": 9, "setembro": 9, "set": 9,
	"october": 10, "oct": 10, "outubro": 10, "out": 10,
	"november": 11, "nov": 11, "novembro": 11,
	"december": 12, "dec": 12, "dezembro": 12, "dez": 12,
}

// weakMonths are abbreviations that are also common words: they are months
// only next to a day number ("may 3", "3 de set", "out 10").
var weakMonths = map[string]bool{"may": true, "mar": true, "set": true, "out": true, "ago": true, "dez": true, "mai": true, "jun": true, "jul": true}

var weekdays = map[string]time.Weekday{
	"sunday": time.Sunday, "domingo": time.Sunday,
	"monday": time.Monday, "segunda": time.Monday,
	"tuesday": time.Tuesday, "terca": time.Tuesday,
	"wednesday": time.Wednesday, "quarta": time.Wednesday,
	"thursday": time.Thursday, "quinta": time.Thursday,
	"friday": time.Friday, "sexta": time.Friday,
	"saturday": time.Saturday, "sabado": time.Saturday,
}

var numberWords = map[string]int{
	"a": 1, "an": 1, "one": 1, "um": 1, "uma": 1, "single": 1,
	"two": 2, "dois": 2, "duas": 2, "couple": 2, "pair": 2,
	"three": 3, "tres": 3, "four": 4, "quatro": 4, "five": 5, "cinco": 5,
	"six": 6, "seis": 6, "seven": 7, "sete": 7, "eight": 8, "oito": 8,
	"nine": 9, "nove": 9, "ten": 10, "dez": 10, "eleven": 11, "onze": 11,
	"twelve": 12, "doze": 12, "fourteen": 14, "catorze": 14, "quatorze": 14,
	"fifteen": 15, "quinze": 15, "twenty": 20, "vinte": 20,
}

// connectors join the two ends of a range.
var connectors = map[string]bool{
	"to": true, "till": true, "til": true, "until": true, "through": true, "thru": true,
	"and": true, "a": true, "ao": true, "ate": true, "e": true, "-": true, "/": false,
	"leaving": true, "back": true, "returning": true, "checkout": true, "departing": true,
	"saio": true, "saindo": true, "volta": true, "voltando": true, "retorno": true, "voltamos": true,
	"volto": true, "regresso": true, "regressamos": true, "home": true, "return": true, "saimos": true,
}

// fillers are dropped before looking for absolute dates.
var fillers = map[string]bool{
	"the": true, "of": true, "de": true, "do": true, "dia": true, "on": true,
	"from": true, "desde": true, "entre": true, "between": true, "starting": true,
	"comecando": true, "no": true, "em": true, "in": true,
	"arriving": true, "arrive": true, "checkin": true, "chego": true, "chegando": true, "chegada": true, "ida": true,
	"land": true, "landing": true, "chegamos": true,
}

const (
	unitNight = iota + 1
	unitDay
	unitWeek
	unitMonth
	unitWeekend
)

var units = map[string]int{
	"night": unitNight, "nights": unitNight, "nigths": unitNight, "nites": unitNight, "noite": unitNight, "noites": unitNight, "nts": unitNight,
	"day": unitDay, "days": unitDay, "dia": unitDay, "dias": unitDay, "diarias": unitDay, "diaria": unitDay,
	"week": unitWeek, "weeks": unitWeek, "semana": unitWeek, "semanas": unitWeek,
	"month": unitMonth, "months": unitMonth, "mes": unitMonth, "meses": unitMonth,
	"fortnight": -14, "quinzena": -14,
}
