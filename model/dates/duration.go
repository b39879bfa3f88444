package dates

// duration reads a length of stay in nights: "5 nights", "por uma semana",
// "a weekend", "um feriadão". It is 0 when none is stated.
func (p parser) duration() int {
	best := 0
	for i, t := range p.toks {
		switch {
		case t.kind == word && units[t.text] != 0:
			if n := p.lengthAt(i); n > 0 && (best == 0 || units[t.text] == unitNight) {
				best = n
			}
		case t.text == "weekend" || t.text == "wknd" || t.text == "fds" || t.text == "fim" && p.word(i+1) == "de" && p.word(i+2) == "semana":
			if best == 0 {
				best = p.weekendLength(i)
			}
		case t.text == "feriadao":
			if best == 0 && !p.namesHoliday() {
				best = 3 // a holiday named with it has its own span
			}
		}
	}
	return best
}

// lengthAt reads "<count> <unit>" ending at the unit toks[i], unless it is
// a relative date ("in 2 weeks") or past ("2 weeks ago").
func (p parser) lengthAt(i int) int {
	u := units[p.toks[i].text]
	if u < 0 {
		if p.ordinalAt(i-1, 1) || p.ordinalAt(i-1, 2) || p.word(i-1) == "primeira" || p.word(i-1) == "segunda" {
			return 0 // "segunda quinzena de março" is a date
		}
		return -u * p.countBefore(i, 1)
	}
	j := i - 1
	if j >= 0 && p.toks[j].kind == sep {
		j--
	}
	if p.word(j) == "of" && p.word(j-1) == "couple" {
		j--
	}
	if p.word(j) == "whole" || p.word(j) == "inteira" {
		j = -1
	}
	n, ok := p.count(j)
	if !ok {
		if p.word(i-1) == "for" || p.word(i-1) == "por" || p.word(i-1) == "the" && p.word(i-2) == "for" {
			if b := i - 2; b >= 0 && (p.toks[b].kind == num || p.word(b) == "amount" || moneyWords[p.word(b)]) {
				return 0 // "250 por noite", "80 euros per night": a price
			}
			n, ok = 1, true
		} else {
			return 0
		}
	}
	if w := p.word(j - 1); w == "in" || w == "daqui" || w == "within" || w == "a" && p.word(j-2) == "daqui" || w == "em" && u != unitNight {
		return 0
	}
	if p.word(i+1) == "ago" || p.word(i+1) == "atras" || p.word(i+1) == "from" && (p.word(i+2) == "today" || p.word(i+2) == "now") {
		return 0
	}
	if laterWords[p.word(i+1)] != 0 && u != unitNight {
		return 0 // "a day later" moves the stay
	}
	switch u {
	case unitWeek:
		return 7 * n
	case unitMonth:
		return 30 * n
	}
	return n
}

func (p parser) countBefore(i, def int) int {
	if n, ok := p.count(i - 1); ok && p.toks[i-1].kind == num {
		return n
	}
	return def
}

// weekendLength is 3 for a long weekend, else 2, and 0 for the weekend of
// a holiday ("Easter weekend", "Labor Day long weekend"), whose own span
// counts.
func (p parser) weekendLength(i int) int {
	prev := p.word(i - 1)
	if p.namesHoliday() {
		return 0
	}
	if prev == "long" || p.word(i+3) == "prolongado" || p.word(i+1) == "prolongado" {
		return 3
	}
	return 2
}

// namesHoliday reports whether the text names a holiday.
func (p parser) namesHoliday() bool {
	for i := range p.toks {
		if _, _, ok := p.holidayAt(i); ok {
			return true
		}
	}
	return false
}
