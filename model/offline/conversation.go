package offline

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/tmc/langchaingo/llms"
)

// TripDetails is the "Trip details:" line of a callTools system prompt.
type TripDetails struct {
	Location       string `json:"location"`
	Country        string `json:"country,omitempty"`
	StartDate      string `json:"startDate"`
	EndDate        string `json:"endDate"`
	NumberOfGuests int    `json:"numberOfGuests"`
}

// conversation is a request to the model, taken apart.
type conversation struct {
	system  string
	today   time.Time
	trip    *TripDetails
	users   []string // the user's messages, oldest first
	calls   []llms.ToolCall
	results map[string]string // tool name → result, after the last user message
	tools   map[string]bool   // offered tool names
	forced  string            // tool the caller insists on, if any
}

func readConversation(msgs []llms.MessageContent, opts llms.CallOptions, now func() time.Time) conversation {
	c := conversation{results: map[string]string{}, tools: map[string]bool{}}
	for _, m := range msgs {
		c.read(m)
	}
	c.today = todayFrom(c.system, now)
	c.trip = tripFrom(c.system)
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
			c.users = append(c.users, t)
			c.calls, c.results = nil, map[string]string{}
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
	for _, tc := range c.calls {
		if tc.ID == r.ToolCallID && tc.FunctionCall != nil {
			return tc.FunctionCall.Name
		}
	}
	return r.ToolCallID
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
