package ui

import (
	"fmt"
	"strings"
)

// DOMID is the element id of a component in the page, derived from its
// component id alone, so that a later fragment with hx-swap-oob replaces
// the same element. Letters, digits, "-" and "_" are kept; any other byte
// is written as ".xx" in hex, so distinct ids stay distinct.
func DOMID(componentID string) string {
	return "ui-" + safeID(componentID)
}

// Element ids of the chat page that its answers and live streams update.
const (
	// LatestDOMID marks the traveller's newest message: a thread's page
	// opens there (links to it end in "#latest").
	LatestDOMID = "latest"
	// ThreadListDOMID is the thread list; NoThreadsDOMID the hint it
	// shows while empty.
	ThreadListDOMID = "thread-list"
	NoThreadsDOMID  = "threads-none"
	// TimelineLinkDOMID holds the thread's timeline link.
	TimelineLinkDOMID = "timeline-link"
	// AnnounceDOMID is the polite live region that says each new reply
	// once.
	AnnounceDOMID = "announce"
	// FormErrorClass marks the slot of a form where a refusal of its post
	// is shown.
	FormErrorClass = "form-error"
)

// ThreadDOMID is the element id of a conversation in the thread list.
func ThreadDOMID(threadID string) string {
	return "thread-" + safeID(threadID)
}

// MessageDOMID is the element id of a message of the conversation.
func MessageDOMID(messageID string) string {
	return "msg-" + safeID(messageID)
}

func safeID(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, ".%02x", c)
		}
	}
	return b.String()
}
