package store

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/errcode"
)

func TestToolOutputs(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	ana, _ := s.Accounts.EnsureUser(ctx, "outputs-ana")
	bob, _ := s.Accounts.EnsureUser(ctx, "outputs-bob")
	data := json.RawMessage(`{"items": [ {"id":1}, {"id":2} ],  "z":"ø", "a": 1.50}`)
	id, err := s.ForOwner(ana.ID).SaveToolOutput(ctx, "crm", "list_all", data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.ForOwner(ana.ID).ToolOutput(ctx, id)
	if err != nil || got.Server != "crm" || got.Tool != "list_all" || !bytes.Equal(got.Data, data) {
		t.Fatalf("ToolOutput = %+v (%s), %v; want the bytes as saved", got, got.Data, err)
	}
	_, err = s.ForOwner(bob.ID).ToolOutput(ctx, id)
	wantCode(t, "bob reads ana's output", err, errcode.NotFound)
	_, err = s.ForOwner(ana.ID).ToolOutput(ctx, "nope")
	wantCode(t, "a malformed id", err, errcode.NotFound)
	for _, tt := range []struct {
		server, tool string
		data         json.RawMessage
	}{{"crm", "t", json.RawMessage(`{"a":`)}, {"", "t", data}, {"crm", "", data}} {
		_, err := s.ForOwner(ana.ID).SaveToolOutput(ctx, tt.server, tt.tool, tt.data)
		wantCode(t, "saving "+string(tt.data), err, errcode.BadRequest)
	}
	_, err = s.ForOwner("00000000-0000-0000-0000-000000000000").SaveToolOutput(ctx, "crm", "t", data)
	wantCode(t, "an output for no user", err, errcode.NotFound)

	if _, err := s.Pool.Exec(ctx, `UPDATE tool_outputs SET created_at = now() - interval '2 days' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	fresh, _ := s.ForOwner(ana.ID).SaveToolOutput(ctx, "crm", "t", json.RawMessage(`[]`))
	n, err := s.PruneToolOutputs(ctx, time.Now().Add(-24*time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("PruneToolOutputs = %d, %v; want 1", n, err)
	}
	if _, err := s.ForOwner(ana.ID).ToolOutput(ctx, fresh); err != nil {
		t.Fatalf("a fresh output was pruned: %v", err)
	}
}
