package mcpserver

import (
	"bytes"
	"encoding/json"
	"maps"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/tripdata"
)

// Limits of tool inputs.
const (
	DefaultLimit = 50
	MaxLimit     = 200
	MaxOffset    = 1_000_000
	MaxTermLen   = 200
	MaxGuests    = tripdata.MaxGuests
	MaxNights    = tripdata.MaxNights
	// MaxDaysAhead is how far ahead of today a stay may start.
	MaxDaysAhead = tripdata.MaxDaysAhead
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

// idArguments are the tool arguments that hold ids, with what they name.
// Ids are UUIDs: any spelling uuid.Parse accepts (braces, urn:uuid:, no
// hyphens) is rewritten to the canonical one before a tool sees it, so
// every backend gets, and every result echoes, the canonical form.
var idArguments = map[string]string{"albumId": "album", "id": "accommodation"}

// MaxEcho is how many characters of a client's value an error message
// repeats at most.
const MaxEcho = 64

// echo returns s fit to repeat in an error message: at most MaxEcho
// characters, with an ellipsis when cut.
func echo(s string) string {
	if utf8.RuneCountInString(s) <= MaxEcho {
		return s
	}
	return string([]rune(s)[:MaxEcho]) + "…"
}

// canonicalID returns the canonical form of a UUID, or NOT_FOUND: nothing
// that is not a UUID can name a stored thing.
func canonicalID(what, id string) (string, error) {
	u, err := uuid.Parse(id)
	if err != nil {
		return "", errcode.New(errcode.NotFound, "no %s with id %q", what, echo(id))
	}
	return u.String(), nil
}

// decodeArguments decodes a tool call's arguments into in, after checking
// them against the tool's input schema: a JSON object, no unknown
// arguments, every required one, and the JSON type each one declares. The
// messages name the argument and what it must be, never a Go type. Numbers
// are decoded from their own text, so a whole number keeps every digit.
func decodeArguments(raw json.RawMessage, s *jsonschema.Schema, in any) error {
	args, err := argumentObject(raw)
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(args)) { // in order, so that errors are stable
		v := args[name]
		p, ok := s.Properties[name]
		if !ok {
			return badRequest("unknown argument %q; this tool takes %s", echo(name), strings.Join(slices.Sorted(maps.Keys(s.Properties)), ", "))
		}
		if args[name], err = argument(name, v, p); err != nil {
			return err
		}
	}
	for _, name := range s.Required {
		if _, ok := args[name]; !ok {
			return badRequest("missing required argument %q", name)
		}
	}
	data, err := json.Marshal(args)
	if err == nil {
		err = json.Unmarshal(data, in)
	}
	if err != nil {
		return badRequest("the arguments do not fit this tool's input schema")
	}
	return nil
}

func argumentObject(raw json.RawMessage) (map[string]any, error) {
	args := map[string]any{}
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return args, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil {
		return nil, badRequest("arguments must be a JSON object")
	}
	return args, nil
}

// argument checks one argument against its schema and returns it as it
// should be decoded.
func argument(name string, v any, p *jsonschema.Schema) (any, error) {
	want := p.Type
	switch v := v.(type) {
	case string:
		if want == "string" {
			if what, ok := idArguments[name]; ok {
				return canonicalID(what, v)
			}
			return v, nil
		}
	case json.Number:
		switch want {
		case "number":
			return v, nil
		case "integer":
			return integer(name, v)
		}
	case bool:
		if want == "boolean" {
			return v, nil
		}
	case []any:
		if want == "array" {
			return v, nil
		}
	case map[string]any:
		if want == "object" {
			return v, nil
		}
	}
	if want == "" {
		return v, nil
	}
	return nil, badRequest("%s must be %s, not %s", name, article(want), jsonKind(v))
}

// integer accepts any JSON spelling of a whole number that fits in 64 bits
// (12, 12.0, 1.2e1).
func integer(name string, n json.Number) (json.Number, error) {
	if _, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
		return n, nil
	}
	f, _, err := big.ParseFloat(n.String(), 10, 256, big.ToNearestEven)
	if err != nil || !f.IsInt() {
		return "", badRequest("%s must be a whole number, not %s", name, echo(n.String()))
	}
	i, acc := f.Int64()
	if acc != big.Exact {
		return "", badRequest("%s is out of range: %s", name, echo(n.String()))
	}
	return json.Number(strconv.FormatInt(i, 10)), nil
}

func article(jsonType string) string {
	switch jsonType {
	case "integer", "object", "array":
		return "an " + jsonType
	}
	return "a " + jsonType
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	}
	return "an object"
}
