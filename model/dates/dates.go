// Package dates reads travel dates and stay lengths in English and
// Portuguese: absolute dates and ranges ("May 3 to 7", "de 3 a 7 de maio",
// "2027-05-03", "03/05"), relative ones ("next weekend", "em julho", "daqui
// a 2 semanas", "amanhã", "Christmas") and durations ("for 5 nights", "por
// uma semana", "um fim de semana").
//
// The rules, which the evaluation corpus's labels follow too:
//
//   - A date without a year is the next one that is not in the past; an
//     end before its start is in the following year.
//   - Numeric dates are day/month in Portuguese and month/day in English
//     (unless the first number is over 12).
//   - A month alone ("in July") gives only a start, on the 1st (today when
//     it is the current month).
//   - A weekend is Friday to Sunday. "This weekend" on a Saturday or Sunday
//     starts today; "next weekend" is the one of the following week.
//   - "Next week" starts on the next Monday; "next month" on its 1st; "in
//     two weeks" fourteen days from today. They give only a start.
//   - Christmas / Natal is 24 to 26 December; New Year's / réveillon is 30
//     December to 2 January.
//   - A stay of N days counts as N nights; a week is 7 nights, a weekend 2,
//     a long weekend (feriadão) 3, a fortnight 14.
//   - With a start and a length, the end is start + nights; with a start and
//     an end, nights is the difference.
//   - A clause about a trip that was ("we went to Paris in May", "ano
//     passado", "last summer") gives no dates.
package dates

import "time"

// Result is what a text says about dates. Zero fields were not stated.
type Result struct {
	Start, End time.Time
	Nights     int
}

// HasStart reports whether a start date was stated.
func (r Result) HasStart() bool { return !r.Start.IsZero() }

// HasEnd reports whether an end date was stated or follows from a length.
func (r Result) HasEnd() bool { return !r.End.IsZero() }

// Empty reports whether the text said nothing about dates.
func (r Result) Empty() bool { return !r.HasStart() && !r.HasEnd() && r.Nights == 0 }

// Parse reads the dates of one message. lang is one of locale.All and decides
// how numeric dates are read; today is the clock relative dates use.
func Parse(text, lang string, today time.Time) Result {
	return Update(Result{}, text, lang, today)
}

// Day returns the one day a text names, such as the day of a photo
// ("photos from March 15", "fotos de 15/03/2024"). Without a year it is the
// latest such day not after today. Months alone and relative dates do not
// count.
func Day(text, lang string, today time.Time) (time.Time, bool) {
	p := parser{toks: lex(text), lang: lang, today: day(today), past: true}
	return p.firstDay()
}

// Update applies a later message to what earlier messages said: like
// Merge(earlier, Parse(text, lang, today)), except that a range of bare
// days ("can we do 12 to 16?") falls in the month stated earlier.
func Update(earlier Result, text, lang string, today time.Time) Result {
	return UpdateIn(earlier, text, lang, today, false)
}

// UpdateIn is Update for a destination in the southern hemisphere when
// south is true: seasons are read for it.
func UpdateIn(earlier Result, text, lang string, today time.Time, south bool) Result {
	p := parser{toks: withoutPast(lex(text)), lang: lang, today: day(today), ref: earlier.Start, south: south}
	if earlier.HasStart() {
		if r, ok := p.correction(earlier.complete()); ok {
			return r.complete()
		}
	}
	return Merge(earlier, p.own())
}

// ParseAfter reads the dates of one part of a message on their own, a
// range of bare days falling in ref's month: the leg of a trip of several
// cities ("Lisboa de 3 a 6 de outubro e Porto de 6 a 9").
func ParseAfter(text, lang string, today, ref time.Time, south bool) Result {
	p := parser{toks: withoutPast(lex(text)), lang: lang, today: day(today), ref: ref, south: south}
	return p.own().complete()
}

