package nodes

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/graph"
)

// A tool's internal error text never reaches the state, the model or the
// UI; it is logged with the run id, and a generic message is shown instead.
func TestInternalToolErrorIsHidden(t *testing.T) {
	const secret = "host=10.0.0.5 user=tripgraph database=prod: password authentication failed"
	var logs bytes.Buffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewJSONHandler(&logs, nil)))

	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"intent":"photos","language":"en"}`),
		calls("getAlbumByName", `{"name":"Japan"}`),
		text("Something went wrong with your albums."),
	}}
	tools := FuncTools{{Tool: Tool{Name: "getAlbumByName", Card: card.Albums}, Run: func(context.Context, json.RawMessage) (any, error) {
		return nil, fmt.Errorf("querying albums: %w", errors.New(secret))
	}}}
	saver := graph.NewMemorySaver()
	g, err := bound(Deps{Model: m, Now: fixedNow}, Traveller{Tools: tools}, saver)
	if err != nil {
		t.Fatal(err)
	}
	thread, runID := uuid.NewString(), uuid.NewString()
	var seen strings.Builder // everything the run's consumer was given
	for ev, err := range g.Run(context.Background(), graph.RunConfig[Update]{ThreadID: thread, RunID: runID,
		Input: Update{Messages: []Message{{ID: uuid.NewString(), Type: Human, Content: "my Japan album"}}}}) {
		if err != nil {
			t.Fatal(err)
		}
		data, _ := json.Marshal(map[string]any{"payload": ev.Payload, "state": ev.State, "update": ev.Update})
		seen.Write(data)
	}
	history, _ := saver.List(context.Background(), thread, graph.ListOptions{})
	checkpoints, _ := json.Marshal(history)
	var told strings.Builder
	for _, a := range m.asked {
		data, _ := json.Marshal(a.messages)
		told.Write(data)
	}
	for where, text := range map[string]string{"events and state": seen.String(), "checkpoints": string(checkpoints), "the model's input": told.String()} {
		if strings.Contains(text, "10.0.0.5") || strings.Contains(text, "password") {
			t.Errorf("%s carry the internal error", where)
		}
		if !strings.Contains(text, toolFailed) {
			t.Errorf("%s do not carry the generic message", where)
		}
	}
	if !strings.Contains(logs.String(), secret) || !strings.Contains(logs.String(), `"run_id":"`+runID+`"`) {
		t.Errorf("the error was not logged with the run id:\n%s", logs.String())
	}
}

// Photo tools are asked for a page the grid shows whole (behind "show
// more" past its first screen) unless the model asked for a size.
func TestPhotoToolsAskForAPage(t *testing.T) {
	tests := []struct{ shownBy, args, want string }{
		{card.Photos, `{"query":"praia"}`, `{"limit":200,"query":"praia"}`},
		{card.Photos, `{"albumId":"a1","limit":10}`, `{"albumId":"a1","limit":10}`},
		{card.Accommodations, `{"location":"Lisbon"}`, `{"location":"Lisbon"}`},
		{"", `{"query":"praia"}`, `{"query":"praia"}`},
		{card.Photos, `not json`, `not json`},
	}
	for _, tt := range tests {
		if got := string(withPhotoPage(tt.shownBy, json.RawMessage(tt.args))); got != tt.want {
			t.Errorf("withPhotoPage(%q, %s) = %s, want %s", tt.shownBy, tt.args, got, tt.want)
		}
	}
}
