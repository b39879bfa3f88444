package model

import (
	"context"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/llms"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/tripgraph/tripgraph/telemetry"
)

// answering is a model that answers text with the usage a provider
// reports in its generation info.
type answering struct{ info map[string]any }

func (a answering) GenerateContent(context.Context, []llms.MessageContent, ...llms.CallOption) (*llms.ContentResponse, error) {
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: strings.Repeat("Lisbon ", 40), StopReason: "stop", GenerationInfo: a.info}}}, nil
}

func (a answering) Call(context.Context, string, ...llms.CallOption) (string, error) { return "", nil }

// A call's span follows the GenAI conventions: operation, provider,
// model, the tokens each provider reports under its own names, the
// finish reasons; the messages only when contents are on, cut.
func TestTracedModel(t *testing.T) {
	for _, c := range []struct {
		spec, provider string
		info           map[string]any
		contents       bool
	}{
		{"openai:gpt-4o-mini", "openai", map[string]any{"PromptTokens": 12, "CompletionTokens": 7}, false},
		{"anthropic:claude", "anthropic", map[string]any{"InputTokens": 12, "OutputTokens": 7}, true},
		{"googleai:gemini", "gcp.gemini", map[string]any{"input_tokens": int32(12), "output_tokens": int32(7)}, false},
	} {
		exp := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		restore := telemetry.Install(tp, telemetry.Contents{Record: c.contents, Bytes: 100})
		m := Traced(answering{c.info}, c.spec)
		_, err := m.GenerateContent(context.Background(), []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "4 nights in Lisbon")},
			llms.WithTemperature(0.2), llms.WithMaxTokens(256))
		restore()
		if err != nil {
			t.Fatal(err)
		}
		s := exp.GetSpans()[0]
		attrs := map[string]string{}
		for _, a := range s.Attributes {
			attrs[string(a.Key)] = a.Value.Emit()
		}
		_, model, _ := strings.Cut(c.spec, ":")
		for k, want := range map[string]string{"gen_ai.operation.name": "chat", "gen_ai.provider.name": c.provider, "gen_ai.system": c.provider,
			"gen_ai.request.model": model, "gen_ai.usage.input_tokens": "12", "gen_ai.usage.output_tokens": "7",
			"gen_ai.request.temperature": "0.2", "gen_ai.request.max_tokens": "256", "gen_ai.response.finish_reasons": "[\"stop\"]",
			"tripgraph.model.offline": "false"} {
			if attrs[k] != want {
				t.Errorf("%s: %s = %q, want %q", c.spec, k, attrs[k], want)
			}
		}
		in, out := attrs["gen_ai.input.messages"], attrs["gen_ai.output.messages"]
		if c.contents != (in != "" && out != "") || len(out) > 100 || (c.contents && !strings.HasSuffix(out, "…")) {
			t.Errorf("%s: contents %v, yet input %q, output %q", c.spec, c.contents, in, out)
		}
	}
}
