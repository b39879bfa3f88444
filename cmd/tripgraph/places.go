package main

import (
	"slices"

	"github.com/tripgraph/tripgraph/internal/lru"
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/model/gazetteer"
)

// resolvePlace reads a place as the planner does, with the gazetteer: its
// English and Portuguese names ("Lisboa", "Japão"), and a country or US
// state after a shared name ("Paris, Texas"). The gazetteer does not
// change while the process runs, so a text read once is answered from
// resolved: the catalog tools resolve the same few locations on every
// call.
func resolvePlace(text string) (mcpserver.Place, bool) {
	if len(text) > maxRememberedPlace {
		return resolveAnew(text)
	}
	r, ok := resolved.Get(text)
	if !ok {
		r.place, r.ok = resolveAnew(text)
		resolved.Put(text, r, 1)
	}
	p := r.place
	p.Names = slices.Clone(p.Names) // the caller's own
	return p, r.ok
}

func resolveAnew(text string) (mcpserver.Place, bool) {
	p, ok := gazetteer.Resolve(text)
	return mcpserver.Place(p), ok
}

// resolution is what the gazetteer made of a text.
type resolution struct {
	place mcpserver.Place
	ok    bool
}

// resolved holds the resolutions of the texts read most recently; texts
// longer than maxRememberedPlace (not a location argument) are not kept.
var resolved = lru.New[string, resolution](1024)

const maxRememberedPlace = 200
