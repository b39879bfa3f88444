package dates

import "time"

// weekdayAbbrs are short names of weekdays. Several are also words ("sat",
// "sun", "wed", "sex", "ter"), so they count only where a weekday is
// expected: joined to another weekday ("fri-sun", "qui a dom"), or after
// a word that introduces a day ("on sat", "next wed", "até dom").
var weekdayAbbrs = map[string]time.Weekday{
	"mon": time.Monday, "tue": time.Tuesday, "tues": time.Tuesday, "wed": time.Wednesday, "weds": time.Wednesday,
	"thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday, "fri": time.Friday, "sat": time.Saturday,
	"sun": time.Sunday,
	"seg": time.Monday, "ter": time.Tuesday, "qua": time.Wednesday, "qui": time.Thursday, "sex": time.Friday,
	"sab": time.Saturday, "dom": time.Sunday,
}

// dayIntros are words after which a short weekday name is one.
var dayIntros = map[string]bool{
	"on": true, "next": true, "this": true, "until": true, "till": true, "by": true, "from": true, "to": true, "thru": true, "through": true,
	"na": true, "no": true, "de": true, "a": true, "ate": true, "proxima": true, "proximo": true, "esta": true, "este": true,
}

// weekdayAt reads a weekday at toks[i]: a full name used as a day (see
// weekdayUsed), or a short name where a weekday is expected.
func (p parser) weekdayAt(i int) (time.Weekday, bool) {
	w := p.word(i)
	if wd, ok := weekdays[w]; ok {
		return wd, p.weekdayUsed(i)
	}
	wd, ok := weekdayAbbrs[w]
	if !ok {
		return 0, false
	}
	if dayIntros[p.word(i-1)] && (len(w) > 3 || p.word(i-1) != "a" && p.word(i-1) != "de" && p.word(i-1) != "no") {
		return wd, true
	}
	return wd, p.weekdayJoined(i+1, 1) || p.weekdayJoined(i-1, -1)
}

// weekdayJoined reports a weekday name one connector away from toks[i]
// in the direction step: the other end of "fri-sun", "qui a dom".
func (p parser) weekdayJoined(i, step int) bool {
	if i < 0 || i >= len(p.toks) || !connectors[p.toks[i].text] {
		return false
	}
	w := p.word(i + step)
	_, full := weekdays[w]
	_, short := weekdayAbbrs[w]
	return full || short
}

// weekRefs name a week relative to this one: the week a weekday or a
// range of weekdays falls in ("wed to sat next week", "de quarta a
// sábado da semana que vem", "friday the week after next").
func (p parser) weekRef(i int) (weeks, size int, ok bool) {
	w, next, next2 := p.word(i), p.word(i+1), p.word(i+2)
	switch {
	case w == "week" && next == "after" && next2 == "next", w == "semana" && next == "depois" && next2 == "da":
		return 2, 3, true
	case (w == "next" || w == "following") && next == "week", (w == "proxima" || w == "outra") && next == "semana":
		return 1, 2, true
	case w == "semana" && next == "que" && next2 == "vem", w == "semana" && (next == "seguinte" || next == "proxima"):
		return 1, 3, true
	case w == "this" && next == "week", (w == "esta" || w == "essa" || w == "desta" || w == "dessa" || w == "nesta" || w == "nessa") && next == "semana":
		return 0, 2, true
	}
	return 0, 0, false
}

// inWeek places a weekday, or a range of them read at toks[i], in the
// week a reference after it names ("wed to sat next week"): the week
// after this one, Monday to Sunday, or the one after that. Without one
// the weekdays stand as read.
func (p parser) inWeek(i int, r Result) Result {
	for j := max(0, i-4); j < len(p.toks) && j <= i+8; j++ {
		if p.toks[j].brk && j > i+4 {
			break
		}
		weeks, size, ok := p.weekRef(j)
		if !ok || j < i && j+size+2 < i {
			continue
		}
		monday := p.today.AddDate(0, 0, -((int(p.today.Weekday())+6)%7)+7*weeks)
		shift := func(t time.Time) time.Time {
			return monday.AddDate(0, 0, (int(t.Weekday())+6)%7)
		}
		start := shift(r.Start)
		out := Result{Start: start}
		if r.HasEnd() {
			out.End = start.AddDate(0, 0, int(r.End.Sub(r.Start).Hours()/24+0.5))
		}
		if out.Start.Before(p.today) {
			return r
		}
		return out
	}
	return r
}

// weekdayFollows reports a weekday in the few words after toks[i]: a week
// named before its days ("next week, wed to sat") is theirs.
func (p parser) weekdayFollows(i int) bool {
	for j := i + 1; j < len(p.toks) && j <= i+4; j++ {
		if _, ok := p.weekdayAt(j); ok {
			return true
		}
	}
	return false
}
