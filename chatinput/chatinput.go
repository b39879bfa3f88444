// Package chatinput checks what a client sends to the chat before any of it
// reaches the model or is stored: sizes, roles, and prompt-injection
// attempts in English and Portuguese.
package chatinput

import (
	"strings"
	"unicode/utf8"

	"github.com/tripgraph/tripgraph/errcode"
)

// Limits on what a client may send.
const (
	MaxMessageChars      = 4000
	MaxConversationChars = 50000
)

// Roles a client may send.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is a chat message as a client sends it.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Clean trims each message and removes NUL bytes, drops empty messages, and
// checks roles, sizes and the last user message for prompt injection. A
// rejection is a BAD_REQUEST *errcode.Error that says why.
func Clean(msgs []Message) ([]Message, error) {
	out := make([]Message, 0, len(msgs))
	total := 0
	for i, m := range msgs {
		if m.Role != RoleUser && m.Role != RoleAssistant {
			return nil, errcode.New(errcode.BadRequest, "message %d has role %q; only %q and %q may be sent", i+1, m.Role, RoleUser, RoleAssistant)
		}
		if !utf8.ValidString(m.Content) {
			return nil, errcode.New(errcode.BadRequest, "message %d is not valid UTF-8", i+1)
		}
		m.Content = strings.TrimSpace(strings.ReplaceAll(m.Content, "\x00", ""))
		if m.Content == "" {
			continue
		}
		n := utf8.RuneCountInString(m.Content)
		if n > MaxMessageChars {
			return nil, errcode.New(errcode.BadRequest, "message %d has %d characters; the limit is %d", i+1, n, MaxMessageChars)
		}
		total += n
		out = append(out, m)
	}
	if total > MaxConversationChars {
		return nil, errcode.New(errcode.BadRequest, "the conversation has %d characters; the limit is %d", total, MaxConversationChars)
	}
	last := -1
	for i, m := range out {
		if m.Role == RoleUser {
			last = i
		}
	}
	if last < 0 {
		return nil, errcode.New(errcode.BadRequest, "the conversation needs at least one non-empty user message")
	}
	if phrase, ok := DetectInjection(out[last].Content); ok {
		return nil, errcode.New(errcode.BadRequest, "the message looks like an attempt to change the assistant's instructions (%q)", phrase)
	}
	return out, nil
}
