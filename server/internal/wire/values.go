package wire

// The planner's state and updates as LangGraph's clients read and send
// them: messages and ui are always lists, a ui entry is LangGraph's
// generative-UI message, and a message's content may come as a list of
// text blocks.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tripgraph/tripgraph/internal/rawjson"
	"github.com/tripgraph/tripgraph/nodes"
)

// uiType is the type of LangGraph's generative-UI messages.
const uiType = "ui"

// UIMessage is a UI component as LangGraph's generative UI has it, in
// state ui entries, updates and custom events: metadata.message_id names
// the message it belongs to (and merge, in an update, asks for its props
// to be merged into the earlier ones).
type UIMessage struct {
	Type     string          `json:"type"` // "ui"
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Props    json.RawMessage `json:"props"`
	Metadata map[string]any  `json:"metadata"`
}

// uiMessage is a component as a UIMessage, with extra metadata.
func uiMessage(c nodes.UIComponent, extra map[string]any) UIMessage {
	meta := map[string]any{"message_id": c.MessageID}
	for k, v := range extra {
		meta[k] = v
	}
	return UIMessage{Type: uiType, ID: c.ID, Name: c.Name, Props: c.Props, Metadata: meta}
}

// Values is a saved planner state as the LangGraph API shows it: messages
// and ui are lists, never null, and each ui entry is a UIMessage. Members
// it does not know are left as they are, in their order. A run shows its
// state after every step, so this reshapes the saved (compact) text in one
// pass rather than decoding and encoding it again; text it cannot read is
// returned as it is.
//
// A component the planner attaches to the traveller's message (the trip
// it understood) is attached, in a UIMessage, to the reply that answers
// that message: LangGraph's generative UI attaches components to AI
// messages, and front ends built on it (Agent Chat UI) show a message's
// components under AI messages only. Until the reply is in the state it
// stays on the traveller's message.
func Values(state json.RawMessage) json.RawMessage {
	members, ok := rawjson.Object(state)
	if !ok {
		return state
	}
	var replies map[string][]byte
	if m, ok := rawjson.Named(members, "messages"); ok {
		replies = repliesTo(m)
	}
	out := make([]byte, 0, len(state)+len(state)/4)
	out = append(out, '{')
	hasMessages := false
	for i, m := range members {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(append(out, m.Key...), ':')
		switch string(m.Key) {
		case `"messages"`:
			hasMessages = true
			out = appendList(out, m.Value)
		case `"ui"`:
			out = appendUIMessages(out, m.Value, replies)
		default:
			out = append(out, m.Value...)
		}
	}
	if !hasMessages {
		if len(members) > 0 {
			out = append(out, ',')
		}
		out = append(out, `"messages":[]`...)
	}
	return append(out, '}')
}

// appendList appends a list member: null as an empty list.
func appendList(out, value []byte) []byte {
	if isNull(value) {
		return append(out, "[]"...)
	}
	return append(out, value...)
}

// repliesTo maps each traveller's message of a saved messages list that
// an AI message follows to the first such AI message: the reply whose
// components it shows to LangGraph's clients (see Values). Ids are kept
// and compared as the saved text writes them, quotes included: the state's
// encoder writes one id the same way wherever it appears.
func repliesTo(messages []byte) map[string][]byte {
	var replies map[string][]byte
	var waiting [][]byte // traveller's messages no reply has followed yet
	rawjson.EachObject(messages, func(m []rawjson.Member) {
		id, ok := rawjson.Named(m, "id")
		if !ok || len(id) < 3 || id[0] != '"' { // not a string, or ""
			return
		}
		switch typ, _ := rawjson.Named(m, "type"); string(typ) {
		case `"` + nodes.Human + `"`:
			waiting = append(waiting, id)
		case `"` + nodes.AI + `"`:
			for _, h := range waiting {
				if replies == nil {
					replies = make(map[string][]byte)
				}
				replies[string(h)] = id
			}
			waiting = waiting[:0]
		}
	})
	return replies
}

