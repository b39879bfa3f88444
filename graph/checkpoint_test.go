package graph

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"
)

func TestMemorySaverHistory(t *testing.T) {
	ctx := context.Background()
	m := NewMemorySaver()
	var ids []string
	head := ""
	for i := range 5 {
		cp := Checkpoint{ThreadID: tid, ID: newID(), Step: i, State: json.RawMessage(`{}`)}
		ids = append(ids, cp.ID)
		if err := m.Put(ctx, cp, head); err != nil {
			t.Fatal(err)
		}
		head = cp.ID
	}
	m.Put(ctx, Checkpoint{ThreadID: otherTid, ID: newID()}, "")
	tests := []struct {
		name string
		opts ListOptions
		want []string
	}{
		{"all, newest first", ListOptions{}, []string{ids[4], ids[3], ids[2], ids[1], ids[0]}},
		{"limit", ListOptions{Limit: 2}, []string{ids[4], ids[3]}},
		{"before", ListOptions{Before: ids[3]}, []string{ids[2], ids[1], ids[0]}},
		{"before and limit", ListOptions{Before: ids[3], Limit: 1}, []string{ids[2]}},
		{"before the first", ListOptions{Before: ids[0]}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list, err := m.List(ctx, tid, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, cp := range list {
				got = append(got, cp.ID)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("List(%+v) = %v, want %v", tt.opts, got, tt.want)
			}
		})
	}
	if latest, _ := m.Latest(ctx, tid); latest.ID != ids[4] {
		t.Fatalf("Latest = %s, want %s", latest.ID, ids[4])
	}
	if cp, _ := m.Get(ctx, tid, ids[2]); cp.Step != 2 {
		t.Fatalf("Get returned step %d, want 2", cp.Step)
	}
	for _, call := range []func() error{
		func() error { _, err := m.Latest(ctx, newID()); return err },
		func() error { _, err := m.Get(ctx, tid, newID()); return err },
		func() error { _, err := m.Get(ctx, otherTid, ids[0]); return err },
	} {
		if err := call(); !errors.Is(err, ErrNotFound) {
			t.Errorf("got %v, want ErrNotFound", err)
		}
	}
}

// What a caller gets from the saver is a copy: changing it changes nothing
// stored.
func TestMemorySaverCopies(t *testing.T) {
	ctx := context.Background()
	m := NewMemorySaver()
	cp := Checkpoint{ThreadID: tid, ID: newID(), State: json.RawMessage(`{"a":1}`), Next: []string{"x"}}
	m.Put(ctx, cp, "")
	cp.State[2] = 'b'
	got, _ := m.Latest(ctx, tid)
	got.Next[0] = "y"
	again, _ := m.Latest(ctx, tid)
	if string(again.State) != `{"a":1}` || again.Next[0] != "x" {
		t.Fatalf("stored checkpoint changed through a caller's copy: %s %v", again.State, again.Next)
	}
}

func TestMemorySaverConcurrentUse(t *testing.T) {
	ctx := context.Background()
	m := NewMemorySaver()
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			thread := threadIDs[w%2]
			for range 50 {
				for { // a conflict means another writer won: read the head again
					head, _ := m.Latest(ctx, thread)
					if m.Put(ctx, Checkpoint{ThreadID: thread, ID: newID()}, head.ID) == nil {
						break
					}
				}
				m.Latest(ctx, thread)
				m.List(ctx, thread, ListOptions{Limit: 3})
			}
		}()
	}
	wg.Wait()
	for _, th := range threadIDs[:2] {
		list, _ := m.List(ctx, th, ListOptions{})
		if len(list) != 200 {
			t.Fatalf("%s has %d checkpoints, want 200", th, len(list))
		}
		for i := 1; i < len(list); i++ {
			if list[i-1].ID <= list[i].ID {
				t.Fatalf("%s's history is not newest first at %d", th, i)
			}
		}
	}
}

func TestCheckpointJSONRoundTrip(t *testing.T) {
	in := Checkpoint{
		ThreadID: tid, ID: newID(), ParentID: newID(), Step: 3, Node: "callTools",
		State: json.RawMessage(`{"log":["a"]}`), Update: json.RawMessage(`{"log":["a"]}`),
		Next: []string{"x"}, Metadata: Metadata{Source: SourceLoop, RunID: "r"},
		CreatedAt: time.Date(2026, 11, 21, 5, 0, 0, 123456000, time.UTC),
	}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Checkpoint
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("round trip changed the checkpoint:\n in %+v\nout %+v", in, out)
	}
}

// Ids the tests use: the id rule wants canonical UUIDs.
var (
	tid       = newID()
	otherTid  = newID()
	runID     = newID()
	threadIDs = func() []string {
		ids := make([]string, 16)
		for i := range ids {
			ids[i] = newID()
		}
		return ids
	}()
)
