package main

import (
	"os"
	"strings"
	"sync"
	"time"

	"github.com/tripgraph/tripgraph/bench/internal/procstat"
)

// loadAverage is the 1-minute load average.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

// memSample is the largest PSS a cluster's processes held together at one
// reading, and how many processes they were then.
type memSample struct {
	pss   int64
	procs int
}

// sampleEvery is how often the cluster's memory is read during a round:
// often enough for a peak that lasts a second, and each reading walks
// about twenty processes' page tables.
const sampleEvery = 250 * time.Millisecond

// sampler reads the PSS of a process tree every sampleEvery until
// stopped, and keeps the largest.
type sampler struct {
	stopCh chan struct{}
	done   sync.WaitGroup
	peak   memSample
	err    error
}

// sampleTree starts reading root's tree.
func sampleTree(root int) *sampler {
	s := &sampler{stopCh: make(chan struct{})}
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		t := time.NewTicker(sampleEvery)
		defer t.Stop()
		for {
			s.read(root)
			select {
			case <-s.stopCh:
				s.read(root)
				return
			case <-t.C:
			}
		}
	}()
	return s
}

func (s *sampler) read(root int) {
	pss, procs, err := procstat.TreePSS(root)
	if err != nil {
		s.err = err
		return
	}
	if pss > s.peak.pss {
		s.peak = memSample{pss: pss, procs: procs}
	}
}

// stop ends the readings and returns the largest.
func (s *sampler) stop() (memSample, error) {
	close(s.stopCh)
	s.done.Wait()
	return s.peak, s.err
}