// appendUIMessages appends the saved ui list as UIMessages (see
// uiMessage), or as it is when its entries are not components. A
// component on a message replies names is put on its reply.
func appendUIMessages(out, ui []byte, replies map[string][]byte) []byte {
	if isNull(ui) {
		return append(out, "[]"...)
	}
	mark := len(out)
	out = append(out, '[')
	ok := rawjson.EachObject(ui, func(fields []rawjson.Member) {
		if len(out) > mark+1 {
			out = append(out, ',')
		}
		out = append(out, `{"type":"`+uiType+`","id":`...)
		out = appendMember(out, fields, "id", `""`)
		out = append(out, `,"name":`...)
		out = appendMember(out, fields, "name", `""`)
		out = append(out, `,"props":`...)
		out = appendMember(out, fields, "props", "null")
		out = append(out, `,"metadata":{"message_id":`...)
		if reply := replyOf(fields, replies); reply != nil {
			out = append(out, reply...)
		} else {
			out = appendMember(out, fields, "messageId", `""`)
		}
		out = append(out, "}}"...)
	})
	if !ok {
		return append(out[:mark], ui...)
	}
	return append(out, ']')
}

// replyOf is the id, as saved, of the reply a saved component is shown on
// (see Values): nil when its message is not a traveller's message that
// has one.
func replyOf(fields []rawjson.Member, replies map[string][]byte) []byte {
	if len(replies) == 0 {
		return nil
	}
	v, ok := rawjson.Named(fields, "messageId")
	if !ok {
		return nil
	}
	return replies[string(v)]
}

// appendMember appends the value of the member named key, or missing when
// there is none.
func appendMember(out []byte, members []rawjson.Member, key, missing string) []byte {
	if v, ok := rawjson.Named(members, key); ok && !(missing == `""` && isNull(v)) {
		return append(out, v...)
	}
	return append(out, missing...)
}

// UpdateJSON is a planner update as the LangGraph API shows it: its ui
// upserts as UIMessages (first), metadata.merge set where props are
// merged, then its other members as the update encodes them.
func UpdateJSON(u nodes.Update) json.RawMessage {
	rest := u
	rest.UI = nil
	data, err := rest.AppendJSON(nil)
	if err != nil || len(u.UI) == 0 {
		return data
	}
	out := make([]UIMessage, len(u.UI))
	for i, up := range u.UI {
		var extra map[string]any
		if up.Merge {
			extra = map[string]any{"merge": true}
		}
		out[i] = uiMessage(up.UIComponent, extra)
	}
	ui, err := json.Marshal(out)
	if err != nil {
		return nil
	}
	b := make([]byte, 0, len(data)+len(ui)+8)
	b = append(append(b, `{"ui":`...), ui...)
	if len(data) > len("{}") {
		b = append(b, ',')
		return append(b, data[1:]...)
	}
	return append(b, '}')
}

// StateOf reads values the API showed (Values) back as a planner state.
func StateOf(values json.RawMessage) (nodes.State, error) {
	var s nodes.State
	plain, err := ClientValues(values)
	if err != nil {
		return s, err
	}
	var members struct {
		UI []nodes.UIUpsert `json:"ui"`
	}
	if err := json.Unmarshal(plain, &members); err != nil {
		return s, fmt.Errorf("reading a state's ui: %w", err)
	}
	if err := json.Unmarshal(plain, &s); err != nil {
		return s, fmt.Errorf("reading a state: %w", err)
	}
	s.UI = make([]nodes.UIComponent, len(members.UI))
	for i, up := range members.UI {
		s.UI[i] = up.UIComponent
	}
	return s, nil
}

