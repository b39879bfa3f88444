package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/model/offline"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// fakeTools answer the planner's trip tools from their arguments.
func fakeTools() nodes.FuncTools {
	tool := func(name string, out func(args map[string]any) any) nodes.FuncTool {
		return nodes.FuncTool{Tool: nodes.Tool{Name: name, Description: name, Card: plannertest.Card(name)}, Run: func(_ context.Context, raw json.RawMessage) (any, error) {
			var args map[string]any
			if err := json.Unmarshal(raw, &args); err != nil {
				return nil, errcode.New(errcode.BadRequest, "arguments are not JSON")
			}
			return out(args), nil
		}}
	}
	return nodes.FuncTools{
		tool("list-accommodations", func(a map[string]any) any {
			return map[string]any{"location": a["location"], "covered": true, "accommodations": []map[string]any{
				{"id": "h1", "name": "Casa Azul", "nightlyPrice": 90, "currency": "EUR", "totalPrice": 360, "capacity": 4, "rating": 4.5}}}
		}),
		tool("list-restaurants", func(a map[string]any) any {
			return map[string]any{"location": a["location"], "covered": true, "restaurants": []map[string]any{
				{"id": "r1", "name": "Tasca do Chico", "cuisine": "portuguese", "priceRange": "€€", "rating": 4.4, "distanceKm": 0.8}}}
		}),
	}
}

// plannedThread runs one real turn of the planner (offline model, fake
// tools) on a new thread whose checkpoints go to PostgreSQL.
func plannedThread(t *testing.T, st *store.Store, message string) string {
	t.Helper()
	ctx := context.Background()
	u, err := st.Accounts.EnsureUser(ctx, "replay-tester")
	if err != nil {
		t.Fatal(err)
	}
	th, err := st.ForOwner(u.ID).CreateThread(ctx, store.NewThread{})
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC) }
	m, err := offline.New(offline.WithClock(now))
	if err != nil {
		t.Fatal(err)
	}
	p, err := nodes.Build(nodes.Deps{Model: m, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	g := p.For(nodes.Traveller{Tools: fakeTools()}, st.Checkpoints.ForOwner(u.ID))
	input := nodes.Update{Messages: []nodes.Message{{ID: "0190c0de-0000-7000-8000-000000000001", Type: nodes.Human, Content: message}}}
	for _, err := range g.Run(ctx, graph.RunConfig[nodes.Update]{ThreadID: th.ID, Input: input}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	return th.ID
}

// TestReplayPrintsThread replays a thread the planner wrote to PostgreSQL:
// every checkpoint with what changed, and the conversation at the newest
// or at a chosen checkpoint.
func TestReplayPrintsThread(t *testing.T) {
	pgtest.Skip(t)
	st := storetest.Open(t, "cmd")
	ctx := context.Background()
	thread := plannedThread(t, st, "4 nights in Lisbon in May, 3 of us")
	cps := st.Checkpoints // not scoped to the owner: an operator's view
	list, err := cps.List(ctx, thread, graph.ListOptions{})
	if err != nil || len(list) < 3 {
		t.Fatalf("the run saved %d checkpoints (%v), want at least 3", len(list), err)
	}

	var out bytes.Buffer
	if err := printReplay(ctx, cps, thread, "", &out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"thread " + thread + ": ",
		"step 0   You", "your message", `replied “`,
		"callTools", "added the places to stay", "added the restaurants",
		"added the trip details", "trip details changed: Lisbon, Portugal",
		"conversation at step " + strconv.Itoa(list[0].Step) + " (checkpoint " + list[0].ID + ")",
		"you: 4 nights in Lisbon in May, 3 of us",
		"▸ trip-details  Lisbon, Portugal · 2026-05-",
		"Casa Azul", "Tasca do Chico", "assistant: ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	if marked := markedLine(text); !strings.Contains(marked, list[0].ID) {
		t.Errorf("the marked step is %q, want the newest checkpoint %s", marked, list[0].ID)
	}
	if got := strings.Count(text, " step ") - 1; got != len(list)-1 { // the input pending is not a step shown
		t.Errorf("%d steps printed before the conversation, want %d", got, len(list)-1)
	}

	first := list[len(list)-2] // the input applied
	out.Reset()
	if err := printReplay(ctx, cps, thread, first.ID, &out); err != nil {
		t.Fatal(err)
	}
	_, conv, _ := strings.Cut(out.String(), "\nconversation at step")
	if !strings.Contains(conv, "you: 4 nights in Lisbon") || strings.Contains(conv, "assistant:") || strings.Contains(conv, "▸") {
		t.Errorf("the conversation at the first checkpoint is not the input alone:\n%s", conv)
	}
}

// TestReplayCommand runs the command as an operator would: it finds the
// database from DATABASE_URL and reads a thread whoever owns it.
func TestReplayCommand(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Database(t, "cmd_replay")
	t.Setenv("DATABASE_URL", url)
	st, err := openStore(ctx, config.Database{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	thread := plannedThread(t, st, "restaurants in Porto")
	var out bytes.Buffer
	if err := replayCommand(ctx, envConfig(t), []string{thread}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "added the restaurants") || !strings.Contains(out.String(), "you: restaurants in Porto") {
		t.Errorf("replay printed\n%s", out.String())
	}
	if err := replayCommand(ctx, envConfig(t), nil, &out); err == nil {
		t.Error("replay without a thread succeeded")
	}
}

func TestReplayErrors(t *testing.T) {
	pgtest.Skip(t)
	st := storetest.Open(t, "cmd")
	ctx := context.Background()
	thread := plannedThread(t, st, "restaurants in Porto")
	cps := st.Checkpoints
	tests := []struct {
		name, thread, checkpoint string
	}{
		{"unknown thread", "0190c0de-0000-7000-8000-00000000ffff", ""},
		{"unknown checkpoint", thread, "0190c0de-0000-7000-8000-00000000ffff"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := printReplay(ctx, cps, tt.thread, tt.checkpoint, &out); errcode.Of(err) != errcode.NotFound {
				t.Errorf("err = %v, want NOT_FOUND", err)
			}
		})
	}
}

func TestReplayArgs(t *testing.T) {
	tests := []struct {
		args               []string
		thread, checkpoint string
		ok                 bool
	}{
		{[]string{"t1"}, "t1", "", true},
		{[]string{"t1", "--checkpoint", "c1"}, "t1", "c1", true},
		{[]string{"--checkpoint=c1", "t1"}, "t1", "c1", true},
		{nil, "", "", false},
		{[]string{"t1", "t2"}, "", "", false},
		{[]string{"--checkpoint"}, "", "", false},
	}
	for _, tt := range tests {
		thread, cp, err := replayArgs(tt.args)
		if (err == nil) != tt.ok || thread != tt.thread || cp != tt.checkpoint {
			t.Errorf("replayArgs(%q) = %q, %q, %v", tt.args, thread, cp, err)
		}
	}
}

// markedLine is the step line marked as the one shown.
func markedLine(text string) string {
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, "▶") {
			return line
		}
	}
	return ""
}
