package graph

// Shape is a compiled graph's structure: its nodes in the order they were
// added, and every edge a run may take.
type Shape struct {
	Nodes []string
	Edges []ShapeEdge
}

// ShapeEdge is one edge of a Shape. Conditional edges are the declared
// targets of a router; To may be END.
type ShapeEdge struct {
	From, To    string
	Conditional bool
}

// Shape returns the graph's structure, for clients that draw it.
func (c *Compiled[S, U]) Shape() Shape {
	g := c.g
	s := Shape{Nodes: append([]string(nil), g.order...)}
	for _, from := range g.edgeSources() {
		e := g.out[from]
		if e.route == nil {
			s.Edges = append(s.Edges, ShapeEdge{From: from, To: e.to})
			continue
		}
		for _, to := range e.targets {
			s.Edges = append(s.Edges, ShapeEdge{From: from, To: to, Conditional: true})
		}
	}
	return s
}
