package graph

import (
	"reflect"
	"testing"
)

func TestShape(t *testing.T) {
	got := mustCompile(t, plannerGraph(), nil).Shape()
	want := Shape{
		Nodes: []string{"classify", "extraction", "callTools"},
		Edges: []ShapeEdge{
			{From: START, To: "classify", Conditional: true},
			{From: START, To: "extraction", Conditional: true},
			{From: "classify", To: "callTools"},
			{From: "extraction", To: "callTools", Conditional: true},
			{From: "extraction", To: END, Conditional: true},
			{From: "callTools", To: END},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Shape() = %+v\nwant %+v", got, want)
	}
}
