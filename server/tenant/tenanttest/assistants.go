package tenanttest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store/assistants"
)

// testAssistants is the users' assistants: versions made by every change,
// listed and made current again; what is refused; searches, sorts and
// counts; each user's apart.
func testAssistants(t *testing.T, b Backend) {
	subtests(t, b, []subtest{
		{"versions", assistantsVersions},
		{"refusals", assistantsRefusals},
		{"search and count", assistantsSearch},
		{"owner rule", assistantsOwnerRule},
		{"ids", assistantsIDs},
	})
}

// newAssistant creates an assistant of the user's.
func newAssistant(t *testing.T, r tenant.Records, n assistants.New) assistants.Assistant {
	t.Helper()
	a, err := r.Assistants.Create(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// An assistant is created at version 1, named Untitled when it has no
// name; every update makes a new version, the highest plus one, even one
// that changes nothing (metadata merged, the rest replaced); versions are
// listed newest first, by metadata, paged; an older version can be made
// current again; delete takes every version.
func assistantsVersions(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t))
	o := mine.Assistants
	a := newAssistant(t, mine, assistants.New{GraphID: "trip-planner", Config: json.RawMessage(`{"configurable":{"model":"a"}}`),
		Metadata: json.RawMessage(`{"team":"x"}`)})
	if a.Version != 1 || a.Name != assistants.Untitled || a.Description != nil || a.GraphID != "trip-planner" ||
		!sameJSON(a.Context, []byte(`{}`)) || !sameJSON(a.Config, []byte(`{"configurable":{"model":"a"}}`)) ||
		!a.UpdatedAt.Equal(a.CreatedAt) {
		t.Fatalf("created %+v", a)
	}
	time.Sleep(time.Millisecond)
	up, err := o.Update(ctx, a.ID, assistants.Patch{Name: ptr("woof"), Description: ptr("bar"), Context: json.RawMessage(`{"k":1}`),
		Metadata: json.RawMessage(`{"name":"woof"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if up.Version != 2 || up.Name != "woof" || up.Description == nil || *up.Description != "bar" ||
		!sameJSON(up.Metadata, []byte(`{"team":"x","name":"woof"}`)) || !sameJSON(up.Config, a.Config) ||
		!sameJSON(up.Context, []byte(`{"k":1}`)) || !up.CreatedAt.Equal(a.CreatedAt) || !up.UpdatedAt.After(a.UpdatedAt) {
		t.Fatalf("updated %+v (metadata %s)", up, up.Metadata)
	}
	if c, err := o.Update(ctx, a.ID, assistants.Patch{}); err != nil || c.Version != 3 || c.Name != "woof" {
		t.Fatalf("an empty update: %+v, %v; want version 3", c, err)
	}
	if got, err := o.Get(ctx, a.ID); err != nil || got.Version != 3 {
		t.Fatalf("read back: %+v, %v", got, err)
	}
	versions, err := o.Versions(ctx, a.ID, nil, 10, 0)
	if err != nil || len(versions) != 3 {
		t.Fatalf("versions %+v, %v", versions, err)
	}
	for i, v := range versions {
		if v.Version != 3-i || v.AssistantID != a.ID {
			t.Errorf("version %d of the list is %d of %s", i, v.Version, v.AssistantID)
		}
	}
	if v := versions[2]; v.Name != assistants.Untitled || !sameJSON(v.Metadata, []byte(`{"team":"x"}`)) || v.Description != nil {
		t.Errorf("version 1 as listed: %+v", v)
	}
	for _, c := range []struct {
		name          string
		metadata      json.RawMessage
		limit, offset int
		want          []int
	}{
		{"by metadata", json.RawMessage(`{"name":"woof"}`), 10, 0, []int{3, 2}},
		{"by metadata none has", json.RawMessage(`{"name":"miau"}`), 10, 0, []int{}},
		{"a page", nil, 1, 1, []int{2}},
		{"no limit is ten", nil, 0, 0, []int{3, 2, 1}},
	} {
		list, err := o.Versions(ctx, a.ID, c.metadata, c.limit, c.offset)
		got := []int{}
		for _, v := range list {
			got = append(got, v.Version)
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("versions %s: %v (%v), want %v", c.name, got, err, c.want)
		}
	}
	back, err := o.SetLatest(ctx, a.ID, 1)
	if err != nil || back.Version != 1 || back.Name != assistants.Untitled || back.Description != nil ||
		!sameJSON(back.Metadata, []byte(`{"team":"x"}`)) || !sameJSON(back.Context, []byte(`{}`)) {
		t.Fatalf("set latest 1: %+v, %v", back, err)
	}
	if got, _ := o.Get(ctx, a.ID); got.Version != 1 || got.Name != assistants.Untitled {
		t.Errorf("read after going back: %+v", got)
	}
	if next, err := o.Update(ctx, a.ID, assistants.Patch{}); err != nil || next.Version != 4 || next.Name != assistants.Untitled {
		t.Fatalf("an update after going back: %+v, %v; want version 4 from version 1", next, err)
	}
	_, err = o.SetLatest(ctx, a.ID, 9)
	wantCode(t, "a version that does not exist", err, errcode.NotFound)
	for _, v := range []int{0, -1, math.MaxInt32 + 1, 99999999999, math.MaxInt64, math.MinInt64} {
		_, err = o.SetLatest(ctx, a.ID, v)
		wantCode(t, fmt.Sprintf("version %d", v), err, errcode.NotFound)
	}
	if err := o.Delete(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	_, err = o.Get(ctx, a.ID)
	wantCode(t, "a deleted assistant", err, errcode.NotFound)
	_, err = o.Versions(ctx, a.ID, nil, 10, 0)
	wantCode(t, "a deleted assistant's versions", err, errcode.NotFound)
	_, err = o.SetLatest(ctx, a.ID, 1)
	wantCode(t, "a deleted assistant's set latest", err, errcode.NotFound)
	wantCode(t, "deleting it again", o.Delete(ctx, a.ID), errcode.NotFound)
}

// A config, context or metadata that is not a JSON object, a
// client-chosen id that is not a UUID, and a search by an unknown column
// or direction are BAD_REQUESTs; a refused update makes no version.
func assistantsRefusals(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t))
	o := mine.Assistants
	for _, c := range []struct {
		name string
		n    assistants.New
	}{
		{"a config array", assistants.New{GraphID: "g", Config: json.RawMessage(`[1]`)}},
		{"a context string", assistants.New{GraphID: "g", Context: json.RawMessage(`"x"`)}},
		{"metadata not JSON", assistants.New{GraphID: "g", Metadata: json.RawMessage(`{`)}},
		{"an id not a UUID", assistants.New{GraphID: "g", ID: "my-assistant"}},
	} {
		_, err := o.Create(ctx, c.n)
		wantCode(t, c.name, err, errcode.BadRequest)
	}
	if n, _ := o.Count(ctx, assistants.Query{}); n != 0 {
		t.Errorf("refused assistants were stored: %d", n)
	}
	a := newAssistant(t, mine, assistants.New{GraphID: "g", Config: json.RawMessage(`null`)})
	if !sameJSON(a.Config, []byte(`{}`)) {
		t.Errorf("a null config is kept as %s, want {}", a.Config)
	}
	for _, p := range []assistants.Patch{{Config: json.RawMessage(`[1]`)}, {Metadata: json.RawMessage(`[1]`)}, {Context: json.RawMessage(`1`)}} {
		_, err := o.Update(ctx, a.ID, p)
		wantCode(t, "a patch with a member not an object", err, errcode.BadRequest)
	}
	if got, _ := o.Get(ctx, a.ID); got.Version != 1 {
		t.Errorf("refused updates made version %d", got.Version)
	}
	for _, q := range []assistants.Query{{SortBy: "version"}, {SortOrder: "up"}, {Metadata: json.RawMessage(`[1]`)}} {
		_, _, err := o.Search(ctx, q)
		wantCode(t, "a search "+q.SortBy+q.SortOrder+string(q.Metadata), err, errcode.BadRequest)
	}
	_, err := o.Count(ctx, assistants.Query{Metadata: json.RawMessage(`"x"`)})
	wantCode(t, "a count by metadata not an object", err, errcode.BadRequest)
	_, err = o.Versions(ctx, a.ID, json.RawMessage(`[1]`), 10, 0)
	wantCode(t, "versions by metadata not an object", err, errcode.BadRequest)
}

// A search filters by graph, by a part of the name whatever its case, and
// by metadata; sorts by a column in either direction, then by id; pages;
// and counts all that match.
func assistantsSearch(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t))
	o := mine.Assistants
	var made []assistants.Assistant
	for _, n := range []assistants.New{
		{GraphID: "trip-planner", Name: "lisbon helper"},
		{GraphID: "trip-planner", Name: "porto", Metadata: json.RawMessage(`{"k":1,"tags":["a","b"]}`)},
		{GraphID: "other", Name: "LISBON"},
	} {
		made = append(made, newAssistant(t, mine, n))
		time.Sleep(time.Millisecond) // created one after the other
	}
	lisbon, porto, upper := made[0], made[1], made[2]
	time.Sleep(time.Millisecond)
	if _, err := o.Update(ctx, lisbon.ID, assistants.Patch{}); err != nil { // updated last
		t.Fatal(err)
	}
	ids := func(list ...assistants.Assistant) []string {
		out := []string{}
		for _, a := range list {
			out = append(out, a.ID)
		}
		return out
	}
	byID := slices.Sorted(slices.Values(ids(made...)))
	sameGraph := slices.Sorted(slices.Values(ids(lisbon, porto))) // tied on their graph: by id
	for _, c := range []struct {
		name  string
		q     assistants.Query
		want  []string
		total int
	}{
		{"all, newest first", assistants.Query{}, ids(upper, porto, lisbon), 3},
		{"a name's part, any case", assistants.Query{Name: "Lisbon", SortBy: "name", SortOrder: "asc"}, ids(upper, lisbon), 2},
		{"a graph, names descending", assistants.Query{GraphID: "trip-planner", SortBy: "name", SortOrder: "desc"}, ids(porto, lisbon), 2},
		{"metadata", assistants.Query{Metadata: json.RawMessage(`{"k":1}`)}, ids(porto), 1},
		{"metadata, an array's element", assistants.Query{Metadata: json.RawMessage(`{"tags":["b"]}`)}, ids(porto), 1},
		{"metadata none has", assistants.Query{Metadata: json.RawMessage(`{"k":2}`)}, ids(), 0},
		{"graph, ascending, then id", assistants.Query{SortBy: "graph_id", SortOrder: "asc"}, append(ids(upper), sameGraph...), 3},
		{"graph, descending, then id", assistants.Query{SortBy: "graph_id"}, append(reversed(sameGraph), upper.ID), 3},
		{"created, oldest first", assistants.Query{SortBy: "created_at", SortOrder: "asc"}, ids(lisbon, porto, upper), 3},
		{"updated, latest first", assistants.Query{SortBy: "updated_at"}, ids(lisbon, upper, porto), 3},
		{"id, ascending", assistants.Query{SortBy: "assistant_id", SortOrder: "asc"}, byID, 3},
		{"id, descending", assistants.Query{SortBy: "assistant_id", SortOrder: "desc"}, reversed(byID), 3},
		{"a page", assistants.Query{SortBy: "name", SortOrder: "asc", Limit: 1, Offset: 1}, ids(lisbon), 3},
		{"a page past the end", assistants.Query{Offset: 3}, ids(), 3},
	} {
		list, total, err := o.Search(ctx, c.q)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got := ids(list...)
		if !slices.Equal(got, c.want) || total != c.total {
			t.Errorf("%s: %q of %d, want %q of %d", c.name, got, total, c.want, c.total)
		}
		if n, err := o.Count(ctx, c.q); err != nil || n != c.total {
			t.Errorf("%s: counts %d (%v), want %d", c.name, n, err, c.total)
		}
	}
}

// Another user's assistants are not found by my searches, and their ids
// are NOT_FOUND through me for every call, whatever I send; an id they
// took is a CONFLICT for me too.
func assistantsOwnerRule(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, theirs, _, _ := two(t, b)
	theirsA := newAssistant(t, theirs, assistants.New{GraphID: "trip-planner", Name: "Lisbon"})
	if list, total, err := mine.Assistants.Search(ctx, assistants.Query{}); err != nil || len(list) != 0 || total != 0 {
		t.Errorf("my search finds %d of %d (%v)", len(list), total, err)
	}
	if n, _ := mine.Assistants.Count(ctx, assistants.Query{Name: "lisbon"}); n != 0 {
		t.Errorf("my count finds %d", n)
	}
	for name, err := range map[string]error{
		"get":         second(mine.Assistants.Get(ctx, theirsA.ID)),
		"update":      second(mine.Assistants.Update(ctx, theirsA.ID, assistants.Patch{Name: ptr("mine")})),
		"delete":      mine.Assistants.Delete(ctx, theirsA.ID),
		"versions":    second(mine.Assistants.Versions(ctx, theirsA.ID, nil, 10, 0)),
		"set latest":  second(mine.Assistants.SetLatest(ctx, theirsA.ID, 1)),
		"a malformed": second(mine.Assistants.Get(ctx, "not-a-uuid")),
	} {
		wantCode(t, name+" of another user's assistant", err, errcode.NotFound)
	}
	_, err := mine.Assistants.Create(ctx, assistants.New{ID: theirsA.ID, GraphID: "trip-planner"})
	wantCode(t, "an id another user took", err, errcode.Conflict)
	if got, err := theirs.Assistants.Get(ctx, theirsA.ID); err != nil || got.Name != "Lisbon" || got.Version != 1 {
		t.Errorf("their assistant after my attempts: %+v (%v)", got, err)
	}
}

// A client may choose an assistant's id, a UUID, which is kept in its
// canonical form; one that exists is a CONFLICT.
func assistantsIDs(t *testing.T, b Backend) {
	ctx := context.Background()
	mine := b.Records(b.NewUser(t))
	id := uuid.NewString()
	a := newAssistant(t, mine, assistants.New{ID: strings.ToUpper(id), GraphID: "trip-planner"})
	if a.ID != id {
		t.Errorf("created with id %s, want %s", a.ID, id)
	}
	if got, err := mine.Assistants.Get(ctx, id); err != nil || got.ID != id {
		t.Errorf("get by its id: %+v (%v)", got, err)
	}
	_, err := mine.Assistants.Create(ctx, assistants.New{ID: id, GraphID: "trip-planner"})
	wantCode(t, "an id taken", err, errcode.Conflict)
	if own := newAssistant(t, mine, assistants.New{GraphID: "trip-planner"}); uuid.Validate(own.ID) != nil || own.ID == id {
		t.Errorf("an id of the store's own: %q", own.ID)
	}
}