// own reads what the text itself says of dates.
func (p parser) own() Result {
	atoms := p.atoms()
	r := p.dayInMonth(p.resolve(atoms), atoms)
	soft := false // an end that a stated length replaces
	if pr, ok := p.periods(); ok && (!dayIn(atoms) || pr.ownsDay && !r.HasEnd()) {
		r, soft = pr.r, true
	}
	if r.Empty() {
		r, _ = p.bareDay()
		if rel := p.relative(); !r.HasStart() && r.HasEnd() && rel.HasStart() && !rel.HasEnd() && rel.Start.Before(r.End) {
			r.Start = rel.Start // "amanhã e volto dia 25"
		}
	}
	if r.Empty() {
		r = p.relative()
		if r.HasStart() && !r.HasEnd() {
			r.End = p.returnAfter(r.Start) // "amanhã, volto domingo"
		}
	}
	if n := p.duration(); n > 0 {
		if soft && r.HasStart() {
			r.End = time.Time{}
		}
		if r.Nights == 0 || !r.HasEnd() {
			r.Nights = n
		}
	}
	return r.complete()
}

// dayIn reports whether any date read names its day.
func dayIn(atoms []atom) bool {
	for _, a := range atoms {
		if a.day != 0 {
			return true
		}
	}
	return false
}

// Merge applies a later message's result over an earlier one: what the
// later message states wins, and the rest is recomputed to stay coherent.
func Merge(earlier, later Result) Result {
	r := earlier
	switch {
	case later.HasStart():
		r.Start, r.End = later.Start, later.End
		if later.Nights > 0 {
			r.Nights = later.Nights
		}
		if later.HasEnd() && later.Nights > 0 {
			r.Nights = later.Nights
		} else if later.HasEnd() {
			r.Nights = 0
		}
	case later.Nights > 0:
		r.Nights = later.Nights
		if r.HasStart() {
			r.End = time.Time{}
		}
	case later.HasEnd():
		r.End, r.Nights = later.End, 0
	}
	return r.complete()
}

func (r Result) complete() Result {
	switch {
	case r.HasStart() && r.HasEnd():
		if n := int(r.End.Sub(r.Start).Hours()/24 + 0.5); n > 0 {
			r.Nights = n
		}
	case r.HasStart() && r.Nights > 0:
		r.End = r.Start.AddDate(0, 0, r.Nights)
	case r.HasEnd() && r.Nights > 0:
		r.Start = r.End.AddDate(0, 0, -r.Nights)
	}
	return r
}

func day(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func date(y int, m time.Month, d int) time.Time {
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// valid reports whether d is a real day of month m.
func valid(m time.Month, d int) bool {
	return m >= 1 && m <= 12 && d >= 1 && d <= date(2028, m+1, 0).Day()
}

// Alternatives reports a message that offers two dates to choose from
// ("the 14th or the 15th", "dia 3 ou 4 de maio", "May 3 or May 10"): a
// reading of it is a guess.
func Alternatives(text, lang string, today time.Time) bool {
	p := parser{toks: withoutPast(lex(text)), lang: lang, today: day(today)}
	for i, t := range p.toks {
		if t.kind != word || t.text != "or" && t.text != "ou" {
			continue
		}
		if dateAround(p.toks, i-1, -1) && dateAround(p.toks, i+1, 1) {
			return true
		}
	}
	return false
}

// dateAround reports a day number or a month name at toks[i], or one
// token further in the direction step ("the 14th", "dia 3").
func dateAround(toks []token, i, step int) bool {
	for k := 0; k < 3 && i >= 0 && i < len(toks); k, i = k+1, i+step {
		t := toks[i]
		if t.kind == num && t.n >= 1 && t.n <= 31 && t.digits <= 2 && !followedByCount(toks, i+1) && !ofUs(toks, i+1) {
			return true
		}
		if t.kind == word {
			if _, ok := months[t.text]; ok && (!weakMonths[t.text] || i+1 < len(toks) && toks[i+1].kind == num) {
				return true
			}
			if !fillers[t.text] {
				return false
			}
		}
	}
	return false
}

// ofUs reports "of us", "de nós" at toks[i]: the number before counts
// people.
func ofUs(toks []token, i int) bool {
	return i+1 < len(toks) && (toks[i].text == "of" || toks[i].text == "de") && (toks[i+1].text == "us" || toks[i+1].text == "nos")
}
