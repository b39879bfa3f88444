package chatinput

import (
	"strings"
	"testing"
)

// BenchmarkCheckAdded measures the checks on a typical turn (one message
// after a few), and on the most a client may add at once: messages of
// nearly MaxMessageChars up to MaxConversationChars.
func BenchmarkCheckAdded(b *testing.B) {
	earlier := []Message{{RoleUser, "4 nights in Lisbon in May, 3 of us"}, {RoleAssistant, "Here are places to stay in Lisbon."}, {RoleUser, "cheaper ones, please"}}
	b.Run("turn", func(b *testing.B) {
		added := []Message{{RoleUser, "and restaurants near the first hotel"}}
		for b.Loop() {
			if _, err := CheckAdded(earlier, added); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("largest", func(b *testing.B) {
		var added []Message
		text := strings.Repeat("a quiet hotel near the beach with a pool ", 100)[:MaxMessageChars-100]
		for range MaxConversationChars / len(text) {
			added = append(added, Message{RoleUser, text})
		}
		for b.Loop() {
			if _, err := CheckAdded(earlier, added); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDetectInjection measures the check of one message of nearly
// MaxMessageChars, what Clean does to a conversation's last message.
func BenchmarkDetectInjection(b *testing.B) {
	text := strings.Repeat("a quiet hotel near the beach with a pool ", 100)[:MaxMessageChars-100]
	for b.Loop() {
		DetectInjection(text)
	}
}
