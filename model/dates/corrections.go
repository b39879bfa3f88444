package dates

import "time"

// A correction changes the dates stated before, relative to them. It is
// one of three kinds, each read from parts that may come in any order:
//
//   - shift moves the stay: an amount of days or weeks and a direction
//     ("a day later", "push it back a week", "uma semana depois",
//     "antecipa dois dias"). It moves both ends, unless the message names
//     one: "arrive a day later" moves the start, "sair um dia antes" the
//     end.
//   - stretch lengthens or shortens it at the end: an amount of nights
//     and more or less ("one more night", "mais duas noites", "2 nights
//     less", "extend by a night", "fica uma noite a menos").
//   - replace keeps its days in another month ("same days in August",
//     "muda pra agosto, mesmos dias").
//
// Anything else is a new statement of dates, which Merge applies.
func (p parser) correction(was Result) (Result, bool) {
	if !was.HasStart() || !was.HasEnd() {
		return Result{}, false
	}
	if r, ok := p.replaceMonth(was); ok {
		return r, true
	}
	if r, ok := p.stretch(was); ok {
		return r, true
	}
	return p.shift(was)
}

// laterWords move the stay later (+1) or earlier (-1).
var laterWords = map[string]int{"later": 1, "after": 1, "depois": 1, "earlier": -1, "before": -1, "antes": -1}

// shiftVerbs move the stay by themselves: "postpone", "adiar" later,
// "antecipar", "adiantar" earlier. "push" and "move" take their direction
// from "back" (later) or "forward", "up" (earlier).
var shiftVerbs = map[string]int{
	"postpone": 1, "delay": 1, "adiar": 1, "adia": 1, "adie": 1, "adiando": 1, "empurra": 1, "empurrar": 1, "atrasa": 1, "atrasar": 1,
	"antecipar": -1, "antecipa": -1, "antecipe": -1, "adiantar": -1, "adianta": -1, "adiante": -1,
}

// startWords and endWords name one end of the stay: a shift that names
// one moves only it.
var (
	startWords = map[string]bool{"arrive": true, "arriving": true, "arrival": true, "start": true, "checkin": true, "chegar": true, "chego": true, "chegamos": true, "chegada": true, "ida": true, "começar": true, "comecar": true, "entrada": true}
	endWords   = map[string]bool{"leave": true, "leaving": true, "depart": true, "departure": true, "checkout": true, "return": true, "sair": true, "saio": true, "saimos": true, "saida": true, "volta": true, "voltar": true, "volto": true, "voltamos": true, "retorno": true}
)

// shift reads a move of the stay by days or weeks.
func (p parser) shift(was Result) (Result, bool) {
	days, dir := 0, 0
	for i := range p.toks {
		if n, ok := p.count(i); ok && days == 0 {
			switch units[p.word(i+1)] {
			case unitDay:
				days = n
			case unitWeek:
				days = 7 * n
			}
		}
		switch w := p.word(i); {
		case laterWords[w] != 0 && dir == 0:
			dir = laterWords[w]
		case w == "mais" && p.word(i+1) == "tarde":
			dir = 1
		case w == "mais" && p.word(i+1) == "cedo":
			dir = -1
		case shiftVerbs[w] != 0:
			dir = shiftVerbs[w]
		case (w == "push" || w == "move" || w == "pushed" || w == "moved") && p.upOrBack(i) != 0:
			dir = p.upOrBack(i)
		}
	}
	if days == 0 || dir == 0 {
		return Result{}, false
	}
	d := dir * days
	switch p.namedEnd() {
	case -1:
		if s := was.Start.AddDate(0, 0, d); s.Before(was.End) {
			return Result{Start: s, End: was.End}, true
		}
		return Result{}, false
	case 1:
		if e := was.End.AddDate(0, 0, d); e.After(was.Start) {
			return Result{Start: was.Start, End: e}, true
		}
		return Result{}, false
	}
	return Result{Start: was.Start.AddDate(0, 0, d), End: was.End.AddDate(0, 0, d)}, true
}

// upOrBack reads the direction of "push it back", "move it forward", "bring
// it up" from the words after toks[i]: back is later.
func (p parser) upOrBack(i int) int {
	for j := i + 1; j <= i+3; j++ {
		switch p.word(j) {
		case "back", "out":
			return 1
		case "forward", "up", "earlier":
			return -1
		}
	}
	return 0
}

