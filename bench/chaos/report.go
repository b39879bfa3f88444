package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// report is what a campaign prints at its end.
type report struct {
	o                    options
	dir                  string
	s                    *stored
	recs                 []*runRecord
	clients              []*client
	faults               []injected
	serves               []*serveProc
	f                    *findings
	confirmed, booked    int
	logErrors            int
	fatal                []string
	setup, settle, check time.Duration
	total                time.Duration
}

// shown is how many lines of one finding the report lists.
const shown = 10

func (r report) print(w io.Writer) {
	row := func(name string, v any) { fmt.Fprintf(w, "  %-52s %v\n", name, v) }
	fmt.Fprintf(w, "\nchaos campaign, seed %d: %d clients, %s of faults, run lease %s, shutdown grace %s\n",
		r.o.seed, r.o.clients, r.o.duration, r.o.lease, r.o.grace)
	fmt.Fprintf(w, "  logs: %s\n\n", r.dir)

	fmt.Fprintln(w, "runs")
	statuses := map[string]int{}
	attempts := map[int]int{}
	for _, run := range r.s.runs {
		statuses[run.Status]++
		attempts[run.Attempts]++
	}
	row("runs in the database", len(r.s.runs))
	row("final, by status", countList(statuses))
	row("by attempts (claims)", intCountList(attempts))
	kinds := map[string]int{}
	var drops, rejoins, stalls, adopted, refused, frames int
	for _, rec := range r.recs {
		kinds[rec.Kind]++
		drops += rec.Drops
		rejoins += rec.Rejoins
		stalls += rec.Stalls
		frames += len(rec.Frames)
		if rec.Adopted {
			adopted++
		}
		if rec.Refused != "" {
			refused++
		}
	}
	row("client runs, by kind", countList(kinds))
	row("streams dropped by clients and joined again", drops)
	row("streams ended or broken by a fault, joined again", rejoins)
	row("streams silent "+streamIdle.String()+", joined again", stalls)
	row("runs found after the request that made them failed", adopted)
	row("runs refused (4xx)", refused)
	row("events received by clients", frames)
	var threadFails int
	for _, c := range r.clients {
		threadFails += c.threadFails
	}
	row("threads clients could not make", threadFails)
	row("bookings confirmed / shown booked / stored", fmt.Sprintf("%d / %d / %d", r.confirmed, r.booked, len(r.s.bookings)))
	var errs []string
	for _, run := range r.s.runs {
		if run.Status == "error" {
			errs = append(errs, run.ID+": "+run.Error)
		}
	}
	slices.Sort(errs)
	for i, e := range errs {
		if i == shown {
			fmt.Fprintf(w, "    … %d more\n", len(errs)-shown)
			break
		}
		fmt.Fprintf(w, "    error run %s\n", e)
	}

	fmt.Fprintln(w, "\nfaults injected")
	byKind := map[string]int{}
	var notes []string
	for _, in := range r.faults {
		byKind[in.Kind]++
		if in.Note != "" {
			notes = append(notes, fmt.Sprintf("%.0fs %s %s: %s", in.At.Seconds(), in.Kind, in.Target, in.Note))
		}
	}
	for _, k := range faultKinds {
		row(k, byKind[k])
	}
	for _, n := range notes {
		fmt.Fprintf(w, "    note: %s\n", n)
	}
	var starts []string
	for _, p := range r.serves {
		starts = append(starts, fmt.Sprintf("%s %d", p.name, p.starts))
	}
	row("serve starts", strings.Join(starts, ", "))
	row("ERROR lines in the serve logs", r.logErrors)

	fmt.Fprintf(w, "\ninvariants (%d checks; broken / checked)\n", r.f.checks())
	for _, l := range r.f.lists() {
		row(l.name, fmt.Sprintf("%d / %d", len(*l.items), r.f.checked[l.items]))
	}
	row("panics or races in the serve logs", len(r.fatal))
	for _, l := range r.f.lists() {
		items := *l.items
		for i, it := range items {
			if i == shown {
				fmt.Fprintf(w, "    … %d more\n", len(items)-shown)
				break
			}
			fmt.Fprintf(w, "    %s: %s\n", l.name, it)
		}
	}
	for _, line := range r.fatal {
		fmt.Fprintf(w, "    %s\n", line)
	}

	fmt.Fprintf(w, "\nsummary: seed %d, %d runs, %d faults, %d checks, %d broken, %.0fs\n",
		r.o.seed, len(r.s.runs), len(r.faults), r.f.checks(), r.f.broken()+len(r.fatal), r.total.Seconds())
	fmt.Fprintf(w, "time: set-up %.0fs, faults %s, settle %.0fs, checks %.0fs, in all %.0fs\n",
		r.setup.Seconds(), r.o.duration, r.settle.Seconds(), r.check.Seconds(), r.total.Seconds())
	if r.f.failed() || len(r.fatal) > 0 {
		fmt.Fprintf(w, "FAIL (replay the draw with -seed %d)\n", r.o.seed)
	} else {
		fmt.Fprintln(w, "PASS")
	}
}

// countList is "a 3, b 1", by name.
func countList(m map[string]int) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

// intCountList is "1: 30, 2: 4", by key.
func intCountList(m map[int]int) string {
	var keys []int
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d: %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
