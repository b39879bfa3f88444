package dates

import "time"

// relative finds dates given relative to today.
func (p parser) relative() Result {
	t := p.toks
	for i := range t {
		if r, ok := p.relativeAt(i); ok {
			return r
		}
	}
	return Result{}
}

func (p parser) relativeAt(i int) (Result, bool) {
	w := p.word(i)
	switch w {
	case "tomorrow", "amanha":
		if p.word(i-1) == "after" || p.word(i-1) == "de" && p.word(i-2) == "depois" {
			return Result{Start: p.today.AddDate(0, 0, 2)}, true
		}
		return Result{Start: p.today.AddDate(0, 0, 1)}, true
	case "tonight":
		return p.tonight(), true
	case "today", "hoje":
		if w == "hoje" && p.word(i+1) == "a" && p.word(i+2) == "noite" {
			return p.tonight(), true // "hoje à noite"
		}
		return Result{Start: p.today}, true
	case "noite":
		if prev := p.word(i - 1); prev == "esta" || prev == "essa" || prev == "nesta" || prev == "nessa" {
			return p.tonight(), true
		}
	case "weekend", "wknd", "fds":
		return p.weekend(i, i)
	case "fim":
		if p.word(i+1) == "de" && p.word(i+2) == "semana" {
			return p.weekend(i, i+2)
		}
	case "week", "semana":
		if p.weekdayFollows(i) {
			return Result{}, false // its weekdays say the days
		}
		return p.nextUnit(i, p.nextMonday())
	case "month", "mes":
		y, m, _ := p.today.Date()
		return p.nextUnit(i, date(y, m+1, 1))
	case "in", "daqui", "within", "em", "dentro":
		return p.inSome(i)
	case "from":
		if n := p.word(i + 1); (n == "today" || n == "now") && i >= 2 {
			return p.inSome(i - 3) // "2 weeks from today" reads like "in 2 weeks"
		}
	}
	if wd, ok := p.weekdayAt(i); ok {
		r := p.inWeek(i, p.weekdayRange(i, wd))
		prev := p.word(i - 1)
		if prev == "on" || prev == "no" || prev == "na" {
			prev = p.word(i - 2)
		}
		switch {
		case r.HasEnd():
		case prev == "until" || prev == "till" || prev == "ate":
			return Result{End: r.Start}, true // "até sexta"
		case returnWords[prev] && !p.ref.IsZero():
			return Result{End: p.weekdayAfter(p.ref, wd)}, true // "back on Tuesday"
		}
		return r, true
	}
	return Result{}, false
}

func (p parser) word(i int) string {
	if i < 0 || i >= len(p.toks) || p.toks[i].kind != word {
		return ""
	}
	return p.toks[i].text
}

// tonight is one night from today.
func (p parser) tonight() Result {
	return Result{Start: p.today, End: p.today.AddDate(0, 0, 1)}
}

// weekend reads "this weekend" / "next weekend" / "the weekend after
// next" around toks[from:to+1]. A weekend without them is a length, not a
// date.
func (p parser) weekend(from, to int) (Result, bool) {
	prev, prev2 := p.word(from-1), p.word(from-2)
	next := p.word(to + 1)
	switch {
	case next == "after" && p.word(to+2) == "next", next == "depois" && p.word(to+2) == "do" && (p.word(to+3) == "proximo" || p.word(to+3) == "que"):
		return p.weekendOf(2), true
	case prev == "next" || prev == "proximo" || next == "que" && p.word(to+2) == "vem" || prev == "following" || prev == "seguinte" || next == "seguinte":
		return p.weekendOf(1), true
	case prev == "this" || prev == "este" || prev == "esse" || prev == "neste" || prev == "nesse" || prev2 == "this":
		return p.weekendOf(0), true
	case prev == "no" || prev == "the" && (prev2 == "over" || prev2 == "on" || prev2 == "at" || prev2 == "for" || prev2 == "during"),
		prev == "pro" || prev == "pelo" || prev == "nesse" || prev == "o" && (prev2 == "para" || prev2 == "pra" || prev2 == "durante"):
		return p.weekendOf(0), true // "no fim de semana", "over the weekend", "pro fds": the coming one
	case prev == "long" || prev == "prolongado":
		return Result{}, false
	}
	return Result{}, false
}

// weekendOf is the Friday-to-Sunday weekend of this week (0) or the next.
// The weekend under way starts today: on a Saturday it is Saturday to
// Sunday, on a Sunday Sunday to Monday (the night that is left of it).
func (p parser) weekendOf(weeks int) Result {
	monday := p.today.AddDate(0, 0, -((int(p.today.Weekday()) + 6) % 7))
	fri := monday.AddDate(0, 0, 4+7*weeks)
	sun := fri.AddDate(0, 0, 2)
	if fri.Before(p.today) {
		fri = p.today
	}
	if !sun.After(fri) {
		sun = fri.AddDate(0, 0, 1)
	}
	return Result{Start: fri, End: sun}
}

