package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
)

func TestThreadsCreateSearchPage(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	u, err := s.Accounts.EnsureUser(ctx, "thread-search")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string // oldest first
	for i := range 7 {
		th, err := s.ForOwner(u.ID).CreateThread(ctx, NewThread{Metadata: json.RawMessage(fmt.Sprintf(`{"trip":%q,"n":%d}`, []string{"lisbon", "kyoto"}[i%2], i))})
		if err != nil {
			t.Fatal(err)
		}
		if th.Status != ThreadIdle || th.OwnerID != u.ID {
			t.Fatalf("new thread %+v", th)
		}
		ids = append(ids, th.ID)
	}
	chosen := uuid.NewString()
	if th, err := s.ForOwner(u.ID).CreateThread(ctx, NewThread{ID: chosen}); err != nil || th.ID != chosen {
		t.Fatalf("CreateThread with an id = %v, %v", th.ID, err)
	}
	if _, err := s.ForOwner(u.ID).CreateThread(ctx, NewThread{ID: chosen}); errcode.Of(err) != errcode.Conflict {
		t.Fatalf("creating thread %s twice: %v, want CONFLICT", chosen, err)
	}
	if _, err := s.ForOwner(u.ID).CreateThread(ctx, NewThread{Metadata: json.RawMessage(`[1]`)}); errcode.Of(err) != errcode.BadRequest {
		t.Fatalf("array metadata: %v, want BAD_REQUEST", err)
	}

	tests := []struct {
		name string
		q    ThreadQuery
		want []string
	}{
		{"first page", ThreadQuery{Metadata: json.RawMessage(`{"trip":"lisbon"}`), Limit: 2}, []string{ids[6], ids[4]}},
		{"second page", ThreadQuery{Metadata: json.RawMessage(`{"trip":"lisbon"}`), Limit: 2, Offset: 2}, []string{ids[2], ids[0]}},
		{"nested containment", ThreadQuery{Metadata: json.RawMessage(`{"trip":"kyoto","n":3}`)}, []string{ids[3]}},
		{"no match", ThreadQuery{Metadata: json.RawMessage(`{"trip":"oslo"}`)}, nil},
		{"by status", ThreadQuery{Status: ThreadBusy}, nil},
		{"all", ThreadQuery{Limit: 3}, []string{chosen, ids[6], ids[5]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list, err := s.ForOwner(u.ID).SearchThreads(ctx, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, th := range list {
				got = append(got, th.ID)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}

	th, err := s.ForOwner(u.ID).UpdateThreadMetadata(ctx, ids[0], json.RawMessage(`{"title":"Lisbon in July"}`))
	if err != nil {
		t.Fatal(err)
	}
	var meta map[string]any
	json.Unmarshal(th.Metadata, &meta)
	if meta["title"] != "Lisbon in July" || meta["trip"] != "lisbon" {
		t.Fatalf("merged metadata %s", th.Metadata)
	}
}

// User B can neither see nor change user A's thread, by id or by search.
func TestThreadsAreScopedByOwner(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	a, _ := s.Accounts.EnsureUser(ctx, "owner-a")
	b, _ := s.Accounts.EnsureUser(ctx, "owner-b")
	th, err := s.ForOwner(a.ID).CreateThread(ctx, NewThread{Metadata: json.RawMessage(`{"secret":"a"}`)})
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.ForOwner(a.ID).CreateRun(ctx, th.ID, NewRun{})
	if err != nil {
		t.Fatal(err)
	}

	notFound := []struct {
		name string
		err  error
	}{
		{"read by id", second(s.ForOwner(b.ID).Thread(ctx, th.ID))},
		{"update", second(s.ForOwner(b.ID).UpdateThreadMetadata(ctx, th.ID, json.RawMessage(`{"x":1}`)))},
		{"delete", s.ForOwner(b.ID).DeleteThread(ctx, th.ID)},
		{"create a run", second(s.ForOwner(b.ID).CreateRun(ctx, th.ID, NewRun{}))},
		{"read the run", second(s.ForOwner(b.ID).Run(ctx, run.ID))},
		{"active run", second(s.ForOwner(b.ID).ActiveRun(ctx, th.ID))},
		{"cancel the run", second(s.ForOwner(b.ID).CancelRun(ctx, run.ID))},
		{"read checkpoints", second(s.Checkpoints.ForOwner(b.ID).Latest(ctx, th.ID))},
	}
	for _, tt := range notFound {
		if errcode.Of(tt.err) != errcode.NotFound {
			t.Errorf("user B could %s: error %v, want NOT_FOUND", tt.name, tt.err)
		}
	}
	for _, q := range []ThreadQuery{{}, {Metadata: json.RawMessage(`{"secret":"a"}`)}} {
		if list, err := s.ForOwner(b.ID).SearchThreads(ctx, q); err != nil || len(list) != 0 {
			t.Errorf("user B's search %+v found %d threads (%v)", q, len(list), err)
		}
	}
	if runs, err := s.ForOwner(b.ID).ListRuns(ctx, th.ID, 0, 0); err != nil || len(runs) != 0 {
		t.Errorf("user B listed %d runs (%v)", len(runs), err)
	}
	if events, err := s.ForOwner(b.ID).RunEvents(ctx, run.ID, 0, 0); err != nil || len(events) != 0 {
		t.Errorf("user B read %d events (%v)", len(events), err)
	}
	if got, err := s.ForOwner(a.ID).Thread(ctx, th.ID); err != nil || string(got.Metadata) != `{"secret": "a"}` {
		t.Fatalf("user A's thread after B's attempts: %s, %v", got.Metadata, err)
	}
	if r, err := s.ForOwner(a.ID).Run(ctx, run.ID); err != nil || r.Status != RunPending {
		t.Fatalf("user A's run after B's attempts: %+v, %v", r, err)
	}
}

// Deleting a thread removes its checkpoints, runs and events.
func TestDeleteThreadCascades(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	owner, thread := newThread(t, s, "deleter")
	cp := s.Checkpoints
	if err := cp.Put(ctx, graph.Checkpoint{ThreadID: thread, ID: newID(), State: []byte(`{"m":[]}`), Metadata: graph.Metadata{Source: graph.SourceInput}}, ""); err != nil {
		t.Fatal(err)
	}
	run, err := s.ForOwner(owner).CreateRun(ctx, thread, NewRun{})
	if err != nil {
		t.Fatal(err)
	}
	appendEvent(t, s, run.ID, "values", []byte(`{}`))
	if err := s.ForOwner(owner).DeleteThread(ctx, thread); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"checkpoints", "runs"} {
		var n int
		if err := s.Pool.QueryRow(ctx, `SELECT count(*) FROM `+table+` WHERE thread_id = $1`, thread).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s of the deleted thread: %d (%v)", table, n, err)
		}
	}
	var n int
	if err := s.Pool.QueryRow(ctx, `SELECT count(*) FROM run_events WHERE run_id = $1`, run.ID).Scan(&n); err != nil || n != 0 {
		t.Errorf("events of the deleted thread: %d (%v)", n, err)
	}
	if err := s.ForOwner(owner).DeleteThread(ctx, thread); errcode.Of(err) != errcode.NotFound {
		t.Errorf("deleting twice: %v, want NOT_FOUND", err)
	}
}
