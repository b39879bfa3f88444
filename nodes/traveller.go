package nodes

import (
	"context"

	"github.com/tripgraph/tripgraph/graph"
)

// Traveller is what the planner reaches of the person a run is for: their
// tools (ours, and their own MCP servers'), the enrichment from their own
// servers, and what it remembers of them. The caller builds it from the
// user it authenticated, so that no node ever chooses whom it acts for.
type Traveller struct {
	Tools Tools // required
	// Enricher, when set, is asked for results of the traveller's own
	// tools before callTools asks the model; nil: no enrichment.
	Enricher Enricher
	// Memory is what is remembered of the traveller; nil: nothing is.
	Memory Memory
}

// Planner is the compiled trip planner, for no traveller yet: For binds
// it to one and to where their checkpoints are kept. Build it once.
type Planner struct {
	g *Graph
}

// For is the planner of one traveller, saving its checkpoints with cp: a
// cheap copy of p's graph, which shares its compiled shape and the states
// it keeps decoded.
func (p *Planner) For(t Traveller, cp graph.Checkpointer) *Graph {
	return p.g.WithCheckpointer(cp).WithNodeContext(func(ctx context.Context) context.Context {
		return context.WithValue(ctx, travellerKey{}, &t)
	})
}

// Shape is the planner graph's nodes and edges.
func (p *Planner) Shape() graph.Shape { return p.g.Shape() }

// Mermaid is the planner graph as a Mermaid flowchart.
func (p *Planner) Mermaid() string { return p.g.Mermaid() }

type travellerKey struct{}

// noTraveller is the traveller of a graph For did not bind: no tools, no
// enrichment, nothing remembered.
var noTraveller = &Traveller{Tools: FuncTools{}}

// travellerOf is the traveller whose run ctx's node runs in.
func travellerOf(ctx context.Context) *Traveller {
	if t, ok := ctx.Value(travellerKey{}).(*Traveller); ok {
		return t
	}
	return noTraveller
}
