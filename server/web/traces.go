package web

import (
	"context"
	"encoding/json"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/server/runner"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store/paging"
)

// stepTraces are the trace ids of the runs that wrote cps (a thread's
// checkpoints), by checkpoint id, from each run's metadata
// (runner.TraceIDKey): a traveller's "this went wrong" at a step leads an
// operator to its trace.
func stepTraces(ctx context.Context, t tenant.Tenant, threadID string, cps []graph.Checkpoint) (map[string]string, error) {
	byRun := map[string]string{}
	for offset := 0; ; offset += paging.Max {
		runs, err := t.ListRuns(ctx, threadID, paging.Max, offset)
		if err != nil {
			return nil, err
		}
		for _, r := range runs {
			var m map[string]any
			if json.Unmarshal(r.Metadata, &m) == nil {
				if id, ok := m[runner.TraceIDKey].(string); ok {
					byRun[r.ID] = id
				}
			}
		}
		if len(runs) < paging.Max {
			break
		}
	}
	out := map[string]string{}
	for _, cp := range cps {
		if id := byRun[cp.Metadata.RunID]; id != "" {
			out[cp.ID] = id
		}
	}
	return out, nil
}
