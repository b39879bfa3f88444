package main

import (
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/model/gazetteer"
)

// resolvePlace reads a place as the planner does, with the gazetteer: its
// English and Portuguese names ("Lisboa", "Japão"), and a country or US
// state after a shared name ("Paris, Texas").
func resolvePlace(text string) (mcpserver.Place, bool) {
	p, ok := gazetteer.Resolve(text)
	return mcpserver.Place(p), ok
}
