package ui

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/tripdata"
)

// maxCuisineChips is how many cuisines get a filter chip; the stylesheet
// has one filtering rule per chip slot (1 to maxCuisineChips). Restaurants
// of further cuisines show under "All" only.
const maxCuisineChips = 12

// place writes "Lisbon, Portugal", or the city alone.
func place(city, country string) string {
	return joinNonEmpty(", ", city, country)
}

// localPlace is place with the city and country named in the context's
// language: "Lisboa, Portugal" on a Portuguese page.
func localPlace(ctx context.Context, city, country string) string {
	if lang(ctx) == Portuguese && country != "" {
		country = gazetteer.CountryNameIn(country, Portuguese)
	}
	return place(cityName(ctx, city), country)
}

// capCurrency is the currency of a stay search's price cap: its own, else
// the places' (a cap with no currency is in theirs).
func capCurrency(p nodes.AccommodationsListProps) string {
	if p.Currency == "" && len(p.Accommodations) > 0 {
		return p.Accommodations[0].Currency
	}
	return p.Currency
}

// destination names a trip's place: its city with the country, or the
// cities of its legs in order ("Lisboa → Porto").
func destination(ctx context.Context, td nodes.TripDetails) string {
	if len(td.Legs) < 2 {
		return localPlace(ctx, td.Location, td.Country)
	}
	names := make([]string, len(td.Legs))
	for i, l := range td.Legs {
		names[i] = cityName(ctx, l.Location)
	}
	return strings.Join(names, " → ")
}

// cityName is a city, given by its English name, named in the context's
// language: "Lisboa" on a Portuguese page. The sentences that hold it
// need no preposition, which Portuguese would contract with the name ("no
// Porto", "em Lisboa").
func cityName(ctx context.Context, city string) string {
	return gazetteer.CityName(city, lang(ctx))
}

func joinNonEmpty(sep string, parts ...string) string {
	return strings.Join(slices.DeleteFunc(slices.Clone(parts), func(s string) bool { return s == "" }), sep)
}

// isAssumed reports whether any of fields was assumed, not stated.
func isAssumed(assumed []string, fields ...string) bool {
	return slices.ContainsFunc(fields, func(f string) bool { return slices.Contains(assumed, f) })
}

// tripNights is the props' nights, or the nights between the dates.
func tripNights(p nodes.TripDetailsProps) int {
	if p.Nights > 0 {
		return p.Nights
	}
	return nightsBetween(p.TripDetails.StartDate, p.TripDetails.EndDate)
}

// stayNights is how many nights the listed stays are for.
func stayNights(p nodes.AccommodationsListProps) int {
	if n := nightsBetween(p.StartDate, p.EndDate); n > 0 {
		return n
	}
	if p.Nights > 0 {
		return p.Nights
	}
	if p.TripDetails != nil {
		return nightsBetween(p.TripDetails.StartDate, p.TripDetails.EndDate)
	}
	return 0
}

// stayGuests is how many guests the stays are for.
func stayGuests(p nodes.AccommodationsListProps) int {
	if p.Guests == 0 && p.TripDetails != nil {
		return p.TripDetails.NumberOfGuests
	}
	return p.Guests
}

// stayTotal is what a stay costs: its nights times its nightly price.
func stayTotal(p nodes.AccommodationsListProps, a nodes.Accommodation) float64 {
	return float64(stayNights(p)) * a.NightlyPrice
}

// cuisines lists the restaurants' cuisines in order of first appearance,
// at most maxCuisineChips.
func cuisines(rs []nodes.Restaurant) []string {
	var out []string
	for _, r := range rs {
		if r.Cuisine != "" && !slices.Contains(out, r.Cuisine) && len(out) < maxCuisineChips {
			out = append(out, r.Cuisine)
		}
	}
	return out
}

// cuisineSlot is the chip slot (1 to maxCuisineChips) of a cuisine; 0 when
// it has no chip.
func cuisineSlot(rs []nodes.Restaurant, cuisine string) int {
	return slices.Index(cuisines(rs), cuisine) + 1
}

