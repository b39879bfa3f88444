package offline

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/tmc/langchaingo/llms"
	"github.com/tripgraph/tripgraph/model/internal/chatwords"
)

// TripDetails is the "Trip details:" line of a callTools system prompt.
// A trip of several cities has legs; its location and dates are then the
// first leg's city and the whole trip's.
type TripDetails struct {
	Location       string    `json:"location"`
	Country        string    `json:"country,omitempty"`
	StartDate      string    `json:"startDate"`
	EndDate        string    `json:"endDate"`
	NumberOfGuests int       `json:"numberOfGuests"`
	Legs           []TripLeg `json:"legs,omitempty"`
}

// TripLeg is one city of a trip of several, with its dates.
type TripLeg struct {
	Location  string `json:"location"`
	Country   string `json:"country,omitempty"`
	StartDate string `json:"startDate"`
	EndDate   string `json:"endDate"`
}

// stops are the places a trip's catalog searches are for: each leg of a
// trip of several cities, else the trip itself.
func (td TripDetails) stops() []TripDetails {
	if len(td.Legs) < 2 {
		return []TripDetails{td}
	}
	out := make([]TripDetails, len(td.Legs))
	for i, l := range td.Legs {
		out[i] = TripDetails{Location: l.Location, Country: l.Country, StartDate: l.StartDate, EndDate: l.EndDate, NumberOfGuests: td.NumberOfGuests}
	}
	return out
}

// conversation is a request to the model, taken apart.
type conversation struct {
	system  string
	today   time.Time
	trip    *TripDetails
	profile *Profile // what the planner remembers of the traveller, if anything
	users   []string // the user's messages, oldest first, chat words written out
	calls   []llms.ToolCall
	results map[string]string // tool name → result, after the last user message
	answers map[string]string // callKey of a call → its result, after the last user message
	tools   map[string]bool   // offered tool names
	forced  string            // tool the caller insists on, if any
}

func readConversation(msgs []llms.MessageContent, opts llms.CallOptions, now func() time.Time) conversation {
	c := conversation{results: map[string]string{}, answers: map[string]string{}, tools: map[string]bool{}}
	for _, m := range msgs {
		c.read(m)
	}
	c.today = todayFrom(c.system, now)
	c.trip = tripFrom(c.system)
	c.profile = profileFrom(c.system)
	for _, t := range opts.Tools {
		if t.Function != nil {
			c.tools[t.Function.Name] = true
		}
	}
	for _, f := range opts.Functions {
		c.tools[f.Name] = true
	}
	c.forced = forcedTool(opts.ToolChoice)
	return c
}

func (c *conversation) read(m llms.MessageContent) {
	switch m.Role {
	case llms.ChatMessageTypeSystem:
		c.system += textOf(m) + "\n"
	case llms.ChatMessageTypeHuman, llms.ChatMessageTypeGeneric:
		if t := strings.TrimSpace(textOf(m)); t != "" {
			c.users = append(c.users, chatwords.Expand(t))
			c.calls, c.results, c.answers = nil, map[string]string{}, map[string]string{}
		}
	case llms.ChatMessageTypeAI:
		for _, p := range m.Parts {
			if tc, ok := p.(llms.ToolCall); ok {
				c.calls = append(c.calls, tc)
			}
		}
	case llms.ChatMessageTypeTool, llms.ChatMessageTypeFunction:
		for _, p := range m.Parts {
			if r, ok := p.(llms.ToolCallResponse); ok {
				c.results[c.toolName(r)] = r.Content
				if tc, ok := c.callOf(r); ok {
					c.answers[callKey(tc.Name, tc.Arguments)] = r.Content
				}
			}
		}
	}
}

// toolName names the tool a response answers: its own Name, else the name
// of the call with its ID.
func (c *conversation) toolName(r llms.ToolCallResponse) string {
	if r.Name != "" {
		return r.Name
	}
	if tc, ok := c.callOf(r); ok {
		return tc.Name
	}
	return r.ToolCallID
}

// callOf is the call a response answers, found by its ID.
func (c *conversation) callOf(r llms.ToolCallResponse) (*llms.FunctionCall, bool) {
	for _, tc := range c.calls {
		if tc.ID == r.ToolCallID && tc.FunctionCall != nil {
			return tc.FunctionCall, true
		}
	}
	return nil, false
}

// answer is the result of this turn's call of the tool with exactly
// these arguments, if it has answered: it tells apart two calls of one
// tool ("getAlbumByName" for a search term, then for a place).
func (c conversation) answer(name string, args map[string]any) (string, bool) {
	b, err := json.Marshal(args)
	if err != nil {
		return "", false
	}
	res, ok := c.answers[callKey(name, string(b))]
	return res, ok
}

// callKey names a call by its tool and its arguments in a canonical form
// (JSON with the keys in order).
func callKey(name, args string) string {
	var v any
	if json.Unmarshal([]byte(args), &v) != nil {
		return name + " " + args
	}
	b, _ := json.Marshal(v)
	return name + " " + string(b)
}

func textOf(m llms.MessageContent) string {
	var b strings.Builder
	for _, p := range m.Parts {
		if t, ok := p.(llms.TextContent); ok {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// todayFrom reads the "Today: YYYY-MM-DD" line, else asks the clock.
func todayFrom(system string, now func() time.Time) time.Time {
	if v, ok := lineValue(system, "Today:"); ok {
		if t, err := time.Parse("2006-01-02", v[:min(len(v), 10)]); err == nil {
			return t
		}
	}
	return now()
}

// tripFrom reads the "Trip details: {json}" line, if there is one.
func tripFrom(system string) *TripDetails {
	v, ok := lineValue(system, "Trip details:")
	if !ok {
		return nil
	}
	var td TripDetails
	if err := json.Unmarshal([]byte(v), &td); err != nil {
		return nil
	}
	return &td
}

func lineValue(text, prefix string) (string, bool) {
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, prefix); ok {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// forcedTool reads the name of the tool in a ToolChoice, whatever form it
// takes: llms.ToolChoice, a map, or a bare name.
func forcedTool(choice any) string {
	switch v := choice.(type) {
	case llms.ToolChoice:
		if v.Function != nil {
			return v.Function.Name
		}
	case *llms.ToolChoice:
		if v != nil && v.Function != nil {
			return v.Function.Name
		}
	case string:
		if v != "auto" && v != "none" && v != "required" && v != "any" {
			return v
		}
	case map[string]any:
		if f, ok := v["function"].(map[string]any); ok {
			if n, ok := f["name"].(string); ok {
				return n
			}
		}
		if n, ok := v["name"].(string); ok {
			return n
		}
	}
	return ""
}
