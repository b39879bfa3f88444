package main

import (
	"strings"
	"testing"
)

func TestVMHWM(t *testing.T) {
	got, err := vmHWM(strings.NewReader("Name:\tnode\nVmPeak:\t 900 kB\nVmHWM:\t   2048 kB\nVmRSS:\t 1000 kB\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got != 2048*1024 {
		t.Fatalf("vmHWM = %d, want %d", got, 2048*1024)
	}
	if _, err := vmHWM(strings.NewReader("VmRSS:\t 1000 kB\n")); err == nil {
		t.Fatal("vmHWM without the line: no error")
	}
}

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
