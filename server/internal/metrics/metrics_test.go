package metrics

import (
	"log/slog"
	"testing"

	dto "github.com/prometheus/client_model/go"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/mcpbridge"
)

func TestNodeTimerCountsToolCalls(t *testing.T) {
	for _, tc := range []struct {
		name    string
		event   string
		payload any
		want    map[[2]string]float64 // by server and outcome
	}{
		{"ok", mcpbridge.EventComplete, mcpbridge.Complete{Server: "maps", Tool: "route"}, map[[2]string]float64{{"user", "ok"}: 1}},
		{"error code", mcpbridge.EventComplete, mcpbridge.Complete{Server: "maps", Tool: "route", Error: "UNAVAILABLE"},
			map[[2]string]float64{{"user", "UNAVAILABLE"}: 1, {"user", "ok"}: 0}},
		// Users name their own servers: only ours keeps its name as a label.
		{"our server", mcpbridge.EventComplete, mcpbridge.Complete{Server: mcpbridge.OurServer, Tool: "route"},
			map[[2]string]float64{{mcpbridge.OurServer, "ok"}: 1, {"user", "ok"}: 0}},
		{"another event", mcpbridge.EventProgress, mcpbridge.Complete{Server: "maps", Tool: "route"}, map[[2]string]float64{{"user", "ok"}: 0}},
		{"another payload", mcpbridge.EventComplete, map[string]any{"server": "maps"}, map[[2]string]float64{{"user", "ok"}: 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := New(nil, slog.Default())
			m.NodeTimer().See(graph.Custom, "enrich", tc.event, tc.payload)
			for k, want := range tc.want {
				var dm dto.Metric
				if err := m.toolCalls.WithLabelValues(k[0], k[1]).Write(&dm); err != nil {
					t.Fatal(err)
				}
				if got := dm.GetCounter().GetValue(); got != want {
					t.Errorf("tool calls %v = %v, want %v", k, got, want)
				}
			}
		})
	}
}
