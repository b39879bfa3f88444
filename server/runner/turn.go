package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/chatinput"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/internal/rawjson"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/tenant"
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

// CheckAdded checks the messages a run or a state update adds to a thread
// against the conversation they join (chatinput.CheckAdded): every added
// message alone, and the end of the conversation with them, so that an
// attack split across turns, or put first with a harmless message after
// it, is refused before anything is stored. The conversation is the
// thread's state at checkpointID (its newest when ""; none for a new
// thread).
func CheckAdded(ctx context.Context, t tenant.Tenant, threadID, checkpointID string, added []nodes.Message) error {
	if len(added) == 0 {
		return nil
	}
	var earlier []nodes.Message
	if threadID != "" {
		cp, err := t.Planner.Checkpoint(ctx, threadID, checkpointID)
		if err != nil && !errors.Is(err, graph.ErrNotFound) {
			return fmt.Errorf("reading the conversation a message joins: %w", err)
		}
		if earlier, err = messagesOf(cp.State); err != nil {
			return fmt.Errorf("reading the conversation a message joins: %w", err)
		}
	}
	return CheckAddedTo(earlier, added)
}

// messagesOf reads only the messages of a saved state, not its cards.
func messagesOf(state json.RawMessage) ([]nodes.Message, error) {
	if len(state) == 0 {
		return nil, nil
	}
	var s struct {
		Messages []nodes.Message `json:"messages"`
	}
	if members, ok := rawjson.Object(state); ok {
		raw, _ := rawjson.Named(members, "messages")
		if len(raw) == 0 {
			return nil, nil
		}
		err := json.Unmarshal(raw, &s.Messages)
		return s.Messages, err
	}
	err := json.Unmarshal(state, &s)
	return s.Messages, err
}

// CheckAddedTo is CheckAdded for a conversation the caller has read.
func CheckAddedTo(earlier, added []nodes.Message) error {
	if len(added) == 0 {
		return nil
	}
	_, err := chatinput.CheckAdded(chatMessages(earlier), chatMessages(added))
	return err
}

// chatMessages are the planner's messages as chatinput reads them.
func chatMessages(msgs []nodes.Message) []chatinput.Message {
	out := make([]chatinput.Message, len(msgs))
	for i, m := range msgs {
		role := chatinput.RoleUser
		if m.Type == nodes.AI {
			role = chatinput.RoleAssistant
		}
		out[i] = chatinput.Message{Role: role, Content: m.Content}
	}
	return out
}
