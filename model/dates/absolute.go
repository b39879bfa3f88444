package dates

import (
	"slices"
	"time"

	"github.com/tripgraph/tripgraph/locale"
)

// atom is one date the text names, possibly partial: a day whose month is
// given later ("3" in "3 a 7 de maio"), or a month alone.
type atom struct {
	day, year int
	month     time.Month
	linked    bool // joined to the previous atom by a connector
	endOnly   bool // introduced by "until", "até": the end of the stay
	event     bool // the day of an event, not the stay: "the wedding is on the 9th"
}

// eventWords name an event whose day may be given beside the stay's own.
var eventWords = map[string]bool{
	"wedding": true, "birthday": true, "conference": true, "concert": true, "show": true, "game": true, "match": true,
	"festival": true, "graduation": true, "party": true, "event": true, "meeting": true,
	"casamento": true, "aniversario": true, "congresso": true, "jogo": true, "formatura": true, "festa": true,
	"evento": true, "reuniao": true, "concerto": true,
}

// eventBefore reports an event named in the few words before toks[i]:
// "my sister's wedding is on Dec 12", "o aniversário dela é dia 5/12".
func (p parser) eventBefore(i int) bool {
	for j := i - 1; j >= max(0, i-5); j-- {
		if p.toks[j+1].brk {
			return false
		}
		if eventWords[p.word(j)] {
			return true
		}
	}
	return false
}

// withoutEvents drops the days of events when the stay has days of its
// own, after lending their month to the stay's days said without one
// ("the wedding is on Dec 12, hotel from the 11th to the 13th").
func withoutEvents(atoms []atom) []atom {
	var ev *atom
	own := 0
	for i := range atoms {
		switch {
		case atoms[i].event && ev == nil:
			ev = &atoms[i]
		case !atoms[i].event && atoms[i].day != 0:
			own++
		}
	}
	if ev == nil || own == 0 || ev.month == 0 {
		return atoms
	}
	out := make([]atom, 0, len(atoms))
	lent := false
	for _, a := range atoms {
		if a.event {
			continue
		}
		if a.month == 0 && !lent && !a.linked {
			a.month, a.year, lent = ev.month, ev.year, true
		}
		out = append(out, a)
	}
	return out
}

type parser struct {
	ref   time.Time // start stated earlier in the conversation, if any
	toks  []token
	lang  string
	today time.Time
	past  bool // dates without a year are the latest not in the future
	south bool // seasons are those of the southern hemisphere
}

// atoms reads the dates the text names, with their months filled in.
func (p parser) atoms() []atom {
	ft, orig := p.filtered()
	var atoms []atom
	linked := false
	for i := 0; i < len(ft); {
		a, n := p.atomAt(ft, orig, i, len(atoms) > 0 && linked)
		if n == 0 {
			linked = ft[i].kind != num && connectors[ft[i].text] && len(atoms) > 0
			i++
			continue
		}
		a.linked, linked = linked, false
		a.endOnly = p.endMarkerBefore(orig[i])
		a.event = p.eventBefore(orig[i])
		atoms = append(atoms, a)
		i += n
	}
	atoms = withoutEvents(atoms)
	full := fillMonths(slices.Clone(atoms))
	if len(full) == 0 && len(atoms) >= 2 && atoms[1].linked && atoms[0].day != 0 {
		return p.bareRange(atoms[0], atoms[1])
	}
	return full
}

// bareRange dates "de 12 a 16" said without a month: in the month of the
// start stated earlier, else in this month if the day is still to come,
// else the next.
func (p parser) bareRange(a, b atom) []atom {
	switch {
	case !p.ref.IsZero():
		a.month, a.year = p.ref.Month(), p.ref.Year()
	case a.day >= p.today.Day():
		a.month, a.year = p.today.Month(), p.today.Year()
	default:
		next := p.today.AddDate(0, 1, 1-p.today.Day())
		a.month, a.year = next.Month(), next.Year()
	}
	b.month, b.year = a.month, a.year
	if b.day < a.day {
		b.month++
	}
	return []atom{a, b}
}

// filtered drops filler words; orig maps each kept token to its index.
func (p parser) filtered() ([]token, []int) {
	ft := make([]token, 0, len(p.toks))
	orig := make([]int, 0, len(p.toks))
	brk := false // a break before a filler left out stays: "boston 2, from oct 14"
	for i, t := range p.toks {
		if t.kind == word && fillers[t.text] {
			brk = brk || t.brk
			continue
		}
		t.brk = t.brk || brk
		brk = false
		ft = append(ft, t)
		orig = append(orig, i)
	}
	return ft, orig
}

