package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/testing/npmtest"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
)

func mustWorkload(t *testing.T) *workload {
	t.Helper()
	w, err := loadWorkload()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// The LangGraph.js program reaches the same final states as tripgraph's
// engine, with reducer channels and with DeltaChannels, read back from
// their in-memory savers. It needs node; the npm packages are installed
// from js/package-lock.json on first use.
func TestLangGraphReachesTheSameStates(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node")
	}
	npmtest.Install(t, "js")
	w := mustWorkload(t)
	want, err := runDump(context.Background(), w, saverMemory, "", true)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, err := printJSON(want)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"reducer channels", nil},
		{"DeltaChannel", []string{"--delta"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command("node", append([]string{filepath.Join("js", "peer.mjs"), "dump", "--short"}, tc.args...)...)
			cmd.Stderr = os.Stderr
			got, err := cmd.Output()
			if err != nil {
				t.Fatalf("node peer.mjs dump: %v", err)
			}
			d, err := sameJSON(wantJSON, got)
			if err != nil {
				t.Fatal(err)
			}
			if d != "" {
				t.Fatalf("the final states differ at %s", d)
			}
		})
	}
}

// The workload takes every branch of the three routers: extraction that
// asks and ends, extraction then callTools, classify keeping the details,
// and classify clearing them.
func TestWorkloadTakesEveryRoute(t *testing.T) {
	ctx := context.Background()
	w := mustWorkload(t)
	g, err := tripGraph(w, graph.NewMemorySaver())
	if err != nil {
		t.Fatal(err)
	}
	paths := map[string]int{}
	for _, turns := range w.Schedule {
		thread := uuid.NewString()
		for turn, r := range turns {
			var path []string
			for ev, err := range g.Run(ctx, graph.RunConfig[nodes.Update]{ThreadID: thread, Input: w.input(r, turn)}) {
				if err != nil {
					t.Fatal(err)
				}
				if ev.Kind == graph.NodeFinished {
					path = append(path, ev.Node)
				}
			}
			paths[strings.Join(path, " → ")]++
		}
	}
	for _, want := range []string{
		"extraction",
		"extraction → callTools",
		"classify → callTools",
		"classify → extraction → callTools",
	} {
		if paths[want] == 0 {
			t.Errorf("no run took %s; runs took %v", want, paths)
		}
	}
}

// Every request of the list is sent at least once.
func TestWorkloadSendsEveryRequest(t *testing.T) {
	w := mustWorkload(t)
	if len(w.Schedule) != 20 || len(w.Requests) != 20 {
		t.Fatalf("%d threads and %d requests, want 20 and 20", len(w.Schedule), len(w.Requests))
	}
	for t2, turns := range w.Schedule {
		if len(turns) != 10 {
			t.Errorf("thread %d has %d turns, want 10", t2, len(turns))
		}
	}
	long := w.longThread()
	for i := range w.Requests {
		if !slices.Contains(long, i) {
			t.Errorf("request %d (%q) is never sent", i, w.Requests[i].Text)
		}
	}
}

// Extraction fills in dates a week apart, four weeks ahead when none were
// given, and two guests.
func TestExtractionDefaults(t *testing.T) {
	w := mustWorkload(t) // today is 2026-03-02
	p := planner{w: w}
	for _, tc := range []struct {
		name string
		said request
		want nodes.TripDetails
	}{
		{"no dates", request{Location: "Tokyo"},
			nodes.TripDetails{Location: "Tokyo", Country: "Japan", StartDate: "2026-03-30", EndDate: "2026-04-06", NumberOfGuests: 2}},
		{"start only", request{Location: "Barcelona", StartDate: "2026-07-01"},
			nodes.TripDetails{Location: "Barcelona", Country: "Spain", StartDate: "2026-07-01", EndDate: "2026-07-08", NumberOfGuests: 2}},
		{"end only", request{Location: "Rome", EndDate: "2026-09-20", Guests: 5},
			nodes.TripDetails{Location: "Rome", Country: "Italy", StartDate: "2026-09-13", EndDate: "2026-09-20", NumberOfGuests: 5}},
		{"both", request{Location: "Lisbon", StartDate: "2026-05-04", EndDate: "2026-05-08", Guests: 3},
			nodes.TripDetails{Location: "Lisbon", Country: "Portugal", StartDate: "2026-05-04", EndDate: "2026-05-08", NumberOfGuests: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := p.resolve(tc.said)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// A later request changes what it names; a new destination starts over.
func TestAmend(t *testing.T) {
	for _, tc := range []struct {
		name        string
		said, later request
		want        request
	}{
		{"guests", request{Location: "Paris", StartDate: "2026-06-10", Guests: 3}, request{Guests: 6},
			request{Location: "Paris", StartDate: "2026-06-10", Guests: 6}},
		{"dates", request{Location: "Paris", Guests: 3}, request{StartDate: "2026-05-10", EndDate: "2026-05-15"},
			request{Location: "Paris", StartDate: "2026-05-10", EndDate: "2026-05-15", Guests: 3}},
		{"new destination", request{Location: "Paris", StartDate: "2026-06-10", Guests: 3}, request{Location: "Sydney", Guests: 4},
			request{Location: "Sydney", Guests: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.said.amend(tc.later); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// Canonical comparison ignores key order and nulls, and names the first
// difference.
func TestSameJSON(t *testing.T) {
	for _, tc := range []struct {
		name, a, b, want string
	}{
		{"key order", `{"a":1,"b":[{"x":"y","z":2}]}`, `{"b":[{"z":2,"x":"y"}],"a":1}`, ""},
		{"null is absent", `{"a":1,"tripDetails":null}`, `{"a":1}`, ""},
		{"number as written", `{"a":1.0}`, `{"a":1}`, `$.a: 1.0 against 1`},
		{"nested value", `{"ui":[{"props":{"n":3}}]}`, `{"ui":[{"props":{"n":4}}]}`, `$.ui[0].props.n: 3 against 4`},
		{"missing key", `{"a":1}`, `{"a":1,"b":2}`, `$.b: missing against 2`},
		{"extra key", `{"a":1,"b":2}`, `{"a":1}`, `$.b: 2 against missing`},
		{"array length", `[1,2]`, `[1,2,3]`, `$: 2 elements against 3`},
		{"type", `{"a":[1]}`, `{"a":{"0":1}}`, `$.a: an array against {"0":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := sameJSON([]byte(tc.a), []byte(tc.b))
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// BenchmarkMemoryPass is one timed pass of an in-memory round (runRound):
// the whole workload on new threads in a new MemorySaver, in the same
// order. Its ns/run is what a round's runs/s follows, and cpu-ns/run the
// process's CPU per run (all threads: the collector's too), as a round
// reports it; run it with -cpuprofile or -memprofile to see where a run's
// CPU goes.
func BenchmarkMemoryPass(b *testing.B) {
	w, err := loadWorkload()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	runs := len(w.Schedule) * len(w.Schedule[0])
	b.ReportAllocs()
	cpuBefore := cpuTime()
	for b.Loop() {
		s, err := openSaver(ctx, saverMemory, "")
		if err != nil {
			b.Fatal(err)
		}
		g, err := tripGraph(w, s.cp)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := pass(ctx, w, g, s, len(w.Schedule[0]), graph.DurabilitySync); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpuBefore).Nanoseconds())/float64(b.N)/float64(runs), "cpu-ns/run")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(runs), "ns/run")
}
