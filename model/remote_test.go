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
	w := waiting{asked: make(chan struct{}), release: make(chan struct{})}
	c := askingGraph(t, remote{Model: w})
	asking := make(chan error, 1)
	go func() {
		_, err := c.Invoke(context.Background(), graph.RunConfig[string]{ThreadID: "0194e9be-ca4f-7ca5-9537-ac7a5f1d117e", Input: "asks", Turns: c.turns})
		asking <- err
	}()
	<-w.asked
	other := make(chan string, 1)
	go func() {
		s, _ := c.Invoke(context.Background(), graph.RunConfig[string]{ThreadID: "0194e9be-ca4f-7ca5-9537-ac7a5f1d117f", Input: "waits", Turns: c.turns})
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

// A model's delay is a wait, not work: the node gives its turn up for it,
// and another run's node ends before the delayed answer comes.
func TestDelayGivesTheTurnUp(t *testing.T) {
	m, err := Config{Delay: 2 * time.Second}.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c := askingGraph(t, m)
	ended := make(chan string, 2)
	run := func(thread, input string) {
		if _, err := c.Invoke(context.Background(), graph.RunConfig[string]{ThreadID: thread, Input: input, Turns: c.turns}); err != nil {
			t.Error(err)
		}
		ended <- input
	}
	go run("0194e9be-ca4f-7ca5-9537-ac7a5f1d1170", "asks")
	time.Sleep(100 * time.Millisecond) // the asking run first, inside its delay
	go run("0194e9be-ca4f-7ca5-9537-ac7a5f1d1171", "waits")
	if first := <-ended; first != "waits" {
		t.Fatalf("the %s run ended first: the delay held the only turn", first)
	}
	<-ended
}

// askingCompiled is a graph of one node that takes a turn of its Turns
// (one) and asks its model when its input is "asks".
type askingCompiled struct {
	*graph.Compiled[string, string]
	turns *graph.Turns
}

func askingGraph(t *testing.T, m llms.Model) askingCompiled {
	t.Helper()
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
	return askingCompiled{Compiled: c, turns: graph.NewTurns(1, time.Hour)}
}
