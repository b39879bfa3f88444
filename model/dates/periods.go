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
	if r, ok := p.halfOfMonth(i); ok {
		return period{r: r}, true
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
	"last": -1, "final": -1, "ultima": -1, "ultimo": -1,
}

// weekOfMonth reads "the second week of May", "última semana de
// setembro": seven nights from day 1, 8, 15 or 22, or the month's last
// seven.
func (p parser) weekOfMonth(i int) (Result, bool) {
	n, ok := weekOrdinals[p.word(i)]
	if !ok && p.toks[i].kind == num && p.toks[i].ordinal && p.toks[i].n <= 4 {
		n, ok = p.toks[i].n, true
	}
	if !ok {
		return Result{}, false
	}
	j, weekend := i+2, false
	switch {
	case p.word(i+1) == "weekend":
		weekend = true
	case p.word(i+1) == "fim" && p.word(i+2) == "de" && p.word(i+3) == "semana":
		j, weekend = i+4, true
	case p.word(i+1) != "week" && p.word(i+1) != "semana":
		return Result{}, false
	}
	if w := p.word(j); w == "of" || w == "de" || w == "do" || w == "in" || w == "em" {
		j++
	}
	m, ok := months[p.word(j)]
	if !ok {
		return Result{}, false
	}
	y := p.yearOfMonth(m)
	r := weekOf(y, m, n, weekend)
	if r.End.Before(p.today) || !weekend && r.End.Equal(p.today) {
		r = weekOf(y+1, m, n, weekend) // the first week of this month, gone by: next year's
	}
	return r, true
}

// weekOf is the nth week (or weekend) of a month of year y, the last for
// n < 0.
func weekOf(y int, m time.Month, n int, weekend bool) Result {
	if weekend {
		return nthWeekend(y, m, n)
	}
	start := date(y, m, 1+7*(n-1))
	if n < 0 {
		start = date(y, m+1, 0).AddDate(0, 0, -7)
	}
	return Result{Start: start, End: start.AddDate(0, 0, 7)}
}

// nthWeekend is the nth weekend of a month (the last for n < 0): the
// Friday to Sunday around its nth Saturday.
func nthWeekend(y int, m time.Month, n int) Result {
	first := date(y, m, 1)
	sat := first.AddDate(0, 0, (int(time.Saturday)-int(first.Weekday())+7)%7+7*(n-1))
	if n < 0 {
		last := date(y, m+1, 0)
		sat = last.AddDate(0, 0, -((int(last.Weekday()) - int(time.Saturday) + 7) % 7))
	}
	return Result{Start: sat.AddDate(0, 0, -1), End: sat.AddDate(0, 0, 1)}
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
	m, y, ok := p.monthAt(j)
	if !ok {
		return Result{}, false
	}
	start := date(y, m, d)
	if start.Before(p.today) {
		start = p.today
	}
	return Result{Start: start}, true
}

// monthAt reads a month at toks[j]: its name ("May", "maio"), or "next
// month", "this month", "o mês que vem", "o próximo mês", "deste mês".
func (p parser) monthAt(j int) (time.Month, int, bool) {
	if w := p.word(j); w == "the" || w == "o" {
		j++
	}
	if m, ok := months[p.word(j)]; ok {
		return m, p.yearOfMonth(m), true
	}
	next := p.today.AddDate(0, 1, 1-p.today.Day())
	switch w := p.word(j); {
	case w == "next" && p.word(j+1) == "month", w == "proximo" && p.word(j+1) == "mes", w == "mes" && p.word(j+1) == "que" && p.word(j+2) == "vem":
		return next.Month(), next.Year(), true
	case w == "this" && p.word(j+1) == "month", w == "mes" && (p.word(j-1) == "deste" || p.word(j-1) == "desse"), (w == "deste" || w == "desse") && p.word(j+1) == "mes":
		return p.today.Month(), p.today.Year(), true
	}
	return 0, 0, false
}

