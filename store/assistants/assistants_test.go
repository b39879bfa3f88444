package assistants

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
)

func wantCode(t *testing.T, what string, err error, code errcode.Code) {
	t.Helper()
	if err == nil || errcode.Of(err) != code {
		t.Fatalf("%s: %v, want %s", what, err, code)
	}
}

func ptr[T any](v T) *T { return &v }

// An assistant is created at version 1, named Untitled when it has no
// name; every update makes a new version (metadata merged, the rest
// replaced); an older version can be made current again; delete takes
// every version.
func TestAssistantLifecycle(t *testing.T) {
	ctx := context.Background()
	o := openTestStore(t, "ann")[0]
	a, err := o.Create(ctx, New{GraphID: "trip-planner", Config: json.RawMessage(`{"configurable":{"model":"a"}}`), Metadata: json.RawMessage(`{"team":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if a.Version != 1 || a.Name != Untitled || a.Description != nil || string(a.Context) != "{}" {
		t.Fatalf("created %+v", a)
	}
	b, err := o.Update(ctx, a.ID, Patch{Name: ptr("woof"), Description: ptr("bar"), Metadata: json.RawMessage(`{"name":"woof"}`)})
	if err != nil {
		t.Fatal(err)
	}
	var meta map[string]string
	json.Unmarshal(b.Metadata, &meta)
	if b.Version != 2 || b.Name != "woof" || *b.Description != "bar" || meta["team"] != "x" || meta["name"] != "woof" ||
		string(b.Config) != `{"configurable": {"model": "a"}}` {
		t.Fatalf("updated %+v (metadata %v, config %s)", b, meta, b.Config)
	}
	if c, err := o.Update(ctx, a.ID, Patch{}); err != nil || c.Version != 3 {
		t.Fatalf("an empty update: %+v, %v; want version 3", c, err)
	}
	versions, err := o.Versions(ctx, a.ID, nil, 10, 0)
	if err != nil || len(versions) != 3 || versions[0].Version != 3 || versions[2].Version != 1 {
		t.Fatalf("versions %+v, %v", versions, err)
	}
	if named, _ := o.Versions(ctx, a.ID, json.RawMessage(`{"name":"woof"}`), 10, 0); len(named) != 2 {
		t.Fatalf("versions with metadata name=woof: %d, want 2", len(named))
	}
	if paged, _ := o.Versions(ctx, a.ID, nil, 1, 1); len(paged) != 1 || paged[0].Version != 2 {
		t.Fatalf("versions limit 1 offset 1: %+v", paged)
	}
	back, err := o.SetLatest(ctx, a.ID, 1)
	if err != nil || back.Version != 1 || back.Name != Untitled {
		t.Fatalf("set latest 1: %+v, %v", back, err)
	}
	if next, err := o.Update(ctx, a.ID, Patch{}); err != nil || next.Version != 4 {
		t.Fatalf("an update after going back: %+v, %v; want version 4", next, err)
	}
	_, err = o.SetLatest(ctx, a.ID, 9)
	wantCode(t, "a version that does not exist", err, errcode.NotFound)
	if err := o.Delete(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	_, err = o.Get(ctx, a.ID)
	wantCode(t, "a deleted assistant", err, errcode.NotFound)
	_, err = o.Versions(ctx, a.ID, nil, 10, 0)
	wantCode(t, "a deleted assistant's versions", err, errcode.NotFound)
}

// Search filters by graph, by a part of the name whatever its case, and
// by metadata, sorts and pages, and counts all that match; another user's
// assistants are not there, and their ids are NOT_FOUND.
func TestAssistantsPerUser(t *testing.T) {
	ctx := context.Background()
	owners := openTestStore(t, "bea", "cal")
	bea, cal := owners[0], owners[1]
	for _, n := range []New{{GraphID: "trip-planner", Name: "Lisbon helper"}, {GraphID: "trip-planner", Name: "Porto", Metadata: json.RawMessage(`{"k":1}`)}, {GraphID: "other", Name: "LISBON"}} {
		if _, err := bea.Create(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	calsOwn, err := cal.Create(ctx, New{GraphID: "trip-planner", Name: "Lisbon"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		q     Query
		names []string
		total int
	}{
		{Query{Name: "lisbon", SortBy: "name", SortOrder: "asc"}, []string{"LISBON", "Lisbon helper"}, 2},
		{Query{GraphID: "trip-planner", SortBy: "name", SortOrder: "desc"}, []string{"Porto", "Lisbon helper"}, 2},
		{Query{Metadata: json.RawMessage(`{"k":1}`)}, []string{"Porto"}, 1},
		{Query{SortBy: "name", SortOrder: "asc", Limit: 1, Offset: 1}, []string{"Lisbon helper"}, 3},
	}
	for _, tt := range tests {
		list, total, err := bea.Search(ctx, tt.q)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, a := range list {
			names = append(names, a.Name)
		}
		if total != tt.total || len(names) != len(tt.names) || (len(names) > 0 && names[0] != tt.names[0]) {
			t.Errorf("search %+v: %v of %d, want %v of %d", tt.q, names, total, tt.names, tt.total)
		}
	}
	if n, _ := bea.Count(ctx, Query{GraphID: "trip-planner"}); n != 2 {
		t.Errorf("count: %d, want 2", n)
	}
	_, err = bea.Get(ctx, calsOwn.ID)
	wantCode(t, "another user's assistant", err, errcode.NotFound)
	_, err = bea.Update(ctx, calsOwn.ID, Patch{})
	wantCode(t, "updating another user's assistant", err, errcode.NotFound)
	wantCode(t, "deleting another user's assistant", bea.Delete(ctx, calsOwn.ID), errcode.NotFound)
	_, err = bea.Create(ctx, New{ID: calsOwn.ID, GraphID: "trip-planner"})
	wantCode(t, "an id taken", err, errcode.Conflict)
	_, err = bea.Get(ctx, "not-a-uuid")
	wantCode(t, "a malformed id", err, errcode.NotFound)
	mine := uuid.NewString()
	if a, err := bea.Create(ctx, New{ID: mine, GraphID: "trip-planner"}); err != nil || a.ID != mine {
		t.Fatalf("create with an id: %+v, %v", a, err)
	}
}
