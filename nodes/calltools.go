package nodes

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/internal/rawjson"
	"github.com/tripgraph/tripgraph/locale"
)

// callTools lets the model call the tools, up to MaxToolSteps model calls,
// turns each result into a UI component (emitted at once and kept in the
// state), and ends with a short assistant message whose id the streamed
// tokens and the components carry.
//
// A tool failure is shown and told to the model: an errcode error with its
// message, any other with a generic one (the details go to the log). A
// booking is first confirmed by the traveller: see book. Since a confirmed
// booking resumes the run by running callTools again from its start, the
// model and the tools before the booking are asked again.
func (p *planner) callTools(ctx context.Context, s State) (Update, error) {
	// The tools and the answer come after the traveller has seen the trip
	// understood: this step takes a turn on the cores (graph.Turns), so
	// that, when they are busy, other travellers' first steps go first.
	done, err := graph.TakeTurn(ctx)
	if err != nil {
		return Update{}, err
	}
	defer done()
	t := p.turn(ctx, s)
	tools, err := t.tools.List(ctx)
	if err != nil {
		return Update{}, fmt.Errorf("listing tools: %w", err)
	}
	t.cards = make(map[string]string, len(tools))
	for _, tool := range tools {
		t.cards[tool.Name] = tool.Card
	}
	lang := orDefault(s.Language, locale.Default)
	if s.BookingRequest != nil {
		return t.requestedBooking(ctx, lang)
	}
	enriched := p.enrich(ctx, s, t.msgID)
	msgs := conversation(system(callToolsPrompt, todayLine(p.today()), tripLine(s.TripDetails), profileLines(recall(ctx)), enrichmentLines(enriched)), s)
	text := ""
	for step := 0; step < MaxToolSteps; step++ {
		choice, err := p.generate(ctx, msgs, llmTools(tools), t.msgID)
		if err != nil {
			return Update{}, err
		}
		if len(choice.ToolCalls) == 0 {
			text = strings.TrimSpace(choice.Content)
			break
		}
		results, fresh, err := t.callAll(ctx, choice.ToolCalls)
		if err != nil {
			return Update{}, err
		}
		if step == 0 && fresh == 0 && len(t.ui) == 0 {
			text = reply(lang, "repeat")
			graph.EmitToken(ctx, t.msgID, text)
			break
		}
		msgs = append(msgs, results...)
	}
	if text == "" {
		text = reply(lang, "noAnswer")
		if len(t.ui) == 0 {
			text = reply(lang, "noTools")
		}
	}
	for _, note := range []string{recalledNote(s, lang), assumptionNote(s, lang)} {
		if note != "" {
			text += " " + note
			graph.EmitToken(ctx, t.msgID, " "+note)
		}
	}
	return Update{
		Messages:    []Message{{ID: t.msgID, Type: AI, Content: text}},
		UI:          t.ui,
		Timestamp:   p.stamp(),
		Enrichments: enriched,
	}, nil
}

// generate makes one model call, streaming its visible text as tokens of
// the message msgID.
func (p *planner) generate(ctx context.Context, msgs []llms.MessageContent, tools []llms.Tool, msgID string) (*llms.ContentChoice, error) {
	resp, err := p.Model.GenerateContent(ctx, msgs, llms.WithTools(tools), llms.WithStreamingFunc(streamVisibleText(msgID)))
	if err != nil {
		return nil, fmt.Errorf("asking the model which tools to call: %w", err)
	}
	if len(resp.Choices) == 0 {
		return nil, errors.New("the model returned no choices")
	}
	return resp.Choices[0], nil
}

// turn is one callTools run: the traveller's tools, and the components it
// made so far.
type turn struct {
	*planner
	tools Tools
	cards map[string]string // the card of each tool listed, by tool
	state State
	msgID string // the id of the assistant message the components belong to
	ui    []UIUpsert
	calls int
}

// turn starts a turn of the node ctx runs in, on state s, with the
// tools of the run's traveller.
func (p *planner) turn(ctx context.Context, s State) *turn {
	return &turn{planner: p, tools: travellerOf(ctx).Tools, state: s, msgID: messageID(ctx)}
}

