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
