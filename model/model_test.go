package model

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/model/offline"
)

func TestOpen(t *testing.T) {
	keys := Config{OpenAIKey: "sk-test", AnthropicKey: "ak-test", GoogleKey: "gk-test"}
	tests := []struct {
		name    string
		config  Config
		spec    string
		wantErr error
		offline bool
	}{
		{name: "empty is offline", spec: "", offline: true},
		{name: "offline", spec: "offline", offline: true},
		{name: "openai", config: keys, spec: "openai:gpt-4o-mini"},
		{name: "openai compatible server", config: Config{OpenAIKey: "x", OpenAIBaseURL: "http://localhost:11434/v1"}, spec: "openai:llama3.1"},
		{name: "anthropic", config: keys, spec: "anthropic:claude-3-5-haiku-latest"},
		{name: "googleai", config: keys, spec: "googleai:gemini-1.5-flash"},
		{name: "openai without key", spec: "openai:gpt-4o", wantErr: ErrNoKey},
		{name: "anthropic without key", spec: "anthropic:claude", wantErr: ErrNoKey},
		{name: "googleai without key", spec: "googleai:gemini", wantErr: ErrNoKey},
		{name: "unknown provider", config: keys, spec: "mistral:large", wantErr: ErrSpec},
		{name: "no model name", config: keys, spec: "openai:", wantErr: ErrSpec},
		{name: "no colon", config: keys, spec: "gpt-4o", wantErr: ErrSpec},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.config
			c.Spec = tt.spec
			m, err := c.Open(context.Background())
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Open(%q) error = %v, want %v", tt.spec, err, tt.wantErr)
				}
				return
			}
			if err != nil || m == nil {
				t.Fatalf("Open(%q) = %v, %v", tt.spec, m, err)
			}
			if _, isOffline := m.(*offline.Model); isOffline != tt.offline {
				t.Errorf("Open(%q) is %T, offline = %v", tt.spec, m, tt.offline)
			}
			if _, isRemote := m.(remote); isRemote == tt.offline {
				t.Errorf("Open(%q) is %T: a provider's model gives its turn up while asked, the offline one keeps it", tt.spec, m)
			}
		})
	}
}

// With a delay, the model answers no sooner than it, and not at all once
// its context ends.
func TestDelay(t *testing.T) {
	m, err := Config{Delay: 50 * time.Millisecond}.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := llms.GenerateFromSinglePrompt(context.Background(), m, "4 nights in Lisbon in May, 3 of us"); err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < 50*time.Millisecond {
		t.Errorf("answered after %v, before the delay", waited)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.GenerateContent(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("a call whose context ended: %v, want context.Canceled", err)
	}
}
