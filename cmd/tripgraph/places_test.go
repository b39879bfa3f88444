package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/model/gazetteer"
)

// resolvePlace answers as the gazetteer does, the first time and from
// what it remembers, and a caller that changes the names it got does not
// change the next answer.
func TestResolvePlaceAnswersAsTheGazetteer(t *testing.T) {
	texts := []string{"Lisbon", "Lisboa", "Paris, Texas", "Japão", "nowhere at all", "paris", strings.Repeat("Porto ", 40)}
	for round := range 2 {
		for _, text := range texts {
			want, wantOK := gazetteer.Resolve(text)
			got, ok := resolvePlace(text)
			if ok != wantOK || !reflect.DeepEqual(got, mcpserver.Place(want)) {
				t.Fatalf("round %d: resolvePlace(%q) = %+v, %v; the gazetteer says %+v, %v", round, text, got, ok, want, wantOK)
			}
			for i := range got.Names {
				got.Names[i] = "changed by the caller"
			}
		}
	}
}
