package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"
)

// frame is one server-sent event: its name and its data lines joined.
type frame struct {
	event string
	data  string
}

// readFrames reads SSE frames from r and calls each for every complete one
// (a frame ends at a blank line). Only the event and data fields are
// kept: comment lines (": keep-alive") and the id field are skipped. It stops at EOF, at a read error, or when each
// returns false.
func readFrames(r io.Reader, each func(frame) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var f frame
	var started bool
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if started {
				if !each(f) {
					return nil
				}
			}
			f, started = frame{}, false
		default:
			name, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch name {
			case "event":
				f.event, started = value, true
			case "data":
				if f.data != "" {
					f.data += "\n"
				}
				f.data, started = f.data+value, true
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading the event stream: %w", err)
	}
	return nil
}

// percentile returns the p-th percentile (0 < p <= 100) of xs by the
// nearest-rank method: the smallest value with at least p% of the values
// at or below it. xs must be sorted; an empty xs gives 0.
func percentile(xs []time.Duration, p float64) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	rank := int(math.Ceil(float64(len(xs)) * p / 100))
	if rank < 1 {
		rank = 1
	}
	if rank > len(xs) {
		rank = len(xs)
	}
	return xs[rank-1]
}

func sortDurations(xs []time.Duration) {
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
}

// vmHWM reads the peak resident set size, in KiB, from the VmHWM line of a
// /proc/<pid>/status file.
func vmHWM(status io.Reader) (int64, error) {
	sc := bufio.NewScanner(status)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:")
		if !ok {
			continue
		}
		var kib int64
		if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kib); err != nil {
			return 0, fmt.Errorf("parsing VmHWM %q: %w", rest, err)
		}
		return kib, nil
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("reading the process status: %w", err)
	}
	return 0, fmt.Errorf("no VmHWM line in the process status")
}
