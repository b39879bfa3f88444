package tenanttest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/tripgraph/tripgraph/errcode"
)

// A large tool result is kept whole for its owner, byte for byte; another
// user's, a missing one and a malformed one are NOT_FOUND; a result with
// no server or tool, or not JSON, is refused.
func testToolOutputs(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, theirs, _, _ := two(t, b)
	data := json.RawMessage(`{"items": [1, 2, 3], "note": "kept as written"}`)
	id, err := mine.SaveToolOutput(ctx, "crm", "list_all", data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := mine.ToolOutput(ctx, id)
	if err != nil || got.ID != id || got.Server != "crm" || got.Tool != "list_all" || !holds(got.Data, map[string]any{"items": []any{1, 2, 3}, "note": "kept as written"}) || got.CreatedAt.IsZero() {
		t.Fatalf("the output read back: %+v, %v", got, err)
	}
	for _, c := range []struct{ name, id string }{{"another user's", ""}, {"a missing", "00000000-0000-0000-0000-000000000000"}, {"a malformed", "nope"}} {
		reader, want := mine, c.id
		if c.id == "" {
			reader, want = theirs, id
		}
		if _, err := reader.ToolOutput(ctx, want); errcode.Of(err) != errcode.NotFound {
			t.Errorf("%s output: %v, want NOT_FOUND", c.name, err)
		}
	}
	for _, c := range []struct {
		name, server, tool string
		data               json.RawMessage
	}{
		{"no server", "", "t", data},
		{"no tool", "crm", "", data},
		{"not JSON", "crm", "t", json.RawMessage(`{"a":`)},
	} {
		if _, err := mine.SaveToolOutput(ctx, c.server, c.tool, c.data); errcode.Of(err) != errcode.BadRequest {
			t.Errorf("an output with %s: %v, want BAD_REQUEST", c.name, err)
		}
	}
}
