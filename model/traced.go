package model

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/tmc/langchaingo/llms"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/tripgraph/tripgraph/telemetry"
)

// GenAI attribute keys (OpenTelemetry's semantic conventions for
// generative AI).
const (
	genAIProvider      = attribute.Key("gen_ai.provider.name")
	genAISystem        = attribute.Key("gen_ai.system") // the older name of the provider, which some back ends still read
	genAIRequestModel  = attribute.Key("gen_ai.request.model")
	genAITemperature   = attribute.Key("gen_ai.request.temperature")
	genAIMaxTokens     = attribute.Key("gen_ai.request.max_tokens")
	genAIInputTokens   = attribute.Key("gen_ai.usage.input_tokens")
	genAIOutputTokens  = attribute.Key("gen_ai.usage.output_tokens")
	genAIFinishReasons = attribute.Key("gen_ai.response.finish_reasons")
	genAIInput         = "gen_ai.input.messages"
	genAIOutput        = "gen_ai.output.messages"
	offlineKey         = attribute.Key("tripgraph.model.offline")
	toolsKey           = attribute.Key("tripgraph.model.tools")
)

// OfflineProvider is the gen_ai.provider.name of the built-in offline
// model, which calls no provider.
const OfflineProvider = "tripgraph.offline"

// Traced wraps m, opened from spec, so that each call is a span following
// OpenTelemetry's GenAI conventions: the operation (chat), the provider
// and model, the tokens used where the provider says, the finish reasons;
// the messages sent and answered only when the operator has turned
// contents on (telemetry.Content), cut. The offline model is marked so
// (tripgraph.model.offline), with its own provider name.
func Traced(m llms.Model, spec string) llms.Model {
	provider, name, _ := strings.Cut(strings.TrimSpace(spec), ":")
	offline := provider == "" || provider == "offline"
	switch {
	case offline:
		provider, name = OfflineProvider, "offline"
	case provider == "googleai":
		provider = "gcp.gemini"
	}
	return &traced{Model: m, provider: provider, name: name, offline: offline}
}

// traced is a model whose calls are spans.
type traced struct {
	llms.Model
	provider, name string
	offline        bool
}

func (t *traced) GenerateContent(ctx context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	ctx, span := telemetry.Tracer().Start(ctx, "chat "+t.name, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(t.requestAttrs(options)...))
	defer span.End()
	telemetry.Content(span, genAIInput, func() string { return inputJSON(msgs) })
	resp, err := t.Model.GenerateContent(ctx, msgs, options...)
	if err != nil {
		telemetry.Fail(span, err)
		return resp, err
	}
	t.describe(span, resp)
	return resp, nil
}

// requestAttrs are the attributes of a call known before it is made.
func (t *traced) requestAttrs(options []llms.CallOption) []attribute.KeyValue {
	var o llms.CallOptions
	for _, opt := range options {
		opt(&o)
	}
	name := t.name
	if o.Model != "" {
		name = o.Model
	}
	attrs := []attribute.KeyValue{telemetry.GenAIOperationKey.String("chat"), genAIProvider.String(t.provider),
		genAISystem.String(t.provider), genAIRequestModel.String(name), offlineKey.Bool(t.offline)}
	if o.Temperature != 0 {
		attrs = append(attrs, genAITemperature.Float64(o.Temperature))
	}
	if o.MaxTokens != 0 {
		attrs = append(attrs, genAIMaxTokens.Int(o.MaxTokens))
	}
	if len(o.Tools) > 0 {
		attrs = append(attrs, toolsKey.Int(len(o.Tools)))
	}
	return attrs
}

// describe adds what the answer says of itself: tokens, finish reasons,
// and (when contents are on) the answer.
func (t *traced) describe(span trace.Span, resp *llms.ContentResponse) {
	if resp == nil || len(resp.Choices) == 0 {
		return
	}
	info := resp.Choices[0].GenerationInfo
	if n, ok := tokens(info, "PromptTokens", "InputTokens", "input_tokens"); ok {
		span.SetAttributes(genAIInputTokens.Int(n))
	}
	if n, ok := tokens(info, "CompletionTokens", "OutputTokens", "output_tokens"); ok {
		span.SetAttributes(genAIOutputTokens.Int(n))
	}
	reasons := make([]string, 0, len(resp.Choices))
	for _, c := range resp.Choices {
		if c.StopReason != "" {
			reasons = append(reasons, c.StopReason)
		}
	}
	if len(reasons) > 0 {
		span.SetAttributes(genAIFinishReasons.StringSlice(reasons))
	}
	telemetry.Content(span, genAIOutput, func() string { return outputJSON(resp) })
}

// tokens is the first of keys the provider set in info, as a count.
func tokens(info map[string]any, keys ...string) (int, bool) {
	for _, k := range keys {
		switch v := info[k].(type) {
		case int:
			return v, true
		case int32:
			return int(v), true
		case int64:
			return int(v), true
		case float64:
			return int(v), true
		}
	}
	return 0, false
}

// part is one part of a message as the GenAI conventions write it.
type part struct {
	Type      string `json:"type"`
	Content   string `json:"content,omitempty"`
	ID        string `json:"id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	Response  string `json:"response,omitempty"`
}

// message is one message as the GenAI conventions write it.
type message struct {
	Role         string `json:"role"`
	Parts        []part `json:"parts"`
	FinishReason string `json:"finish_reason,omitempty"`
}

// inputJSON is the messages sent, in the conventions' shape.
func inputJSON(msgs []llms.MessageContent) string {
	out := make([]message, len(msgs))
	for i, m := range msgs {
		out[i] = message{Role: string(m.Role), Parts: make([]part, 0, len(m.Parts))}
		for _, p := range m.Parts {
			switch p := p.(type) {
			case llms.TextContent:
				out[i].Parts = append(out[i].Parts, part{Type: "text", Content: p.Text})
			case llms.ToolCall:
				out[i].Parts = append(out[i].Parts, toolCallPart(p))
			case llms.ToolCallResponse:
				out[i].Parts = append(out[i].Parts, part{Type: "tool_call_response", ID: p.ToolCallID, Name: p.Name, Response: p.Content})
			}
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// outputJSON is the answer, in the conventions' shape.
func outputJSON(resp *llms.ContentResponse) string {
	out := make([]message, len(resp.Choices))
	for i, c := range resp.Choices {
		out[i] = message{Role: "assistant", FinishReason: c.StopReason}
		if c.Content != "" {
			out[i].Parts = append(out[i].Parts, part{Type: "text", Content: c.Content})
		}
		for _, tc := range c.ToolCalls {
			out[i].Parts = append(out[i].Parts, toolCallPart(tc))
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

func toolCallPart(tc llms.ToolCall) part {
	p := part{Type: "tool_call", ID: tc.ID}
	if tc.FunctionCall != nil {
		p.Name, p.Arguments = tc.FunctionCall.Name, tc.FunctionCall.Arguments
	}
	return p
}
