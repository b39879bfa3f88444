package api

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/chatinput"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/metrics"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
)

// chatNamespace names the threads of chats whose id is not a UUID: such a
// chat's thread id is a name-based UUID of its owner and its id.
var chatNamespace = uuid.MustParse("5b0e7f38-3c9a-4f43-9d3e-1f6a2c7d8e90")

// chat answers POST /api/chat: the AI SDK's chat transport sends a chat's
// UIMessages, the newest user message becomes a run's input on the chat's
// thread, and the run is streamed as a UI message stream.
func (s *API) chat(c echo.Context) error {
	var in wire.ChatRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	last, err := newestUserMessage(in.Messages)
	if err != nil {
		return err
	}
	msgs, err := json.Marshal([]wire.ClientMessage{last})
	if err != nil {
		return fmt.Errorf("encoding a chat's message as a run's input: %w", err)
	}
	run, err := s.startRun(c, wire.RunCreate{AssistantID: PlannerAssistantID, IfNotExists: "create",
		Input: &wire.RunInput{Messages: msgs}}, ChatThread(tenantOf(c).ID, in.ID))
	if err != nil {
		return err
	}
	c.Response().Header().Set(wire.ChatStreamHeader, "v1")
	defer s.metrics.StreamOpened(metrics.AISDK)()
	w := httpx.OpenSSE(c)
	var cs wire.ChatStream
	write := func(parts []wire.ChatChunk) error {
		for _, p := range parts {
			data, err := json.Marshal(p)
			if err != nil {
				return fmt.Errorf("encoding a chat stream part: %w", err)
			}
			if err := w.Write("data: " + string(data) + "\n\n"); err != nil {
				return err
			}
		}
		return nil
	}
	if write(cs.Start(run.ID)) != nil {
		return nil
	}
	send := func(e store.RunEvent) error { return write(cs.Parts(e)) }
	end := func(failed error) {
		if failed != nil {
			write([]wire.ChatChunk{{Type: "error", ErrorText: s.streamError(c, failed).Message}})
		}
		if write(cs.Finish()) == nil {
			w.Write("data: " + wire.ChatStreamDone + "\n\n")
		}
	}
	s.follow(c, run, 0, false, w, send, end)
	return nil
}

// newestUserMessage converts a chat's UIMessages to chat input (their text,
// user and assistant messages only), checks the conversation with
// chatinput, and returns the newest user message as a run's input message.
func newestUserMessage(msgs []wire.ChatMessage) (wire.ClientMessage, error) {
	var conv []chatinput.Message
	var ids []string
	for _, m := range msgs {
		if m.Role != chatinput.RoleUser && m.Role != chatinput.RoleAssistant {
			continue
		}
		conv = append(conv, chatinput.Message{Role: m.Role, Content: m.Text()})
		ids = append(ids, m.ID)
	}
	clean, err := chatinput.Clean(conv)
	if err != nil {
		return wire.ClientMessage{}, err
	}
	for i := len(clean) - 1; i >= 0; i-- {
		if clean[i].Role == chatinput.RoleUser {
			return wire.ClientMessage{Role: chatinput.RoleUser, Content: wire.MessageContent(clean[i].Content), ID: newestUserID(conv, ids)}, nil
		}
	}
	return wire.ClientMessage{}, errcode.New(errcode.BadRequest, "the chat has no user message with text")
}

// newestUserID is the id of the newest user message with text, if short
// enough to keep as the message's id; else none, and a new one is made.
func newestUserID(conv []chatinput.Message, ids []string) string {
	for i := len(conv) - 1; i >= 0; i-- {
		if conv[i].Role == chatinput.RoleUser && strings.TrimSpace(strings.ReplaceAll(conv[i].Content, "\x00", "")) != "" {
			if len(ids[i]) > 100 {
				return ""
			}
			return ids[i]
		}
	}
	return ""
}

// ChatThread is the thread a chat's runs go to: the chat's id when it is a
// UUID; a UUID named by the owner and the chat's id otherwise, so that the
// same chat reaches the same thread and two users' chats never meet; a new
// thread when the chat has no id.
func ChatThread(ownerID, chatID string) string {
	switch {
	case chatID == "":
		return uuid.Must(uuid.NewV7()).String()
	case uuid.Validate(chatID) == nil:
		return chatID
	}
	return uuid.NewSHA1(chatNamespace, []byte(ownerID+"\x00"+chatID)).String()
}
