package dates

import "time"

// correction reads a change to the dates stated before, said relative to
// them: "a day later", "um dia antes", "one more night", "mais duas
// noites", "one night less", "same days in January", "mesmos dias em
// fevereiro".
func (p parser) correction(was Result) (Result, bool) {
	if !was.HasStart() || !was.HasEnd() {
		return Result{}, false
	}
	for i := range p.toks {
		if r, ok := p.shiftAt(i, was); ok {
			return r, true
		}
		if r, ok := p.lengthenAt(i, was); ok {
			return r, true
		}
		if r, ok := p.sameDaysAt(i, was); ok {
			return r, true
		}
	}
	return Result{}, false
}

// laterWords move the stay later (+1) or earlier (-1).
var laterWords = map[string]int{"later": 1, "after": 1, "depois": 1, "earlier": -1, "before": -1, "antes": -1}

// shiftAt reads "<n> day(s)|week(s) later|earlier" at toks[i].
func (p parser) shiftAt(i int, was Result) (Result, bool) {
	n, ok := p.count(i)
	if !ok {
		return Result{}, false
	}
	u := units[p.word(i+1)]
	sign := laterWords[p.word(i+2)]
	if p.word(i+2) == "mais" {
		switch p.word(i + 3) {
		case "tarde":
			sign = 1
		case "cedo":
			sign = -1
		}
	}
	if sign == 0 || (u != unitDay && u != unitWeek) {
		return Result{}, false
	}
	if u == unitWeek {
		n *= 7
	}
	d := sign * n
	return Result{Start: was.Start.AddDate(0, 0, d), End: was.End.AddDate(0, 0, d)}, true
}

// lengthenAt reads "<n> more night(s)", "mais <n> noite(s)", "<n>
// noite(s) a mais", "add a night" (+n) and "<n> night(s) less", "one
// less night", "<n> noite(s) a menos", "menos uma noite" (-n) at toks[i].
func (p parser) lengthenAt(i int, was Result) (Result, bool) {
	sign, j := 0, i
	switch p.word(i) {
	case "mais", "add", "extra", "another":
		sign, j = 1, i+1
	case "menos":
		sign, j = -1, i+1
	}
	n, ok := p.count(j)
	if !ok {
		if sign == 0 || units[p.word(j)] != unitNight {
			return Result{}, false
		}
		n, j = 1, j-1 // "another night", "add night"
	}
	k := j + 1
	switch p.word(k) {
	case "more", "extra":
		sign, k = 1, k+1
	case "less", "fewer":
		sign, k = -1, k+1
	}
	if units[p.word(k)] != unitNight {
		return Result{}, false
	}
	switch {
	case p.word(k+1) == "more" || p.word(k+1) == "a" && p.word(k+2) == "mais":
		sign = 1
	case p.word(k+1) == "less" || p.word(k+1) == "fewer" || p.word(k+1) == "a" && p.word(k+2) == "menos":
		sign = -1
	}
	if sign == 0 {
		return Result{}, false
	}
	end := was.End.AddDate(0, 0, sign*n)
	if !end.After(was.Start) {
		return Result{}, false
	}
	return Result{Start: was.Start, End: end}, true
}

// sameDaysAt reads "same days in <month>", "mesmos dias em <month>",
// "mesmas datas de <month>" at toks[i]: the stay's days of the month in
// that month's next occurrence.
func (p parser) sameDaysAt(i int, was Result) (Result, bool) {
	if w := p.word(i); w != "same" && w != "mesmos" && w != "mesmas" {
		return Result{}, false
	}
	j := i + 1
	if w := p.word(j); w == "days" || w == "dates" || w == "dias" || w == "datas" {
		j++
	}
	if w := p.word(j); w == "in" || w == "em" || w == "de" || w == "of" {
		j++
	}
	m, y, ok := p.monthAt(j)
	if !ok {
		return Result{}, false
	}
	start := date(y, m, was.Start.Day())
	if start.Before(p.today) {
		start = start.AddDate(1, 0, 0)
	}
	nights := int(was.End.Sub(was.Start) / (24 * time.Hour))
	return Result{Start: start, End: start.AddDate(0, 0, nights)}, true
}
