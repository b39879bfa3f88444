package wire

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/mcpservers"
)

// A checkpoint paused on an interrupt shows it on the task of its node, in
// the state and in the thread, under the same task id every time.
func TestInterruptsReachTasksAndThreads(t *testing.T) {
	cp := graph.Checkpoint{ThreadID: "t1", ID: "c2", ParentID: "c1", Step: 3, Node: "extraction",
		State: json.RawMessage(`{"messages":[]}`), Update: json.RawMessage(`{"intent":"trip"}`),
		Next: []string{"callTools"}, Metadata: graph.Metadata{Source: graph.SourceLoop, RunID: "r1"}, CreatedAt: time.Unix(0, 0)}
	pending := `[{"id":"i1","node":"callTools","payload":{"confirm":"booking"}},{"id":"i2","node":"elsewhere","payload":1}]`
	if err := json.Unmarshal([]byte(pending), &cp.Interrupts); err != nil {
		t.Fatal(err)
	}

	st := FromCheckpoint(cp)
	if len(st.Tasks) != 1 || st.Tasks[0].Name != "callTools" || len(st.Tasks[0].Interrupts) != 1 ||
		st.Tasks[0].Interrupts[0].ID != "i1" || string(st.Tasks[0].Interrupts[0].Value) != `{"confirm":"booking"}` {
		t.Fatalf("tasks %+v", st.Tasks)
	}
	if again := FromCheckpoint(cp); again.Tasks[0].ID != st.Tasks[0].ID {
		t.Fatal("a task's id changes between reads")
	}
	if st.ParentCheckpoint.CheckpointID != "c1" || st.Checkpoint.CheckpointID != "c2" || st.Metadata["step"] != 3 ||
		st.Metadata["source"] != "loop" || st.Metadata["run_id"] != "r1" {
		t.Fatalf("state %+v %+v %v", st.Checkpoint, st.ParentCheckpoint, st.Metadata)
	}
	th := FromThread(store.Thread{ID: "t1", Status: "interrupted"}, &cp)
	if got := th.Interrupts[st.Tasks[0].ID]; len(got) != 1 || got[0].ID != "i1" || len(th.Interrupts) != 1 {
		t.Fatalf("thread interrupts %+v", th.Interrupts)
	}
}

// A patch replaces the members it sends and keeps the others; leaving
// header auth without naming a header drops the stored header name.
func TestPatchMCPServer(t *testing.T) {
	cur := mcpservers.Server{Name: "crm", URL: "https://crm.example.com/mcp", Transport: "sse", AuthType: "header",
		AuthHeader: "X-Key", HasSecret: true, Enabled: true, AllowedTools: []string{"a"}, TimeoutMS: 3000}
	str := func(s string) *string { return &s }
	off := false
	cases := []struct {
		name  string
		patch MCPServerPatch
		check func(mcpservers.Input) bool
	}{
		{"nothing sent", MCPServerPatch{}, func(in mcpservers.Input) bool {
			return in.Name == "crm" && in.Transport == "sse" && in.AuthHeader == "X-Key" && in.Secret == nil && in.Enabled && in.TimeoutMS == 3000
		}},
		{"enabled and url", MCPServerPatch{Enabled: &off, URL: str("https://b.example.com/mcp")}, func(in mcpservers.Input) bool {
			return !in.Enabled && in.URL == "https://b.example.com/mcp" && in.Name == "crm" && in.AuthType == "header"
		}},
		{"to bearer", MCPServerPatch{AuthType: str("bearer"), Secret: str("t")}, func(in mcpservers.Input) bool {
			return in.AuthType == "bearer" && in.AuthHeader == "" && *in.Secret == "t"
		}},
		{"another header", MCPServerPatch{AuthType: str("header"), AuthHeader: str("X-Other")}, func(in mcpservers.Input) bool {
			return in.AuthType == "header" && in.AuthHeader == "X-Other" && in.Secret == nil
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if in := PatchMCPServer(cur, c.patch); !c.check(in) {
				t.Fatalf("patched to %+v", in)
			}
		})
	}
}

// Every stored run status has LangGraph's name: queued runs are pending
// and cancelled ones interrupted, as a paused one is.
func TestRunStatus(t *testing.T) {
	for stored, want := range map[string]string{
		store.RunQueued: "pending", store.RunPending: "pending", store.RunRunning: "running",
		store.RunSuccess: "success", store.RunError: "error", store.RunInterrupted: "interrupted",
		store.RunCancelled: "interrupted",
	} {
		if got := FromRun(store.Run{Status: stored}, "a").Status; got != want {
			t.Errorf("stored %s is shown %s, want %s", stored, got, want)
		}
	}
}
