package api_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/testing/apptest"
)

func TestThreadLifecycle(t *testing.T) {
	h := apptest.New(t)
	id := uuid.NewString()
	var th wire.Thread
	h.Must(http.StatusOK, http.MethodPost, "/threads", h.AliceKey, `{"thread_id":"`+id+`","metadata":{"trip":"plannertest.Lisbon"}}`).Decode(t, &th)
	if th.ThreadID != id || th.Status != "idle" || !sameJSONBytes(th.Metadata, json.RawMessage(`{"trip":"plannertest.Lisbon"}`)) || string(th.Values) != "{}" {
		t.Fatalf("created %s %s %s %s", th.ThreadID, th.Status, th.Metadata, th.Values)
	}

	t.Run("if_exists", func(t *testing.T) {
		h := h.With(t)
		h.Must(http.StatusConflict, http.MethodPost, "/threads", h.AliceKey, `{"thread_id":"`+id+`"}`)
		h.Must(http.StatusConflict, http.MethodPost, "/threads", h.AliceKey, `{"thread_id":"`+id+`","if_exists":"raise"}`)
		var again wire.Thread
		h.Must(http.StatusOK, http.MethodPost, "/threads", h.AliceKey, `{"thread_id":"`+id+`","if_exists":"do_nothing","metadata":{"trip":"porto"}}`).Decode(t, &again)
		if again.ThreadID != id || !sameJSONBytes(again.Metadata, json.RawMessage(`{"trip":"plannertest.Lisbon"}`)) {
			t.Fatalf("do_nothing changed the thread: %s %s", again.ThreadID, again.Metadata)
		}
		// Another user cannot take it over, nor learn more than that the id is taken.
		h.Must(http.StatusConflict, http.MethodPost, "/threads", h.BobKey, `{"thread_id":"`+id+`","if_exists":"do_nothing"}`)
	})

	t.Run("get", func(t *testing.T) {
		h := h.With(t)
		var got wire.Thread
		h.Must(http.StatusOK, http.MethodGet, "/threads/"+id, h.AliceKey, "").Decode(t, &got)
		if got.ThreadID != id {
			t.Fatalf("got thread %s", got.ThreadID)
		}
		h.Must(http.StatusNotFound, http.MethodGet, "/threads/"+id, h.BobKey, "")
		h.Must(http.StatusNotFound, http.MethodGet, "/threads/not-a-uuid", h.AliceKey, "")
	})

	t.Run("patch merges metadata", func(t *testing.T) {
		h := h.With(t)
		var got wire.Thread
		h.Must(http.StatusOK, http.MethodPatch, "/threads/"+id, h.AliceKey, `{"metadata":{"guests":3}}`).Decode(t, &got)
		var meta map[string]any
		json.Unmarshal(got.Metadata, &meta)
		if meta["trip"] != "plannertest.Lisbon" || meta["guests"] != float64(3) {
			t.Fatalf("metadata %s", got.Metadata)
		}
		h.Must(http.StatusNotFound, http.MethodPatch, "/threads/"+id, h.BobKey, `{"metadata":{"guests":4}}`)
		h.Must(http.StatusUnprocessableEntity, http.MethodPatch, "/threads/"+id, h.AliceKey, `{}`)
		h.Must(http.StatusUnprocessableEntity, http.MethodPatch, "/threads/"+id, h.AliceKey, `{"metadata":{},"ttl":5}`)
	})

	t.Run("delete", func(t *testing.T) {
		h := h.With(t)
		h.Must(http.StatusNotFound, http.MethodDelete, "/threads/"+id, h.BobKey, "")
		h.Must(http.StatusNoContent, http.MethodDelete, "/threads/"+id, h.AliceKey, "")
		h.Must(http.StatusNotFound, http.MethodGet, "/threads/"+id, h.AliceKey, "")
		h.Must(http.StatusNotFound, http.MethodDelete, "/threads/"+id, h.AliceKey, "")
	})
}

