package checklist_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/model/internal/chatwords"
	"github.com/tripgraph/tripgraph/model/offline"
)

// maxFailureRate is the most a capability may fail.
const maxFailureRate = 0.03

// A test is one generated case: the traveller's messages, and a check of
// what the model understood that returns what is wrong, or "".
type test struct {
	capability string // "dates/numbers", "guests/roles", …
	kind       string // MFT, INV or DIR
	lang       string
	turns      []string
	check      func(e offline.Extraction) string
}

// understand reads turns as the model does: chat words written out first.
func understand(turns []string) offline.Extraction {
	in := make([]string, len(turns))
	for i, t := range turns {
		in[i] = chatwords.Expand(t)
	}
	return offline.Understand(in, today)
}

// suites are the generators of each capability.
var suites = []func() []test{
	nightsInWords, dayMonthRanges, ordinalDays, weekdayRanges, holidaysRead, monthParts,
	partyInWords, partyCollectives, partyRoles,
	shifts, stretches, replaces, partyChanges,
	historyQuestions, openQuestions,
	tentativeDestinations, pastThenNew, softPreferences,
	citySwaps, citySpellings, messageForms, monthTypos,
}

func TestCheckList(t *testing.T) {
	var all []test
	for _, s := range suites {
		all = append(all, s()...)
	}
	type tally struct {
		kind, lang    string
		cases, failed int
		examples      []string
	}
	byCap := map[string]*tally{}
	var order []string
	for _, c := range all {
		key := c.capability
		tl, ok := byCap[key]
		if !ok {
			tl = &tally{kind: c.kind}
			byCap[key] = tl
			order = append(order, key)
		}
		tl.cases++
		if msg := c.check(understand(c.turns)); msg != "" {
			tl.failed++
			if len(tl.examples) < 3 {
				tl.examples = append(tl.examples, fmt.Sprintf("%q: %s", c.turns, msg))
			}
		}
	}
	slices.Sort(order)
	var b strings.Builder
	fmt.Fprintf(&b, "\n| capability | kind | cases | failed | rate |\n|---|---|---|---|---|\n")
	for _, k := range order {
		tl := byCap[k]
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %.1f%% |\n", k, tl.kind, tl.cases, tl.failed, 100*float64(tl.failed)/float64(tl.cases))
	}
	fmt.Fprintf(&b, "| all | | %d | | |\n", len(all))
	for _, k := range order {
		if tl := byCap[k]; tl.failed > 0 {
			fmt.Fprintf(&b, "\n%s, e.g.:\n\t%s\n", k, strings.Join(tl.examples, "\n\t"))
		}
	}
	t.Log(b.String())
	if len(all) < 20000 {
		t.Errorf("%d cases generated, want at least 20,000", len(all))
	}
	for _, k := range order {
		tl := byCap[k]
		if rate := float64(tl.failed) / float64(tl.cases); rate > maxFailureRate {
			t.Errorf("%s fails %.1f%% of %d cases (at most %.0f%%), e.g.\n\t%s", k, 100*rate, tl.cases, 100*maxFailureRate, strings.Join(tl.examples, "\n\t"))
		}
	}
}

// Checks on what was understood.

func day(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Format("2006-01-02")
}

// wantDates checks the start and end (zero: not stated).
func wantDates(start, end time.Time) func(offline.Extraction) string {
	return func(e offline.Extraction) string {
		if !e.Dates.Start.Equal(start) || !e.Dates.End.Equal(end) {
			return fmt.Sprintf("dates %s → %s, want %s → %s", day(e.Dates.Start), day(e.Dates.End), day(start), day(end))
		}
		return ""
	}
}

func wantNights(n int) func(offline.Extraction) string {
	return func(e offline.Extraction) string {
		if e.Dates.Nights != n {
			return fmt.Sprintf("%d nights, want %d", e.Dates.Nights, n)
		}
		return ""
	}
}

func wantGuests(n int) func(offline.Extraction) string {
	return func(e offline.Extraction) string {
		if e.Guests != n {
			return fmt.Sprintf("%d guests, want %d", e.Guests, n)
		}
		return ""
	}
}

// all runs several checks and reports the first that fails.
func all(checks ...func(offline.Extraction) string) func(offline.Extraction) string {
	return func(e offline.Extraction) string {
		for _, c := range checks {
			if msg := c(e); msg != "" {
				return msg
			}
		}
		return ""
	}
}

// same checks that the dates, the party and the intent are those of a
// reference reading: an invariance.
func same(ref offline.Extraction) func(offline.Extraction) string {
	return func(e offline.Extraction) string {
		switch {
		case !e.Dates.Start.Equal(ref.Dates.Start) || !e.Dates.End.Equal(ref.Dates.End) || e.Dates.Nights != ref.Dates.Nights:
			return fmt.Sprintf("dates %s → %s (%d), were %s → %s (%d)", day(e.Dates.Start), day(e.Dates.End), e.Dates.Nights, day(ref.Dates.Start), day(ref.Dates.End), ref.Dates.Nights)
		case e.Guests != ref.Guests:
			return fmt.Sprintf("%d guests, were %d", e.Guests, ref.Guests)
		case e.Intent != ref.Intent:
			return fmt.Sprintf("intent %q, was %q", e.Intent, ref.Intent)
		}
		return ""
	}
}

// date is a day of the calendar.
func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// next is the next such day not before today.
func next(m time.Month, d int) time.Time {
	t := date(today.Year(), m, d)
	if t.Before(today) {
		t = t.AddDate(1, 0, 0)
	}
	return t
}

// pick returns every k-th item of list, from offset: a deterministic
// sample that still covers the whole list.
func pick[T any](list []T, k, offset int) []T {
	var out []T
	for i := offset % max(k, 1); i < len(list); i += max(k, 1) {
		out = append(out, list[i])
	}
	return out
}
