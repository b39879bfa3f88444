package model

import (
	"context"
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/graph"
)

// delayed is a model whose every call waits before it answers, holding no
// CPU, as a call to a remote model does.
type delayed struct {
	llms.Model
	delay time.Duration
}

// GenerateContent waits for the delay, or for ctx to end, then asks the
// model.
func (d delayed) GenerateContent(ctx context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	back := graph.Away(ctx) // the delay is a wait, not work
	t := time.NewTimer(d.delay)
	defer t.Stop()
	select {
	case <-ctx.Done():
		back()
		return nil, context.Cause(ctx)
	case <-t.C:
	}
	back()
	return d.Model.GenerateContent(ctx, msgs, opts...)
}

// Call is GenerateContent for one prompt.
func (d delayed) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, d, prompt, opts...)
}
