package nodes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
)

// callTools lets the model call the tools, up to MaxToolSteps model calls,
// turns each result into a UI component (emitted at once and kept in the
// state), and ends with a short assistant message.
func (p *planner) callTools(ctx context.Context, s State) (Update, error) {
	tools, err := p.Tools.List(ctx)
	if err != nil {
		return Update{}, fmt.Errorf("listing tools: %w", err)
	}
	lang := orDefault(s.Language, "en")
	msgs := conversation(system(callToolsPrompt, todayLine(p.today()), tripLine(s.TripDetails)), s)
	t := turn{planner: p, state: s, msgID: newID()}
	text := ""
	for step := 0; step < MaxToolSteps; step++ {
		choice, err := p.generate(ctx, msgs, llmTools(tools))
		if err != nil {
			return Update{}, err
		}
		if len(choice.ToolCalls) == 0 {
			text = strings.TrimSpace(choice.Content)
			break
		}
		msgs = append(msgs, t.callAll(ctx, choice.ToolCalls)...)
	}
	if text == "" {
		text = reply(lang, "noAnswer")
		if len(t.ui) == 0 {
			text = reply(lang, "noTools")
		}
	}
	return Update{
		Messages:  []Message{{ID: t.msgID, Type: AI, Content: text}},
		UI:        t.ui,
		Timestamp: p.stamp(),
	}, nil
}

// generate makes one model call, streaming its visible text as tokens.
func (p *planner) generate(ctx context.Context, msgs []llms.MessageContent, tools []llms.Tool) (*llms.ContentChoice, error) {
	resp, err := p.Model.GenerateContent(ctx, msgs, llms.WithTools(tools), llms.WithStreamingFunc(streamVisibleText))
	if err != nil {
		return nil, fmt.Errorf("asking the model which tools to call: %w", err)
	}
	if len(resp.Choices) == 0 {
		return nil, errors.New("the model returned no choices")
	}
	return resp.Choices[0], nil
}

// turn is one callTools run: the components it made so far.
type turn struct {
	*planner
	state State
	msgID string // the id of the assistant message the components belong to
	ui    []UIUpsert
	calls int
}

// callAll runs the tool calls of one model response and returns the
// messages that tell the model what happened: the calls and their results.
func (t *turn) callAll(ctx context.Context, calls []llms.ToolCall) []llms.MessageContent {
	ai := llms.MessageContent{Role: llms.ChatMessageTypeAI}
	var results []llms.MessageContent
	for _, tc := range calls {
		if tc.FunctionCall == nil {
			continue
		}
		t.calls++
		if tc.ID == "" {
			tc.ID = fmt.Sprintf("call_%d", t.calls)
		}
		tc.Type = "function"
		ai.Parts = append(ai.Parts, tc)
		content := t.call(ctx, tc)
		results = append(results, llms.MessageContent{
			Role:  llms.ChatMessageTypeTool,
			Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: tc.ID, Name: tc.FunctionCall.Name, Content: content}},
		})
	}
	return append([]llms.MessageContent{ai}, results...)
}

// call runs one tool, shows its result as a component, and returns what to
// tell the model: the result's JSON, or {"error": {...}}.
func (t *turn) call(ctx context.Context, tc llms.ToolCall) string {
	name := tc.FunctionCall.Name
	res, err := t.Tools.Call(ctx, name, json.RawMessage(orDefault(tc.FunctionCall.Arguments, "{}")))
	var toolErr *ToolError
	if err != nil {
		toolErr = &ToolError{Code: string(errcode.Of(err)), Message: errcode.Message(err)}
		if errcode.Of(err) == errcode.Internal {
			toolErr.Message = "the tool failed: " + err.Error()
		}
		res.Full, _ = json.Marshal(map[string]any{"error": toolErr})
		res.ForModel = nil
	}
	if comp, ok := t.component(tc, res.Full, toolErr); ok {
		t.ui = append(t.ui, UIUpsert{UIComponent: comp})
		graph.Emit(ctx, "ui", comp) // the component is kept in the state even if the stream is gone
	}
	return string(res.ModelView())
}

// component turns a tool's result into its typed UI component. Tools with
// no component, and results that do not fit the component's props, show
// nothing.
func (t *turn) component(tc llms.ToolCall, result json.RawMessage, toolErr *ToolError) (UIComponent, bool) {
	name, ok := componentForTool[tc.FunctionCall.Name]
	if !ok {
		return UIComponent{}, false
	}
	base := ToolProps{ToolCallID: tc.ID, Tool: tc.FunctionCall.Name, TripDetails: t.state.TripDetails, Error: toolErr}
	var props any
	switch name {
	case ComponentAccommodations:
		props = &AccommodationsListProps{ToolProps: base}
	case ComponentRestaurants:
		props = &RestaurantsListProps{ToolProps: base}
	case ComponentAlbums:
		props = &AlbumListProps{ToolProps: base}
	case ComponentPhotos:
		props = &PhotoGridProps{ToolProps: base}
	case ComponentTripStats:
		props = &TripStatsProps{ToolProps: base}
	}
	if toolErr == nil {
		if err := json.Unmarshal(result, props); err != nil {
			return UIComponent{}, false
		}
	}
	data, err := json.Marshal(props)
	if err != nil {
		return UIComponent{}, false
	}
	return UIComponent{ID: tc.ID, Name: name, Props: data, MessageID: t.msgID}, true
}

// llmTools describes tools to the model.
func llmTools(tools []Tool) []llms.Tool {
	out := make([]llms.Tool, len(tools))
	for i, t := range tools {
		var schema any = t.InputSchema
		if len(t.InputSchema) == 0 {
			schema = map[string]any{"type": "object", "properties": map[string]any{}}
		}
		out[i] = llms.Tool{Type: "function", Function: &llms.FunctionDefinition{Name: t.Name, Description: t.Description, Parameters: schema}}
	}
	return out
}

// streamVisibleText sends a model's streamed text on as token events.
// langchaingo passes streamed tool-call fragments through the same function
// as JSON (tmc/langchaingo#1031); those are not for the traveller's eyes.
func streamVisibleText(ctx context.Context, chunk []byte) error {
	if len(chunk) == 0 || isToolCallChunk(chunk) {
		return nil
	}
	err := graph.EmitToken(ctx, string(chunk))
	if errors.Is(err, graph.ErrNotRunning) {
		return nil // not inside a graph run: nobody to stream to
	}
	return err
}

// isToolCallChunk reports whether a streamed chunk is the JSON encoding of
// tool-call deltas ([{"function": ...}]) or of a legacy function call
// ({"name": ..., "arguments": ...}), as langchaingo's clients produce them.
func isToolCallChunk(chunk []byte) bool {
	switch chunk[0] {
	case '[':
		var deltas []struct {
			Function *json.RawMessage `json:"function"`
		}
		if json.Unmarshal(chunk, &deltas) != nil || len(deltas) == 0 {
			return false
		}
		for _, d := range deltas {
			if d.Function == nil {
				return false
			}
		}
		return true
	case '{':
		var fc struct {
			Name      *string `json:"name"`
			Arguments *string `json:"arguments"`
		}
		return json.Unmarshal(chunk, &fc) == nil && fc.Name != nil && fc.Arguments != nil
	}
	return false
}