// callAll runs the tool calls of one model response and returns the
// messages that tell the model what happened: the calls and their results,
// and how many calls were not repeats. Its error is a booking
// confirmation's pause (graph.ErrInterrupted).
func (t *turn) callAll(ctx context.Context, calls []llms.ToolCall) ([]llms.MessageContent, int, error) {
	ai := llms.MessageContent{Role: llms.ChatMessageTypeAI}
	var results []llms.MessageContent
	fresh := 0
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
		content, repeated, err := t.call(ctx, tc)
		if err != nil {
			return nil, 0, err
		}
		if !repeated {
			fresh++
		}
		results = append(results, llms.MessageContent{
			Role:  llms.ChatMessageTypeTool,
			Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: tc.ID, Name: tc.FunctionCall.Name, Content: content}},
		})
	}
	return append([]llms.MessageContent{ai}, results...), fresh, nil
}

// call runs one tool, shows its result as a component, and returns what to
// tell the model: the result's JSON, or {"error": {...}}. A booking is
// confirmed by the traveller first (see book). A repeat of the search the
// conversation shows (see repeats) is not made again: the model is told
// the card's data, and repeated is true.
func (t *turn) call(ctx context.Context, tc llms.ToolCall) (content string, repeated bool, err error) {
	name := tc.FunctionCall.Name
	args := json.RawMessage(orDefault(tc.FunctionCall.Arguments, "{}"))
	if name == toolBook {
		content, err = t.book(ctx, confirmationCard{ID: tc.ID, MessageID: t.msgID}, args)
		return content, false, err
	}
	args = withPhotoPage(t.cards[name], args)
	if shown, ok := repeats(t.state, name, args); ok {
		return string(shown), true, nil
	}
	res, toolErr := t.run(ctx, name, args)
	if comp, ok := t.component(tc, args, res.Full, toolErr); ok {
		t.show(ctx, comp)
	}
	return string(res.ModelView()), false, nil
}

// PhotoPage is how many photos the planner asks a photo tool for when the
// model names no limit: the photo grid shows them all, the first ones at
// once and the rest behind "show more" (the tools' own default is 50).
const PhotoPage = 200

// withPhotoPage gives a call of a tool the photo grid shows a limit of
// PhotoPage when it has none; other calls are returned as they are.
func withPhotoPage(shownBy string, args json.RawMessage) json.RawMessage {
	if shownBy != card.Photos {
		return args
	}
	var m map[string]any
	if json.Unmarshal(args, &m) != nil || m == nil {
		return args
	}
	if _, ok := m["limit"]; ok {
		return args
	}
	m["limit"] = PhotoPage
	return mustJSON(m)
}

// repeats reports whether a call of the tool with these arguments repeats
// a search whose card the conversation shows as the tool's latest: the
// cards of the newest message that has any of the tool's. It returns that
// card's props. Cards of failed calls are never repeats.
func repeats(s State, tool string, args json.RawMessage) (json.RawMessage, bool) {
	want := canonicalArgs(args)
	latest := ""
	for i := len(s.UI) - 1; i >= 0; i-- {
		c := s.UI[i]
		p, ok := cardCall(c.Props)
		if !ok || p.Tool != tool {
			continue
		}
		if latest == "" {
			latest = c.MessageID
		}
		if c.MessageID == latest && p.Error == nil && p.Args != nil && bytes.Equal(canonicalArgs(p.Args), want) {
			return c.Props, true
		}
	}
	return nil, false
}

// cardCall reads the call a card shows: its tool, arguments and error,
// and none of its results, which a search's card holds in kilobytes that
// repeats need not decode for every card of the conversation.
func cardCall(props json.RawMessage) (p ToolProps, ok bool) {
	members, compact := rawjson.Object(props)
	if !compact {
		return p, json.Unmarshal(props, &p) == nil
	}
	for _, m := range members {
		var dst any
		switch string(m.Key) {
		case `"tool"`:
			dst = &p.Tool
		case `"args"`:
			dst = &p.Args
		case `"error"`:
			dst = &p.Error
		default:
			continue
		}
		if json.Unmarshal(m.Value, dst) != nil {
			return p, false
		}
	}
	return p, true
}

