package tenanttest

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store"
)

// Threads are created, found by metadata, status and id, paged and sorted,
// their metadata merged, and deleted one by one or by metadata.
func testThreads(t *testing.T, b Backend) {
	ctx := context.Background()
	mine, _, _, _ := two(t, b)
	var ids []string // oldest first
	for i := range 7 {
		th, err := mine.CreateThread(ctx, store.NewThread{Metadata: json.RawMessage(fmt.Sprintf(`{"trip":%q,"n":%d}`, []string{"lisbon", "kyoto"}[i%2], i))})
		if err != nil {
			t.Fatal(err)
		}
		if th.Status != store.ThreadIdle {
			t.Fatalf("a new thread is %s, want idle", th.Status)
		}
		ids = append(ids, th.ID)
	}
	chosen := uuid.NewString()
	if th, err := mine.CreateThread(ctx, store.NewThread{ID: chosen}); err != nil || th.ID != chosen {
		t.Fatalf("CreateThread with an id = %v, %v", th.ID, err)
	}
	for _, c := range []struct {
		name string
		nt   store.NewThread
		code errcode.Code
	}{
		{"an id in use", store.NewThread{ID: chosen}, errcode.Conflict},
		{"metadata that is an array", store.NewThread{Metadata: json.RawMessage(`[1]`)}, errcode.BadRequest},
		{"metadata that is no JSON", store.NewThread{Metadata: json.RawMessage(`{"a":`)}, errcode.BadRequest},
	} {
		if _, err := mine.CreateThread(ctx, c.nt); errcode.Of(err) != c.code {
			t.Errorf("creating a thread with %s: %v, want %s", c.name, err, c.code)
		}
	}

	lisbon := json.RawMessage(`{"trip":"lisbon"}`)
	for _, c := range []struct {
		name string
		q    store.ThreadQuery
		want []string
	}{
		{"first page", store.ThreadQuery{Metadata: lisbon, Limit: 2}, []string{ids[6], ids[4]}},
		{"second page", store.ThreadQuery{Metadata: lisbon, Limit: 2, Offset: 2}, []string{ids[2], ids[0]}},
		{"past the last page", store.ThreadQuery{Metadata: lisbon, Offset: 10}, nil},
		{"containment of two members", store.ThreadQuery{Metadata: json.RawMessage(`{"trip":"kyoto","n":3}`)}, []string{ids[3]}},
		{"no match", store.ThreadQuery{Metadata: json.RawMessage(`{"trip":"oslo"}`)}, nil},
		{"by status", store.ThreadQuery{Status: store.ThreadBusy}, nil},
		{"newest first", store.ThreadQuery{Limit: 3}, []string{chosen, ids[6], ids[5]}},
		{"oldest first", store.ThreadQuery{Limit: 2, SortBy: "created_at", SortOrder: "asc"}, []string{ids[0], ids[1]}},
		{"by ids", store.ThreadQuery{IDs: []string{ids[1], ids[5], uuid.NewString()}}, []string{ids[5], ids[1]}},
	} {
		t.Run(c.name, func(t *testing.T) {
			list, err := mine.SearchThreads(ctx, c.q)
			if err != nil {
				t.Fatal(err)
			}
			if got := threadIDs(list); !slices.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
	if n, err := mine.CountThreads(ctx, store.ThreadQuery{Metadata: lisbon, Limit: 1}); err != nil || n != 4 {
		t.Fatalf("count of lisbon threads: %d, %v; want 4, whatever the page", n, err)
	}
	for _, q := range []store.ThreadQuery{{SortBy: "mood"}, {SortOrder: "sideways"}, {Metadata: json.RawMessage(`"x"`)}} {
		if _, err := mine.SearchThreads(ctx, q); errcode.Of(err) != errcode.BadRequest {
			t.Errorf("searching with %+v: %v, want BAD_REQUEST", q, err)
		}
	}

	th, err := mine.UpdateThreadMetadata(ctx, ids[0], json.RawMessage(`{"title":"Lisbon in July","n":"first"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := (map[string]any{"trip": "lisbon", "n": "first", "title": "Lisbon in July"}); !holds(th.Metadata, want) {
		t.Fatalf("merged metadata %s, want %v", th.Metadata, want)
	}
	if got, _ := mine.Thread(ctx, ids[0]); !holds(got.Metadata, map[string]any{"trip": "lisbon", "n": "first", "title": "Lisbon in July"}) {
		t.Fatalf("the thread read back: %s", got.Metadata)
	}
	if _, err := mine.UpdateThreadMetadata(ctx, ids[0], json.RawMessage(`[]`)); errcode.Of(err) != errcode.BadRequest {
		t.Fatalf("merging an array: %v, want BAD_REQUEST", err)
	}
	if n, err := mine.DeleteThreadsWhere(ctx, json.RawMessage(`{"trip":"kyoto"}`)); err != nil || n != 3 {
		t.Fatalf("deleting the kyoto threads: %d, %v; want 3", n, err)
	}
	if n, _ := mine.CountThreads(ctx, store.ThreadQuery{}); n != 5 {
		t.Fatalf("threads left: %d, want 5", n)
	}
	if err := mine.DeleteThread(ctx, chosen); err != nil {
		t.Fatal(err)
	}
	if _, err := mine.Thread(ctx, chosen); errcode.Of(err) != errcode.NotFound {
		t.Fatalf("a deleted thread: %v, want NOT_FOUND", err)
	}
	if err := mine.DeleteThread(ctx, chosen); errcode.Of(err) != errcode.NotFound {
		t.Fatalf("deleting twice: %v, want NOT_FOUND", err)
	}
	if _, err := mine.Thread(ctx, "not-a-uuid"); errcode.Of(err) != errcode.NotFound {
		t.Fatalf("a malformed id: %v, want NOT_FOUND", err)
	}
}

func threadIDs(list []store.Thread) []string {
	var out []string
	for _, th := range list {
		out = append(out, th.ID)
	}
	return out
}

// holds reports whether raw holds the value want, whatever its spacing
// and member order.
func holds(raw json.RawMessage, want any) bool {
	var got, norm any
	if json.Unmarshal(raw, &got) != nil {
		return false
	}
	b, _ := json.Marshal(want)
	json.Unmarshal(b, &norm)
	return reflect.DeepEqual(got, norm)
}
