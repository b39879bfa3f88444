package tenanttest

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/assistants"
	"github.com/tripgraph/tripgraph/store/crons"
	"github.com/tripgraph/tripgraph/store/items"
	"github.com/tripgraph/tripgraph/store/mcpservers"
	"github.com/tripgraph/tripgraph/testing/plannertest"
)

// factory makes the backend's tenants, with the planner on the offline
// model and a gate's tools.
func factory(t *testing.T, b Backend) tenant.Factory {
	t.Helper()
	return tenant.Factory{Records: b.Records, Planner: plannertest.Planner(t), Tools: (&plannertest.Gate{}).Tools}
}

// Everything one user has is NOT_FOUND through another user's tenant, and
// every list of it is empty:
// threads, runs and their events, checkpoints (read and written, by the
// checkpointer and by the planner), tool outputs, MCP servers and
// settings, crons and store items. Each read goes through the tenant itself, with no check before
// it, as the handlers and the runner use it.
func testOwnerRule(t *testing.T, be Backend) {
	ctx := context.Background()
	f := factory(t, be)
	a, b := f.For(be.NewUser(t)), f.For(be.NewUser(t))

	// Ana's thread, with a turn of the planner (checkpoints), a run with an
	// event, a tool output and an MCP server.
	th, err := a.CreateThread(ctx, store.NewThread{})
	if err != nil {
		t.Fatal(err)
	}
	thread := th.ID
	if _, err := a.Planner.Invoke(ctx, graph.RunConfig[nodes.Update]{ThreadID: thread, Input: nodes.Update{
		Messages: []nodes.Message{{ID: uuid.NewString(), Type: nodes.Human, Content: plannertest.Lisbon}}}}); err != nil {
		t.Fatal(err)
	}
	run, err := a.CreateRun(ctx, thread, store.NewRun{})
	if err != nil {
		t.Fatal(err)
	}
	claimed, ok, err := be.Queue.ClaimRun(ctx, "tenant-worker", time.Minute)
	if err != nil || !ok || claimed.ID != run.ID {
		t.Fatalf("claiming ana's run: %+v, %v, %v", claimed, ok, err)
	}
	if _, err := be.Queue.AppendRunEvents(ctx, claimed.Lease(), []store.NewRunEvent{{Event: "values", Data: []byte(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	output, err := a.SaveToolOutput(ctx, "crm", "list", json.RawMessage(`[1]`))
	if err != nil {
		t.Fatal(err)
	}
	server, err := a.Servers.Create(ctx, mcpservers.Input{Name: "crm", URL: "https://crm.example.com/mcp", Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	_, head, err := a.Planner.GetState(ctx, thread, "")
	if err != nil {
		t.Fatal(err)
	}
	cron, err := a.Crons.Create(ctx, crons.NewCron{ThreadID: thread, AssistantID: nodes.GraphID, Schedule: "@daily", Job: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Items.Put(ctx, items.PutItem{Namespace: []string{"notes"}, Key: "k", Value: json.RawMessage(`{"v":"ana's"}`)}); err != nil {
		t.Fatal(err)
	}
	assistant, err := a.Assistants.Create(ctx, assistants.New{GraphID: nodes.GraphID, Name: "ana's"})
	if err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		resource string
		err      error
	}{
		{"thread", second(b.Thread(ctx, thread))},
		{"thread metadata", second(b.UpdateThreadMetadata(ctx, thread, json.RawMessage(`{"x":1}`)))},
		{"thread deletion", b.DeleteThread(ctx, thread)},
		{"run", second(b.Run(ctx, run.ID))},
		{"runs of the thread", second(b.CreateRun(ctx, thread, store.NewRun{}))},
		{"run cancellation", second(b.CancelRun(ctx, run.ID))},
		{"state through the planner", third(b.Planner.GetState(ctx, thread, ""))},
		{"state at a checkpoint", third(b.Planner.GetState(ctx, thread, head.ID))},
		{"checkpoint", second(b.Checkpoints.Get(ctx, thread, head.ID))},
		{"checkpoint write", b.Checkpoints.Put(ctx, graph.Checkpoint{ThreadID: thread, ID: uuid.Must(uuid.NewV7()).String(),
			ParentID: head.ID, State: []byte(`{}`)}, head.ID)},
		{"state update", second(b.Planner.UpdateState(ctx, thread, "", nodes.Update{}, graph.START))},
		{"tool output", second(b.ToolOutput(ctx, output))},
		{"MCP server", second(b.Servers.Get(ctx, server.ID))},
		{"MCP server change", second(b.Servers.Modify(ctx, server.ID, func(s mcpservers.Server) mcpservers.Input {
			return mcpservers.Input{Name: s.Name, URL: s.URL}
		}))},
		{"MCP server deletion", b.Servers.Delete(ctx, server.ID)},
		{"MCP settings naming the server", b.Servers.SetSettings(ctx, mcpservers.Settings{ToolMCP: true, ToolMCPServers: []string{server.ID}})},
		{"cron", second(b.Crons.Get(ctx, cron.ID))},
		{"cron change", second(b.Crons.Update(ctx, cron.ID, crons.Change{}))},
		{"cron deletion", b.Crons.Delete(ctx, cron.ID)},
		{"assistant", second(b.Assistants.Get(ctx, assistant.ID))},
		{"assistant change", second(b.Assistants.Update(ctx, assistant.ID, assistants.Patch{}))},
		{"assistant versions", second(b.Assistants.Versions(ctx, assistant.ID, nil, 10, 0))},
		{"assistant's latest version", second(b.Assistants.SetLatest(ctx, assistant.ID, 1))},
		{"assistant deletion", b.Assistants.Delete(ctx, assistant.ID)},
		{"cron on the thread", second(b.Crons.Create(ctx, crons.NewCron{ThreadID: thread, AssistantID: nodes.GraphID, Schedule: "@daily", Job: json.RawMessage(`{}`)}))},
	} {
		if errcode.Of(c.err) != errcode.NotFound {
			t.Errorf("%s: another user's id gave %v, want NOT_FOUND", c.resource, c.err)
		}
	}
	if list, err := b.Checkpoints.List(ctx, thread, graph.ListOptions{}); err != nil || len(list) != 0 {
		t.Errorf("another user lists %d checkpoints of the thread (%v)", len(list), err)
	}
	if list, err := b.RunEvents(ctx, run.ID, 0, 0); err != nil || len(list) != 0 {
		t.Errorf("another user reads %d events of the run (%v)", len(list), err)
	}
	if list, err := b.Servers.List(ctx); err != nil || len(list) != 0 {
		t.Errorf("another user lists %d MCP servers (%v)", len(list), err)
	}
	if _, ok, err := b.Items.Get(ctx, []string{"notes"}, "k", true); ok || err != nil {
		t.Errorf("another user reads the item (%v)", err)
	}
	if list, err := b.Items.Search(ctx, items.Query{}); err != nil || len(list) != 0 {
		t.Errorf("another user finds %d items (%v)", len(list), err)
	}
	if list, err := b.Crons.Search(ctx, crons.Query{}); err != nil || len(list) != 0 {
		t.Errorf("another user finds %d crons (%v)", len(list), err)
	}
	if list, _, err := b.Assistants.Search(ctx, assistants.Query{}); err != nil || len(list) != 0 {
		t.Errorf("another user finds %d assistants (%v)", len(list), err)
	}
	if list, err := b.Items.Namespaces(ctx, items.NamespaceQuery{}); err != nil || len(list) != 0 {
		t.Errorf("another user lists %d namespaces (%v)", len(list), err)
	}
	if _, err := a.Thread(ctx, thread); err != nil {
		t.Errorf("the owner lost the thread: %v", err)
	}
}

// turn runs one planner turn for the tenant, with its memory, as the
// runner does.
func turn(t *testing.T, tn tenant.Tenant, thread, text string) nodes.State {
	t.Helper()
	s, err := tn.RunPlanner(tn.Checkpoints).Invoke(context.Background(), graph.RunConfig[nodes.Update]{ThreadID: thread, Input: nodes.Update{
		Messages: []nodes.Message{{ID: uuid.NewString(), Type: nodes.Human, Content: text}}}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func lastAI(s nodes.State) string {
	for i := len(s.Messages) - 1; i >= 0; i-- {
		if s.Messages[i].Type == nodes.AI {
			return s.Messages[i].Content
		}
	}
	return ""
}

// With the traveller's consent, what they say of themselves is kept; a
// second conversation starts from it and says so; "forget" deletes it.
// Without consent nothing is kept, and another user's memory is apart.
func testMemory(t *testing.T, b Backend) {
	ctx := context.Background()
	f := factory(t, b)
	ana, bob := f.For(b.NewUser(t)), f.For(b.NewUser(t))

	// No consent yet: nothing is remembered.
	turn(t, ana, uuid.NewString(), "4 nights in Lisbon in May, 4 of us, from São Paulo")
	if p, _ := ana.Memory.Profile(ctx); !p.Empty() {
		t.Fatalf("remembered without consent: %+v", p)
	}

	if err := ana.Memory.SetConsent(ctx, true); err != nil {
		t.Fatal(err)
	}
	turn(t, ana, uuid.NewString(), "4 nights in Lisbon in May, 4 of us, from São Paulo, one of us is vegetarian")
	p, err := ana.Memory.Profile(ctx)
	if err != nil || p.PartySize != 4 || p.HomeCity != "São Paulo" || !slices.Equal(p.Diet, []string{"vegetarian"}) || p.Language != "en" {
		t.Fatalf("remembered %+v (%v)", p, err)
	}
	if p, _ := bob.Memory.Profile(ctx); !p.Empty() {
		t.Errorf("bob's memory holds %+v", p)
	}

	// A second conversation: the party comes from the profile, and the
	// answer says so.
	second := uuid.NewString()
	s := turn(t, ana, second, "3 nights in Porto in June")
	if s.TripDetails == nil || s.TripDetails.NumberOfGuests != 4 || slices.Contains(s.Assumed, nodes.FieldGuests) {
		t.Fatalf("the second trip: %+v assumed %v", s.TripDetails, s.Assumed)
	}
	if got := lastAI(s); !strings.Contains(got, "4 of you again, from São Paulo?") {
		t.Errorf("the answer does not say what it remembered: %q", got)
	}
	// A party stated wins, and is remembered.
	s = turn(t, ana, uuid.NewString(), "3 nights in Porto in June, 2 of us")
	if s.TripDetails.NumberOfGuests != 2 || strings.Contains(lastAI(s), "again") {
		t.Errorf("a stated party: %d guests, %q", s.TripDetails.NumberOfGuests, lastAI(s))
	}
	if p, _ := ana.Memory.Profile(ctx); p.PartySize != 2 {
		t.Errorf("the party remembered after a new one was stated: %d", p.PartySize)
	}

	// Forget, in the middle of a conversation.
	s = turn(t, ana, second, "esqueça meus dados")
	if p, _ := ana.Memory.Profile(ctx); !p.Empty() {
		t.Errorf("after forget: %+v", p)
	}
	if !s.Forgotten || !strings.Contains(lastAI(s), "esqueci o que sabia sobre você") {
		t.Errorf("the answer to forget: %q (forgotten %v)", lastAI(s), s.Forgotten)
	}
	turn(t, ana, second, "4 nights in Lisbon in May, 4 of us, from São Paulo")
	if p, _ := ana.Memory.Profile(ctx); !p.Empty() {
		t.Errorf("a conversation that asked to be forgotten was remembered: %+v", p)
	}

	// Withdrawing consent forgets too.
	turn(t, ana, uuid.NewString(), "Lisbon in May, 3 of us")
	if err := ana.Memory.SetConsent(ctx, false); err != nil {
		t.Fatal(err)
	}
	if p, _ := ana.Memory.Profile(ctx); !p.Empty() {
		t.Errorf("after consent was withdrawn: %+v", p)
	}
}

func third[S, T any](_ S, _ T, err error) error { return err }
