package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tripgraph/tripgraph/nodes"
)

// workloadJSON is the workload both programs run; the LangGraph.js program
// reads the same file.
//
//go:embed workload.json
var workloadJSON []byte

// workload is the fixed list of requests, what each one says, and which
// thread sends which request at which turn.
type workload struct {
	Today    string           `json:"today"`   // the planner's "today", for default dates
	EpochMs  int64            `json:"epochMs"` // the planner's clock starts here
	Places   map[string]place `json:"places"`
	Requests []request        `json:"requests"`
	Schedule [][]int          `json:"schedule"` // schedule[thread][turn] indexes Requests

	byText map[string]*request
	today  time.Time
}

// place is where a destination is.
type place struct {
	Country string  `json:"country"`
	Lat     float64 `json:"lat"`
	Lng     float64 `json:"lng"`
}

// request is one traveller message and what a model would extract from it.
// Empty fields were not said.
type request struct {
	Text      string       `json:"text"`
	Location  string       `json:"location"`
	StartDate string       `json:"startDate"`
	EndDate   string       `json:"endDate"`
	Guests    int          `json:"guests"`
	Intent    nodes.Intent `json:"intent"`
	Language  string       `json:"language"`
}

// loadWorkload parses and checks the embedded workload.
func loadWorkload() (*workload, error) {
	var w workload
	if err := json.Unmarshal(workloadJSON, &w); err != nil {
		return nil, fmt.Errorf("reading the workload: %w", err)
	}
	today, err := time.Parse(time.DateOnly, w.Today)
	if err != nil {
		return nil, fmt.Errorf("reading the workload's today: %w", err)
	}
	w.today = today
	w.byText = make(map[string]*request, len(w.Requests))
	for i := range w.Requests {
		r := &w.Requests[i]
		if _, ok := w.Places[r.Location]; r.Location != "" && !ok {
			return nil, fmt.Errorf("request %d names %q, which is not among the places", i, r.Location)
		}
		w.byText[r.Text] = r
	}
	for t, turns := range w.Schedule {
		for _, i := range turns {
			if i < 0 || i >= len(w.Requests) {
				return nil, fmt.Errorf("thread %d of the schedule names request %d of %d", t, i, len(w.Requests))
			}
		}
	}
	return &w, nil
}

// lookup returns the request whose text is the message.
func (w *workload) lookup(text string) (*request, error) {
	r, ok := w.byText[text]
	if !ok {
		return nil, fmt.Errorf("the message %q is not one of the workload's requests", text)
	}
	return r, nil
}

// longThread is the requests of the long thread: the schedule's rows one
// after another.
func (w *workload) longThread() []int {
	var out []int
	for _, turns := range w.Schedule {
		out = append(out, turns...)
	}
	return out
}

// input is the update that starts turn k of a thread: the traveller's
// message.
func (w *workload) input(requestIndex, turn int) nodes.Update {
	return nodes.Update{Messages: []nodes.Message{{
		ID:      fmt.Sprintf("human-%d", turn),
		Type:    nodes.Human,
		Content: w.Requests[requestIndex].Text,
	}}}
}