// atomAt reads a date at ft[i]; n is how many tokens it took, 0 if none.
func (p parser) atomAt(ft []token, orig []int, i int, afterConnector bool) (atom, int) {
	if a, n := isoDate(ft, i); n > 0 {
		return a, n
	}
	if a, n := p.numericDate(ft, i); n > 0 {
		return a, n
	}
	t := ft[i]
	if m, ok := months[t.text]; ok && t.kind == word && !(t.text == "out" && (p.word(orig[i]-1) == "checking" || p.word(orig[i]-1) == "check")) {
		if d, ok := dayAt(ft, i+1); ok && !ft[i+1].brk {
			return withYear(atom{day: d, month: m}, ft, i, i+2)
		}
		if weakMonths[t.text] && (!p.monthContext(orig[i]) || p.countOfPeople(orig[i])) {
			return atom{}, 0
		}
		return withYear(atom{month: m}, ft, i, i+1)
	}
	d, ok := dayAt(ft, i)
	if !ok || p.countForSomeone(orig[i]) || p.ages(orig[i]) {
		return atom{}, 0
	}
	if i+1 < len(ft) && ft[i+1].kind == word && !ft[i+1].brk {
		if m, ok := months[ft[i+1].text]; ok {
			return withYear(atom{day: d, month: m}, ft, i, i+2)
		}
	}
	k := i + 1
	for k < len(ft) && ft[k].kind != num && connectors[ft[k].text] {
		k++ // "chego dia 30 e volto dia 4": connectors in a row
	}
	nextConn := k > i+1 && k < len(ft) && (ft[k].kind == num || months[ft[k].text] > 0)
	if nextConn || (afterConnector && (t.ordinal || !followedByCount(ft, i+1))) {
		return atom{day: d}, 1
	}
	return atom{}, 0
}

// agesWords are people whose numbers after them are ages: "our kids (7
// and 10)", "filhos de 5 e 8 anos".
var agesWords = map[string]bool{
	"kids": true, "children": true, "sons": true, "daughters": true, "boys": true, "girls": true, "ages": true, "aged": true,
	"filhos": true, "filhas": true, "criancas": true, "idades": true, "idade": true, "meninos": true, "meninas": true,
}

// ages reports a number that is an age: after people whose ages follow
// ("kids 7 and 10", "filhos de 5 e 8"), or before "years old", "anos".
func (p parser) ages(i int) bool {
	for j := i - 1; j >= max(0, i-4) && !p.toks[j+1].brk; j-- {
		w := p.word(j)
		if agesWords[w] {
			return !p.monthAfterRun(i)
		}
		if p.toks[j].kind == num || connectors[w] || w == "de" || w == "of" {
			continue
		}
		break
	}
	for j := i + 1; j < len(p.toks) && j <= i+4; j++ {
		if w := p.word(j); w == "anos" || w == "years" || w == "yo" {
			return true
		}
		if p.toks[j].kind != num && !connectors[p.word(j)] {
			break
		}
	}
	return false
}

// monthAfterRun reports a month after the numbers and connectors from
// toks[i]: "3 a 10 de janeiro" are days, whatever comes before.
func (p parser) monthAfterRun(i int) bool {
	for j := i; j < len(p.toks) && j <= i+6; j++ {
		w := p.word(j)
		if _, ok := months[w]; ok {
			return true
		}
		if p.toks[j].kind != num && p.toks[j].kind != sep && !connectors[w] && w != "de" && w != "of" {
			return false
		}
	}
	return false
}

// endMarkerBefore reports whether the date at toks[i] is introduced as
// the end of the stay: "until April 12", "até 12 de abril", "checking out
// on May 5".
func (p parser) endMarkerBefore(i int) bool {
	j := i - 1
	for p.word(j) == "the" || p.word(j) == "o" || p.word(j) == "dia" || p.word(j) == "on" || p.word(j) == "do" {
		j--
	}
	switch p.word(j) {
	case "until", "till", "til", "ate", "checkout", "returning", "voltando", "volta":
		return true
	case "out":
		return p.word(j-1) == "checking" || p.word(j-1) == "check"
	}
	return false
}

// countForSomeone reports "for 2 in June", "pra 2 em junho": a number
// after "for" and before "in" counts people, not days.
func (p parser) countForSomeone(i int) bool {
	if i == 0 || i+1 >= len(p.toks) {
		return false
	}
	switch p.toks[i-1].text {
	case "for", "para", "pra", "pro", "somos", "are":
	default:
		return false
	}
	switch p.toks[i+1].text {
	case "in", "em", "no", "na", "during", "from", "between", "on", "desde", "entre":
		return true
	}
	return p.toks[i+1].brk
}