// canonicalArgs is a call's arguments with their keys sorted and their
// spacing dropped, so that equal arguments compare equal; invalid JSON is
// returned as it is.
func canonicalArgs(args json.RawMessage) json.RawMessage {
	var v any
	if json.Unmarshal(args, &v) != nil {
		return args
	}
	data, err := json.Marshal(v)
	if err != nil {
		return args
	}
	return data
}

// run calls a tool. A failure comes back both as a ToolError and as the
// result to show and tell the model, {"error": {...}}.
func (t *turn) run(ctx context.Context, name string, args json.RawMessage) (Result, *ToolError) {
	res, err := t.tools.Call(ctx, name, args)
	if err == nil {
		return res, nil
	}
	toolErr := toolError(ctx, name, err)
	full, _ := json.Marshal(map[string]any{"error": toolErr})
	return Result{Full: full}, toolErr
}

// show adds a component to the turn's update and emits it at once.
func (t *turn) show(ctx context.Context, comp UIComponent) {
	t.ui = append(t.ui, UIUpsert{UIComponent: comp})
	graph.Emit(ctx, "ui", comp)
}

// toolFailed is what the traveller and the model are told of a tool failure
// whose details are internal.
const toolFailed = "the tool is not available right now; try again later"

// toolError is how a failed tool call is shown to the traveller and told to
// the model. An errcode error's message is written to be shown; any other
// error's text may carry internal details (hosts, users, SQL), so it is
// logged with the run id and replaced by a generic message.
func toolError(ctx context.Context, tool string, err error) *ToolError {
	var coded *errcode.Error
	if errors.As(err, &coded) {
		return &ToolError{Code: string(coded.Code), Message: coded.Message}
	}
	info, _ := graph.Info(ctx)
	slog.ErrorContext(ctx, "tool call failed", "tool", tool, "run_id", info.RunID, "thread_id", info.ThreadID, "err", err)
	return &ToolError{Code: string(errcode.Internal), Message: toolFailed}
}

// component turns a tool's result into its typed UI component, with the
// arguments the call was made with. Tools with
// no component, and results that do not fit the component's props, show
// nothing.
func (t *turn) component(tc llms.ToolCall, args, result json.RawMessage, toolErr *ToolError) (UIComponent, bool) {
	name := t.cards[tc.FunctionCall.Name]
	makeProps, ok := resultProps[name]
	if !ok {
		return UIComponent{}, false
	}
	props := makeProps(ToolProps{ToolCallID: tc.ID, Tool: tc.FunctionCall.Name, Args: canonicalArgs(args), TripDetails: t.state.TripDetails, Error: toolErr})
	if toolErr == nil {
		if err := json.Unmarshal(result, props); err != nil {
			return UIComponent{}, false
		}
	}
	data, err := json.Marshal(props)
	if err != nil {
		return UIComponent{}, false
	}
	return UIComponent{ID: t.componentID(), Name: name, Props: data, MessageID: t.msgID}, true
}

// componentID is the id of the component of the turn's current tool call:
// its message's and the call's rank in the turn. The model's own call ids
// differ each time it is asked, while these are the same when the step
// runs again (its worker died before the step was saved), so that a card
// already streamed is the one the saved state holds.
func (t *turn) componentID() string { return t.msgID + "-" + strconv.Itoa(t.calls) }

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

// streamVisibleText returns a streaming function that sends a model's
// streamed text on as token events of the message msgID. langchaingo passes
// streamed tool-call fragments through the same function as JSON
// (tmc/langchaingo#1031); those are not for the traveller's eyes.
func streamVisibleText(msgID string) func(ctx context.Context, chunk []byte) error {
	return func(ctx context.Context, chunk []byte) error {
		if len(chunk) > 0 && !isToolCallChunk(chunk) {
			graph.EmitToken(ctx, msgID, string(chunk))
		}
		return nil
	}
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
