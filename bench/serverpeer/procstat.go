package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

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
// reading, how many processes they were then, and the most of the round
// database's backends that were busy with a statement at one reading, and
// their mean over the readings.
type memSample struct {
	pss        int64
	procs      int
	peakActive int
	meanActive float64
}

// sampleEvery is how often the cluster's memory is read during a round:
// often enough for a peak that lasts a second, and each reading walks
// about twenty processes' page tables.
const sampleEvery = 250 * time.Millisecond

// sampler reads the PSS of a process tree and the busy backends of one
// database every sampleEvery until stopped, and keeps the largest. Its own
// connection, which asks for the busy backends, is left out of both.
type sampler struct {
	stopCh chan struct{}
	done   sync.WaitGroup
	conn   *pgx.Conn
	self   int // the pid of conn's backend
	db     string
	peak   memSample
	reads  int
	active int
	err    error
}

// sampleCluster starts reading the tree of the cluster's postmaster and
// the busy backends of database db, on a connection of its own to admin.
func sampleCluster(ctx context.Context, postmaster int, admin, db string) (*sampler, error) {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return nil, fmt.Errorf("connecting to read the busy backends: %w", err)
	}
	s := &sampler{stopCh: make(chan struct{}), conn: conn, db: db}
	if err := conn.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&s.self); err != nil {
		conn.Close(ctx)
		return nil, fmt.Errorf("asking for the sampler's backend: %w", err)
	}
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		t := time.NewTicker(sampleEvery)
		defer t.Stop()
		for {
			s.read(postmaster)
			select {
			case <-s.stopCh:
				s.read(postmaster)
				return
			case <-t.C:
			}
		}
	}()
	return s, nil
}

func (s *sampler) read(root int) {
	pss, procs, err := procstat.TreePSS(root, s.self)
	if err != nil {
		s.err = err
		return
	}
	if pss > s.peak.pss {
		s.peak.pss, s.peak.procs = pss, procs
	}
	var active int
	if err := s.conn.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
		WHERE datname = $1 AND state NOT IN ('idle') AND backend_type = 'client backend' AND pid <> pg_backend_pid()`, s.db).Scan(&active); err != nil {
		s.err = fmt.Errorf("reading the busy backends: %w", err)
		return
	}
	s.reads++
	s.active += active
	s.peak.peakActive = max(s.peak.peakActive, active)
}

// stop ends the readings and returns the largest.
func (s *sampler) stop() (memSample, error) {
	close(s.stopCh)
	s.done.Wait()
	s.conn.Close(context.Background())
	if s.reads > 0 {
		s.peak.meanActive = float64(s.active) / float64(s.reads)
	}
	return s.peak, s.err
}
