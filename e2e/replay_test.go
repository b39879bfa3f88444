package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/locale"
	"github.com/tripgraph/tripgraph/model/offline"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/replay"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/storetest"
	"github.com/tripgraph/tripgraph/ui"
)

// A conversation the planner saved in PostgreSQL is replayed in the
// browser's timeline: every step is listed, each step renders the state
// it had, and the real components' props render without error, with the
// stay's total of nights × nightly price.
func TestTimelineOfSavedThread(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t, "e2e_replay")
	u, err := st.Accounts.EnsureUser(ctx, "traveller")
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
	cps := st.Checkpoints.ForOwner(u.ID)
	p, err := nodes.Build(nodes.Deps{Model: m, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	g := p.For(nodes.Traveller{Tools: tripTools()}, cps)
	for i, msg := range []string{"4 nights in Lisbon in May, 3 of us", "mostre fotos da praia"} {
		in := nodes.Update{Messages: []nodes.Message{{ID: "0190c0de-0000-7000-8000-00000000000" + string(rune('1'+i)), Type: nodes.Human, Content: msg}}}
		for _, err := range g.Run(ctx, graph.RunConfig[nodes.Update]{ThreadID: th.ID, Input: in}) {
			if err != nil {
				t.Fatal(err)
			}
		}
	}

	list, err := cps.List(ctx, th.ID, graph.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	steps, err := replay.Steps(list)
	if err != nil {
		t.Fatal(err)
	}
	stepURL := func(id string) string { return "/replay?checkpoint=" + id }
	newest := renderTimeline(t, ui.Timeline{Steps: steps, StepURL: stepURL})
	for _, want := range []string{`id="ui-`, "Casa Azul", `<strong class="total-amount">€360</strong>`, "Tasca do Chico",
		`data-cuisine="portuguese"`, `loading="lazy"`, "sunset at the beach", "mostre fotos da praia"} {
		if !strings.Contains(newest, want) {
			t.Errorf("the newest step lacks %q", want)
		}
	}
	if strings.Contains(newest, "cannot be shown") {
		t.Error("a component of the saved thread did not render")
	}
	for _, s := range steps {
		if !strings.Contains(newest, `href="`+stepURL(s.CheckpointID)+`"`) {
			t.Errorf("checkpoint %s (step %d) is not in the timeline", s.CheckpointID, s.Step)
		}
	}

	// The step after the first answer's trip details: no stays yet.
	var early replay.Step
	for _, s := range steps {
		if s.Change.TripDetails != nil && len(s.State.Messages) == 1 {
			early = s
		}
	}
	if early.CheckpointID == "" {
		t.Fatal("no step set the trip details before the first answer")
	}
	then := renderTimeline(t, ui.Timeline{Steps: steps, Selected: early.CheckpointID, StepURL: stepURL})
	_, conversation, _ := strings.Cut(then, `id="conversation"`)
	conversation, _, _ = strings.Cut(conversation, `<nav class="timeline"`) // the step list after it quotes later messages
	if !strings.Contains(conversation, "Lisbon, Portugal") || strings.Contains(conversation, "Casa Azul") || strings.Contains(conversation, "mostre fotos") {
		t.Errorf("the conversation at step %d is not the one before the answer:\n%s", early.Step, conversation)
	}
}

func renderTimeline(t *testing.T, tl ui.Timeline) string {
	t.Helper()
	var b bytes.Buffer
	if err := ui.TimelineView(tl).Render(english(), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func english() context.Context { return ui.WithLanguage(context.Background(), locale.English) }

// tripTools answer the planner's tools in process, from their arguments.
func tripTools() nodes.FuncTools {
	tool := func(name string, out any) nodes.FuncTool {
		return nodes.FuncTool{Tool: nodes.Tool{Name: name, Description: name, Card: plannertest.Card(name)}, Run: func(_ context.Context, raw json.RawMessage) (any, error) {
			var args map[string]any
			if err := json.Unmarshal(raw, &args); err != nil {
				return nil, err
			}
			return out, nil
		}}
	}
	return nodes.FuncTools{
		tool("list-accommodations", map[string]any{"location": "Lisbon", "covered": true, "accommodations": []map[string]any{
			{"id": "h1", "name": "Casa Azul", "nightlyPrice": 90, "currency": "EUR", "totalPrice": 360, "capacity": 4, "rating": 4.5}}}),
		tool("list-restaurants", map[string]any{"location": "Lisbon", "covered": true, "restaurants": []map[string]any{
			{"id": "r1", "name": "Tasca do Chico", "cuisine": "portuguese", "priceRange": "€€", "rating": 4.4, "distanceKm": 0.8}}}),
		tool("searchPhotosAcrossAlbums", map[string]any{"query": "praia", "total": 1, "photos": []map[string]any{
			{"id": "p1", "albumId": "al1", "url": "/media/p1.jpg", "thumbnailUrl": "/media/p1-t.jpg", "description": "sunset at the beach"}}}),
	}
}
