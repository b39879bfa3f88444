package dates

import "time"

// period is a date read from a named period: a holiday, a week of a month,
// a part of a month, a season, or a bare day ("from the 20th").
type period struct {
	r       Result
	ownsDay bool // its words include a day number ("25 de abril")
}

// periodAt tries each kind of named period at toks[i].
func (p parser) periodAt(i int) (period, bool) {
	if r, n, ok := p.holidayAt(i); ok {
		own := false
		for _, t := range p.toks[i : i+n] {
			own = own || t.kind == num
		}
		return period{r: r, ownsDay: own}, true
	}
	if r, ok := p.weekOfMonth(i); ok {
		return period{r: r}, true
	}
	if r, ok := p.partOfMonth(i); ok {
		return period{r: r}, true
	}
	if r, ok := p.season(i); ok {
		return period{r: r}, true
	}
	return period{}, false
}

// periods finds the first named period of the text.
func (p parser) periods() (period, bool) {
	for i := range p.toks {
		if pr, ok := p.periodAt(i); ok {
			return pr, true
		}
	}
	return period{}, false
}

var weekOrdinals = map[string]int{
	"first": 1, "1st": 1, "primeira": 1, "second": 2, "2nd": 2, "segunda": 2,
	"third": 3, "3rd": 3, "terceira": 3, "fourth": 4, "4th": 4, "quarta": 4,
	"last": -1, "final": -1, "ultima": -1,
}

// weekOfMonth reads "the second week of May", "última semana de
// setembro": seven nights from day 1, 8, 15 or 22, or the month's last
// seven.
func (p parser) weekOfMonth(i int) (Result, bool) {
	n, ok := weekOrdinals[p.word(i)]
	if !ok && p.toks[i].kind == num && p.toks[i].ordinal && p.toks[i].n <= 4 {
		n, ok = p.toks[i].n, true
	}
	if !ok || (p.word(i+1) != "week" && p.word(i+1) != "semana") {
		return Result{}, false
	}
	j := i + 2
	if w := p.word(j); w == "of" || w == "de" || w == "do" || w == "in" || w == "em" {
		j++
	}
	m, ok := months[p.word(j)]
	if !ok {
		return Result{}, false
	}
	y := p.yearOfMonth(m)
	start := date(y, m, 1+7*(n-1))
	if n < 0 {
		start = date(y, m+1, 0).AddDate(0, 0, -7)
	}
	return Result{Start: start, End: start.AddDate(0, 0, 7)}, true
}

// monthParts are the first day of the early, middle and late parts of a
// month.
var monthParts = map[string]int{
	"early": 1, "beginning": 1, "start": 1, "inicio": 1, "comeco": 1, "principio": 1,
	"mid": 11, "middle": 11, "meados": 11, "meio": 11, "metade": 11,
	"late": 21, "end": 21, "fim": 21, "final": 21, "finalzinho": 21, "fins": 21,
}

// partOfMonth reads "late April", "início de fevereiro", "mid-June", "the
// end of June": the early part starts on the 1st, the middle on the 11th,
// the late part on the 21st. It gives only a start.
func (p parser) partOfMonth(i int) (Result, bool) {
	d, ok := monthParts[p.word(i)]
	if !ok {
		return Result{}, false
	}
	j := i + 1
	if j < len(p.toks) && p.toks[j].kind == sep {
		j++
	}
	if w := p.word(j); w == "of" || w == "de" || w == "do" {
		j++
	}
	m, ok := months[p.word(j)]
	if !ok {
		return Result{}, false
	}
	start := date(p.yearOfMonth(m), m, d)
	if start.Before(p.today) {
		start = p.today
	}
	return Result{Start: start}, true
}

// yearOfMonth is the year of the next such month, this one included.
func (p parser) yearOfMonth(m time.Month) int {
	if m < p.today.Month() {
		return p.today.Year() + 1
	}
	return p.today.Year()
}

// seasonStart is the month each season starts in the northern hemisphere
// (meteorological seasons); the southern one is six months off.
var seasonStart = map[string]time.Month{
	"spring": time.March, "primavera": time.March,
	"summer": time.June, "verao": time.June,
	"autumn": time.September, "fall": time.September, "outono": time.September,
	"winter": time.December, "inverno": time.December,
}

// season reads a season of the destination's hemisphere: its first day,
// or today while it lasts. It gives only a start.
func (p parser) season(i int) (Result, bool) {
	w := p.word(i)
	m, ok := seasonStart[w]
	if !ok {
		return Result{}, false
	}
	if w == "fall" && i > 0 {
		switch p.word(i - 1) {
		case "the", "this", "next", "in", "during", "for", "late", "early":
		default:
			return Result{}, false
		}
	}
	if p.south {
		m = (m+5)%12 + 1
	}
	start := date(p.today.Year()-1, m, 1)
	for !start.AddDate(0, 3, 0).After(p.today) {
		start = start.AddDate(1, 0, 0)
	}
	if start.Before(p.today) {
		start = p.today
	}
	return Result{Start: start}, true
}

// bareDay reads a day of the month said without its month: "from the
// 20th", "a partir do dia 5" (a start) or "until the 30th", "até o dia 30"
// (an end). It is in this month if still to come, else in the next.
func (p parser) bareDay() (Result, bool) {
	for i, t := range p.toks {
		if t.kind != num || t.digits > 2 || t.n < 1 || t.n > 31 {
			continue
		}
		if i+1 < len(p.toks) && p.toks[i+1].kind == sep || followedByCount(p.toks, i+1) {
			continue
		}
		j := i - 1
		for p.word(j) == "the" || p.word(j) == "o" || p.word(j) == "dia" || p.word(j) == "do" || p.word(j) == "on" && p.word(j-1) == "out" {
			j--
		}
		d := date(p.today.Year(), p.today.Month(), 1)
		if t.n < p.today.Day() {
			d = d.AddDate(0, 1, 0)
		}
		d = d.AddDate(0, 0, min(t.n, date(d.Year(), d.Month()+1, 0).Day())-1)
		switch p.word(j) {
		case "from", "starting", "since", "desde", "partir", "comecando":
			return Result{Start: d}, true
		case "until", "till", "til", "ate", "through", "out":
			return Result{End: d}, true
		}
	}
	return Result{}, false
}
