package procstat

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	tests := []struct {
		name string
		line string
		want procTimes
	}{
		{
			name: "plain name",
			line: "4242 (postgres) S 4000 4242 4242 0 -1 4194560 100 0 0 0 150 25 7 3 20 0 1 0 500 1000 200",
			want: procTimes{pid: 4242, ppid: 4000, self: 175 * clockTick, children: 10 * clockTick},
		},
		{
			name: "a name with spaces and parentheses",
			line: "17 (node (a) b) R 1 17 17 0 -1 0 0 0 0 0 9 1 0 0 20 0 11 0 5 6 7",
			want: procTimes{pid: 17, ppid: 1, self: 10 * clockTick},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseStat(tt.line)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("parseStat = %+v, want %+v", got, tt.want)
			}
		})
	}
	for _, bad := range []string{"", "12 postgres S 1", "12 (x) S 1 2 3"} {
		if _, err := parseStat(bad); err == nil {
			t.Errorf("parseStat(%q): no error", bad)
		}
	}
}

// The CPU of a process tree is its own time, the time of the children it
// has waited for, and the time of every live descendant, and nothing of
// processes outside the tree.
func TestSumTree(t *testing.T) {
	ms := time.Millisecond
	all := []procTimes{
		{pid: 1, ppid: 0, self: 1000 * ms},                  // not in the tree
		{pid: 10, ppid: 1, self: 5 * ms, children: 40 * ms}, // the postmaster, with ended backends
		{pid: 11, ppid: 10, self: 7 * ms},                   // a backend
		{pid: 12, ppid: 10, self: 3 * ms},                   // another
		{pid: 13, ppid: 12, self: 2 * ms},                   // below a backend
		{pid: 20, ppid: 1, self: 500 * ms},                  // a sibling tree
	}
	got, err := sumTree(all, 10)
	if err != nil {
		t.Fatal(err)
	}
	if want := 57 * ms; got != want {
		t.Fatalf("sumTree = %v, want %v", got, want)
	}
	if _, err := sumTree(all, 99); err == nil {
		t.Fatal("sumTree of a missing process: no error")
	}
}

func TestFieldKiB(t *testing.T) {
	rollup := "556a9dc26000-7ffd993f2000 ---p 00000000 00:00 0   [rollup]\n" +
		"Rss:                1692 kB\nPss:                 379 kB\nPss_Dirty:           108 kB\n"
	got, err := fieldKiB(strings.NewReader(rollup), "Pss:")
	if err != nil {
		t.Fatal(err)
	}
	if got != 379*1024 {
		t.Fatalf("Pss = %d, want %d", got, 379*1024)
	}
	status := "Name:\tpostgres\nVmHWM:\t   20480 kB\nVmRSS:\t   10240 kB\n"
	if got, _ := fieldKiB(strings.NewReader(status), "VmRSS:"); got != 10<<20 {
		t.Fatalf("VmRSS = %d, want %d", got, 10<<20)
	}
	for _, bad := range []string{"Rss: 12 kB\n", "Pss: lots kB\n"} {
		if _, err := fieldKiB(strings.NewReader(bad), "Pss:"); err == nil {
			t.Errorf("fieldKiB(%q): no error", bad)
		}
	}
}

// The PSS of a live tree is at least this process's own and counts it.
func TestTreePSS(t *testing.T) {
	self := os.Getpid()
	own, err := PSS(self)
	if err != nil {
		t.Fatal(err)
	}
	total, procs, err := TreePSS(self)
	if err != nil {
		t.Fatal(err)
	}
	if procs < 1 || total < own/2 || own <= 0 {
		t.Fatalf("TreePSS = %d bytes over %d processes, own PSS %d", total, procs, own)
	}
}

// A process left out of a tree's PSS counts for nothing.
func TestTreePSSLeavesOut(t *testing.T) {
	self := os.Getpid()
	total, procs, err := TreePSS(self, self)
	if err != nil {
		t.Fatal(err)
	}
	if total != 0 || procs != 0 {
		t.Fatalf("TreePSS without the only process = %d bytes over %d processes, want none", total, procs)
	}
}
