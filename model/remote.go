package model

import (
	"context"

	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/graph"
)

// remote is a model answered across the network: while it is asked, the
// node asking gives its turn on the cores up (graph.Away), since it only
// waits. The offline model is not wrapped: it answers on this process's
// CPU, in the node's turn.
type remote struct {
	llms.Model
}

// GenerateContent asks the model, away from the node's turn.
func (r remote) GenerateContent(ctx context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	back := graph.Away(ctx)
	defer back()
	return r.Model.GenerateContent(ctx, msgs, opts...)
}

// Call is GenerateContent for one prompt.
func (r remote) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, r, prompt, opts...)
}
