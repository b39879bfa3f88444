package mcpbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
)

// A result over 4 KB or with more than 20 items reaches the model as a
// summary, a preview and the id of its stored copy, which only its owner
// reads; Full keeps all of it for the UI.
func TestLargeResults(t *testing.T) {
	outputs := &MemoryOutputs{}
	cfg := ServerConfig{Name: "test", Transport: Memory, NewServer: newTestServer, Enabled: true}
	b := newBridge(t, Options{Servers: []ServerConfig{cfg}, Outputs: outputs})
	ctx, user, reg := context.Background(), "ana", registry(nil)
	tests := []struct {
		n, size        int
		large, inPlace bool
	}{
		{20, 10, false, false}, // 20 items, small
		{8, 600, true, true},   // too many bytes, not in the first 5 items
		{21, 0, true, true},    // too many items
		{3, 2000, true, false}, // too many bytes, even in the first items
		{1, 5000, true, false}, // one item too large for any preview of items
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d items of %d bytes", tt.n, tt.size), func(t *testing.T) {
			res, err := as(b, reg, user).Call(ctx, "big", json.RawMessage(fmt.Sprintf(`{"n":%d,"size":%d}`, tt.n, tt.size)))
			if err != nil {
				t.Fatal(err)
			}
			var full bigOut
			if err := json.Unmarshal(res.Full, &full); err != nil || len(full.Items) != tt.n {
				t.Fatalf("Full has %d items (%v), want %d", len(full.Items), err, tt.n)
			}
			if !tt.large {
				if res.ForModel != nil {
					t.Fatalf("a small result was reduced: %s", res.ForModel)
				}
				return
			}
			if len(res.ForModel) > LargeResultBytes {
				t.Errorf("the model's view is %d bytes", len(res.ForModel))
			}
			var r Reduced
			if err := json.Unmarshal(res.ForModel, &r); err != nil {
				t.Fatal(err)
			}
			if tt.inPlace {
				// The object itself, its array cut, the rest under "truncated".
				var view struct {
					bigOut
					Truncated Reduced `json:"truncated"`
				}
				if err := json.Unmarshal(res.ForModel, &view); err != nil {
					t.Fatal(err)
				}
				if len(view.Items) != min(tt.n, PreviewItems) || view.Total != tt.n {
					t.Errorf("preview has %d items and total %d, want %d and %d", len(view.Items), view.Total, min(tt.n, PreviewItems), tt.n)
				}
				r = view.Truncated
			} else if len(r.Preview) == 0 {
				t.Errorf("no preview: %s", res.ForModel)
			}
			if r.TotalItems != tt.n || r.Summary == "" || r.OutputID == "" || !strings.Contains(r.Summary, r.OutputID) {
				t.Errorf("reduced = %+v", r)
			}
			stored, err := outputs.ToolOutput(ctx, "ana", r.OutputID)
			if err != nil || string(stored) != string(res.Full) {
				t.Errorf("stored copy = %.80s, %v", stored, err)
			}
			if _, err := outputs.ToolOutput(ctx, "bob", r.OutputID); errcode.Of(err) != errcode.NotFound {
				t.Errorf("bob read ana's output: %v", err)
			}
		})
	}
}

func TestPreview(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"array", `[1,2,3,4,5,6,7]`, `[1,2,3,4,5]`},
		{"object", `{"items":[1,2,3,4,5,6],"total":6}`, `{"items":[1,2,3,4,5],"total":6}`},
		{"text", `"` + strings.Repeat("é", 600) + `"`, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := preview(json.RawMessage(tt.data))
			if tt.want != "" && string(got) != tt.want {
				t.Errorf("preview = %s, want %s", got, tt.want)
			}
			var s string
			if tt.want == "" && (json.Unmarshal(got, &s) != nil || len(s) > previewTextBytes) {
				t.Errorf("preview = %.60s…: want a JSON string of at most %d bytes", got, previewTextBytes)
			}
		})
	}
}

type nothing struct{}