// namedEnd reports which end of the stay a message names: -1 the start
// ("arrive a day later"), 1 the end ("leave a day earlier"), 0 neither.
func (p parser) namedEnd() int {
	for i := range p.toks {
		switch w := p.word(i); {
		case startWords[w]:
			return -1
		case endWords[w]:
			return 1
		case w == "check" && p.word(i+1) == "in":
			return -1
		case w == "check" && p.word(i+1) == "out":
			return 1
		}
	}
	return 0
}

// moreWords lengthen the stay (+1) or shorten it (-1).
var moreWords = map[string]int{
	"more": 1, "extra": 1, "another": 1, "add": 1, "longer": 1, "extend": 1, "mais": 1, "+": 1,
	"less": -1, "fewer": -1, "shorter": -1, "menos": -1, "cut": -1, "tirar": -1, "tira": -1,
}

// stretch reads a change of the stay's length at its end: "one more
// night", "add a night", "mais duas noites", "2 noites a mais", "one
// night less", "extend by a night". Days count as nights here ("two more
// days"), unless they move the stay ("a day later").
func (p parser) stretch(was Result) (Result, bool) {
	for i := range p.toks {
		u := units[p.word(i)]
		if u != unitNight && u != unitDay || u == unitDay && laterWords[p.word(i+1)] != 0 {
			continue
		}
		if p.word(i+1) == "mais" && (p.word(i+2) == "tarde" || p.word(i+2) == "cedo") {
			continue // "dois dias mais tarde" is a shift
		}
		n, sign := p.stretchAt(i)
		if n == 0 || sign == 0 {
			continue
		}
		end := was.End.AddDate(0, 0, sign*n)
		if !end.After(was.Start) {
			return Result{}, false
		}
		return Result{Start: was.Start, End: end}, true
	}
	return Result{}, false
}

// stretchAt reads the amount and the sign of a stretch whose unit is
// toks[i]: "<n> more <unit>", "more <n> <unit>", "<n> <unit> more|less|a
// mais|a menos", "another <unit>", "extend by <n> <unit>".
func (p parser) stretchAt(i int) (n, sign int) {
	if s := moreWords[p.word(i-1)]; s != 0 {
		if c, ok := p.count(i - 2); ok {
			return c, s // "one more night", "2 extra nights"
		}
		return 1, s // "another night", "add night"
	}
	c, ok := p.count(i - 1)
	if !ok {
		return 0, 0
	}
	if s := moreWords[p.word(i-2)]; s != 0 {
		return c, s // "mais duas noites", "add 2 nights"
	}
	if p.word(i-2) == "by" && moreWords[p.word(i-3)] != 0 {
		return c, moreWords[p.word(i-3)] // "extend by 2 nights"
	}
	if s := moreWords[p.word(i+1)]; s != 0 {
		return c, s // "2 nights more", "one night less", "2 nights longer"
	}
	if p.word(i+1) == "a" {
		return c, moreWords[p.word(i+2)] // "2 noites a mais"
	}
	return 0, 0
}

// sameWords keep the stay's days: "same days", "mesmas datas".
var sameWords = map[string]bool{"same": true, "mesmos": true, "mesmas": true, "mesmo": true, "mesma": true}

// replaceMonth reads "same days in <month>", "muda pra agosto, mesmos
// dias", "the same dates but in October": the stay's days of the month
// in that month's next occurrence.
func (p parser) replaceMonth(was Result) (Result, bool) {
	same := false
	for i := range p.toks {
		if sameWords[p.word(i)] {
			switch p.word(i + 1) {
			case "days", "dates", "dias", "datas", "period", "periodo", "nights", "noites":
				same = true
			}
		}
	}
	if !same {
		return Result{}, false
	}
	for j := range p.toks {
		if p.word(j-1) == "same" || p.word(j) == "may" && p.word(j-1) != "in" && p.word(j-1) != "to" {
			continue
		}
		m, y, ok := p.monthAt(j)
		if !ok {
			continue
		}
		start := date(y, m, min(was.Start.Day(), date(y, m+1, 0).Day()))
		if start.Before(p.today) {
			start = start.AddDate(1, 0, 0)
		}
		nights := int(was.End.Sub(was.Start) / (24 * time.Hour))
		return Result{Start: start, End: start.AddDate(0, 0, nights)}, true
	}
	return Result{}, false
}
