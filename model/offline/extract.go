package offline

import (
	"encoding/json"
	"time"

	"github.com/tripgraph/tripgraph/model/dates"
	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/guests"
	"github.com/tripgraph/tripgraph/model/intent"
)

// extractArgs are the arguments of the extract tool call.
type extractArgsJSON struct {
	Location       string    `json:"location,omitempty"`
	Country        string    `json:"country,omitempty"`
	StartDate      string    `json:"startDate,omitempty"`
	EndDate        string    `json:"endDate,omitempty"`
	Nights         int       `json:"nights,omitempty"`
	NumberOfGuests int       `json:"numberOfGuests,omitempty"`
	Intent         string    `json:"intent"`
	Language       string    `json:"language"`
	Legs           []legJSON `json:"legs,omitempty"`
	Unsure         []string  `json:"unsure,omitempty"`
	HomeCity       string    `json:"homeCity,omitempty"`
	HomeCountry    string    `json:"homeCountry,omitempty"`
	ChildrenAges   []int     `json:"childrenAges,omitempty"`
	Diet           []string  `json:"diet,omitempty"`
	Budget         *budget   `json:"budget,omitempty"`
}

// budget is a price cap the traveller stated, as the extract call gives it.
type budget struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency,omitempty"`
	Total    bool    `json:"total,omitempty"`
}

// legJSON is one leg of a trip of several in the extract call: its city,
// and its dates when known.
type legJSON struct {
	Location  string `json:"location"`
	Country   string `json:"country,omitempty"`
	StartDate string `json:"startDate,omitempty"`
	EndDate   string `json:"endDate,omitempty"`
	Nights    int    `json:"nights,omitempty"`
}

func legsJSON(legs []Leg) []legJSON {
	var out []legJSON
	for _, l := range legs {
		out = append(out, legJSON{Location: l.Location, Country: l.Country, StartDate: isoDate(l.Start), EndDate: isoDate(l.End), Nights: l.Nights})
	}
	return out
}

func extractArgs(e Extraction) extractArgsJSON {
	out := extractArgsJSON{
		Legs:           legsJSON(e.Legs),
		Unsure:         e.Unsure,
		Location:       e.Location,
		Country:        e.Country,
		StartDate:      isoDate(e.Dates.Start),
		EndDate:        isoDate(e.Dates.End),
		Nights:         e.Dates.Nights,
		NumberOfGuests: e.Guests,
		Intent:         string(e.Intent),
		Language:       e.Language,
		HomeCity:       e.HomeCity,
		HomeCountry:    e.HomeCountry,
		ChildrenAges:   e.ChildrenAges,
		Diet:           e.Diets,
	}
	if e.Forget {
		out.Intent = "forget"
	}
	if c := e.PriceCap; c.Amount > 0 {
		out.Budget = &budget{Amount: c.Amount, Currency: c.Currency, Total: c.Total}
	}
	return out
}

func isoDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format("2006-01-02")
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only our own plain structs and maps are marshalled
	}
	return string(b)
}

// relevant decides classify: whether the trip details read from the
// earlier messages still hold after the last one.
func relevant(users []string, today time.Time) bool {
	if len(users) < 2 {
		return true
	}
	last := users[len(users)-1]
	if intent.Forget(last) && !intent.InjectionIn(users) {
		return false // extraction answers it
	}
	if intent.Detect(last) == intent.Photos || intent.InjectionIn(users) {
		return true // the trip stands; the reply answers the message
	}
	if Understand(users, today).Wish != nil {
		return false // an open question: read again, answered with destinations
	}
	before := Understand(users[:len(users)-1], today)
	lang := intent.Language(last)
	if lang == "" {
		lang = before.Language
	}
	if c, ok := gazetteer.Find(last).Destination(); ok && c.Name != before.Location {
		return false
	}
	if d := dates.Parse(last, lang, today); !sameDates(d, before.Dates) {
		return false
	}
	if d := dates.Update(before.Dates, last, lang, today); before.Dates.HasStart() && !sameDates(d, before.Dates) {
		return false // a correction: "a day later", "mais uma noite"
	}
	if g := guests.Count(last); g > 0 && g != before.Guests || guests.Change(last) != 0 {
		return false
	}
	return true
}

// sameDates reports whether what d states agrees with was.
func sameDates(d, was dates.Result) bool {
	if d.HasStart() && !d.Start.Equal(was.Start) {
		return false
	}
	if d.HasEnd() && !d.End.Equal(was.End) {
		return false
	}
	return d.Nights == 0 || d.Nights == was.Nights
}
