package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/model/offline"
	"github.com/tripgraph/tripgraph/nodes"
)

func init() {
	register(command{
		name:    "graph",
		summary: "print the trip planner graph (--mermaid)",
		run:     runGraph,
	})
}

func runGraph(_ context.Context, cfg config.Config, args []string) error {
	fs := flag.NewFlagSet("graph", flag.ContinueOnError)
	fs.Bool("mermaid", true, "print the graph as a Mermaid flowchart (the only format)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	// The graph's shape does not depend on the model or the tools.
	m, err := offline.New()
	if err != nil {
		return err
	}
	g, err := nodes.Build(nodes.Deps{Model: m})
	if err != nil {
		return err
	}
	fmt.Print(g.Mermaid())
	return nil
}
