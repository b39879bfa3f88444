package nodes

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/locale"
	"github.com/tripgraph/tripgraph/tripdata"
)

// Profile is what the planner remembers of a traveller across
// conversations, with their consent: where they live, the party they
// usually travel with, their children's ages, the diets they keep, the
// budget they usually give and their language.
type Profile struct {
	HomeCity     string   `json:"homeCity,omitempty"`
	HomeCountry  string   `json:"homeCountry,omitempty"`
	Currency     string   `json:"currency,omitempty"` // ISO 4217
	PartySize    int      `json:"partySize,omitempty"`
	ChildrenAges []int    `json:"childrenAges,omitempty"`
	Diet         []string `json:"diet,omitempty"`
	Budget       *Budget  `json:"budget,omitempty"`
	Language     string   `json:"language,omitempty"`
}

// Budget is the most a traveller pays for a stay: a night's price, or the
// whole stay's with Total.
type Budget struct {
	Amount   float64 `json:"amount"`
	Currency string  `json:"currency,omitempty"`
	Total    bool    `json:"total,omitempty"`
}

// Empty reports a profile that remembers nothing.
func (p Profile) Empty() bool {
	return p.HomeCity == "" && p.HomeCountry == "" && p.Currency == "" && p.PartySize == 0 && len(p.ChildrenAges) == 0 &&
		len(p.Diet) == 0 && p.Budget == nil && p.Language == ""
}

// Bounds of a profile a traveller or a client writes (see Profile.Check).
const (
	MaxProfileText = 200 // bytes of the home city, and of the country
	MaxChildAge    = 17
	MaxDiets       = 10
	MaxDietLen     = 50  // bytes of one diet
	MaxBudget      = 1e7 // in the budget's currency
)

// Check refuses a profile the planner could not use, as the profile page
// and a client of the store's API write it (the planner's own merges are
// not held to it), naming the member: a home city or country of more than
// MaxProfileText bytes; a currency, or a budget's, not of three capital
// letters; a party of fewer than 1 or more than tripdata.MaxGuests; a
// child's age past MaxChildAge; more than MaxDiets diets, or one empty or
// longer than MaxDietLen; a budget not above 0 and at most MaxBudget; a
// language tripgraph does not speak.
func (p Profile) Check() error {
	if member, why := p.fault(); member != "" {
		return errcode.New(errcode.BadRequest, "the traveller's profile: %s %s", member, why)
	}
	return nil
}

// fault is the first member Check refuses, and why; "" when none.
func (p Profile) fault() (member, why string) {
	switch {
	case len(p.HomeCity) > MaxProfileText:
		return "homeCity", fmt.Sprintf("has more than %d bytes", MaxProfileText)
	case len(p.HomeCountry) > MaxProfileText:
		return "homeCountry", fmt.Sprintf("has more than %d bytes", MaxProfileText)
	case p.Currency != "" && !CurrencyCode(p.Currency):
		return "currency", "must be three capital letters (ISO 4217)"
	case p.PartySize < 0 || p.PartySize > tripdata.MaxGuests:
		return "partySize", fmt.Sprintf("must be from 1 to %d", tripdata.MaxGuests)
	case slices.ContainsFunc(p.ChildrenAges, func(a int) bool { return a < 0 || a > MaxChildAge }):
		return "childrenAges", fmt.Sprintf("must each be from 0 to %d", MaxChildAge)
	case len(p.Diet) > MaxDiets:
		return "diet", fmt.Sprintf("has more than %d diets", MaxDiets)
	case slices.ContainsFunc(p.Diet, func(d string) bool { return d == "" || len(d) > MaxDietLen }):
		return "diet", fmt.Sprintf("must each have 1 to %d bytes", MaxDietLen)
	case p.Budget != nil && !(p.Budget.Amount > 0 && p.Budget.Amount <= MaxBudget): // NaN too
		return "budget.amount", fmt.Sprintf("must be above 0 and at most %g", MaxBudget)
	case p.Budget != nil && p.Budget.Currency != "" && !CurrencyCode(p.Budget.Currency):
		return "budget.currency", "must be three capital letters (ISO 4217)"
	case p.Language != "" && !locale.Known(p.Language):
		return "language", "must be a language tripgraph speaks"
	}
	return "", ""
}

// CurrencyCode reports an ISO 4217-shaped code: three capital letters.
func CurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// Merge is p with what newer says over it; diets add up.
func (p Profile) Merge(newer Profile) Profile {
	out := p
	if newer.HomeCity != "" {
		out.HomeCity, out.HomeCountry = newer.HomeCity, newer.HomeCountry
	}
	if newer.Currency != "" {
		out.Currency = newer.Currency
	}
	if newer.PartySize > 0 {
		out.PartySize = newer.PartySize
	}
	if len(newer.ChildrenAges) > 0 {
		out.ChildrenAges = slices.Clone(newer.ChildrenAges)
	}
	for _, d := range newer.Diet {
		if !slices.Contains(out.Diet, d) {
			out.Diet = append(slices.Clone(out.Diet), d)
		}
	}
	if newer.Budget != nil {
		b := *newer.Budget
		out.Budget = &b
	}
	if newer.Language != "" {
		out.Language = newer.Language
	}
	return out
}

