// Package procstat reads the CPU time of processes, and of process trees
// with their ended children, from Linux's /proc, for the benchmarks that
// measure CPU per run of a server and of its PostgreSQL.
package procstat

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTick is the kernel's USER_HZ, the unit of the CPU times in
// /proc/<pid>/stat: 100 on Linux on every architecture Go supports here.
const clockTick = 10 * time.Millisecond

// procTimes is what /proc/<pid>/stat says of a process's CPU time.
type procTimes struct {
	pid, ppid int
	self      time.Duration // utime + stime of all its threads
	children  time.Duration // cutime + cstime: its children that it waited for
}

// parseStat reads one /proc/<pid>/stat line. The command name (field 2)
// is in parentheses and may hold spaces and parentheses itself, so the
// fields are counted from the last ')'.
func parseStat(line string) (procTimes, error) {
	open := strings.IndexByte(line, '(')
	end := strings.LastIndexByte(line, ')')
	if open < 1 || end < open {
		return procTimes{}, fmt.Errorf("a stat line without a command name: %q", line)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line[:open]))
	if err != nil {
		return procTimes{}, fmt.Errorf("the pid of a stat line: %w", err)
	}
	// After the name: state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17).
	f := strings.Fields(line[end+1:])
	if len(f) < 15 {
		return procTimes{}, fmt.Errorf("a stat line with %d fields after the name", len(f))
	}
	n := make([]int64, 0, 5)
	for _, i := range []int{1, 11, 12, 13, 14} { // ppid, utime, stime, cutime, cstime
		v, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return procTimes{}, fmt.Errorf("field %d of a stat line: %w", i+3, err)
		}
		n = append(n, v)
	}
	return procTimes{
		pid:      pid,
		ppid:     int(n[0]),
		self:     time.Duration(n[1]+n[2]) * clockTick,
		children: time.Duration(n[3]+n[4]) * clockTick,
	}, nil
}

func readStat(pid int) (procTimes, error) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return procTimes{}, fmt.Errorf("reading the CPU time of process %d: %w", pid, err)
	}
	return parseStat(string(b))
}

// ProcessCPU is the CPU time a process has used so far: its own threads,
// and the children it has waited for (none, for the servers measured here).
func ProcessCPU(pid int) (time.Duration, error) {
	t, err := readStat(pid)
	return t.self + t.children, err
}

// TreeCPU is the CPU time of a process and of every process below it, live
// or ended: a parent's cutime and cstime hold its ended children's time
// once it has waited for them (PostgreSQL's postmaster waits for every
// backend). A process that ends between the scan and its read is skipped:
// its time moves into its parent's children time, which may then be read
// before or after it moved, so each reading is off by at most one ended
// process's time.
func TreeCPU(root int) (time.Duration, error) {
	all, err := allStats()
	if err != nil {
		return 0, err
	}
	return sumTree(all, root)
}

// sumTree adds up the times of root and its descendants in all.
func sumTree(all []procTimes, root int) (time.Duration, error) {
	kids := map[int][]procTimes{}
	var top *procTimes
	for i := range all {
		kids[all[i].ppid] = append(kids[all[i].ppid], all[i])
		if all[i].pid == root {
			top = &all[i]
		}
	}
	if top == nil {
		return 0, fmt.Errorf("process %d is gone", root)
	}
	var sum time.Duration
	var walk func(p procTimes)
	walk = func(p procTimes) {
		sum += p.self + p.children
		for _, k := range kids[p.pid] {
			walk(k)
		}
	}
	walk(*top)
	return sum, nil
}

func allStats() ([]procTimes, error) {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("listing processes: %w", err)
	}
	var out []procTimes
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		t, err := readStat(pid)
		if err != nil {
			continue // ended meanwhile
		}
		out = append(out, t)
	}
	return out, nil
}

// Parent is the pid of a process's parent: a PostgreSQL backend's is the
// postmaster, the root of the cluster's process tree.
func Parent(pid int) (int, error) {
	t, err := readStat(pid)
	return t.ppid, err
}

// Tree is root and every live process below it.
func Tree(root int) ([]int, error) {
	all, err := allStats()
	if err != nil {
		return nil, err
	}
	in := map[int]bool{root: true}
	out := []int{root}
	for grew := true; grew; {
		grew = false
		for _, p := range all {
			if in[p.ppid] && !in[p.pid] {
				in[p.pid] = true
				out = append(out, p.pid)
				grew = true
			}
		}
	}
	return out, nil
}