func (p parser) nextMonday() time.Time {
	return p.today.AddDate(0, 0, 7-(int(p.today.Weekday())+6)%7)
}

// nextUnit reads "next week", "na próxima semana", "semana que vem".
func (p parser) nextUnit(i int, start time.Time) (Result, bool) {
	prev := p.word(i - 1)
	if prev == "next" || prev == "proxima" || prev == "proximo" || p.word(i+1) == "que" && p.word(i+2) == "vem" {
		return Result{Start: start}, true
	}
	return Result{}, false
}

// inSome reads "in 2 weeks", "daqui a 10 dias", "em duas semanas".
func (p parser) inSome(i int) (Result, bool) {
	j := i + 1
	if j < 0 {
		return Result{}, false
	}
	if p.word(i) == "daqui" || p.word(i) == "dentro" {
		if w := p.word(j); w == "a" || w == "de" {
			j++
		}
	}
	if p.word(j) == "a" && p.word(j+1) == "couple" {
		j++
	}
	n, ok := p.count(j)
	if !ok {
		return Result{}, false
	}
	if p.word(j+1) == "of" {
		j++
	}
	switch units[p.word(j+1)] {
	case unitDay:
		return Result{Start: p.today.AddDate(0, 0, n)}, true
	case unitWeek:
		return Result{Start: p.today.AddDate(0, 0, 7*n)}, true
	case unitMonth:
		return Result{Start: p.today.AddDate(0, n, 0)}, true
	}
	return Result{}, false
}

// count reads a number, in digits or words, at toks[i].
func (p parser) count(i int) (int, bool) {
	if i < 0 || i >= len(p.toks) {
		return 0, false
	}
	t := p.toks[i]
	if t.kind == num {
		return t.n, t.digits <= 3 && !t.ordinal // "the third week" is no length
	}
	n, ok := numberWords[t.text]
	return n, ok
}

// returnWords introduce the day the traveller leaves.
var returnWords = map[string]bool{"back": true, "return": true, "returning": true, "volto": true, "voltamos": true, "voltando": true, "saio": true}

// weekdayAfter is the first such weekday after from.
func (p parser) weekdayAfter(from time.Time, wd time.Weekday) time.Time {
	ahead := (int(wd) - int(from.Weekday()) + 7) % 7
	if ahead == 0 {
		ahead = 7
	}
	return from.AddDate(0, 0, ahead)
}

// weekdayUsed reports whether a weekday name is meant as a day: English
// names always, Portuguese ones ("segunda" is also "second") after "na",
// "nesta", "próxima", "de", "a", "até" or before "feira".
func (p parser) weekdayUsed(i int) bool {
	w := p.word(i)
	if len(w) > 0 && w[len(w)-1] == 'y' {
		return true
	}
	if w == "sabado" || w == "domingo" || p.word(i+1) == "feira" {
		return true
	}
	switch p.word(i - 1) {
	case "na", "nesta", "proxima", "de", "a", "ate", "no", "neste", "proximo", "essa", "esta",
		"vou", "vamos", "volto", "voltamos", "chego", "chegamos", "saio", "saimos", "partimos":
		return true
	}
	return false
}

// weekdayRange is the next such weekday (never today), up to a second
// weekday if one follows ("friday to sunday", "de sexta a domingo").
func (p parser) weekdayRange(i int, wd time.Weekday) Result {
	ahead := (int(wd) - int(p.today.Weekday()) + 7) % 7
	if ahead == 0 {
		ahead = 7
	}
	start := p.today.AddDate(0, 0, ahead)
	for j := i + 1; j < len(p.toks) && j <= i+4; j++ {
		if wd2, ok := p.weekdayAt(j); ok && j > i+1 {
			gap := (int(wd2) - int(wd) + 7) % 7
			if gap == 0 {
				gap = 7
			}
			return Result{Start: start, End: start.AddDate(0, 0, gap)}
		}
	}
	return Result{Start: start}
}

// returnAfter reads a return said after a start in the same message, as
// a weekday ("volto domingo", "back on Tuesday") or a bare day ("volto
// dia 4"): the first such day after start. It is zero when none is said.
func (p parser) returnAfter(start time.Time) time.Time {
	for i := range p.toks {
		if !returnWords[p.word(i)] {
			continue
		}
		j := i + 1
		for w := p.word(j); w == "on" || w == "no" || w == "na" || w == "dia" || w == "the" || w == "o"; w = p.word(j) {
			j++
		}
		if wd, ok := weekdays[p.word(j)]; ok {
			return p.weekdayAfter(start, wd)
		}
		if j < len(p.toks) && p.toks[j].kind == num && p.toks[j].n >= 1 && p.toks[j].n <= 31 && p.toks[j].digits <= 2 {
			return p.dayOnOrAfter(p.toks[j].n, start.AddDate(0, 0, 1))
		}
	}
	return time.Time{}
}
