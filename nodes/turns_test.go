package nodes

import (
	"context"
	"testing"
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/tripgraph/tripgraph/graph"
)

// callTools takes a turn on the cores: while another node holds the only
// turn, a trip run's extraction runs and shows the trip, and its
// callTools calls no tool until the turn comes back.
func TestCallToolsTakesATurn(t *testing.T) {
	turns := graph.NewTurns(1, time.Hour)
	holding, release := make(chan struct{}), make(chan struct{})
	holder := graph.New(func(s, u struct{}) struct{} { return s })
	holder.AddNode("hold", func(ctx context.Context, _ struct{}) (struct{}, error) {
		done, err := graph.TakeTurn(ctx)
		defer done()
		close(holding)
		<-release
		return struct{}{}, err
	})
	holder.AddEdge(graph.START, "hold")
	holder.AddEdge("hold", graph.END)
	hc, err := holder.Compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan error, 1)
	go func() {
		_, err := hc.Invoke(context.Background(), graph.RunConfig[struct{}]{ThreadID: testThread, Turns: turns})
		held <- err
	}()
	<-holding

	var called []string // read before the turn comes back, written after
	tools := testTools(&called)
	m := &scripted{replies: []llms.ContentChoice{
		calls("extract", `{"location":"Lisbon","country":"Portugal","startDate":"2027-05-03","nights":4,"numberOfGuests":3,"intent":"trip","language":"en"}`),
		calls("list-accommodations", `{"location":"Lisbon","startDate":"2027-05-03","endDate":"2027-05-07","guests":3}`),
		text("Here are places to stay in Lisbon."),
	}}
	g := newPlanner(t, m, tools)
	shown := make(chan string, 8)
	ended := make(chan error, 1)
	go func() {
		input := Update{Messages: []Message{{ID: "h1", Type: Human, Content: "4 nights in Lisbon from May 3, 3 of us"}}}
		var runErr error
		for ev, err := range g.Run(context.Background(), graph.RunConfig[Update]{ThreadID: "0194e9be-ca4f-7ca5-9537-ac7a5f1d117e", Input: input, Turns: turns}) {
			if err != nil {
				runErr = err
			}
			if ev.Kind == graph.Custom {
				shown <- ev.Payload.(UIComponent).Name
			}
		}
		ended <- runErr
	}()
	select {
	case <-shown: // the trip's card, from extraction
	case <-time.After(10 * time.Second):
		t.Fatal("extraction showed nothing while callTools' turn was held")
	}
	time.Sleep(50 * time.Millisecond)
	if len(called) != 0 {
		t.Fatalf("callTools called %v while the only turn was held", called)
	}
	close(release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	if err := <-ended; err != nil {
		t.Fatal(err)
	}
	if len(called) != 1 {
		t.Fatalf("tools called %v, want list-accommodations once the turn came back", called)
	}
}
