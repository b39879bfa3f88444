package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"
)

func (r roundResult) cpuPerRun() (srv, db float64) {
	if r.Load.OK == 0 {
		return 0, 0
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(r.Load.OK) }
	return ms(r.ServerCPU), ms(r.DBCPU)
}

func (r roundResult) refused() int64 { return r.Load.Statuses["429"] }

func (r roundResult) printLine(w io.Writer) {
	srv, db := r.cpuPerRun()
	fmt.Fprintf(w, "%-21s N=%-4d round %d (load %s): %5d runs, %6.1f runs/s, first node output p50 %6.0f p99 %6.0f ms, "+
		"run p50 %6.0f ms, errors %d, 429s %d, CPU/run %.1f + %.1f ms, peak RSS %.0f MiB, with PostgreSQL %.0f MiB\n",
		r.Server, r.Clients, r.Round, r.LoadAverage, r.Load.OK, r.Load.RunsPerSecond, r.Load.FirstUpdateMs.P50,
		r.Load.FirstUpdateMs.P99, r.Load.RunMs.P50, r.Load.errorCount(), r.refused(), srv, db, mib(r.PeakRSS), mib(r.peakWithDB()))
}

// peakWithDB is the server's peak RSS and its PostgreSQL's peak PSS
// added up: no less than their peak together, as the two peaks may come
// at different times.
func (r roundResult) peakWithDB() int64 { return r.PeakRSS + r.DBPeakPSS }

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// median of xs; the mean of the two middle values for an even count.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// column is one figure of the summary, taken from each round.
type column struct {
	name string
	of   func(roundResult) float64
	unit string
}

var columns = []column{
	{"runs/s", func(r roundResult) float64 { return r.Load.RunsPerSecond }, "%.1f"},
	{"first node output p50 (ms)", func(r roundResult) float64 { return r.Load.FirstUpdateMs.P50 }, "%.0f"},
	{"first node output p99 (ms)", func(r roundResult) float64 { return r.Load.FirstUpdateMs.P99 }, "%.0f"},
	{"first frame p50 (ms)", func(r roundResult) float64 { return r.Load.FirstFrameMs.P50 }, "%.0f"},
	{"run time p50 (ms)", func(r roundResult) float64 { return r.Load.RunMs.P50 }, "%.0f"},
	{"run time p99 (ms)", func(r roundResult) float64 { return r.Load.RunMs.P99 }, "%.0f"},
	{"thread create p50 (ms)", func(r roundResult) float64 { return r.Load.ThreadCreateMs.P50 }, "%.0f"},
	{"runs (ok)", func(r roundResult) float64 { return float64(r.Load.OK) }, "%.0f"},
	{"errors", func(r roundResult) float64 { return float64(r.Load.errorCount()) }, "%.0f"},
	{"429 answers", func(r roundResult) float64 { return float64(r.refused()) }, "%.0f"},
	{"CPU ms/run, server", func(r roundResult) float64 { s, _ := r.cpuPerRun(); return s }, "%.1f"},
	{"CPU ms/run, its PostgreSQL", func(r roundResult) float64 { _, d := r.cpuPerRun(); return d }, "%.1f"},
	{"CPU ms/run, both", func(r roundResult) float64 { s, d := r.cpuPerRun(); return s + d }, "%.1f"},
	{"CPU ms/run, the load program", func(r roundResult) float64 {
		return 1000 * r.Load.LoadCPUSeconds / float64(max(r.Load.OK, 1))
	}, "%.1f"},
	{"peak RSS (MiB)", func(r roundResult) float64 { return mib(r.PeakRSS) }, "%.0f"},
	{"PostgreSQL peak PSS (MiB)", func(r roundResult) float64 { return mib(r.DBPeakPSS) }, "%.0f"},
	{"PostgreSQL processes at its peak", func(r roundResult) float64 { return float64(r.DBProcs) }, "%.0f"},
	{"busy backends, most at once", func(r roundResult) float64 { return float64(r.DBPeakActive) }, "%.0f"},
	{"busy backends, mean", func(r roundResult) float64 { return r.DBMeanActive }, "%.1f"},
	{"peak memory with PostgreSQL (MiB)", func(r roundResult) float64 { return mib(r.peakWithDB()) }, "%.0f"},
}

