package server

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/server/internal/wire"
)

func TestThreadLifecycle(t *testing.T) {
	h := newHarness(t, testLimits())
	id := uuid.NewString()
	var th wire.Thread
	h.must(http.StatusOK, http.MethodPost, "/threads", h.aliceKey, `{"thread_id":"`+id+`","metadata":{"trip":"plannertest.Lisbon"}}`).decode(t, &th)
	if th.ThreadID != id || th.Status != "idle" || !sameJSONBytes(th.Metadata, json.RawMessage(`{"trip":"plannertest.Lisbon"}`)) || string(th.Values) != "{}" {
		t.Fatalf("created %s %s %s %s", th.ThreadID, th.Status, th.Metadata, th.Values)
	}

	t.Run("if_exists", func(t *testing.T) {
		h := h.with(t)
		h.must(http.StatusConflict, http.MethodPost, "/threads", h.aliceKey, `{"thread_id":"`+id+`"}`)
		h.must(http.StatusConflict, http.MethodPost, "/threads", h.aliceKey, `{"thread_id":"`+id+`","if_exists":"raise"}`)
		var again wire.Thread
		h.must(http.StatusOK, http.MethodPost, "/threads", h.aliceKey, `{"thread_id":"`+id+`","if_exists":"do_nothing","metadata":{"trip":"porto"}}`).decode(t, &again)
		if again.ThreadID != id || !sameJSONBytes(again.Metadata, json.RawMessage(`{"trip":"plannertest.Lisbon"}`)) {
			t.Fatalf("do_nothing changed the thread: %s %s", again.ThreadID, again.Metadata)
		}
		// Another user cannot take it over, nor learn more than that the id is taken.
		h.must(http.StatusConflict, http.MethodPost, "/threads", h.bobKey, `{"thread_id":"`+id+`","if_exists":"do_nothing"}`)
	})

	t.Run("get", func(t *testing.T) {
		h := h.with(t)
		var got wire.Thread
		h.must(http.StatusOK, http.MethodGet, "/threads/"+id, h.aliceKey, "").decode(t, &got)
		if got.ThreadID != id {
			t.Fatalf("got thread %s", got.ThreadID)
		}
		h.must(http.StatusNotFound, http.MethodGet, "/threads/"+id, h.bobKey, "")
		h.must(http.StatusNotFound, http.MethodGet, "/threads/not-a-uuid", h.aliceKey, "")
	})

	t.Run("patch merges metadata", func(t *testing.T) {
		h := h.with(t)
		var got wire.Thread
		h.must(http.StatusOK, http.MethodPatch, "/threads/"+id, h.aliceKey, `{"metadata":{"guests":3}}`).decode(t, &got)
		var meta map[string]any
		json.Unmarshal(got.Metadata, &meta)
		if meta["trip"] != "plannertest.Lisbon" || meta["guests"] != float64(3) {
			t.Fatalf("metadata %s", got.Metadata)
		}
		h.must(http.StatusNotFound, http.MethodPatch, "/threads/"+id, h.bobKey, `{"metadata":{"guests":4}}`)
		h.must(http.StatusUnprocessableEntity, http.MethodPatch, "/threads/"+id, h.aliceKey, `{}`)
		h.must(http.StatusUnprocessableEntity, http.MethodPatch, "/threads/"+id, h.aliceKey, `{"metadata":{},"ttl":5}`)
	})

	t.Run("delete", func(t *testing.T) {
		h := h.with(t)
		h.must(http.StatusNotFound, http.MethodDelete, "/threads/"+id, h.bobKey, "")
		h.must(http.StatusNoContent, http.MethodDelete, "/threads/"+id, h.aliceKey, "")
		h.must(http.StatusNotFound, http.MethodGet, "/threads/"+id, h.aliceKey, "")
		h.must(http.StatusNotFound, http.MethodDelete, "/threads/"+id, h.aliceKey, "")
	})
}

func TestThreadSearch(t *testing.T) {
	h := newHarness(t, testLimits())
	var ids []string
	for _, city := range []string{"plannertest.Lisbon", "porto", "plannertest.Lisbon"} {
		ids = append(ids, h.thread(h.aliceKey, `{"metadata":{"city":"`+city+`"}}`))
	}
	h.thread(h.bobKey, `{"metadata":{"city":"plannertest.Lisbon"}}`)
	if _, err := h.st.Pool.Exec(t.Context(), `UPDATE threads SET status = 'interrupted' WHERE id = $1`, ids[1]); err != nil {
		t.Fatal(err)
	}
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
			h := h.with(t)
			var list []wire.Thread
			h.must(http.StatusOK, http.MethodPost, "/threads/search", h.aliceKey, c.body).decode(t, &list)
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
		h.must(http.StatusUnprocessableEntity, http.MethodPost, "/threads/search", h.aliceKey, bad)
	}
}

func TestThreadCopy(t *testing.T) {
	h := newHarness(t, testLimits())
	src := h.thread(h.aliceKey, `{"metadata":{"city":"plannertest.Lisbon"}}`)
	h.turn(src, "4 nights in Lisbon in May, 3 of us")
	h.turn(src, "show me restaurants too")
	var before []wire.ThreadState
	h.must(http.StatusOK, http.MethodPost, "/threads/"+src+"/history", h.aliceKey, `{"limit":100}`).decode(t, &before)

	h.must(http.StatusNotFound, http.MethodPost, "/threads/"+src+"/copy", h.bobKey, "")
	var cp wire.Thread
	h.must(http.StatusOK, http.MethodPost, "/threads/"+src+"/copy", h.aliceKey, "").decode(t, &cp)
	if cp.ThreadID == src || !sameJSONBytes(cp.Metadata, json.RawMessage(`{"city":"plannertest.Lisbon"}`)) {
		t.Fatalf("copy %s of %s has metadata %s", cp.ThreadID, src, cp.Metadata)
	}
	var copied []wire.ThreadState
	h.must(http.StatusOK, http.MethodPost, "/threads/"+cp.ThreadID+"/history", h.aliceKey, `{"limit":100}`).decode(t, &copied)
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
	h.turn(cp.ThreadID, "and photos of Lisbon")
	var after []wire.ThreadState
	h.must(http.StatusOK, http.MethodPost, "/threads/"+src+"/history", h.aliceKey, `{"limit":100}`).decode(t, &after)
	if len(after) != len(before) {
		t.Fatalf("the source has %d states after a turn on its copy, had %d", len(after), len(before))
	}
	// Bob cannot read the copy.
	h.must(http.StatusNotFound, http.MethodGet, "/threads/"+cp.ThreadID+"/state", h.bobKey, "")
	var n int
	h.st.Pool.QueryRow(t.Context(), `SELECT count(*) FROM threads WHERE owner_id = $1`, h.alice.ID).Scan(&n)
	if n != 2 {
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
