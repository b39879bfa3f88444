package model

import (
	"context"
	"testing"
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/graph"
)

// waiting is a model that answers once released, as a remote one answers
// after the network.
type waiting struct {
	asked, release chan struct{}
}

func (w waiting) GenerateContent(ctx context.Context, _ []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	close(w.asked)
	<-w.release
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "ok"}}}, nil
}

func (w waiting) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, w, prompt, opts...)
}

// A node asking a remote model gives its turn on the cores up while it
// waits for the answer: another run's node takes it meanwhile.
func TestRemoteModelGivesTheTurnUp(t *testing.T) {
	turns := graph.NewTurns(1, time.Hour)
	w := waiting{asked: make(chan struct{}), release: make(chan struct{})}
	var m llms.Model = remote{Model: w}
	g := graph.New(func(s, u string) string { return s + u })
	g.AddNode("ask", func(ctx context.Context, s string) (string, error) {
		done, err := graph.TakeTurn(ctx)
		if err != nil {
			return "", err
		}
		defer done()
		if s == "asks" {
			return llms.GenerateFromSinglePrompt(ctx, m, "4 nights in Lisbon")
		}
		return "took the turn", nil
	})
	g.AddEdge(graph.START, "ask")
	g.AddEdge("ask", graph.END)
	c, err := g.Compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	asking := make(chan error, 1)
	go func() {
		_, err := c.Invoke(context.Background(), graph.RunConfig[string]{ThreadID: "0194e9be-ca4f-7ca5-9537-ac7a5f1d117e", Input: "asks", Turns: turns})
		asking <- err
	}()
	<-w.asked
	other := make(chan string, 1)
	go func() {
		s, _ := c.Invoke(context.Background(), graph.RunConfig[string]{ThreadID: "0194e9be-ca4f-7ca5-9537-ac7a5f1d117f", Input: "waits", Turns: turns})
		other <- s
	}()
	select {
	case s := <-other:
		if s != "waitstook the turn" {
			t.Fatalf("the other run ended with %q", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the other run's node did not get the turn while the model was asked")
	}
	close(w.release)
	if err := <-asking; err != nil {
		t.Fatal(err)
	}
}
