package ui

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/nodes"
)

// maxCuisineChips is how many cuisines get a filter chip; the stylesheet
// has one filtering rule per chip slot (1 to maxCuisineChips). Restaurants
// of further cuisines show under "All" only.
const maxCuisineChips = 12

// place writes "Lisbon, Portugal", or the city alone.
func place(city, country string) string {
	return joinNonEmpty(", ", city, country)
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

// coveredMessage is the tool's own word on an uncovered place, or ours.
func coveredMessage(ctx context.Context, message, location string) string {
	if message != "" {
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
}

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

// bookingStatus is a status the catalog has words for; an unknown one
// reads as failed.
func bookingStatus(s string) string {
	switch s {
	case nodes.BookingPending, nodes.BookingBooked, nodes.BookingDeclined, nodes.BookingExpired, nodes.BookingChanged:
		return s
	}
	return nodes.BookingFailed
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

// TripChange is what the traveller says, in the page's language, when they
// change the trip with the trip-details form: "Change the trip to Porto,
// 1 Jun 2027 – 5 Jun 2027, 2 guests". It becomes their message, so that the
// conversation records the change and the planner reads it as a new
// request for the trip, not as the one before it.
func TripChange(ctx context.Context, td nodes.TripDetails) string {
	return text(ctx, "trip.changed", td.Location, dateRange(ctx, td.StartDate, td.EndDate), plural(ctx, "n.guests", td.NumberOfGuests))
}
