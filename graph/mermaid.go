package graph

import (
	"fmt"
	"strings"
)

// Mermaid returns the graph's shape as a Mermaid flowchart: fixed edges are
// solid, a router's possible targets are dotted and labelled.
func (c *Compiled[S, U]) Mermaid() string {
	g := c.g
	var b strings.Builder
	b.WriteString("graph TD\n")
	fmt.Fprintf(&b, "\t%s([START])\n", START)
	for _, n := range g.order {
		fmt.Fprintf(&b, "\t%s(%s)\n", n, n)
	}
	fmt.Fprintf(&b, "\t%s([END])\n", END)
	for _, from := range g.edgeSources() {
		e := g.out[from]
		if e.route == nil {
			fmt.Fprintf(&b, "\t%s --> %s\n", from, e.to)
			continue
		}
		for _, to := range e.targets {
			fmt.Fprintf(&b, "\t%s -.->|%s| %s\n", from, to, to)
		}
	}
	return b.String()
}