func TestThreadSearch(t *testing.T) {
	h := apptest.New(t)
	var ids []string
	for _, city := range []string{"plannertest.Lisbon", "porto", "plannertest.Lisbon"} {
		ids = append(ids, h.Thread(h.AliceKey, `{"metadata":{"city":"`+city+`"}}`))
	}
	h.Thread(h.BobKey, `{"metadata":{"city":"plannertest.Lisbon"}}`)
	interrupt(t, h, ids[1])
	cases := []struct {
		name, body string
		want       []string // newest first
	}{
		{"all of mine", `{}`, []string{ids[2], ids[1], ids[0]}},
		{"by metadata", `{"metadata":{"city":"plannertest.Lisbon"}}`, []string{ids[2], ids[0]}},
		{"by status", `{"status":"interrupted"}`, []string{ids[1]}},
		{"limit", `{"limit":2}`, []string{ids[2], ids[1]}},
		{"offset", `{"limit":2,"offset":2}`, []string{ids[0]}},
		{"as the JS client sends it", `{"limit":10,"offset":0}`, []string{ids[2], ids[1], ids[0]}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := h.With(t)
			var list []wire.Thread
			h.Must(http.StatusOK, http.MethodPost, "/threads/search", h.AliceKey, c.body).Decode(t, &list)
			var got []string
			for _, th := range list {
				got = append(got, th.ThreadID)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("got %v, want %v", got, c.want)
				}
			}
		})
	}
	for _, bad := range []string{`{"status":"sleeping"}`, `{"limit":0}`, `{"limit":1001}`, `{"offset":-1}`, `{"limit":"10"}`} {
		h.Must(http.StatusUnprocessableEntity, http.MethodPost, "/threads/search", h.AliceKey, bad)
	}
}

func TestThreadCopy(t *testing.T) {
	h := apptest.New(t)
	src := h.Thread(h.AliceKey, `{"metadata":{"city":"plannertest.Lisbon"}}`)
	h.Turn(h.Alice.ID, src, "4 nights in Lisbon in May, 3 of us")
	h.Turn(h.Alice.ID, src, "show me restaurants too")
	var before []wire.ThreadState
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+src+"/history", h.AliceKey, `{"limit":100}`).Decode(t, &before)

	h.Must(http.StatusNotFound, http.MethodPost, "/threads/"+src+"/copy", h.BobKey, "")
	var cp wire.Thread
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+src+"/copy", h.AliceKey, "").Decode(t, &cp)
	if cp.ThreadID == src || !sameJSONBytes(cp.Metadata, json.RawMessage(`{"city":"plannertest.Lisbon"}`)) {
		t.Fatalf("copy %s of %s has metadata %s", cp.ThreadID, src, cp.Metadata)
	}
	var copied []wire.ThreadState
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+cp.ThreadID+"/history", h.AliceKey, `{"limit":100}`).Decode(t, &copied)
	if len(copied) != len(before) || len(before) < 4 {
		t.Fatalf("%d states copied of %d", len(copied), len(before))
	}
	for i := range before {
		if copied[i].Checkpoint.CheckpointID != before[i].Checkpoint.CheckpointID ||
			copied[i].Checkpoint.ThreadID != cp.ThreadID || !sameJSONBytes(copied[i].Values, before[i].Values) {
			t.Fatalf("state %d differs: %+v vs %+v", i, copied[i].Checkpoint, before[i].Checkpoint)
		}
	}
	// The copy is a thread of its own: a turn on it leaves the source alone.
	h.Turn(h.Alice.ID, cp.ThreadID, "and photos of Lisbon")
	var after []wire.ThreadState
	h.Must(http.StatusOK, http.MethodPost, "/threads/"+src+"/history", h.AliceKey, `{"limit":100}`).Decode(t, &after)
	if len(after) != len(before) {
		t.Fatalf("the source has %d states after a turn on its copy, had %d", len(after), len(before))
	}
	// Bob cannot read the copy.
	h.Must(http.StatusNotFound, http.MethodGet, "/threads/"+cp.ThreadID+"/state", h.BobKey, "")
	if n, err := h.Tenant(h.Alice.ID).CountThreads(t.Context(), store.ThreadQuery{}); err != nil || n != 2 {
		t.Fatalf("alice has %d threads, want 2", n)
	}
}

func sameJSONBytes(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// interrupt makes a thread of Alice's interrupted, as a run that paused
// leaves it: a run on it is claimed and ends interrupted.
func interrupt(t *testing.T, h *apptest.Server, threadID string) {
	t.Helper()
	ctx := t.Context()
	if _, err := h.Tenant(h.Alice.ID).CreateRun(ctx, threadID, store.NewRun{}); err != nil {
		t.Fatal(err)
	}
	c, ok, err := h.Data.Queue.ClaimRun(ctx, "test", time.Minute)
	if err != nil || !ok {
		t.Fatalf("claiming the run: %v, %v", ok, err)
	}
	if _, err := h.Data.Queue.FinishRun(ctx, c.Lease(), store.RunInterrupted, ""); err != nil {
		t.Fatal(err)
	}
}
