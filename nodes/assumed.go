package nodes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/locale"
)

// Trip fields the traveller may leave unsaid, as State.Assumed and the
// trip-details props name them.
const (
	FieldStartDate = "startDate"
	FieldEndDate   = "endDate"
	FieldGuests    = "numberOfGuests"
)

// assumedFields lists the trip fields the extraction did not state and
// resolveTrip filled in with its defaults.
func assumedFields(a extractArgs) []string {
	_, startOK := parseDate(a.StartDate)
	_, endOK := parseDate(a.EndDate)
	var out []string
	if !startOK {
		out = append(out, FieldStartDate)
	}
	if !endOK && a.Nights <= 0 {
		out = append(out, FieldEndDate)
	}
	if a.NumberOfGuests <= 0 {
		out = append(out, FieldGuests)
	}
	return out
}

// assumptionNote says what was assumed rather than said, so that the
// traveller can correct it: "I assumed 2 guests and 19–26 December; tell
// me if that's wrong." It is "" when nothing was.
func assumptionNote(s State, lang string) string {
	td := s.TripDetails
	if td == nil || len(s.Assumed) == 0 || s.Intent == IntentPhotos || s.Intent == IntentOther || !detailsOfThisTurn(s) {
		return ""
	}
	var parts []string
	if slices.Contains(s.Assumed, FieldGuests) {
		parts = append(parts, guestsPhrase(td.NumberOfGuests, lang))
	}
	start, end := slices.Contains(s.Assumed, FieldStartDate), slices.Contains(s.Assumed, FieldEndDate)
	switch {
	case start && end:
		parts = append(parts, spanPhrase(td.StartDate, td.EndDate, lang))
	case start:
		parts = append(parts, dayPhrase("arriving on %s", "chegada em %s", td.StartDate, lang))
	case end:
		parts = append(parts, fmt.Sprintf(map[bool]string{true: "%d noites (saída em %s)", false: "%d nights (leaving on %s)"}[lang == locale.Portuguese],
			td.Nights(), dayOf(td.EndDate, lang)))
	}
	and := map[bool]string{true: " e ", false: " and "}[lang == locale.Portuguese]
	return reply(lang, "assumed", strings.Join(parts, and))
}

func guestsPhrase(n int, lang string) string {
	switch {
	case lang == locale.Portuguese && n == 1:
		return "1 hóspede"
	case lang == locale.Portuguese:
		return fmt.Sprintf("%d hóspedes", n)
	case n == 1:
		return "1 guest"
	}
	return fmt.Sprintf("%d guests", n)
}

// dayPhrase writes one day into an English or a Portuguese phrase.
func dayPhrase(en, pt, day, lang string) string {
	if lang == locale.Portuguese {
		return fmt.Sprintf(pt, dayOf(day, lang))
	}
	return fmt.Sprintf(en, dayOf(day, lang))
}

// dayOf writes "3 January" or "3 de janeiro".
func dayOf(day, lang string) string {
	d, ok := parseDate(day)
	switch {
	case !ok:
		return day
	case lang == locale.Portuguese:
		return fmt.Sprintf("%d de %s", d.Day(), ptMonthNames[d.Month()])
	}
	return fmt.Sprintf("%d %s", d.Day(), d.Month())
}

var ptMonthNames = [...]string{"", "janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"}

// spanPhrase writes "19–26 December" or "de 19 a 26 de dezembro".
func spanPhrase(start, end, lang string) string {
	s, ok1 := parseDate(start)
	e, ok2 := parseDate(end)
	if !ok1 || !ok2 {
		return start + " – " + end
	}
	if lang == locale.Portuguese {
		if s.Month() == e.Month() {
			return fmt.Sprintf("de %d a %d de %s", s.Day(), e.Day(), ptMonthNames[s.Month()])
		}
		return fmt.Sprintf("de %d de %s a %d de %s", s.Day(), ptMonthNames[s.Month()], e.Day(), ptMonthNames[e.Month()])
	}
	if s.Month() == e.Month() {
		return fmt.Sprintf("%d–%d %s", s.Day(), e.Day(), s.Month())
	}
	return fmt.Sprintf("%d %s – %d %s", s.Day(), s.Month(), e.Day(), e.Month())
}

// detailsOfThisTurn reports whether the trip details were read from the
// traveller's last message: its trip-details component is attached to it.
// A later turn on the same trip does not repeat the note.
func detailsOfThisTurn(s State) bool {
	last := ""
	for i := len(s.Messages) - 1; i >= 0 && last == ""; i-- {
		if s.Messages[i].Type == Human {
			last = s.Messages[i].ID
		}
	}
	for _, c := range s.UI {
		if c.Name == card.TripDetails && c.MessageID == last {
			return true
		}
	}
	return false
}
