// Package model selects the language model the trip planner runs on: the
// built-in offline model, or any of langchaingo's OpenAI, Anthropic and
// Google AI clients, from a spec such as "openai:gpt-4o-mini".
package model

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/anthropic"
	"github.com/tmc/langchaingo/llms/googleai"
	"github.com/tmc/langchaingo/llms/openai"
	"github.com/tripgraph/tripgraph/model/offline"
)

// ErrSpec is returned for a model spec in none of the accepted forms.
var ErrSpec = errors.New(`model spec must be "", "offline", "openai:<model>", "anthropic:<model>" or "googleai:<model>"`)

// ErrNoKey is returned when a provider's API key is not set.
var ErrNoKey = errors.New("API key not set")

// Config names the model to open and what reaching it needs, as the
// command reads them from its settings.
type Config struct {
	Spec          string // TRIPGRAPH_MODEL
	OpenAIKey     string // OPENAI_API_KEY
	OpenAIBaseURL string // OPENAI_BASE_URL: Ollama, vLLM or any OpenAI-compatible server
	AnthropicKey  string // ANTHROPIC_API_KEY
	GoogleKey     string // GOOGLE_API_KEY
	// Delay is how long every call waits before it answers
	// (TRIPGRAPH_MODEL_DELAY): a benchmark's stand-in for a remote model's
	// time to answer, with the offline model's answers.
	Delay time.Duration
}

// Open returns the model the Config names, answering after c.Delay.
func (c Config) Open(ctx context.Context) (llms.Model, error) {
	m, err := c.open(ctx)
	if err != nil || c.Delay <= 0 {
		return m, err
	}
	return delayed{Model: m, delay: c.Delay}, nil
}

func (c Config) open(ctx context.Context) (llms.Model, error) {
	spec := strings.TrimSpace(c.Spec)
	if spec == "" || spec == "offline" {
		m, err := offline.New()
		if err != nil {
			return nil, fmt.Errorf("opening offline model: %w", err)
		}
		return m, nil
	}
	provider, name, ok := strings.Cut(spec, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return nil, fmt.Errorf("opening model %q: %w", spec, ErrSpec)
	}
	name = strings.TrimSpace(name)
	var m llms.Model
	var err error
	switch provider {
	case "openai":
		m, err = c.openAI(name)
	case "anthropic":
		m, err = c.anthropic(name)
	case "googleai":
		m, err = c.googleAI(ctx, name)
	default:
		return nil, fmt.Errorf("opening model %q: %w", spec, ErrSpec)
	}
	if err != nil {
		return nil, err
	}
	return remote{Model: m}, nil
}

func (c Config) openAI(name string) (llms.Model, error) {
	if c.OpenAIKey == "" {
		return nil, fmt.Errorf("opening openai model %q: OPENAI_API_KEY: %w", name, ErrNoKey)
	}
	opts := []openai.Option{openai.WithToken(c.OpenAIKey), openai.WithModel(name)}
	if c.OpenAIBaseURL != "" {
		opts = append(opts, openai.WithBaseURL(c.OpenAIBaseURL))
	}
	m, err := openai.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("opening openai model %q: %w", name, err)
	}
	return m, nil
}

func (c Config) anthropic(name string) (llms.Model, error) {
	if c.AnthropicKey == "" {
		return nil, fmt.Errorf("opening anthropic model %q: ANTHROPIC_API_KEY: %w", name, ErrNoKey)
	}
	m, err := anthropic.New(anthropic.WithToken(c.AnthropicKey), anthropic.WithModel(name))
	if err != nil {
		return nil, fmt.Errorf("opening anthropic model %q: %w", name, err)
	}
	return m, nil
}

func (c Config) googleAI(ctx context.Context, name string) (llms.Model, error) {
	if c.GoogleKey == "" {
		return nil, fmt.Errorf("opening googleai model %q: GOOGLE_API_KEY: %w", name, ErrNoKey)
	}
	m, err := googleai.New(ctx, googleai.WithAPIKey(c.GoogleKey), googleai.WithDefaultModel(name))
	if err != nil {
		return nil, fmt.Errorf("opening googleai model %q: %w", name, err)
	}
	return m, nil
}
