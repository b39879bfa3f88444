package graph

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

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
