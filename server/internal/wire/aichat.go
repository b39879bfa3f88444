package wire

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/tripgraph/tripgraph/mcpbridge"

	"github.com/tripgraph/tripgraph/store"
)

// ChatRequest is the body of POST /api/chat as the AI SDK's chat transport
// sends it: the chat's id and its messages, oldest first.
type ChatRequest struct {
	ID        string          `json:"id" validate:"max=200"`
	Messages  []ChatMessage   `json:"messages" validate:"required,min=1,max=200,dive"`
	Trigger   string          `json:"trigger" validate:"max=100"`
	MessageID string          `json:"messageId" validate:"max=200"`
	Metadata  json.RawMessage `json:"metadata" validate:"omitempty,object"`
}

// ChatMessage is one UIMessage: its text is the legacy Content string when
// there is one, else its text parts. Parts are read loosely: a client sends
// back the tool, data and step parts it was streamed, which carry members
// of their own.
type ChatMessage struct {
	ID       string            `json:"id" validate:"max=200"`
	Role     string            `json:"role" validate:"required,max=20"`
	Content  *string           `json:"content"`
	Parts    []json.RawMessage `json:"parts" validate:"max=200"`
	Metadata json.RawMessage   `json:"metadata" validate:"omitempty,object"`
}

// Text is the message's text: Content when it is set, else its text parts
// joined in order.
func (m ChatMessage) Text() string {
	if m.Content != nil {
		return *m.Content
	}
	var b strings.Builder
	for _, raw := range m.Parts {
		var p struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(raw, &p) == nil && p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// ChatStreamHeader is the header that names the UI message stream protocol
// and its version.
const ChatStreamHeader = "x-vercel-ai-ui-message-stream"

// ChatStreamDone is the data of a UI message stream's last frame.
const ChatStreamDone = "[DONE]"

// ChatChunk is one part of a UI message stream; the members each type
// uses are set, the others left out.
type ChatChunk struct {
	Type       string          `json:"type"`
	ID         string          `json:"id,omitempty"`
	MessageID  string          `json:"messageId,omitempty"`
	Delta      string          `json:"delta,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
	ToolName   string          `json:"toolName,omitempty"`
	Dynamic    bool            `json:"dynamic,omitempty"`
	Input      any             `json:"input,omitempty"`
	Output     any             `json:"output,omitempty"`
	ErrorText  string          `json:"errorText,omitempty"`
	Data       json.RawMessage `json:"data,omitempty"`
}

// ChatStream turns a run's stored events into UI message stream parts: a
// message's tokens into text-start, text-delta and text-end under the
// message's id; the tool bridge's mcp_calling and mcp_complete custom
// events into dynamic tool input and output parts; each UI component into
// data-<component name> with the component's id, so that a later version
// of a component replaces the earlier one; an error event into error.
// The zero value is ready; Start and Finish frame the rest.
type ChatStream struct {
	open  string              // the message whose text is open
	calls map[string][]string // open tool calls' ids by server and tool, oldest first
	next  int
}

// Start is the stream's first part.
func (cs *ChatStream) Start(messageID string) []ChatChunk {
	return []ChatChunk{{Type: "start", MessageID: messageID}}
}

// Finish closes the open text and ends the message.
func (cs *ChatStream) Finish() []ChatChunk {
	return append(cs.closeText(), ChatChunk{Type: "finish"})
}

// Parts are the parts a stored run event makes; most events make none.
func (cs *ChatStream) Parts(e store.RunEvent) []ChatChunk {
	switch p := ReadPart(e); {
	case p.Token != nil:
		return cs.token(*p.Token)
	case p.Component != nil:
		return []ChatChunk{{Type: "data-" + p.Component.Name, ID: p.Component.ID, Data: p.Component.Props}}
	case p.Tool != nil && p.Tool.Type == mcpbridge.EventCalling:
		return []ChatChunk{cs.toolStarted(*p.Tool)}
	case p.Tool != nil && p.Tool.Type == mcpbridge.EventComplete:
		return cs.toolEnded(*p.Tool)
	case p.Error != nil:
		return append(cs.closeText(), ChatChunk{Type: "error", ErrorText: p.Error.Message})
	}
	return nil
}

// token is a messages-tuple event as a text delta, opening the message's
// text (and closing another's) first.
func (cs *ChatStream) token(chunk MessageChunk) []ChatChunk {
	var out []ChatChunk
	if cs.open != chunk.ID {
		out = append(cs.closeText(), ChatChunk{Type: "text-start", ID: chunk.ID})
		cs.open = chunk.ID
	}
	return append(out, ChatChunk{Type: "text-delta", ID: chunk.ID, Delta: chunk.Content})
}

func (cs *ChatStream) closeText() []ChatChunk {
	if cs.open == "" {
		return nil
	}
	id := cs.open
	cs.open = ""
	return []ChatChunk{{Type: "text-end", ID: id}}
}

func (cs *ChatStream) toolStarted(c ToolStatus) ChatChunk {
	if cs.calls == nil {
		cs.calls = map[string][]string{}
	}
	cs.next++
	id := "call-" + strconv.Itoa(cs.next)
	key := c.Server + "\x00" + c.Tool
	cs.calls[key] = append(cs.calls[key], id)
	return ChatChunk{Type: "tool-input-available", ToolCallID: id, ToolName: c.Tool, Dynamic: true,
		Input: map[string]string{"server": c.Server}}
}

// toolEnded answers the oldest open call of the same server and tool; a
// call whose start was not seen gets no part.
func (cs *ChatStream) toolEnded(c ToolStatus) []ChatChunk {
	key := c.Server + "\x00" + c.Tool
	open := cs.calls[key]
	if len(open) == 0 {
		return nil
	}
	id := open[0]
	cs.calls[key] = open[1:]
	if c.Error != "" {
		return []ChatChunk{{Type: "tool-output-error", ToolCallID: id, Dynamic: true, ErrorText: c.Error}}
	}
	return []ChatChunk{{Type: "tool-output-available", ToolCallID: id, Dynamic: true,
		Output: map[string]any{"items": c.Items, "durationMs": c.DurationMs}}}
}
