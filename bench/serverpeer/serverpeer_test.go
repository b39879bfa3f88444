package main

import (
	"strings"
	"testing"
)

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{9, 1, 5}, 5},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestCompareChecks(t *testing.T) {
	trip := func(place string, guests int) *struct {
		Location string `json:"location"`
		Guests   int    `json:"guests"`
	} {
		return &struct {
			Location string `json:"location"`
			Guests   int    `json:"guests"`
		}{place, guests}
	}
	a := checkResult{Rows: [][]checkRun{{
		{Request: 0, Nodes: []string{"extraction", "callTools"}, Trip: trip("Lisbon", 2)},
		{Request: 4, Nodes: []string{"classify", "callTools"}, Trip: trip("Lisbon", 6)},
		{Request: 7, Nodes: []string{"extraction", "callTools"}},
	}}}
	b := checkResult{Rows: [][]checkRun{{
		{Request: 0, Nodes: []string{"extraction", "callTools"}, Trip: trip("Lisbon", 2)},
		{Request: 4, Nodes: []string{"classify", "callTools"}, Trip: trip("Lisbon", 2)},
		{Request: 7, Nodes: []string{"extraction"}, Error: "an error event"},
	}}}
	g := compareChecks(a, b)
	if g.runs != 3 || g.sameNodes != 2 || g.sameTrip != 2 || g.toolsA != 3 || g.toolsB != 2 || g.errorsB != 1 || len(g.differences) != 2 {
		t.Fatalf("compareChecks = %+v", g)
	}
}

// The summary's memory row adds PostgreSQL's peak to tripgraph's and
// nothing to LangGraph.js in memory's, and its ratio is of the medians.
func TestSummaryMemoryWithPostgres(t *testing.T) {
	const mb = 1 << 20
	all := []roundResult{
		{Server: tripgraph, Clients: 10, Round: 1, PeakRSS: 100 * mb, DBPeakPSS: 40 * mb},
		{Server: tripgraph, Clients: 10, Round: 2, PeakRSS: 120 * mb, DBPeakPSS: 40 * mb},
		{Server: langgraph, Clients: 10, Round: 1, PeakRSS: 200 * mb},
		{Server: langgraph, Clients: 10, Round: 2, PeakRSS: 200 * mb},
	}
	var b strings.Builder
	printSummary(&b, config{clients: []int{10}, servers: []string{tripgraph, langgraph}, rounds: 2}, all)
	want := "| peak memory with PostgreSQL (MiB) | 150 (140 – 160) | 200 (200 – 200) | 0.75 |"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("the summary has no line %q:\n%s", want, b.String())
	}
}