// Memory keeps one traveller's profile: the traveller a run is for. Recall
// is the zero Profile when nothing is remembered, or when the traveller has
// not agreed to be remembered; Remember then keeps nothing.
type Memory interface {
	Recall(ctx context.Context) (Profile, error)
	Remember(ctx context.Context, p Profile) error
	Forget(ctx context.Context) error
}

// memoryOf is the memory of the run's traveller, nil when it has none.
func memoryOf(ctx context.Context) Memory { return travellerOf(ctx).Memory }

// recall is what the run's memory holds; a failure to read it is logged
// and the turn goes on without it.
func recall(ctx context.Context) Profile {
	m := memoryOf(ctx)
	if m == nil {
		return Profile{}
	}
	p, err := m.Recall(ctx)
	if err != nil {
		info, _ := graph.Info(ctx)
		slog.WarnContext(ctx, "reading the traveller's profile failed; going on without it", "run_id", info.RunID, "err", err)
		return Profile{}
	}
	return p
}

// remember keeps what the traveller stated of themselves in this
// conversation; a failure is logged.
func remember(ctx context.Context, p Profile) {
	m := memoryOf(ctx)
	if m == nil || p.Empty() {
		return
	}
	if err := m.Remember(ctx, p); err != nil {
		info, _ := graph.Info(ctx)
		slog.WarnContext(ctx, "keeping the traveller's profile failed", "run_id", info.RunID, "err", err)
	}
}

// profileLines tell the model what is remembered, on the line the offline
// model reads; "" when nothing is.
func profileLines(p Profile) string {
	if p.Empty() {
		return ""
	}
	data, _ := json.Marshal(p)
	return profileNote + "\nTraveller profile: " + string(data)
}

const profileNote = `What you remember of the traveller from earlier conversations, with their
consent, is below. Use its budget as the stays' price cap and its language
when their messages state none; their messages always win.`

// stated is the profile a turn's extraction read: what the traveller said
// of themselves in this conversation.
func stated(a extractArgs, lang string) Profile {
	p := Profile{HomeCity: a.HomeCity, HomeCountry: a.HomeCountry, PartySize: a.NumberOfGuests,
		ChildrenAges: a.ChildrenAges, Diet: a.Diet, Language: lang}
	if a.Budget != nil && a.Budget.Amount > 0 {
		b := *a.Budget
		p.Budget, p.Currency = &b, b.Currency
	}
	if p.PartySize > 0 && len(a.Legs) == 0 && a.Location == "" {
		p.PartySize = 0 // a count with no trip ("we are 3 friends") is not yet a party
	}
	return p
}

// Recalled is what a trip took from the traveller's profile rather than
// from what they said: shown to them so that they can correct it.
type Recalled struct {
	Guests   int     `json:"guests,omitempty"`
	HomeCity string  `json:"homeCity,omitempty"`
	Budget   *Budget `json:"budget,omitempty"`
}

// recallDefaults fills what the extraction left unsaid from the profile:
// the party and, for stays, the budget. It returns what it took.
func recallDefaults(a *extractArgs, p Profile) *Recalled {
	r := &Recalled{}
	if a.NumberOfGuests <= 0 && p.PartySize > 0 {
		a.NumberOfGuests, r.Guests = p.PartySize, p.PartySize
	}
	if a.Budget == nil && p.Budget != nil && (a.Intent == IntentAccommodations || a.Intent == IntentTrip) {
		b := *p.Budget
		r.Budget = &b
	}
	if r.Guests == 0 && r.Budget == nil {
		return nil
	}
	if a.HomeCity == "" {
		r.HomeCity = p.HomeCity
	}
	return r
}

// recalledNote says what a trip took from the profile, as a question:
// "4 of you again, from São Paulo, up to 500 BRL a night? I remembered
// that from before; tell me if it has changed." "" when it took nothing
// or the trip was not read from this turn.
func recalledNote(s State, lang string) string {
	r := s.Recalled
	if r == nil || s.TripDetails == nil || !detailsOfThisTurn(s) {
		return ""
	}
	pt := lang == locale.Portuguese
	var parts []string
	if r.Guests > 0 {
		parts = append(parts, map[bool]string{true: fmt.Sprintf("%d pessoas de novo", r.Guests), false: fmt.Sprintf("%d of you again", r.Guests)}[pt])
	}
	if r.HomeCity != "" {
		parts = append(parts, map[bool]string{true: "saindo de " + r.HomeCity, false: "from " + r.HomeCity}[pt])
	}
	if b := r.Budget; b != nil {
		amount := strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", b.Amount), "0"), ".")
		if b.Currency != "" {
			amount += " " + b.Currency
		}
		switch {
		case pt && b.Total:
			parts = append(parts, "até "+amount+" no total")
		case pt:
			parts = append(parts, "até "+amount+" por noite")
		case b.Total:
			parts = append(parts, "up to "+amount+" in all")
		default:
			parts = append(parts, "up to "+amount+" a night")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return reply(lang, "recalled", strings.Join(parts, ", "))
}
