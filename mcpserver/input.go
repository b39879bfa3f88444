package mcpserver

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits of tool inputs.
const (
	DefaultLimit = 50
	MaxLimit     = 200
	MaxOffset    = 1_000_000
	MaxTermLen   = 200
	MaxGuests    = 20
	MaxNights    = 90
	// MaxDaysAhead is how far ahead of today a stay may start.
	MaxDaysAhead = 730
)

// limit applies the default to an absent (zero) limit and clamps a large
// one; a negative limit is a BAD_REQUEST.
func limit(n int) (int, error) {
	switch {
	case n < 0:
		return 0, badRequest("limit must be positive, got %d", n)
	case n == 0:
		return DefaultLimit, nil
	}
	return min(n, MaxLimit), nil
}

func offset(n int) (int, error) {
	if n < 0 {
		return 0, badRequest("offset must not be negative, got %d", n)
	}
	return min(n, MaxOffset), nil
}

// term validates a search term: trimmed, 1 to MaxTermLen characters, valid
// UTF-8 without NUL.
func term(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "", badRequest("%s must not be empty", field)
	case !utf8.ValidString(s):
		return "", badRequest("%s is not valid UTF-8", field)
	case strings.ContainsRune(s, 0):
		return "", badRequest("%s must not contain NUL", field)
	case utf8.RuneCountInString(s) > MaxTermLen:
		return "", badRequest("%s is longer than %d characters", field, MaxTermLen)
	}
	return s, nil
}

var isoDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// date parses a YYYY-MM-DD date.
func date(field, s string) (time.Time, error) {
	if !isoDate.MatchString(s) {
		return time.Time{}, badRequest("%s must be a date as YYYY-MM-DD, got %q", field, s)
	}
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, badRequest("%s is not a real date: %q", field, s)
	}
	return d, nil
}

// stayDates validates a stay's dates and returns them with its number of nights.
func stayDates(startDate, endDate string) (start, end time.Time, nights int, err error) {
	if start, err = date("startDate", startDate); err != nil {
		return
	}
	if end, err = date("endDate", endDate); err != nil {
		return
	}
	nights = int(end.Sub(start).Hours() / 24)
	switch {
	case nights < 1:
		err = badRequest("endDate %s must be after startDate %s", endDate, startDate)
	case nights > MaxNights:
		err = badRequest("a stay is at most %d nights, got %d", MaxNights, nights)
	}
	return
}

// stay validates a stay's dates as stayDates does, and that it starts from
// today (UTC) to MaxDaysAhead days ahead.
func (t *tools) stay(startDate, endDate string) (start, end time.Time, nights int, err error) {
	if start, end, nights, err = stayDates(startDate, endDate); err != nil {
		return
	}
	y, m, d := t.cfg.Now().UTC().Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	switch {
	case start.Before(today):
		err = badRequest("startDate %s is in the past: today is %s (UTC)", startDate, dateString(today))
	case start.After(today.AddDate(0, 0, MaxDaysAhead)):
		err = badRequest("startDate %s is more than %d days ahead of today, %s (UTC)", startDate, MaxDaysAhead, dateString(today))
	}
	return
}

func guests(n int) (int, error) {
	if n < 1 || n > MaxGuests {
		return 0, badRequest("guests must be from 1 to %d, got %d", MaxGuests, n)
	}
	return n, nil
}

func dateString(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}