// halfOfMonth reads "the first half of January", "segunda quinzena de
// dezembro", "2ª quinzena de março": the 1st to the 15th, or the 16th to
// the month's last day.
func (p parser) halfOfMonth(i int) (Result, bool) {
	var half int
	switch w := p.word(i); {
	case w == "first" || w == "primeira" || p.ordinalAt(i, 1):
		half = 1
	case w == "second" || w == "segunda" || p.ordinalAt(i, 2):
		half = 2
	default:
		return Result{}, false
	}
	if w := p.word(i + 1); w != "half" && w != "quinzena" && w != "metade" {
		return Result{}, false
	}
	j := i + 2
	if w := p.word(j); w == "of" || w == "de" || w == "do" || w == "in" || w == "em" {
		j++
	}
	m, y, ok := p.monthAt(j)
	if !ok {
		return Result{}, false
	}
	if half == 1 {
		return Result{Start: date(y, m, 1), End: date(y, m, 15)}, true
	}
	return Result{Start: date(y, m, 16), End: date(y, m+1, 0)}, true
}

// ordinalAt reports the ordinal number n at toks[i] ("2ª", "2nd", "1a").
func (p parser) ordinalAt(i, n int) bool {
	return i < len(p.toks) && p.toks[i].kind == num && p.toks[i].ordinal && p.toks[i].n == n
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

// dayOnOrAfter is the first day of the month numbered n not before from:
// in from's month, else the next.
func (p parser) dayOnOrAfter(n int, from time.Time) time.Time {
	d := date(from.Year(), from.Month(), 1)
	if n < from.Day() {
		d = d.AddDate(0, 1, 0)
	}
	return d.AddDate(0, 0, min(n, date(d.Year(), d.Month()+1, 0).Day())-1)
}

// bareDay reads a day of the month said without its month: "from the
// 20th", "a partir do dia 5" (a start) or "until the 30th", "até o dia 30"
// (an end). It is in this month if still to come, else in the next.
func (p parser) bareDay() (Result, bool) {
	n, role, ok := p.bareDayNumber()
	switch {
	case !ok:
		return Result{}, false
	case role == bareStart:
		return Result{Start: p.dayOnOrAfter(n, p.today)}, true
	case role == bareReturn && !p.ref.IsZero():
		return Result{End: p.dayOnOrAfter(n, p.ref)}, true // after the start stated before
	}
	return Result{End: p.dayOnOrAfter(n, p.today)}, true
}

// The roles of a bare day.
const (
	bareStart  = iota // "from the 20th"
	bareEnd           // "until the 30th"
	bareReturn        // "volto dia 9": after the start, wherever it was said
)

// bareDayNumber finds a bare day and its role.
func (p parser) bareDayNumber() (n, role int, ok bool) {
	for i, t := range p.toks {
		if t.kind != num || t.digits > 2 || t.n < 1 || t.n > 31 || t.spelled && !t.ordinal {
			continue
		}
		if i+1 < len(p.toks) && p.toks[i+1].kind == sep || followedByCount(p.toks, i+1) {
			continue
		}
		j := i - 1
		for p.word(j) == "the" || p.word(j) == "o" || p.word(j) == "dia" || p.word(j) == "do" || p.word(j) == "on" {
			j--
		}
		switch p.word(j) {
		case "from", "starting", "since", "desde", "partir", "comecando":
			return t.n, bareStart, true
		case "until", "till", "til", "ate", "through", "out":
			return t.n, bareEnd, true
		case "back", "return", "returning", "volto", "voltamos", "voltando", "saio", "saimos", "checkout":
			return t.n, bareReturn, true
		}
	}
	return 0, 0, false
}

// dayInMonth places a bare start day in the month a message names alone
// ("15 dias em dezembro a partir do dia 10").
func (p parser) dayInMonth(r Result, atoms []atom) Result {
	if len(atoms) == 0 || dayIn(atoms) || !r.HasStart() || r.HasEnd() {
		return r
	}
	n, role, ok := p.bareDayNumber()
	if !ok || role != bareStart {
		return r
	}
	y, m, _ := r.Start.Date()
	if d := date(y, m, min(n, date(y, m+1, 0).Day())); !d.Before(p.today) {
		r.Start = d
	}
	return r
}