// countOfPeople reports "somos dez", "somos em dez": a number word that
// is also a month abbreviation, counting people.
func (p parser) countOfPeople(i int) bool {
	j := i - 1
	if p.word(j) == "em" {
		j--
	}
	switch p.word(j) {
	case "somos", "seremos", "estamos", "vamos":
		return true
	}
	return false
}

// monthContext reports whether a weak month word ("may", "mar") is used as
// a month: after "in", "em", "during", "de", "no mes de".
func (p parser) monthContext(i int) bool {
	if i == 0 {
		return false
	}
	switch p.toks[i-1].text {
	case "in", "em", "during", "de", "for", "until", "till", "early", "late", "mid", "inicio", "fim", "final", "meados":
		return true
	}
	return false
}

// dayAt reads a day of month at ft[i] that is not a count of something.
func dayAt(ft []token, i int) (int, bool) {
	if i >= len(ft) || ft[i].kind != num || ft[i].digits > 2 || ft[i].n < 1 || ft[i].n > 31 {
		return 0, false
	}
	if followedByCount(ft, i+1) {
		return 0, false
	}
	if ft[i].spelled && !ft[i].ordinal && !monthNear(ft, i) {
		return 0, false // "two to three nights", but "vinte e um de maio"
	}
	return ft[i].n, true
}

// monthNear reports a month's name next to the day at ft[i], or beyond
// the other end of the range it begins or ends ("de vinte a vinte e
// cinco de maio", "May first to third").
func monthNear(ft []token, i int) bool {
	if monthWord(ft, i-1) || monthWord(ft, i+1) {
		return true
	}
	if i+3 < len(ft) && connectors[ft[i+1].text] && ft[i+2].kind == num && monthWord(ft, i+3) {
		return true
	}
	return i >= 3 && connectors[ft[i-1].text] && ft[i-2].kind == num && monthWord(ft, i-3)
}

// monthWord reports a month's name at ft[i].
func monthWord(ft []token, i int) bool {
	if i < 0 || i >= len(ft) || ft[i].kind != word {
		return false
	}
	_, ok := months[ft[i].text]
	return ok
}

// followedByCount reports whether ft[i] is a unit or people word, which
// makes the number before it a count rather than a day.
func followedByCount(ft []token, i int) bool {
	if i >= len(ft) || ft[i].kind != word {
		return false
	}
	if units[ft[i].text] != 0 {
		return true
	}
	switch ft[i].text {
	case "people", "persons", "guests", "adults", "kids", "children", "us", "pessoas", "adultos", "criancas", "hospedes", "nos", "pax", "stars", "estrelas", "rooms", "quartos":
		return true
	}
	return false
}

// withYear adds a year written at ft[next] to an atom read from
// ft[start:next], and returns the number of tokens read.
func withYear(a atom, ft []token, start, next int) (atom, int) {
	if next < len(ft) && ft[next].kind == num && ft[next].digits == 4 && ft[next].n >= 2000 && ft[next].n < 2100 {
		a.year = ft[next].n
		next++
	}
	return a, next - start
}

func isoDate(ft []token, i int) (atom, int) {
	if i+4 >= len(ft) || ft[i].kind != num || ft[i].digits != 4 || ft[i+1].kind != sep || ft[i+2].kind != num || ft[i+3].kind != sep || ft[i+4].kind != num {
		return atom{}, 0
	}
	a := atom{year: ft[i].n, month: time.Month(ft[i+2].n), day: ft[i+4].n}
	if !valid(a.month, a.day) {
		return atom{}, 0
	}
	return a, 5
}

// numericDate reads "03/05" or "3/5/2027": day first in Portuguese, month
// first in English unless that cannot be.
func (p parser) numericDate(ft []token, i int) (atom, int) {
	if i+2 >= len(ft) || ft[i].kind != num || ft[i+1].kind != sep || ft[i+1].text != "/" || ft[i+2].kind != num || ft[i].digits > 2 || ft[i+2].digits > 2 {
		return atom{}, 0
	}
	a, b := ft[i].n, ft[i+2].n
	d, m := a, b
	if p.monthFirst(ft) && a <= 12 && b <= 31 {
		d, m = b, a
	}
	at := atom{day: d, month: time.Month(m)}
	if !valid(at.month, at.day) {
		return atom{}, 0
	}
	n := 3
	if i+4 < len(ft) && ft[i+3].kind == sep && ft[i+3].text == "/" && ft[i+4].kind == num {
		y := ft[i+4].n
		if ft[i+4].digits == 2 {
			y += 2000
		}
		at.year, n = y, 5
	}
	return at, n
}

