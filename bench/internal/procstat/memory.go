package procstat

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// PSS is a process's proportional set size now, in bytes: its resident
// pages, each shared page counted as its share among the processes that
// map it (Pss in /proc/<pid>/smaps_rollup). The PSS of all of PostgreSQL's
// processes adds up to what they hold together, shared buffers counted
// once however many backends touched them.
func PSS(pid int) (int64, error) {
	return readKiB(pid, "smaps_rollup", "Pss:")
}

// RSS is a process's resident set size now, in bytes (VmRSS in
// /proc/<pid>/status).
func RSS(pid int) (int64, error) {
	return readKiB(pid, "status", "VmRSS:")
}

// PeakRSS is a process's peak resident set size, in bytes (VmHWM in
// /proc/<pid>/status).
func PeakRSS(pid int) (int64, error) {
	return readKiB(pid, "status", "VmHWM:")
}

func readKiB(pid int, file, field string) (int64, error) {
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), file))
	if err != nil {
		return 0, fmt.Errorf("reading the memory of process %d: %w", pid, err)
	}
	defer f.Close()
	v, err := fieldKiB(f, field)
	if err != nil {
		return 0, fmt.Errorf("reading the memory of process %d: %w", pid, err)
	}
	return v, nil
}

// fieldKiB reads the first line of r that starts with field, a size in
// kB such as "Pss:   1234 kB", and returns it in bytes.
func fieldKiB(r io.Reader, field string) (int64, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), field)
		if !ok {
			continue
		}
		kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("parsing %s %q: %w", field, rest, err)
		}
		return kib * 1024, nil
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("no %s line", field)
}

// TreePSS is the PSS of root and of every live process below it but
// those of leave, added up, and how many processes that is. A process
// that ends between the scan and its read is left out.
func TreePSS(root int, leave ...int) (total int64, procs int, err error) {
	pids, err := Tree(root)
	if err != nil {
		return 0, 0, err
	}
	for i, pid := range pids {
		if slices.Contains(leave, pid) {
			continue
		}
		p, err := PSS(pid)
		if err != nil {
			if i == 0 {
				return 0, 0, err // the root itself is gone
			}
			continue
		}
		total += p
		procs++
	}
	return total, procs, nil
}
