package offline

import (
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/model/dates"
	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// Leg is one city of a trip of several ("Lisbon then Porto", "Tóquio e
// depois Quioto"), with its own dates when the traveller gave them. A
// trip of one city has no legs.
type Leg struct {
	Location string // English city name
	Country  string // English country name
	Start    time.Time
	End      time.Time
	Nights   int
	own      bool // its start was stated for it
}

// legWords join the cities of one trip; choiceWords offer one or another.
var (
	legWords    = set(`then and e depois after afterwards followed seguido and next finally first primeiro`)
	choiceWords = set(`or ou vs versus better melhor instead rather no nao jk sorry wait mean meant actually`)
	// appendWords add a city to the trip told before: "can we add 3
	// nights in Valencia after?", "e depois 3 em Montevidéu".
	appendWords = set(`add adding also then after afterwards plus depois acrescenta acrescentar incluir inclui tambem extend`)
	// eachWords give every leg the same length: "2 noites cada".
	eachWords = set(`each cada`)
)

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// legCities returns the cities of a message that make a trip of several,
// in order: two or more places the traveller goes to (not a starting
// point, a past trip, a layover or a place not wanted), each joined to
// the next by "then", "and", "e depois", a comma or an arrow, never by
// "or".
func legCities(t string, m gazetteer.Mention) []gazetteer.Match {
	var out []gazetteer.Match
	for _, c := range m.Cities {
		if c.Role.Passing() || c.Role == gazetteer.Negated || c.Origin {
			continue
		}
		if c.Role == gazetteer.Chosen {
			return nil // a correction: "Madrid, no wait, Valencia"
		}
		for _, o := range out {
			if o.City == c.City {
				return nil // named again, the one the message is about
			}
		}
		out = append(out, c)
	}
	if len(out) < 2 {
		return nil
	}
	for i := 1; i < len(out); i++ {
		if !joinsLegs(t[out[i-1].End:out[i].Start]) {
			return nil
		}
	}
	return out
}

// joinsLegs reports whether the text between two cities joins them into
// one trip.
func joinsLegs(between string) bool {
	joined := strings.ContainsAny(between, ",>→&+/")
	for _, w := range textnorm.Words(between) {
		switch {
		case choiceWords[w.Fold]:
			return false
		case legWords[w.Fold]:
			joined = true
		}
	}
	return joined
}

// appendsLeg reports whether a later message adds its one city to the
// trip told before rather than replacing the destination.
func appendsLeg(t string, m gazetteer.Mention) (gazetteer.Match, bool) {
	var cities []gazetteer.Match
	for _, c := range m.Cities {
		if !c.Role.Passing() && c.Role != gazetteer.Negated && !c.Origin {
			cities = append(cities, c)
		}
	}
	if len(cities) != 1 {
		return gazetteer.Match{}, false
	}
	for _, w := range textnorm.Words(t) {
		if appendWords[w.Fold] {
			return cities[0], true
		}
	}
	return gazetteer.Match{}, false
}

// readLegs reads a message naming the cities of a trip of several: each
// leg's own dates and nights from its part of the message, and what is
// said of the whole trip (its start, its length to share). It reports
// false when the message names no such trip.
func (e *Extraction) readLegs(t string, m gazetteer.Mention, lang string, today time.Time, south bool) bool {
	cities := legCities(t, m)
	if cities == nil {
		return false
	}
	e.Legs = make([]Leg, len(cities))
	e.legTotal = 0
	pieces := legPieces(t, cities)
	nightsSaid := mentionsNights(t)
	var ref time.Time
	firstStart := time.Time{}
	for j, c := range cities {
		r := dates.ParseAfter(pieces[j], lang, today, ref, south)
		leg := Leg{Location: c.Name, Country: c.CountryName(), Nights: r.Nights}
		if leg.Nights == 0 && nightsSaid {
			leg.Nights = bareNights(t, pieces[j], c)
		}
		if r.HasStart() {
			leg.Start, leg.End, ref = r.Start, r.End, r.Start
			if firstStart.IsZero() {
				firstStart = r.Start
			}
		}
		e.Legs[j] = leg
	}
	last := len(e.Legs) - 1
	switch {
	case !e.Legs[0].Start.IsZero():
		for j := range e.Legs {
			e.Legs[j].own = !e.Legs[j].Start.IsZero()
		}
	default:
		// The first leg has no date of its own: a start said anywhere is
		// the trip's, and a length said only after the last city is the
		// whole trip's, shared among the legs.
		start := firstStart
		if start.IsZero() {
			start = e.Dates.Start // said of the whole message, or before
		}
		e.Dates = dates.Result{Start: start}
		for j := range e.Legs {
			e.Legs[j].Start, e.Legs[j].End = time.Time{}, time.Time{}
		}
		whole := dates.ParseAfter(pieces[last], lang, today, time.Time{}, south)
		onlyLast := e.Legs[last].Nights > 0
		for j := range last {
			onlyLast = onlyLast && e.Legs[j].Nights == 0
		}
		switch {
		case hasEach(pieces[last]):
			for j := range e.Legs {
				e.Legs[j].Nights = e.Legs[last].Nights
			}
		case onlyLast || earlierBare(e.Legs) && whole.HasEnd() && e.Legs[last].Nights == whole.Nights:
			e.legTotal = max(whole.Nights, e.Legs[last].Nights)
			e.Legs[last].Nights = 0
		}
	}
	return true
}

// earlierBare reports legs before the last with no length of their own:
// then a length said after the last city may be the whole trip's ("Lisbon
// and Porto from May 3 to 9"), never when they have one ("tokyo 4 nights,
// osaka 3 from oct 2").
func earlierBare(legs []Leg) bool {
	for _, l := range legs[:len(legs)-1] {
		if l.Nights > 0 {
			return false
		}
	}
	return true
}

// legPieces splits a message into one part per city: each city with what
// follows it up to the words that join it to the next ("then", "e
// depois", a comma), and what comes before the first.
func legPieces(t string, cities []gazetteer.Match) []string {
	cuts := make([]int, len(cities)+1)
	cuts[len(cities)] = len(t)
	for i := 1; i < len(cities); i++ {
		cuts[i] = joinStart(t, cities[i-1].End, cities[i].Start)
	}
	pieces := make([]string, len(cities))
	for i := range cities {
		pieces[i] = t[cuts[i]:cuts[i+1]]
	}
	return pieces
}

// joinStart is where the words joining two cities begin in t[from:to]:
// the last comma, arrow or joining word before the second city.
func joinStart(t string, from, to int) int {
	cut := -1
	for _, w := range textnorm.Words(t[from:to]) {
		if legWords[w.Fold] || w.Fold == "e" {
			cut = from + w.Start
		}
	}
	if i := strings.LastIndexAny(t[from:to], ",>→&+/"); i >= 0 && from+i > cut {
		cut = from + i
	}
	if cut < 0 {
		return to
	}
	return cut
}

// mentionsNights reports a length in nights or days anywhere in t.
func mentionsNights(t string) bool {
	for _, w := range textnorm.Words(t) {
		switch w.Fold {
		case "night", "nights", "noite", "noites", "day", "days", "dia", "dias", "nites":
			return true
		}
	}
	return false
}

// hasEach reports "cada", "each": one length for every leg.
func hasEach(piece string) bool {
	for _, w := range textnorm.Words(piece) {
		if eachWords[w.Fold] {
			return true
		}
	}
	return false
}

// bareNights reads the number a leg's length is given by alone, when
// another leg's is said in nights: "then 4 in Florence", "Barcelona 4",
// "Boston for 2", "e 4 em Morro de São Paulo".
func bareNights(t, piece string, c gazetteer.Match) int {
	off := strings.Index(t, piece)
	ws := textnorm.Words(piece)
	for i, w := range ws {
		n, ok := smallNumber(w.Fold)
		if !ok || i+1 < len(ws) && unitOrPeople(ws[i+1].Fold) {
			continue
		}
		at := off + w.Start
		switch {
		case at < c.Start && i+1 < len(ws) && placeBefore(ws[i+1].Fold) && off+ws[min(i+2, len(ws)-1)].Start >= c.Start-1:
			return n // "4 in Florence"
		case at > c.End && i > 0 && (off+ws[i-1].End == c.End || (ws[i-1].Fold == "for" || ws[i-1].Fold == "por") && i > 1 && off+ws[i-2].End == c.End):
			return n // "Barcelona 4", "Boston for 2"
		}
	}
	return 0
}

func placeBefore(w string) bool {
	switch w {
	case "in", "em", "no", "na", "at":
		return true
	}
	return false
}

func smallNumber(s string) (int, bool) {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n > 0 && n <= 60
}

func unitOrPeople(w string) bool {
	switch w {
	case "night", "nights", "noite", "noites", "day", "days", "dia", "dias", "week", "weeks", "semana", "semanas",
		"people", "pessoas", "adults", "adultos", "of", "de", "guests", "ppl", "pax":
		return true
	}
	return false
}

// appendLeg adds a city to the trip told before, with the length said
// for it ("add 3 nights in Valencia"); the trip's first city becomes its
// first leg.
func (e *Extraction) appendLeg(t string, c gazetteer.Match, lang string, today time.Time) {
	if len(e.Legs) == 0 {
		e.Legs = []Leg{{Location: e.Location, Country: e.Country, Start: e.Dates.Start, End: e.Dates.End, Nights: e.Dates.Nights, own: e.Dates.HasStart()}}
	}
	leg := Leg{Location: c.Name, Country: c.CountryName()}
	if r := dates.ParseAfter(t, lang, today, e.Legs[len(e.Legs)-1].Start, false); r.Nights > 0 {
		leg.Nights = r.Nights
	} else {
		leg.Nights = bareNights(t, t, c)
	}
	e.Legs = append(e.Legs, leg)
}

// settleLegs works out each leg's dates: its own when stated, else
// following the leg before from the trip's start, each leg's length its
// own or its share of the trip's. The trip's dates become the legs'.
func (e *Extraction) settleLegs() {
	if len(e.Legs) < 2 {
		e.Legs = nil
		return
	}
	total := e.legTotal
	if total == 0 && !e.Legs[0].own && e.Dates.Nights > 0 {
		total = e.Dates.Nights
	}
	unknown, known := 0, 0
	for _, l := range e.Legs {
		if l.Nights == 0 && (l.End.IsZero() || !l.own) {
			unknown++
		}
		known += l.Nights
	}
	share, extra := 0, 0
	if unknown > 0 && total > known {
		share, extra = (total-known)/unknown, (total-known)%unknown
	}
	at := e.Dates.Start
	if e.Legs[0].own {
		at = e.Legs[0].Start
	}
	for j := range e.Legs {
		l := &e.Legs[j]
		if !l.own {
			l.Start, l.End = at, time.Time{}
		}
		if l.Nights == 0 && l.End.IsZero() && share > 0 {
			l.Nights = share
			if extra > 0 {
				l.Nights++
				extra--
			}
		}
		switch {
		case l.End.IsZero() && l.Nights > 0 && !l.Start.IsZero():
			l.End = l.Start.AddDate(0, 0, l.Nights)
		case !l.End.IsZero() && !l.Start.IsZero():
			l.Nights = int(l.End.Sub(l.Start).Hours()/24 + 0.5)
		}
		at = l.End
	}
	first, last := e.Legs[0], e.Legs[len(e.Legs)-1]
	e.Location, e.Country = first.Location, first.Country
	sum := 0
	for _, l := range e.Legs {
		if l.Nights == 0 {
			sum = 0
			break
		}
		sum += l.Nights
	}
	switch {
	case !first.Start.IsZero() && !last.End.IsZero():
		e.Dates = dates.Merge(dates.Result{}, dates.Result{Start: first.Start, End: last.End})
	case sum > 0:
		e.Dates = dates.Result{Nights: sum} // the legs' lengths, said without a date
	}
}
