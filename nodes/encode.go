package nodes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/tripgraph/tripgraph/internal/rawjson"
)

// The engine encodes the state and the update of every step it saves, and
// most of that cost was encoding/json compacting and checking the
// components' props again: they are json.RawMessage, which it compacts
// whenever it writes one. AppendJSON writes the same members, and only
// the rest through encoding/json. An update's props are written as they
// are when they are compact already (as the planner's own are, made by
// encoding/json), else compacted, and fail the encoding when they are not
// JSON. A state's are written as they are: Reduce compacts the props of
// each component it adds, so a state's props are compact already, and
// checking them again at every step cost a sixth of a run's CPU.

// AppendJSON appends the state's JSON to b: the members json.Marshal
// writes, messages and ui first.
func (s State) AppendJSON(b []byte) ([]byte, error) {
	b = slices.Grow(b, sizeHint(s.Messages, s.UI)+len(s.Enrichments)*512)
	b = append(b, `{"messages":`...)
	b, err := appendMarshalled(b, s.Messages)
	if err != nil {
		return nil, err
	}
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
	return appendRest(b, stateRest{State: s}, true)
}

// stateRest is a state's members but messages and ui: its own fields of
// those names hide the State's, and are left out.
type stateRest struct {
	State
	Messages *struct{} `json:"messages,omitempty"`
	UI       *struct{} `json:"ui,omitempty"`
}

// AppendJSON appends the update's JSON to b: the members json.Marshal
// writes, messages and ui first.
func (u Update) AppendJSON(b []byte) ([]byte, error) {
	n := sizeHint(u.Messages, nil)
	for _, up := range u.UI {
		n += len(up.Props) + 128
	}
	b = slices.Grow(b, n)
	b = append(b, '{')
	more := false
	var err error
	if len(u.Messages) > 0 {
		b = append(b, `"messages":`...)
		if b, err = appendMarshalled(b, u.Messages); err != nil {
			return nil, err
		}
		more = true
	}
	if len(u.UI) > 0 {
		if more {
			b = append(b, ',')
		}
		b = append(b, `"ui":[`...)
		for i, up := range u.UI {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendComponent(b, up.UIComponent, up.Merge); err != nil {
				return nil, err
			}
		}
		b = append(b, ']')
		more = true
	}
	return appendRest(b, updateRest{Update: u}, more)
}

// updateRest is an update's members but messages and ui.
type updateRest struct {
	Update
	Messages *struct{} `json:"messages,omitempty"`
	UI       *struct{} `json:"ui,omitempty"`
}

// sizeHint is about the length of the JSON of messages and components, so
// that a state's encoding grows its buffer once.
func sizeHint(msgs []Message, ui []UIComponent) int {
	n := 512
	for _, m := range msgs {
		n += len(m.Content) + len(m.ID) + 64
	}
	for _, c := range ui {
		n += len(c.Props) + 128
	}
	return n
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

// appendRest appends the members of rest (an object) after those written
// already (more), and closes the object.
func appendRest(b []byte, rest any, more bool) ([]byte, error) {
	data, err := json.Marshal(rest)
	if err != nil {
		return nil, err
	}
	if len(data) <= 2 { // {}
		return append(b, '}'), nil
	}
	if more {
		b = append(b, ',')
	}
	return append(b, data[1:]...), nil
}

func appendMarshalled(b []byte, v any) ([]byte, error) {
	data, err := json.Marshal(v)
	return append(b, data...), err
}

// appendString appends s as a JSON string, as encoding/json writes it.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			data, _ := json.Marshal(s)
			return append(b, data...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
