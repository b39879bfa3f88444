// Package chatinput checks what a client sends to the chat before any of it
// reaches the model or is stored: sizes, roles, and prompt-injection
// attempts in English and Portuguese.
//
// CheckAdded is the check for messages added to a stored conversation (a
// run's input, a state update): every added message is checked on its own,
// and the end of the conversation is checked as one text, so that an
// attack split across turns ("ignore all previous", then "instructions")
// is refused too. Clean checks a whole conversation a client holds, where
// only its newest user message is new.
package chatinput

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tripgraph/tripgraph/errcode"
)

// Limits on what a client may send.
const (
	MaxMessageChars      = 4000
	MaxConversationChars = 50000
)

// WindowChars is how much of the earlier user messages, at least, the
// split-attack check reads before the added ones: whole messages, newest
// first, until they reach this many characters. An attack phrase is a few
// words long, so this reaches back over several short turns.
const WindowChars = 300

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
//
// Clean is for a whole conversation as a client holds it, where only the
// newest user message is new; to add messages to a stored conversation use
// CheckAdded, which checks every one of them.
func Clean(msgs []Message) ([]Message, error) {
	out, _, err := cleanAll(msgs)
	if err != nil {
		return nil, err
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

// CheckAdded cleans the messages a client adds to a conversation and
// checks them for prompt injection. earlier is the conversation so far, as
// stored (it is not cleaned or refused again); added are the new messages,
// in order.
//
// The added messages are cleaned as Clean does (roles, UTF-8, trimming, NUL
// bytes, sizes; empty ones are dropped) and each one, user or assistant, is
// refused if it tries to change or reveal the assistant's instructions. The
// window of the conversation is then checked as one text: the newest
// earlier user messages (at least WindowChars characters of them, whole
// messages) followed by the added user messages, one per line. Earlier
// messages that were a split attack themselves are left out of the window,
// and only phrases that run across messages count there (one inside a
// message is judged by checking that message alone), so that a
// conversation where an attack got stored is not refused for ever: a
// window is refused only for what the added messages bring.
//
// It returns the cleaned added messages, or a BAD_REQUEST *errcode.Error
// that says why they were refused. Unlike Clean it does not require a user
// message: a state update may add only an assistant's.
func CheckAdded(earlier, added []Message) ([]Message, error) {
	out, at, err := cleanAll(added)
	if err != nil {
		return nil, err
	}
	var fresh []string
	for i, m := range out {
		if phrase, ok := DetectInjection(m.Content); ok {
			return nil, errcode.New(errcode.BadRequest, "message %d looks like an attempt to change the assistant's instructions (%q)", at[i], phrase)
		}
		if m.Role == RoleUser {
			fresh = append(fresh, edges(m.Content))
		}
	}
	if len(fresh) == 0 {
		return out, nil
	}
	if phrase, ok := across.detect(strings.Join(append(window(earlier), fresh...), "\n"), crossing); ok {
		return nil, errcode.New(errcode.BadRequest, "the conversation looks like an attempt to change the assistant's instructions, split across messages (%q)", phrase)
	}
	return out, nil
}

// window returns the newest earlier user messages, oldest first, each cut
// to its edges: whole messages until they hold WindowChars characters,
// without the oldest of them while a phrase runs across them (an attack
// split across messages that was stored before).
func window(earlier []Message) []string {
	var tail []string // newest first
	n := 0
	for i := len(earlier) - 1; i >= 0 && n < WindowChars; i-- {
		if earlier[i].Role != RoleUser {
			continue
		}
		if text := edges(tidy(earlier[i].Content)); text != "" {
			tail = append(tail, text)
			n += utf8.RuneCountInString(text)
		}
	}
	slices.Reverse(tail)
	for len(tail) > 0 {
		if _, ok := across.detect(strings.Join(tail, "\n"), crossing); !ok {
			break
		}
		tail = tail[1:] // an attack stored before: it and what is older are left out
	}
	return tail
}

// crossing keeps the phrases that run across messages, which the window
// joins with line breaks; a phrase inside one message is judged by
// checking that message alone.
func crossing(phrase string) bool { return strings.Contains(phrase, "\n") }

// edges shortens a long message to its first and last WindowChars
// characters, whole words, with a full stop between them. A phrase split
// across messages lies near their boundary; one inside a message is found
// by checking that message alone, and the window's check reads no phrase
// through a full stop. It keeps the window's check short however long the
// messages are.
func edges(s string) string {
	r := []rune(s)
	if len(r) <= 3*WindowChars {
		return s
	}
	head, tail := string(r[:WindowChars]), string(r[len(r)-WindowChars:])
	if i := strings.LastIndexFunc(head, unicode.IsSpace); i >= 0 {
		head = head[:i]
	} else {
		head = ""
	}
	if i := strings.IndexFunc(tail, unicode.IsSpace); i >= 0 {
		tail = tail[i:]
	} else {
		tail = ""
	}
	return head + " . " + tail
}

// tidy is a message's content as it is kept: without NUL bytes and the
// spaces around it.
func tidy(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\x00", "")) }

// cleanAll checks roles, UTF-8 and sizes, trims each message and removes
// its NUL bytes, and drops the empty ones. at[i] is the position, from 1,
// of out[i] in msgs.
func cleanAll(msgs []Message) (out []Message, at []int, err error) {
	out = make([]Message, 0, len(msgs))
	total := 0
	for i, m := range msgs {
		if m.Role != RoleUser && m.Role != RoleAssistant {
			return nil, nil, errcode.New(errcode.BadRequest, "message %d has role %q; only %q and %q may be sent", i+1, m.Role, RoleUser, RoleAssistant)
		}
		if !utf8.ValidString(m.Content) {
			return nil, nil, errcode.New(errcode.BadRequest, "message %d is not valid UTF-8", i+1)
		}
		m.Content = tidy(m.Content)
		if m.Content == "" {
			continue
		}
		n := utf8.RuneCountInString(m.Content)
		if n > MaxMessageChars {
			return nil, nil, errcode.New(errcode.BadRequest, "message %d has %d characters; the limit is %d", i+1, n, MaxMessageChars)
		}
		total += n
		out, at = append(out, m), append(at, i+1)
	}
	if total > MaxConversationChars {
		return nil, nil, errcode.New(errcode.BadRequest, "the conversation has %d characters; the limit is %d", total, MaxConversationChars)
	}
	return out, at, nil
}