// noCuisine says that no restaurant of the cuisine asked for was found,
// and which cuisines the city has.
func noCuisine(ctx context.Context, cuisine string, others []string) string {
	s := text(ctx, "restaurants.none.cuisine", cuisineInText(ctx, cuisine))
	if len(others) == 0 {
		return s
	}
	names := make([]string, len(others))
	for i, c := range others {
		names[i] = cuisineInText(ctx, c)
	}
	return s + " " + text(ctx, "restaurants.cuisines", strings.Join(names, ", "))
}

// coveredMessage is the tool's own word on an uncovered place, or ours:
// always ours in Portuguese, which the tools do not speak.
func coveredMessage(ctx context.Context, message, location string) string {
	if message != "" && lang(ctx) == English {
		return message
	}
	return text(ctx, "not.covered", location)
}

// nextStep says what to do after an error with this code.
func nextStep(ctx context.Context, code string) string {
	if _, ok := catalog["error.next."+code]; ok && code != "" {
		return text(ctx, "error.next."+code)
	}
	return text(ctx, "error.next")
}

// whatHappened is an error code's own sentence in the context's
// language; "" for a code the catalog does not know.
func whatHappened(ctx context.Context, code string) string {
	if _, ok := catalog["error.what."+code]; ok && code != "" {
		return text(ctx, "error.what."+code)
	}
	return ""
}

// formFields are the catalog keys of the fields the browser's forms send,
// by the name a refusal gives them: the trip edit's, and the message of
// the composer and the fork form (refused as the run's input).
var formFields = map[string]string{
	"location":       "field.location",
	"startDate":      "field.startDate",
	"endDate":        "field.endDate",
	"numberOfGuests": "field.numberOfGuests",
	"message":        "field.message",
	"input.messages": "field.message",
}

// Field is a refused field of a form: its name, as a refusal gives it
// ("startDate", "input.messages[0].content"), and what was wrong with it,
// when it is one of the catalog's problems (a nodes.StayFault such as
// "pastDates"); any other problem is not shown, being the server's words.
type Field struct {
	Name    string
	Problem string
}

// fieldLabels names the refused fields a form has, in the context's
// language, each once and in the order given; the names no form has are
// left out, so nothing internal is shown.
func fieldLabels(ctx context.Context, fields []Field) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range fields {
		key, ok := formField(f.Name)
		if !ok || seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, text(ctx, key))
	}
	return out
}

// formField is the catalog key of a refused field's label, when a form
// has the field.
func formField(name string) (string, bool) {
	name, _, _ = strings.Cut(name, "[")
	key, ok := formFields[name]
	return key, ok
}

// fieldNames are the form's names of the refused fields a form has,
// space-separated, for the page to mark them.
func fieldNames(fields []Field) string {
	var out []string
	for _, f := range fields {
		if _, ok := formField(f.Name); ok && !slices.Contains(out, f.Name) {
			out = append(out, f.Name)
		}
	}
	return strings.Join(out, " ")
}

