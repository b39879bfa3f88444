package mcpbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tripgraph/tripgraph/nodes"
)

// EnrichmentSettings are a user's choice of enrichment: whether their own
// servers' tools are called before the model is asked, and, when
// Servers is not empty, the ids of the only servers to use.
type EnrichmentSettings struct {
	On      bool
	Servers []string
}

// MaxEnrichmentCalls bounds the tools one message calls for enrichment.
const MaxEnrichmentCalls = 8

// queryArgs are the argument names a tool must take the message text in.
var queryArgs = []string{"query", "q", "text", "search", "question", "prompt"}

// Enrich implements nodes.Enricher for the user. With enrichment on, it
// calls the tools of their own enabled
// servers (the chosen ones when the settings name some), within each
// server's allow-list, that take the message text: a tool whose input
// schema requires exactly one argument, a string named query, q, text,
// search, question or prompt (others optional). Each gets the message
// text as that argument, through Call, so the calls stream mcp_calling
// and mcp_complete and have the server's deadline, size cap and
// large-result handling; the model sees what Call gives the model. At
// most MaxEnrichmentCalls tools are called, at once, in the order of the
// tool list. A server that cannot be listed or a call that fails is
// logged and left out.
func (t *Tools) Enrich(ctx context.Context, req nodes.EnrichRequest) ([]nodes.Enrichment, error) {
	if t.u.ID == "" || t.u.Servers == nil || req.Text == "" {
		return nil, nil
	}
	// The catalog is the one the run's tools were listed from (cached):
	// when it has no tool of the user's own servers there is nothing to
	// enrich with, and the settings are not read, which saves most runs a
	// statement.
	c, listErr := t.b.userCatalog(ctx, t.u)
	if listErr == nil && !hasOwnTools(c) {
		return nil, nil
	}
	set, err := t.u.Servers.EnrichmentSettings(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the enrichment settings: %w", err)
	}
	if !set.On {
		return nil, nil
	}
	if listErr != nil {
		return nil, fmt.Errorf("listing the tools to enrich with: %w", t.b.coded(ctx, listErr))
	}
	type pick struct {
		e   entry
		arg string
	}
	var picks []pick
	for _, e := range c.entries {
		if e.server.Builtin || e.server.operator() || (len(set.Servers) > 0 && !slices.Contains(set.Servers, e.server.ID)) {
			continue
		}
		if arg, ok := textArgument(e.tool); ok && len(picks) < MaxEnrichmentCalls {
			picks = append(picks, pick{e, arg})
		}
	}
	found := make([]*nodes.Enrichment, len(picks))
	var wg sync.WaitGroup
	for i, p := range picks {
		wg.Go(func() {
			args, _ := json.Marshal(map[string]string{p.arg: req.Text})
			res, err := t.Call(ctx, p.e.name, args)
			if err != nil {
				t.b.log.WarnContext(ctx, "an enrichment tool failed; going on without it",
					"server", p.e.server.Name, "tool", p.e.tool.Name, "err", err)
				return
			}
			found[i] = &nodes.Enrichment{Server: p.e.server.Name, Tool: p.e.tool.Name, Result: res.ModelView()}
		})
	}
	wg.Wait()
	out := make([]nodes.Enrichment, 0, len(found))
	for _, f := range found {
		if f != nil {
			out = append(out, *f)
		}
	}
	return out, ctx.Err()
}

// hasOwnTools reports whether c lists a tool of the user's own servers,
// the only ones enrichment calls.
func hasOwnTools(c *catalog) bool {
	return slices.ContainsFunc(c.entries, func(e entry) bool { return !e.server.Builtin && !e.server.operator() })
}

// textArgument returns the argument a tool takes the message text in,
// if its schema requires exactly one, a string with one of the queryArgs
// names.
func textArgument(t *mcp.Tool) (string, bool) {
	data, err := json.Marshal(t.InputSchema)
	if err != nil {
		return "", false
	}
	var s struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if json.Unmarshal(data, &s) != nil || len(s.Required) != 1 {
		return "", false
	}
	name := s.Required[0]
	p, ok := s.Properties[name]
	if !ok || p.Type != "string" || !slices.Contains(queryArgs, name) {
		return "", false
	}
	return name, true
}
