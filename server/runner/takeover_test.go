package runner

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tripgraph/tripgraph/card"
	"github.com/tripgraph/tripgraph/mcpbridge"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// tripTools are the accommodations and restaurants tools; the restaurants
// one, when stuck is set, tells started and then never answers, as in a
// process that froze there.
func tripTools(stuck bool, started chan<- struct{}) nodes.FuncTools {
	answer := func(key string) func(context.Context, json.RawMessage) (any, error) {
		return func(ctx context.Context, _ json.RawMessage) (any, error) {
			if stuck && key == "restaurants" {
				started <- struct{}{}
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return map[string]any{"location": "Lisbon", key: []map[string]any{{"id": key + "-1", "name": "Casa Azul", "capacity": 4}}}, nil
		}
	}
	return nodes.FuncTools{
		{Tool: nodes.Tool{Name: "list-accommodations", Card: card.Accommodations, Description: "list accommodations"}, Run: answer("accommodations")},
		{Tool: nodes.Tool{Name: "list-restaurants", Card: card.Restaurants, Description: "list restaurants"}, Run: answer("restaurants")},
	}
}

// every gives every user the same tools.
func every(tools nodes.FuncTools) func(mcpbridge.User) nodes.Tools {
	return func(mcpbridge.User) nodes.Tools { return tools }
}

// A run taken over from a worker that died part-way through a step, after
// that step's first card reached the stream, shows each of its outputs
// once: every card, the reply's tokens, each node's update.
func TestTakenOverRunShowsItsOutputOnce(t *testing.T) {
	ctx := context.Background()
	st := migratedStore(t)
	started := make(chan struct{}, 1)
	first := runnerOn(t, st, every(tripTools(true, started)))
	first.timing.lease = time.Hour // it never notices it lost the run
	first.Start()
	owner, run := queueTurn(t, st, plannertest.Lisbon)
	within(t, started, "the restaurants call")
	first.stopClaims() // its other worker must not take the run back
	waitFor(t, "the accommodations card in the stream", func() bool {
		events, err := st.ForOwner(owner).RunEvents(ctx, run.ID, 0, 0)
		return err == nil && slices.ContainsFunc(events, func(e store.RunEvent) bool {
			return e.Event == "custom" && strings.Contains(string(e.Data), card.Accommodations)
		})
	})
	// The first worker's process is gone: its lease lapses, and another
	// process's worker takes the run over.
	if _, err := st.Pool.Exec(ctx, `UPDATE runs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, run.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ReclaimExpired(ctx, 3); err != nil {
		t.Fatal(err)
	}
	runnerOn(t, st, every(tripTools(false, nil))).Start()
	events, done := storetest.Finish(t, st, owner, run.ID)
	if done.Status != store.RunSuccess || done.Attempts != 2 {
		t.Fatalf("run ended %s after %d attempts, want success after 2", done.Status, done.Attempts)
	}
	stopNow(first)

	cards := map[string]int{}
	updates := map[string]int{}
	tokens, tokenIDs := "", map[string]bool{}
	for _, e := range events {
		switch e.Event {
		case "custom":
			var ui struct{ Type, ID, Name string }
			json.Unmarshal(e.Data, &ui)
			if ui.Type == "ui" {
				cards[ui.Name+" "+ui.ID]++
			}
		case "updates":
			var u map[string]json.RawMessage
			json.Unmarshal(e.Data, &u)
			for node := range u {
				updates[node]++
			}
		case "messages":
			var tuple []json.RawMessage
			var chunk struct{ ID, Content string }
			if json.Unmarshal(e.Data, &tuple) == nil && len(tuple) > 0 && json.Unmarshal(tuple[0], &chunk) == nil {
				tokens += chunk.Content
				tokenIDs[chunk.ID] = true
			}
		}
	}
	for card, n := range cards {
		if n != 1 {
			t.Errorf("card %s shown %d times", card, n)
		}
	}
	if len(cards) != 3 {
		t.Errorf("cards %v, want trip details, accommodations and restaurants", cards)
	}
	for node, n := range updates {
		if n != 1 {
			t.Errorf("%s's update sent %d times", node, n)
		}
	}
	state, err := st.Checkpoints.Latest(ctx, run.ThreadID)
	if err != nil {
		t.Fatal(err)
	}
	var final nodes.State
	if err := json.Unmarshal(state.State, &final); err != nil {
		t.Fatal(err)
	}
	var saved []string
	for _, c := range final.UI {
		saved = append(saved, c.Name+" "+c.ID)
	}
	for card := range cards {
		if !slices.Contains(saved, card) {
			t.Errorf("card %s was streamed, but the saved state has %v", card, saved)
		}
	}
	reply := final.Messages[len(final.Messages)-1]
	if tokens != reply.Content || len(tokenIDs) != 1 || !tokenIDs[reply.ID] {
		t.Errorf("streamed tokens %q under ids %v, want the reply %q once, under %s", tokens, tokenIDs, reply.Content, reply.ID)
	}
}

// A run whose worker died after the run stopped (at a breakpoint here; a
// pause for the traveller's answer is the same to the graph) but before
// its end was recorded is ended again as interrupted by the worker that
// takes it over, without running on.
func TestTakenOverRunStopsWhereItHadStopped(t *testing.T) {
	ctx := context.Background()
	gate := &plannertest.Gate{Started: make(chan string, 4)}
	r, st := testRunner(t, gate)
	r.Start()
	owner := newUser(t, st)
	created, err := st.ForOwner(owner).CreateThread(ctx, store.NewThread{})
	if err != nil {
		t.Fatal(err)
	}
	th := created.ID
	run := createJob(t, st, owner, th, Job{InterruptAfter: []string{nodes.NodeExtraction},
		Input: &nodes.Update{Messages: []nodes.Message{{ID: "m1", Type: nodes.Human, Content: plannertest.Lisbon}}}})
	if _, done := storetest.Finish(t, st, owner, run.ID); done.Status != store.RunInterrupted {
		t.Fatalf("the run ended %s, want interrupted at its breakpoint", done.Status)
	}
	head, err := st.Checkpoints.Latest(ctx, th)
	if err != nil {
		t.Fatal(err)
	}
	// As if its worker had died before recording the end: the run is still
	// running under a lease that lapsed.
	if _, err := st.Pool.Exec(ctx, `UPDATE runs SET status = 'running', finished_at = NULL, worker_id = 'dead',
		lease_expires_at = now() - interval '1 second' WHERE id = $1`, run.ID); err != nil {
		t.Fatal(err)
	}
	_, done := storetest.Finish(t, st, owner, run.ID)
	if done.Status != store.RunInterrupted || done.Attempts != 2 {
		t.Fatalf("the taken-over run ended %s after %d attempts, want interrupted after 2", done.Status, done.Attempts)
	}
	if len(gate.Started) != 0 {
		t.Error("the taken-over run went on to call the tools")
	}
	if after, err := st.Checkpoints.Latest(ctx, th); err != nil || after.ID != head.ID {
		t.Errorf("the thread's head moved from %s to %s (%v)", head.ID, after.ID, err)
	}
}

// A worker that died after saving a step's checkpoint but before that
// step's state reached the stream leaves the stream short; the worker
// that takes the run over writes what is missing, once, before it goes
// on.
func TestTakenOverRunStreamsEveryStepItSaved(t *testing.T) {
	ctx := context.Background()
	st := migratedStore(t)
	r := runnerOn(t, st, every(tripTools(false, nil)))
	r.Start()
	owner, run := queueTurn(t, st, plannertest.Lisbon)
	if _, done := storetest.Finish(t, st, owner, run.ID); done.Status != store.RunSuccess {
		t.Fatalf("run ended %s", done.Status)
	}
	stopNow(r)
	steps := valuesSteps(t, st, run.ID)
	if len(steps) < 3 {
		t.Fatalf("values of steps %v, want the input's and each node's", steps)
	}
	// The last step's state never reached the stream, and the worker died.
	last := steps[len(steps)-1]
	if _, err := st.Pool.Exec(ctx, `DELETE FROM run_events WHERE run_id = $1 AND event = 'values' AND position LIKE $2`,
		run.ID, last+".%"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Pool.Exec(ctx, `UPDATE runs SET status = 'running', finished_at = NULL, worker_id = 'gone',
		lease_expires_at = now() - interval '1 second' WHERE id = $1`, run.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ReclaimExpired(ctx, 3); err != nil {
		t.Fatal(err)
	}
	runnerOn(t, st, every(tripTools(false, nil))).Start()
	if _, done := storetest.Finish(t, st, owner, run.ID); done.Status != store.RunSuccess || done.Attempts != 2 {
		t.Fatalf("run ended %s after %d attempts, want success after 2", done.Status, done.Attempts)
	}
	if got := valuesSteps(t, st, run.ID); !slices.Equal(got, steps) {
		t.Errorf("values of steps %v after the takeover, want %v", got, steps)
	}
}

// valuesSteps are the steps of a run's values events, from their
// positions, in stream order.
func valuesSteps(t *testing.T, st *store.Store, runID string) []string {
	t.Helper()
	rows, err := st.Pool.Query(context.Background(),
		`SELECT split_part(position, '.', 1) FROM run_events WHERE run_id = $1 AND event = 'values' ORDER BY seq`, runID)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return steps
}