// ClientValues turns state values or an update as LangGraph's clients send
// them into the planner's own form: each message's role or type named as
// the planner names it (human, ai), its content a string (a list of text
// blocks is joined), the LangChain members the planner keeps nothing of
// dropped when empty; each ui entry sent as a UIMessage becomes the
// planner's component upsert. What the planner cannot keep (a block that
// is not text, a tool call) is refused, naming where it is.
func ClientValues(raw json.RawMessage) (json.RawMessage, error) {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil || members == nil {
		return raw, nil // the caller's decoding says what is wrong
	}
	if m, ok := members["messages"]; ok && !isNull(m) {
		msgs, err := clientMessages(m, "messages")
		if err != nil {
			return nil, err
		}
		members["messages"] = msgs
	}
	if u, ok := members["ui"]; ok && !isNull(u) {
		ui, err := clientUI(u)
		if err != nil {
			return nil, err
		}
		members["ui"] = ui
	}
	data, err := json.Marshal(members)
	if err != nil {
		return nil, fmt.Errorf("encoding values: %w", err)
	}
	return data, nil
}

// clientMessages normalises a list of messages (see ClientValues).
func clientMessages(raw json.RawMessage, field string) (json.RawMessage, error) {
	list, err := ClientMessages(raw, field)
	if err != nil || list == nil {
		return raw, err
	}
	out := make([]map[string]any, len(list))
	for i, m := range list {
		out[i] = map[string]any{"content": string(m.Content)}
		if m.ID != "" {
			out[i]["id"] = m.ID
		}
		if t := m.kind(); t != "" {
			out[i]["type"] = t
		}
	}
	return json.Marshal(out)
}

// ClientMessages reads a list of messages as clients send them (see
// ClientMessage), refusing what the planner cannot keep with a ValueError
// naming the message's place under field. Something that is not a list
// reads as nil, for the caller's decoding to report.
func ClientMessages(raw json.RawMessage, field string) ([]ClientMessage, error) {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, nil
	}
	list := make([]ClientMessage, len(items))
	for i, item := range items {
		at := fmt.Sprintf("%s[%d]", field, i)
		if err := strictInto(item, &list[i]); err != nil {
			if ve, ok := err.(*ValueError); ok {
				return nil, &ValueError{Field: at + "." + ve.Field, Message: ve.Message}
			}
			return nil, &ValueError{Field: at, Message: err.Error()}
		}
		if err := list[i].check(at); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// clientUI turns ui entries sent as UIMessages into component upserts;
// entries in the planner's own form stay as they are.
func clientUI(raw json.RawMessage) (json.RawMessage, error) {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return raw, nil
	}
	for i, item := range list {
		var probe struct {
			Type *string `json:"type"`
		}
		if json.Unmarshal(item, &probe) != nil || probe.Type == nil {
			continue
		}
		at := fmt.Sprintf("ui[%d]", i)
		if *probe.Type != uiType {
			return nil, &ValueError{Field: at + ".type", Message: `must be "ui": other UI messages (such as remove-ui) are not supported`}
		}
		var m struct {
			Type     string          `json:"type"`
			ID       string          `json:"id"`
			Name     string          `json:"name"`
			Props    json.RawMessage `json:"props"`
			Metadata struct {
				MessageID string `json:"message_id"`
				Merge     bool   `json:"merge"`
				RunID     string `json:"run_id"`
			} `json:"metadata"`
		}
		if err := strictInto(item, &m); err != nil {
			return nil, &ValueError{Field: at, Message: err.Error()}
		}
		up := nodes.UIUpsert{UIComponent: nodes.UIComponent{ID: m.ID, Name: m.Name, Props: m.Props, MessageID: m.Metadata.MessageID}, Merge: m.Metadata.Merge}
		list[i], _ = json.Marshal(up)
	}
	return json.Marshal(list)
}

// ClientMessage is a message as LangGraph's clients send it: role or type
// (human, user, ai or assistant), content as a string or a list of text
// blocks, and the members LangChain messages carry, which must be empty:
// the planner keeps none of them.
type ClientMessage struct {
	ID               string          `json:"id,omitempty"`
	Role             string          `json:"role,omitempty"`
	Type             string          `json:"type,omitempty"`
	Content          MessageContent  `json:"content"`
	Name             *string         `json:"name,omitempty"`
	Example          bool            `json:"example,omitempty"`
	AdditionalKwargs json.RawMessage `json:"additional_kwargs,omitempty"`
	ResponseMetadata json.RawMessage `json:"response_metadata,omitempty"`
	ToolCalls        json.RawMessage `json:"tool_calls,omitempty"`
	InvalidToolCalls json.RawMessage `json:"invalid_tool_calls,omitempty"`
	UsageMetadata    json.RawMessage `json:"usage_metadata,omitempty"`
}

