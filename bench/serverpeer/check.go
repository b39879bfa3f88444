package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
)

// checkRun is what js/load.mjs --check reports of one run.
type checkRun struct {
	Request int      `json:"request"`
	Error   string   `json:"error"`
	Nodes   []string `json:"nodes"`
	Trip    *struct {
		Location string `json:"location"`
		Guests   int    `json:"guests"`
	} `json:"trip"`
}

type checkResult struct {
	Rows [][]checkRun `json:"rows"`
}

// agreement counts how many runs of two servers' checks took the same
// nodes, reached the same trip (place and guests), and ran the tool node.
type agreement struct {
	runs, sameNodes, sameTrip     int
	toolsA, toolsB                int
	errorsA, errorsB              int
	differences                   []string
	nodeCountsA, nodeCountsB, all int
}

func compareChecks(a, b checkResult) agreement {
	var g agreement
	for i := range min(len(a.Rows), len(b.Rows)) {
		for j := range min(len(a.Rows[i]), len(b.Rows[i])) {
			x, y := a.Rows[i][j], b.Rows[i][j]
			g.runs++
			g.nodeCountsA += len(x.Nodes)
			g.nodeCountsB += len(y.Nodes)
			if x.Error != "" {
				g.errorsA++
			}
			if y.Error != "" {
				g.errorsB++
			}
			if slices.Contains(x.Nodes, "callTools") {
				g.toolsA++
			}
			if slices.Contains(y.Nodes, "callTools") {
				g.toolsB++
			}
			sameNodes := slices.Equal(x.Nodes, y.Nodes)
			sameTrip := (x.Trip == nil) == (y.Trip == nil) && (x.Trip == nil || *x.Trip == *y.Trip)
			if sameNodes {
				g.sameNodes++
			}
			if sameTrip {
				g.sameTrip++
			}
			if !sameNodes || !sameTrip {
				g.differences = append(g.differences, fmt.Sprintf("thread %d turn %d (request %d): %v %s against %v %s",
					i, j, x.Request, x.Nodes, tripString(x), y.Nodes, tripString(y)))
			}
		}
	}
	return g
}

func tripString(r checkRun) string {
	if r.Trip == nil {
		return "(no trip)"
	}
	return fmt.Sprintf("(%s, %d guests)", r.Trip.Location, r.Trip.Guests)
}

// runCheck streams every conversation of the workload once, one run at a
// time, on tripgraph and on LangGraph.js in memory, and prints how far
// the two servers' runs agree.
func runCheck(ctx context.Context, env roundEnv, w io.Writer) error {
	results := map[string]checkResult{}
	for _, name := range []string{tripgraph, langgraph} {
		var (
			s   *server
			err error
		)
		if name == tripgraph {
			db := "serverpeer_check"
			if err := env.cl.createDB(ctx, db, templateDB); err != nil {
				return err
			}
			defer env.cl.dropDB(context.Background(), db)
			s, err = startTripgraph(ctx, env, db, "check-"+name)
		} else {
			s, err = startLangGraph(ctx, env, "", "check-"+name)
		}
		if err != nil {
			return err
		}
		args := []string{"load.mjs", "--url", s.url, "--check"}
		if s.key != "" {
			args = append(args, "--key", s.key)
		}
		cmd := exec.CommandContext(ctx, "node", args...)
		cmd.Dir = env.js
		out, err := cmd.Output()
		s.stop()
		if err != nil {
			return fmt.Errorf("checking %s: %w", name, err)
		}
		var r checkResult
		if err := json.Unmarshal(lastLine(out), &r); err != nil {
			return fmt.Errorf("reading the check of %s: %w", name, err)
		}
		results[name] = r
	}
	g := compareChecks(results[tripgraph], results[langgraph])
	fmt.Fprintf(w, "check: %d runs on each server (every conversation of the workload once, one run at a time)\n", g.runs)
	fmt.Fprintf(w, "  same nodes in the same order: %d; same trip at the end (place and guests): %d\n", g.sameNodes, g.sameTrip)
	fmt.Fprintf(w, "  nodes run: tripgraph %d, LangGraph.js %d; runs that called the tools: tripgraph %d, LangGraph.js %d\n",
		g.nodeCountsA, g.nodeCountsB, g.toolsA, g.toolsB)
	fmt.Fprintf(w, "  errors: tripgraph %d, LangGraph.js %d\n", g.errorsA, g.errorsB)
	for _, d := range g.differences {
		fmt.Fprintln(w, "  differs:", d)
	}
	return nil
}

// lastLine is the last non-empty line of out.
func lastLine(out []byte) []byte {
	lines := slices.DeleteFunc(splitLines(out), func(l []byte) bool { return len(l) == 0 })
	if len(lines) == 0 {
		return nil
	}
	return lines[len(lines)-1]
}

func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := slices.Index(b, '\n')
		if i < 0 {
			return append(out, b)
		}
		out = append(out, b[:i])
		b = b[i+1:]
	}
	return out
}