// fillMonths gives days without a month the month of the atom they are
// joined to: the next one ("3 a 7 de maio") or else the previous one
// ("May 3 to 7").
func fillMonths(atoms []atom) []atom {
	for j := len(atoms) - 2; j >= 0; j-- {
		if atoms[j].month == 0 && atoms[j+1].linked && atoms[j+1].month != 0 {
			atoms[j].month, atoms[j].year = atoms[j+1].month, atoms[j+1].year
		}
	}
	for j := 1; j < len(atoms); j++ {
		if atoms[j].month == 0 && atoms[j].linked && atoms[j-1].month != 0 {
			atoms[j].month, atoms[j].year = atoms[j-1].month, atoms[j-1].year
		}
	}
	out := atoms[:0]
	for _, a := range atoms {
		if a.month != 0 {
			out = append(out, a)
		}
	}
	return out
}

// firstDay returns the first full date (day and month) of the text.
func (p parser) firstDay() (time.Time, bool) {
	for _, a := range p.atoms() {
		if a.day != 0 {
			return p.place(a), true
		}
	}
	return time.Time{}, false
}

// resolve turns the first one or two atoms into a start and an end.
func (p parser) resolve(atoms []atom) Result {
	var days []atom
	for _, a := range atoms {
		if a.day != 0 {
			days = append(days, a)
		}
	}
	switch {
	case len(days) >= 2:
		first := 0
		for k := 2; k < len(days) && !days[1].linked; k++ {
			if days[k].linked {
				first = k - 1 // a range beside a day of its own: the range is the stay
				break
			}
		}
		start := p.place(days[first])
		end := p.placeAfter(days[first+1], start)
		return Result{Start: start, End: end}
	case len(days) == 1 && days[0].endOnly:
		return Result{End: p.place(days[0])}
	case len(days) == 1:
		return Result{Start: p.place(days[0])}
	case len(atoms) > 0:
		a := atoms[0]
		a.day = 1
		start := p.placeMonth(a)
		return Result{Start: start}
	}
	return Result{}
}

// place dates an atom: its own year, else the next one not in the past.
func (p parser) place(a atom) time.Time {
	if !valid(a.month, a.day) {
		a.day = min(a.day, date(2027, a.month+1, 0).Day())
	}
	if a.year != 0 {
		return date(a.year, a.month, a.day)
	}
	t := date(p.today.Year(), a.month, a.day)
	if p.past && t.After(p.today) {
		t = t.AddDate(-1, 0, 0)
	} else if !p.past && t.Before(p.today) {
		t = t.AddDate(1, 0, 0)
	}
	return t
}

// placeMonth dates a month alone: the current month counts as not past.
func (p parser) placeMonth(a atom) time.Time {
	if a.year != 0 {
		return date(a.year, a.month, 1)
	}
	y := p.today.Year()
	if a.month < p.today.Month() {
		y++
	}
	t := date(y, a.month, 1)
	if a.month == p.today.Month() {
		return p.today
	}
	return t
}

// placeAfter dates an end: the first such day not before start.
func (p parser) placeAfter(a atom, start time.Time) time.Time {
	if a.year != 0 {
		return date(a.year, a.month, a.day)
	}
	t := date(start.Year(), a.month, a.day)
	if t.Before(start) {
		t = t.AddDate(1, 0, 0)
	}
	return t
}

// monthFirst decides how the numeric dates of a message are read: as the
// one that cannot be read otherwise says ("27/12 to 02/01" is day first
// in English too, "12/27 a 01/02" month first in Portuguese), else month
// first in English and day first in Portuguese.
func (p parser) monthFirst(ft []token) bool {
	for i := 0; i+2 < len(ft); i++ {
		if ft[i].kind != num || ft[i+1].text != "/" || ft[i+2].kind != num || ft[i].digits > 2 || ft[i+2].digits > 2 {
			continue
		}
		switch a, b := ft[i].n, ft[i+2].n; {
		case a > 12 && a <= 31 && b <= 12:
			return false
		case b > 12 && b <= 31 && a <= 12:
			return true
		}
		if i+3 < len(ft) && (ft[i+3].text == "a" || ft[i+3].text == "ate") {
			return false // "1/1 a 4/1": a Portuguese range, day first
		}
	}
	return p.lang == locale.English
}