// messageKinds are the roles and types the planner has, by what clients
// call them.
var messageKinds = map[string]string{"human": nodes.Human, "user": nodes.Human, "ai": nodes.AI, "assistant": nodes.AI}

// kind is the planner's type of m: from type, else role; "" when neither
// is sent.
func (m ClientMessage) kind() string {
	if m.Type != "" {
		return messageKinds[m.Type]
	}
	return messageKinds[m.Role]
}

// Kind is the planner's type of the message (nodes.Human or nodes.AI),
// "" when it names none.
func (m ClientMessage) Kind() string { return m.kind() }

// check refuses a message the planner cannot keep whole.
func (m ClientMessage) check(at string) error {
	for _, v := range []struct{ field, value string }{{"type", m.Type}, {"role", m.Role}} {
		if v.value != "" && messageKinds[v.value] == "" {
			return &ValueError{Field: at + "." + v.field, Message: fmt.Sprintf("%q is not a message type the trip planner keeps: send human (or user) or ai (or assistant)", v.value)}
		}
	}
	if m.Example || (m.Name != nil && *m.Name != "") {
		return &ValueError{Field: at, Message: "name and example are not kept by the trip planner; send them empty"}
	}
	for _, v := range []struct {
		field string
		raw   json.RawMessage
	}{{"additional_kwargs", m.AdditionalKwargs}, {"response_metadata", m.ResponseMetadata},
		{"tool_calls", m.ToolCalls}, {"invalid_tool_calls", m.InvalidToolCalls}, {"usage_metadata", m.UsageMetadata}} {
		if !emptyJSON(v.raw) {
			return &ValueError{Field: at + "." + v.field, Message: "is not kept by the trip planner; send it empty"}
		}
	}
	return nil
}

// MessageContent is a message's text: a string, or a list of content
// blocks of type text, joined.
type MessageContent string

// UnmarshalJSON reads a string or a list of text blocks.
func (c *MessageContent) UnmarshalJSON(data []byte) error {
	var s string
	if json.Unmarshal(data, &s) == nil {
		*c = MessageContent(s)
		return nil
	}
	var blocks []map[string]json.RawMessage
	if json.Unmarshal(data, &blocks) != nil {
		return &ValueError{Field: "content", Message: "must be a string or a list of content blocks"}
	}
	var b strings.Builder
	for _, block := range blocks {
		var kind, text string
		json.Unmarshal(block["type"], &kind)
		if kind != "text" || json.Unmarshal(block["text"], &text) != nil {
			return &ValueError{Field: "content", Message: `only text content blocks ({"type":"text","text":…}) are supported`}
		}
		b.WriteString(text)
	}
	*c = MessageContent(b.String())
	return nil
}

// ValueError says what is wrong with one value a client sent, and where.
type ValueError struct {
	Field   string
	Message string
}

func (e *ValueError) Error() string { return e.Field + " " + e.Message }

// strictInto decodes data into dst, refusing unknown members.
func strictInto(data []byte, dst any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		if ve, ok := err.(*ValueError); ok {
			return ve
		}
		if msg, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return fmt.Errorf("has an unknown member %s", msg)
		}
		return fmt.Errorf("is not a message: %w", err)
	}
	return nil
}

// isNull reports whether a member is absent or null.
func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// emptyJSON reports whether a member was left out or sent empty.
func emptyJSON(raw json.RawMessage) bool {
	switch string(bytes.TrimSpace(raw)) {
	case "", "null", "{}", "[]", `""`, "false":
		return true
	}
	return false
}
