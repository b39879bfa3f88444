package tenant_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/crons"
	"github.com/tripgraph/tripgraph/store/items"
	"github.com/tripgraph/tripgraph/store/mcpservers"
	"github.com/tripgraph/tripgraph/testing/plannertest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// Everything one user has is NOT_FOUND through another user's tenant, and
// every list of it is empty:
// threads, runs and their events, checkpoints (read and written, by the
// checkpointer and by the planner), tool outputs, MCP servers and
// settings, crons and store items. Each read goes through the tenant itself, with no check before
// it, as the handlers and the runner use it.
func TestAnotherUsersIDsAreNotFound(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t, "tenant")
	guard, err := netguard.New(netguard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := tenant.Factory{Records: tenant.OnPostgres(st, mcpservers.Registry{Pool: st.Pool, Guard: guard}),
		Planner: plannertest.Planner(t), Tools: (&plannertest.Gate{}).Tools}
	ana, bob := user(t, st, "tenant-ana"), user(t, st, "tenant-bob")
	a, b := f.For(ana), f.For(bob)

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
	claimed, ok, err := st.ClaimRun(ctx, "tenant-worker", time.Minute)
	if err != nil || !ok || claimed.ID != run.ID {
		t.Fatalf("claiming ana's run: %+v, %v, %v", claimed, ok, err)
	}
	if _, err := st.AppendRunEvents(ctx, claimed.Lease(), []store.NewRunEvent{{Event: "values", Data: []byte(`{}`)}}); err != nil {
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
	if _, err := a.Thread(ctx, thread); err != nil {
		t.Errorf("the owner lost the thread: %v", err)
	}
}

func user(t *testing.T, st *store.Store, name string) string {
	t.Helper()
	u, err := st.Accounts.EnsureUser(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

func second[T any](_ T, err error) error { return err }

func third[S, T any](_ S, _ T, err error) error { return err }