// Inside a graph run, each call emits mcp_calling then mcp_complete with
// the item count or the error code, and progress in between.
func TestStatusEvents(t *testing.T) {
	// The progress tool answers once the test saw its last notification:
	// notifications and the answer travel apart.
	gate := make(chan struct{})
	cfg := ServerConfig{Name: "test", Transport: Memory, NewServer: func(string) *mcp.Server { return newGatedServer(gate) }, Enabled: true}
	b := newBridge(t, Options{Servers: []ServerConfig{cfg}})
	g := graph.New(func(s nothing, _ nothing) nothing { return s })
	ana := b.For(User{ID: "ana"})
	g.AddNode("tools", func(ctx context.Context, _ nothing) (nothing, error) {
		ana.Call(ctx, "big", json.RawMessage(`{"n":3,"size":1}`))
		ana.Call(ctx, "conflict", nil)
		ana.Call(ctx, "progress", nil)
		return nothing{}, nil
	})
	g.AddEdge(graph.START, "tools")
	g.AddEdge("tools", graph.END)
	compiled, err := g.Compile(nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for ev, err := range compiled.Run(context.Background(), graph.RunConfig[nothing]{ThreadID: uuid.NewString(), Input: nothing{}}) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind != graph.Custom {
			continue
		}
		// Each payload names its own event, for clients that read the
		// custom stream, where events travel without their names.
		var named struct{ Type string }
		data, _ := json.Marshal(ev.Payload)
		if json.Unmarshal(data, &named); named.Type != ev.Name {
			t.Errorf("a %s event's payload says it is %q", ev.Name, named.Type)
		}
		switch p := ev.Payload.(type) {
		case Calling:
			got = append(got, ev.Name+" "+p.Server+"/"+p.Tool)
		case Progress:
			got = append(got, fmt.Sprintf("%s %s %g/%g", ev.Name, p.Tool, p.Progress, p.Total))
			if p.Progress == p.Total {
				close(gate)
			}
		case Complete:
			switch {
			case p.Items != nil:
				got = append(got, fmt.Sprintf("%s %s items=%d", ev.Name, p.Tool, *p.Items))
			default:
				got = append(got, fmt.Sprintf("%s %s error=%s", ev.Name, p.Tool, p.Error))
			}
		}
	}
	want := []string{
		"mcp_calling test/big", "mcp_complete big items=3",
		"mcp_calling test/conflict", "mcp_complete conflict error=CONFLICT",
		"mcp_calling test/progress", "mcp_progress progress 1/3", "mcp_progress progress 2/3", "mcp_progress progress 3/3", "mcp_complete progress items=1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// countItems walks compact JSON rather than decoding it, and counts as
// decoding does: a key given twice counts as its last value, strings that
// hold brackets are not items, text with spaces and keys with escapes are
// decoded.
func TestCountItems(t *testing.T) {
	for data, want := range map[string]int{
		`[]`:                                     0,
		`[1,"a]",{"b":[1,2]},[3,4]]`:             4,
		`{"a":[1,2,3],"b":[1]}`:                  3,
		`{"a":[],"b":"[1,2]"}`:                   0,
		`{"a":1,"b":"x"}`:                        1,
		`{}`:                                     1,
		`{"a":[1,2,3],"a":[1]}`:                  1,
		`{"a":[1],"\u0061":[1,2,3],"a":[1,2]}`:   2,
		`{"a\"":[1,2],"b":[1]}`:                  2,
		`{"é":[1,2],"b":[1]}`:                    2,
		`{ "a" : [1, 2, 3] }`:                    3,
		`[ {"x":"]"} , 2 ]`:                      2,
		`"[1,2]"`:                                1,
		`12`:                                     1,
		`{"a":{"b":[1,2,3,4]},"c":[1]}`:          1,
		`{"hotels":[{"name":"A, B"},{"n":"}"}]}`: 2,
	} {
		if got := countItems(json.RawMessage(data)); got != want {
			t.Errorf("countItems(%s) = %d, want %d", data, got, want)
		}
		if got := countDecoded(json.RawMessage(data)); got != want {
			t.Errorf("countDecoded(%s) = %d, want %d", data, got, want)
		}
	}
}