// printSummary prints, per number of clients, the median of each figure
// over the rounds, with the smallest and largest, for each server; with
// both tripgraph and LangGraph.js in memory measured, the ratio of their
// medians too.
func printSummary(w io.Writer, c config, all []roundResult) {
	ratio := slices.Contains(c.servers, tripgraph) && slices.Contains(c.servers, langgraph)
	for _, n := range c.clients {
		fmt.Fprintf(w, "\nN = %d clients, medians of %d rounds (min – max)\n\n", n, c.rounds)
		fmt.Fprintf(w, "| |")
		for _, s := range c.servers {
			fmt.Fprintf(w, " %s |", s)
		}
		cols := len(c.servers)
		if ratio {
			fmt.Fprintf(w, " %s / %s |", tripgraph, langgraph)
			cols++
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "|---|%s\n", strings.Repeat("---:|", cols))
		loads := map[string][]string{}
		for _, r := range all {
			if r.Clients == n {
				loads[r.Server] = append(loads[r.Server], r.LoadAverage)
			}
		}
		fmt.Fprintf(w, "| load average at the start |")
		for _, s := range c.servers {
			fmt.Fprintf(w, " %s |", strings.Join(loads[s], ", "))
		}
		if ratio {
			fmt.Fprint(w, " |")
		}
		fmt.Fprintln(w)
		for _, col := range columns {
			fmt.Fprintf(w, "| %s |", col.name)
			medians := map[string]float64{}
			for _, s := range c.servers {
				var xs []float64
				for _, r := range all {
					if r.Clients == n && r.Server == s {
						xs = append(xs, col.of(r))
					}
				}
				if len(xs) == 0 {
					fmt.Fprint(w, " |")
					continue
				}
				f := func(v float64) string { return fmt.Sprintf(col.unit, v) }
				medians[s] = median(xs)
				fmt.Fprintf(w, " %s (%s – %s) |", f(medians[s]), f(slices.Min(xs)), f(slices.Max(xs)))
			}
			if ratio {
				if d := medians[langgraph]; d != 0 {
					fmt.Fprintf(w, " %.2f |", medians[tripgraph]/d)
				} else {
					fmt.Fprint(w, " |")
				}
			}
			fmt.Fprintln(w)
		}
	}
}

// printStatements prints, for each number of clients, the tripgraph
// round with the median runs/s: its top statements by total time, per run.
func printStatements(w io.Writer, all []roundResult, top int) {
	byN := map[int][]roundResult{}
	var ns []int
	for _, r := range all {
		if r.Server != tripgraph || r.DB == nil {
			continue
		}
		if _, ok := byN[r.Clients]; !ok {
			ns = append(ns, r.Clients)
		}
		byN[r.Clients] = append(byN[r.Clients], r)
	}
	for _, n := range ns {
		rs := byN[n]
		slices.SortFunc(rs, func(a, b roundResult) int {
			return int(a.Load.RunsPerSecond*1000) - int(b.Load.RunsPerSecond*1000)
		})
		r := rs[len(rs)/2]
		runs := float64(max(r.Load.OK, 1))
		var total, plan float64
		var calls, plans int64
		for _, s := range r.DB.Statements {
			total += s.TotalMs
			plan += s.PlanMs
			calls += s.Calls
			plans += s.Plans
		}
		fmt.Fprintf(w, "\ntripgraph's statements at N = %d (round %d, %d runs): per run %.1f statements, %.2f ms of execution, "+
			"%.1f plannings taking %.2f ms\n\n", n, r.Round, r.Load.OK, float64(calls)/runs, total/runs, float64(plans)/runs, plan/runs)
		if st := r.DB.Stored; st != nil && st.Runs > 0 {
			fmt.Fprintf(w, "stored per run (warm-up included): %.2f checkpoints, run events", float64(st.Checkpoints)/float64(st.Runs))
			kinds := slices.Sorted(maps.Keys(st.Events))
			for _, k := range kinds {
				fmt.Fprintf(w, " %s %.2f", k, float64(st.Events[k])/float64(st.Runs))
			}
			fmt.Fprintf(w, "; commits per run %.1f\n\n", float64(r.DB.Commits)/float64(st.Runs))
		}
		fmt.Fprintln(w, "| calls/run | exec ms/run | mean ms | plans/run | rows/run | statement |")
		fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---|")
		for i, s := range r.DB.Statements {
			if i == top {
				break
			}
			q := s.Query
			if len(q) > 140 {
				q = q[:140] + "…"
			}
			fmt.Fprintf(w, "| %.2f | %.3f | %.3f | %.2f | %.2f | `%s` |\n", float64(s.Calls)/runs, s.TotalMs/runs,
				s.TotalMs/float64(max(s.Calls, 1)), float64(s.Plans)/runs, float64(s.Rows)/runs, strings.ReplaceAll(q, "|", `\|`))
		}
	}
}
