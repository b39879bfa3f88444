package runner

import (
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/chatinput"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/nodes"
)

// ErrEmptyMessage refuses a turn with a message that has no content once
// cleaned.
var ErrEmptyMessage = errcode.New(errcode.BadRequest, "a message has no content")

// Turn is what a person adds to a thread, as a run's input: their
// messages, checked and cleaned by chatinput (sizes, prompt injection),
// each with an id (a new one where it has none), and the request of a
// Book button, if any.
func Turn(msgs []nodes.Message, booking *nodes.BookingRequest) (nodes.Update, error) {
	conv := make([]chatinput.Message, len(msgs))
	for i, m := range msgs {
		conv[i] = chatinput.Message{Role: chatinput.RoleUser, Content: m.Content}
	}
	var clean []chatinput.Message
	if len(conv) > 0 { // a booking request alone has no conversation to check
		var err error
		if clean, err = chatinput.Clean(conv); err != nil {
			return nodes.Update{}, err
		}
	}
	if len(clean) != len(conv) {
		return nodes.Update{}, ErrEmptyMessage
	}
	u := nodes.Update{Timestamp: time.Now().UnixMilli(), BookingRequest: booking}
	for i, m := range clean {
		id := msgs[i].ID
		if id == "" {
			id = uuid.Must(uuid.NewV7()).String()
		}
		u.Messages = append(u.Messages, nodes.Message{ID: id, Type: nodes.Human, Content: m.Content})
	}
	return u, nil
}
