package checklist_test

import (
	"fmt"
	"time"

	"github.com/tripgraph/tripgraph/model/offline"
)

// trip is the first message of a conversation a correction changes: a
// city, five days of a month and a party.
type trip struct {
	lang, text string
	city       string
	start, end time.Time
	guests     int
}

// trips are first messages in every month, both languages.
func trips() []trip {
	var out []trip
	for m := 1; m <= 12; m++ {
		for i, d := range []int{3, 10, 17} {
			c := destinations[(m*3+i)%len(destinations)]
			start := next(time.Month(m), d)
			g := 2 + (m+i)%4
			out = append(out,
				trip{"en", fmt.Sprintf("%s from %s %d to %d, %d people", c.en, monthsEN[m], d, d+4, g), c.en, start, start.AddDate(0, 0, 4), g},
				trip{"pt", fmt.Sprintf("%s de %d a %d de %s, %d pessoas", c.pt, d, d+4, monthsPT[m], g), c.en, start, start.AddDate(0, 0, 4), g},
			)
		}
	}
	return out
}

// only checks a correction's result: the dates given, and the place and
// the party as they were.
func only(t trip, start, end time.Time, guests int) func(offline.Extraction) string {
	return func(e offline.Extraction) string {
		if e.Location != t.city {
			return fmt.Sprintf("location %q, was %q", e.Location, t.city)
		}
		if e.Guests != guests {
			return fmt.Sprintf("%d guests, want %d", e.Guests, guests)
		}
		return wantDates(start, end)(e)
	}
}

// shifts: a move of the stay moves both ends, or the one named.
func shifts() []test {
	type shift struct {
		text       string
		days       int
		start, end bool // which ends move
	}
	byLang := map[string][]shift{
		"en": {
			{"a day later", 1, true, true}, {"can we do it two days later?", 2, true, true}, {"a week later please", 7, true, true},
			{"push it back a week", 7, true, true}, {"push it back three days", 3, true, true}, {"move it forward two days", -2, true, true},
			{"one day earlier", -1, true, true}, {"postpone it by a week", 7, true, true}, {"arrive a day later", 1, true, false},
			{"leave two days earlier", -2, false, true}, {"let's arrive one day earlier", -1, true, false},
		},
		"pt": {
			{"um dia depois", 1, true, true}, {"dá pra ser dois dias depois?", 2, true, true}, {"uma semana depois", 7, true, true},
			{"adia uma semana", 7, true, true}, {"adiar três dias", 3, true, true}, {"antecipa dois dias", -2, true, true},
			{"um dia antes", -1, true, true}, {"chegar um dia depois", 1, true, false}, {"sair dois dias antes", -2, false, true},
			{"quero voltar um dia depois", 1, false, true}, {"dois dias mais tarde", 2, true, true},
		},
	}
	var out []test
	for _, t := range trips() {
		for _, s := range byLang[t.lang] {
			start, end := t.start, t.end
			if s.start {
				start = start.AddDate(0, 0, s.days)
			}
			if s.end {
				end = end.AddDate(0, 0, s.days)
			}
			out = append(out, test{"corrections/shift", "DIR", t.lang, []string{t.text, s.text}, only(t, start, end, t.guests)})
		}
	}
	return out
}

// stretches: more or fewer nights move the end only.
func stretches() []test {
	type stretch struct {
		text   string
		nights int
	}
	byLang := map[string][]stretch{
		"en": {{"one more night", 1}, {"add a night", 1}, {"two more nights", 2}, {"3 extra nights", 3}, {"another night please", 1},
			{"one night less", -1}, {"extend by 2 nights", 2}, {"can we stay two more nights?", 2}},
		"pt": {{"mais uma noite", 1}, {"mais duas noites", 2}, {"3 noites a mais", 3}, {"uma noite a menos", -1}, {"menos uma noite", -1},
			{"quero ficar mais duas noites", 2}, {"mais 2 noites", 2}, {"duas noites a mais", 2}},
	}
	var out []test
	for _, t := range trips() {
		for _, s := range byLang[t.lang] {
			out = append(out, test{"corrections/stretch", "DIR", t.lang, []string{t.text, s.text}, only(t, t.start, t.end.AddDate(0, 0, s.nights), t.guests)})
		}
	}
	return out
}

// replaces: the same days in another month.
func replaces() []test {
	var out []test
	for _, t := range trips() {
		for m := 1; m <= 12; m++ {
			if time.Month(m) == t.start.Month() {
				continue
			}
			text := fmt.Sprintf("same days in %s", monthsEN[m])
			switch {
			case t.lang == "pt" && m%2 == 0:
				text = fmt.Sprintf("muda pra %s, mesmos dias", monthsPT[m])
			case t.lang == "pt":
				text = fmt.Sprintf("mesmas datas em %s", monthsPT[m])
			case m%2 == 0:
				text = fmt.Sprintf("same dates but in %s", monthsEN[m])
			}
			start := next(time.Month(m), t.start.Day())
			out = append(out, test{"corrections/replace", "DIR", t.lang, []string{t.text, text}, only(t, start, start.AddDate(0, 0, 4), t.guests)})
		}
	}
	return out
}

// partyChanges: a change of the party changes only the party.
func partyChanges() []test {
	type change struct {
		text  string
		delta int
	}
	byLang := map[string][]change{
		"en": {{"two more of us are coming", 2}, {"one more person", 1}, {"one of us can't come", -1}, {"my brother can't make it", -1},
			{"my parents are joining us", 2}, {"plus one more friend", 1}, {"three more people", 3}},
		"pt": {{"mais duas pessoas", 2}, {"mais um amigo vai", 1}, {"um de nós desistiu", -1}, {"minha irmã não vai mais", -1},
			{"vamos levar meus pais", 2}, {"vem mais um casal", 2}, {"mais 3 pessoas", 3}},
	}
	var out []test
	for _, t := range trips() {
		for _, c := range byLang[t.lang] {
			out = append(out, test{"corrections/party", "DIR", t.lang, []string{t.text, c.text}, only(t, t.start, t.end, t.guests+c.delta)})
		}
		// A whole count replaces the party.
		n := t.guests + 3
		text := fmt.Sprintf("actually we are %d now", n)
		if t.lang == "pt" {
			text = fmt.Sprintf("na verdade agora somos %d", n)
		}
		out = append(out, test{"corrections/party", "DIR", t.lang, []string{t.text, text}, only(t, t.start, t.end, n)})
	}
	return out
}