// fieldProblems says what was wrong with each refused field, in the
// traveller's words, for the problems the catalog knows.
func fieldProblems(ctx context.Context, fields []Field) []string {
	var out []string
	for _, f := range fields {
		if _, ok := catalog["problem."+f.Problem]; !ok || f.Problem == "" {
			continue
		}
		p := problemText(ctx, f.Problem)
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// problemText is a problem's sentence, with the limit it breaks.
func problemText(ctx context.Context, problem string) string {
	switch nodes.StayFault(problem) {
	case nodes.TooFarAhead:
		return text(ctx, "problem."+problem, tripdata.MaxDaysAhead)
	case nodes.TooLong:
		return text(ctx, "problem."+problem, tripdata.MaxNights)
	case nodes.TooManyGuests:
		return text(ctx, "problem."+problem, tripdata.MaxGuests)
	}
	return text(ctx, "problem."+problem)
}

// fixStep says what to do about an error: which of a form's fields to
// check when the error names some, else nextStep's word for its code.
func fixStep(ctx context.Context, code string, fields []Field) string {
	labels := fieldLabels(ctx, fields)
	if len(labels) == 0 {
		return nextStep(ctx, code)
	}
	list := labels[len(labels)-1]
	if len(labels) > 1 {
		list = strings.Join(labels[:len(labels)-1], ", ") + text(ctx, "error.fields.and") + list
	}
	return text(ctx, "error.fields", list)
}

// toolErrorText is what a tool's failure says: the tool's own words on an
// English page, and the code's sentence in the catalog's other languages,
// which the tools do not speak.
func toolErrorText(ctx context.Context, e *nodes.ToolError) string {
	if lang(ctx) == English && e.Message != "" {
		return e.Message
	}
	if s := whatHappened(ctx, e.Code); s != "" {
		return s
	}
	return e.Message
}

// pageNextStep says what to do after a page could not be shown: its own
// word where a page's error differs from a reply's, else nextStep's.
func pageNextStep(ctx context.Context, code string) string {
	if _, ok := catalog["page.next."+code]; ok && code != "" {
		return text(ctx, "page.next."+code)
	}
	return nextStep(ctx, code)
}

func photoSrc(p nodes.Photo) string {
	if p.ThumbnailURL != "" {
		return p.ThumbnailURL
	}
	return p.URL
}

func photoCount(ctx context.Context, p nodes.PhotoGridProps) string {
	n := p.Total
	if n < len(p.Photos) {
		n = len(p.Photos)
	}
	s := plural(ctx, "n.photos", n)
	if p.TotalIsLowerBound {
		s = text(ctx, "photos.atleast", s)
	}
	if len(p.Photos) < n {
		return text(ctx, "photos.shown", s, len(p.Photos))
	}
	return text(ctx, "photos.total", s)
}

// Actions are where the page's forms send what the traveller does. An
// empty URL leaves its form out: a replay renders with no Actions at all,
// so nothing in it can be changed.
type Actions struct {
	// BookingURL receives a pending booking's answer: csrf_token, key (the
	// booking's key) and confirmed ("true" or "false").
	BookingURL string
	// TripURL receives an edit of the trip details: csrf_token, location,
	// startDate, endDate (YYYY-MM-DD) and numberOfGuests.
	TripURL string
	// BookURL receives the Book button of an accommodation's details:
	// csrf_token, id (the accommodation's), startDate, endDate and guests.
	BookURL   string
	CSRFToken string
	// Today (a UTC midnight) is the day the trip-details form's dates are
	// limited from, as the planner limits a stay: check-in from today to
	// tripdata.MaxDaysAhead days ahead, check-out within
	// tripdata.MaxNights nights of it. Zero: no limits.
	Today time.Time
	// Stream has every form shown and sent by the page's own script
	// rather than posted: LangGraph's generative UI (the API's /ui
	// routes), whose script submits what the traveller does through the
	// SDK's stream. Each form then has no URL, hx-post or CSRF field, and
	// says what it does in data-action: ActionBook, ActionAnswer or
	// ActionTrip, with the same fields as the posted forms.
	Stream bool
}

// What a form does, as data-action names it for a script (Actions.Stream).
const (
	ActionBook   = "book"   // a stay's Book button: id, startDate, endDate, guests
	ActionAnswer = "answer" // a pending booking's Confirm or Cancel: key, confirmed (the button's value)
	ActionTrip   = "trip"   // the trip-details edit: location, startDate, endDate, numberOfGuests
)

// books, answers and edits report whether the stays' Book buttons, a
// pending booking's Confirm and Cancel, and the trip-details edit are
// shown.
func (a Actions) books() bool   { return a.Stream || a.BookURL != "" }
func (a Actions) answers() bool { return a.Stream || a.BookingURL != "" }
func (a Actions) edits() bool   { return a.Stream || a.TripURL != "" }

type actionsKey struct{}

// WithActions returns a context in which components show the forms that
// a's URLs receive.
func WithActions(ctx context.Context, a Actions) context.Context {
	return context.WithValue(ctx, actionsKey{}, a)
}

func actionsOf(ctx context.Context) Actions {
	a, _ := ctx.Value(actionsKey{}).(Actions)
	return a
}

// dateLimits are the min and max attributes of the trip-details form's
// check-in and check-out inputs; none without a day to count from.
func dateLimits(today time.Time) (start, end templ.Attributes) {
	if today.IsZero() {
		return nil, nil
	}
	d := func(days int) string { return today.AddDate(0, 0, days).Format(time.DateOnly) }
	return templ.Attributes{"min": d(0), "max": d(tripdata.MaxDaysAhead)},
		templ.Attributes{"min": d(1), "max": d(tripdata.MaxDaysAhead + tripdata.MaxNights)}
}

// sortKeys are the orders of a stay list: as the search gave them
// (recommended: best rated, then cheapest), by price, by rating.
var sortKeys = []string{"recommended", "price", "rating"}

// maxSortable is how many stays a list sorts in the browser: the
// stylesheet has one ordering rule per rank (1 to maxSortable) and sort.
const maxSortable = 20

// sortable reports whether a stay list is offered sorts: two stays or
// more, up to maxSortable.
func sortable(accs []nodes.Accommodation) bool {
	return len(accs) > 1 && len(accs) <= maxSortable
}

// ranks are a stay's places in a list by price (cheapest first) and by
// rating (best first), from 1.
type ranks struct{ price, rating int }

// stayRanks ranks each stay of a list, ties keeping the list's order.
func stayRanks(accs []nodes.Accommodation) []ranks {
	order := func(less func(a, b nodes.Accommodation) int) []int {
		idx := make([]int, len(accs))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(i, j int) int { return less(accs[i], accs[j]) })
		rank := make([]int, len(accs))
		for r, i := range idx {
			rank[i] = r + 1
		}
		return rank
	}
	byPrice := order(func(a, b nodes.Accommodation) int { return cmp.Compare(a.NightlyPrice, b.NightlyPrice) })
	byRating := order(func(a, b nodes.Accommodation) int { return cmp.Compare(b.Rating, a.Rating) })
	out := make([]ranks, len(accs))
	for i := range accs {
		out[i] = ranks{price: byPrice[i], rating: byRating[i]}
	}
	return out
}

// kindName is a kind of place in the context's language.
func kindName(ctx context.Context, kind string) string {
	if _, ok := catalog["kind."+kind]; ok {
		return text(ctx, "kind."+kind)
	}
	return kind
}

// areaText says where a stay is: "In the centre of Lisbon", "2.3 km
// north-east of the centre"; "" when the tool did not say.
func areaText(ctx context.Context, a nodes.Accommodation, city string) string {
	switch _, known := catalog["area."+a.Area]; {
	case a.Area == "centre":
		return text(ctx, "area.centre", city)
	case known && a.Area != "":
		return text(ctx, "area."+a.Area, decimal(ctx, a.CentreKm))
	}
	return ""
}

// photoPage is how many photos a grid shows before its "show more".
const photoPage = 48

// photoPages splits a grid's photos: those shown at once, and the rest,
// behind "show more".
func photoPages(photos []nodes.Photo) (first, more []nodes.Photo) {
	if len(photos) <= photoPage {
		return photos, nil
	}
	return photos[:photoPage], photos[photoPage:]
}

// bookingWarning says what a pending booking warns about, "" for none.
func bookingWarning(ctx context.Context, p nodes.BookingConfirmationProps) string {
	switch p.Warning {
	case nodes.WarnTaken:
		return text(ctx, "warn.taken")
	case nodes.WarnBookedHere, nodes.WarnBookedBefore:
		if p.Previous == nil {
			return ""
		}
		return text(ctx, "warn."+p.Warning, dateRange(ctx, p.Previous.StartDate, p.Previous.EndDate), p.Previous.Reference)
	}
	return ""
}

func orString(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// stayDates are the check-in and check-out of the listed stays: the
// props' own, else the trip's.
func stayDates(p nodes.AccommodationsListProps) (start, end string) {
	if p.StartDate != "" && p.EndDate != "" {
		return p.StartDate, p.EndDate
	}
	if p.TripDetails != nil {
		return p.TripDetails.StartDate, p.TripDetails.EndDate
	}
	return "", ""
}

// clock writes an RFC 3339 time as "15:04 UTC"; text it cannot read is
// returned as it is.
func clock(rfc3339 string) string {
	t, err := time.Parse(time.RFC3339, rfc3339)
	if err != nil {
		return rfc3339
	}
	return t.UTC().Format("15:04 UTC")
}

// TripTitle names a conversation by its trip, in the context's
// language: "Lisbon · 1–5 May · 3 guests", "Lisboa → Porto · 3–9 mai · 2
// hóspedes". The year is said only for a trip across two.
func TripTitle(ctx context.Context, td nodes.TripDetails) string {
	return joinNonEmpty(" · ", destinationCities(ctx, td), shortRange(ctx, td.StartDate, td.EndDate),
		plural(ctx, "n.guests", td.NumberOfGuests))
}

// destinationCities names a trip's cities, in order, without countries.
func destinationCities(ctx context.Context, td nodes.TripDetails) string {
	if len(td.Legs) < 2 {
		return cityName(ctx, td.Location)
	}
	names := make([]string, len(td.Legs))
	for i, l := range td.Legs {
		names[i] = cityName(ctx, l.Location)
	}
	return strings.Join(names, " → ")
}

// shortRange writes two ISO dates briefly: "1–5 May", "30 Apr – 3 May",
// "30 Dec 2026 – 3 Jan 2027"; "" when either is unreadable.
func shortRange(ctx context.Context, start, end string) string {
	s, err1 := time.Parse(time.DateOnly, start)
	e, err2 := time.Parse(time.DateOnly, end)
	if err1 != nil || err2 != nil {
		return ""
	}
	month := func(t time.Time) string {
		if lang(ctx) == Portuguese {
			return ptMonths[t.Month()]
		}
		return t.Month().String()[:3]
	}
	switch {
	case s.Year() != e.Year():
		return day(ctx, start) + " – " + day(ctx, end)
	case s.Month() != e.Month():
		return fmt.Sprintf("%d %s – %d %s", s.Day(), month(s), e.Day(), month(e))
	}
	return fmt.Sprintf("%d–%d %s", s.Day(), e.Day(), month(e))
}

// TripChange is what the traveller says, in the page's language, when they
// change the trip with the trip-details form: "Change the trip to Porto,
// 1 Jun 2027 – 5 Jun 2027, 2 guests". It becomes their message, so that the
// conversation records the change and the planner reads it as a new
// request for the trip, not as the one before it.
func TripChange(ctx context.Context, td nodes.TripDetails) string {
	return text(ctx, "trip.changed", td.Location, dateRange(ctx, td.StartDate, td.EndDate), plural(ctx, "n.guests", td.NumberOfGuests))
}

// tripChangeAttrs give a script (Actions.Stream) what TripChange says, in
// the page's language, for it to say the change as the traveller's
// message: data-said, with {location}, {dates} and {guests} to fill in,
// and data-guests, the singular and the plural of {n} guests, split by
// "|".
func tripChangeAttrs(ctx context.Context) templ.Attributes {
	return templ.Attributes{
		"data-said":   text(ctx, "trip.changed", "{location}", "{dates}", "{guests}"),
		"data-guests": strings.ReplaceAll(format(lang(ctx), "n.guests"), "%d", "{n}"),
	}
}
