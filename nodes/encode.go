package nodes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/tripgraph/tripgraph/internal/rawjson"
)

// The engine encodes the state and the update of every step it saves: a
// run's largest cost after its nodes. AppendJSON writes what json.Marshal
// writes, byte for byte, without its reflection: the members every step
// has (messages, components, the clock, the trip, intent and language)
// are written here, and only the rarer ones (assumptions, what was
// recalled, enrichments, bookings) through encoding/json. An update's
// props are written as they are when they are compact already (as the
// planner's own are, made by encoding/json), else compacted, and fail the
// encoding when they are not JSON. A state's are written as they are:
// Reduce compacts the props of each component it adds, so a state's props
// are compact already, and checking them again at every step cost a sixth
// of a run's CPU. TestAppendJSONIsJSONMarshal holds the two encodings
// equal for every member.

// AppendJSON appends the state's JSON to b: the members json.Marshal
// writes, in its order.
func (s State) AppendJSON(b []byte) ([]byte, error) {
	b = slices.Grow(b, sizeHint(s.Messages, s.UI)+len(s.Enrichments)*512)
	b = append(b, `{"messages":`...)
	b = appendMessages(b, s.Messages)
	b = append(b, `,"ui":`...)
	if s.UI == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range s.UI {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendComponentAsIs(b, c)
		}
		b = append(b, ']')
	}
	b = append(b, `,"timestamp":`...)
	b = strconv.AppendInt(b, s.Timestamp, 10)
	var err error
	if s.TripDetails != nil {
		if b, err = appendTrip(appendKey(b, "tripDetails"), *s.TripDetails); err != nil {
			return nil, err
		}
	}
	b = appendStringMember(b, "intent", string(s.Intent))
	b = appendStringMember(b, "language", s.Language)
	if len(s.Assumed) > 0 {
		if b, err = appendMarshalled(appendKey(b, "assumed"), s.Assumed); err != nil {
			return nil, err
		}
	}
	if s.Recalled != nil {
		if b, err = appendMarshalled(appendKey(b, "recalled"), s.Recalled); err != nil {
			return nil, err
		}
	}
	b = appendTrue(b, "forgotten", s.Forgotten)
	if len(s.Enrichments) > 0 {
		if b, err = appendMarshalled(appendKey(b, "enrichments"), s.Enrichments); err != nil {
			return nil, err
		}
	}
	if s.BookingRequest != nil {
		if b, err = appendMarshalled(appendKey(b, "bookingRequest"), s.BookingRequest); err != nil {
			return nil, err
		}
	}
	if len(s.SetAside) > 0 {
		if b, err = appendMarshalled(appendKey(b, "setAside"), s.SetAside); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// AppendJSON appends the update's JSON to b: the members json.Marshal
// writes, in its order.
func (u Update) AppendJSON(b []byte) ([]byte, error) {
	n := sizeHint(u.Messages, nil)
	for _, up := range u.UI {
		n += len(up.Props) + 128
	}
	b = slices.Grow(b, n)
	b = append(b, '{')
	var err error
	if len(u.Messages) > 0 {
		b = appendMessages(appendKey(b, "messages"), u.Messages)
	}
	if len(u.UI) > 0 {
		b = append(appendKey(b, "ui"), '[')
		for i, up := range u.UI {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendComponent(b, up.UIComponent, up.Merge); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
	}
	if u.Timestamp != 0 {
		b = strconv.AppendInt(appendKey(b, "timestamp"), u.Timestamp, 10)
	}
	if u.TripDetails != nil {
		if b, err = appendTrip(appendKey(b, "tripDetails"), *u.TripDetails); err != nil {
			return nil, err
		}
	}
	if len(u.Assumed) > 0 {
		if b, err = appendMarshalled(appendKey(b, "assumed"), u.Assumed); err != nil {
			return nil, err
		}
	}
	if u.Recalled != nil {
		if b, err = appendMarshalled(appendKey(b, "recalled"), u.Recalled); err != nil {
			return nil, err
		}
	}
	b = appendTrue(b, "forgotten", u.Forgotten)
	b = appendTrue(b, "clearTripDetails", u.ClearTripDetails)
	b = appendStringMember(b, "intent", string(u.Intent))
	b = appendStringMember(b, "language", u.Language)
	if len(u.Enrichments) > 0 {
		if b, err = appendMarshalled(appendKey(b, "enrichments"), u.Enrichments); err != nil {
			return nil, err
		}
	}
	if u.BookingRequest != nil {
		if b, err = appendMarshalled(appendKey(b, "bookingRequest"), u.BookingRequest); err != nil {
			return nil, err
		}
	}
	b = appendTrue(b, "clearBookingRequest", u.ClearBookingRequest)
	b = appendTrue(b, "clearSetAside", u.ClearSetAside)
	return append(b, '}'), nil
}

// sizeHint is about the length of the JSON of messages and components,
// and of a state's other members, so that an encoding grows its buffer
// once and not far past what it writes.
func sizeHint(msgs []Message, ui []UIComponent) int {
	n := 256
	for _, m := range msgs {
		n += len(m.Content) + len(m.ID) + len(m.Type) + 40
	}
	for _, c := range ui {
		n += len(c.Props) + len(c.ID) + len(c.Name) + len(c.MessageID) + 48
	}
	return n
}

// appendKey appends a member's name, after a comma unless it is the
// object's first.
func appendKey(b []byte, name string) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

// appendStringMember appends a string member that is left out when empty.
func appendStringMember(b []byte, name, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(appendKey(b, name), s)
}

// appendTrue appends a boolean member that is left out when false.
func appendTrue(b []byte, name string, v bool) []byte {
	if !v {
		return b
	}
	return append(appendKey(b, name), "true"...)
}

// appendMessages appends a list of messages.
func appendMessages(b []byte, msgs []Message) []byte {
	if msgs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendString(b, m.ID)
		b = append(b, `,"type":`...)
		b = appendString(b, m.Type)
		b = append(b, `,"content":`...)
		b = appendString(b, m.Content)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendTrip appends a trip's details.
func appendTrip(b []byte, td TripDetails) ([]byte, error) {
	b = append(b, `{"location":`...)
	b = appendString(b, td.Location)
	b = appendStringMember(b, "country", td.Country)
	b = append(b, `,"startDate":`...)
	b = appendString(b, td.StartDate)
	b = append(b, `,"endDate":`...)
	b = appendString(b, td.EndDate)
	b = append(b, `,"numberOfGuests":`...)
	b = strconv.AppendInt(b, int64(td.NumberOfGuests), 10)
	if len(td.Legs) > 0 {
		var err error
		if b, err = appendMarshalled(appendKey(b, "legs"), td.Legs); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendComponent appends a component's JSON, as UIComponent's (and
// UIUpsert's, with merge) fields say, its props compacted.
func appendComponent(b []byte, c UIComponent, merge bool) ([]byte, error) {
	props, err := compactProps(c.Props)
	if err != nil {
		return nil, fmt.Errorf("encoding the props of component %s: %w", c.ID, err)
	}
	c.Props = props
	b = appendComponentAsIs(b, c)
	if merge {
		b = append(b[:len(b)-1], `,"merge":true}`...)
	}
	return b, nil
}

// appendComponentAsIs appends a component's JSON with its props as they
// are.
func appendComponentAsIs(b []byte, c UIComponent) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, c.ID)
	b = append(b, `,"name":`...)
	b = appendString(b, c.Name)
	b = append(b, `,"props":`...)
	if len(c.Props) == 0 {
		b = append(b, "null"...)
	} else {
		b = append(b, c.Props...)
	}
	b = append(b, `,"messageId":`...)
	b = appendString(b, c.MessageID)
	return append(b, '}')
}

// compactProps returns props without white space outside their strings:
// as they are when they have none, else compacted, which fails when they
// are not JSON.
func compactProps(props json.RawMessage) (json.RawMessage, error) {
	if rawjson.Compact(props) {
		return props, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, props); err != nil {
		return props, err
	}
	return buf.Bytes(), nil
}

func appendMarshalled(b []byte, v any) ([]byte, error) {
	data, err := json.Marshal(v)
	return append(b, data...), err
}

// hexDigits are the digits of a \u escape.
const hexDigits = "0123456789abcdef"

// plainByte says which bytes a JSON string holds as they are: ASCII but
// the control characters, ", \, and HTML's <, > and &.
var plainByte = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendString appends s as a JSON string, as encoding/json writes it: \",
// \\ and the control characters escaped (\b, \f, \n, \r and \t by their
// letters, the rest as \u00XX), and so are <, > and &, U+2028 and U+2029;
// invalid UTF-8 becomes U+FFFD. Everything else is copied as it is.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if plainByte[c] {
				i++
				continue
			}
			b = appendEscaped(append(b, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		var esc string
		switch {
		case r == utf8.RuneError && size == 1:
			esc = `\ufffd`
		case r == '\u2028':
			esc = `\u2028`
		case r == '\u2029':
			esc = `\u2029`
		}
		if esc != "" {
			b = append(append(b, s[start:i]...), esc...)
			start = i + size
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendEscaped appends the escape of an ASCII byte that is not plain.
func appendEscaped(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}
