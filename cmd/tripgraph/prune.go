package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/store"
)

func init() {
	register(command{
		name: "prune",
		summary: "delete threads idle longer than TRIPGRAPH_THREAD_TTL (--ttl), with their checkpoints, runs, events and crons, and expired store items and ended crons; " +
			"drop the run events older than TRIPGRAPH_RUN_EVENTS_TTL (--events-ttl)",
		run: func(ctx context.Context, cfg config.Config, args []string) error {
			return runPrune(ctx, cfg, args, os.Stdout)
		},
	})
}

func runPrune(ctx context.Context, cfg config.Config, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("prune", flag.ContinueOnError)
	ttl := fs.Duration("ttl", cfg.Storage.ThreadTTL, "delete threads whose newest checkpoint is older than this, such as 720h (default $TRIPGRAPH_THREAD_TTL)")
	eventsTTL := fs.Duration("events-ttl", cfg.Storage.RunEventsTTL, "drop the events of runs created longer ago than this, such as 168h (default $TRIPGRAPH_RUN_EVENTS_TTL; 0 keeps them)")
	dryRun := fs.Bool("dry-run", false, "count what would be deleted, and delete nothing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "ttl" })
	if given && *ttl <= 0 {
		return fmt.Errorf("--ttl %s: want a positive duration such as 720h", *ttl)
	}
	if *eventsTTL < 0 {
		return fmt.Errorf("--events-ttl %s: want a positive duration such as 168h, or 0", *eventsTTL)
	}
	if *ttl == 0 && *eventsTTL == 0 {
		return errors.New("no TTL: give --ttl or set TRIPGRAPH_THREAD_TTL")
	}
	st, err := openStore(ctx, cfg.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	verb := "deleted"
	if *dryRun {
		verb = "would delete"
	}
	if *ttl > 0 {
		cutoff := time.Now().Add(-*ttl)
		n, err := st.PruneThreads(ctx, cutoff, store.PruneOptions{DryRun: *dryRun})
		if err != nil {
			return err
		}
		m, err := st.PruneMemory(ctx, cutoff, *dryRun)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s %d threads idle since %s, %d expired store items and %d crons ended before then\n",
			verb, n, cutoff.UTC().Format(time.RFC3339), m.Items, m.Crons)
	}
	if *eventsTTL > 0 {
		cutoff := time.Now().Add(-*eventsTTL)
		p, err := st.EventPartitions.Prune(ctx, cutoff, *dryRun)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s the events of runs created before %s: %d whole day partitions (%d more kept for runs still active) and %d rows of the default partition\n",
			verb, cutoff.UTC().Format(time.RFC3339), len(p.Partitions), len(p.Kept), p.Rows)
	}
	return nil
}

// startSweeper deletes, in the background, the threads idle for longer than
// ttl: right away, then every sweepInterval. It does nothing when ttl is 0.
// The returned function stops it and waits.
func startSweeper(ctx context.Context, st *store.Store, ttl time.Duration, log *slog.Logger) (stop func()) {
	if ttl <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sweep(ctx, st, ttl, log)
	}()
	log.Info("deleting idle threads", "ttl", ttl.String(), "every", sweepInterval(ttl).String())
	return func() { cancel(); wg.Wait() }
}

// sweepInterval is how often the sweeper runs for a TTL: a tenth of it,
// between a minute and an hour.
func sweepInterval(ttl time.Duration) time.Duration {
	return min(max(ttl/10, time.Minute), time.Hour)
}

func sweep(ctx context.Context, st *store.Store, ttl time.Duration, log *slog.Logger) {
	for {
		cutoff := time.Now().Add(-ttl)
		n, err := st.PruneThreads(ctx, cutoff, store.PruneOptions{})
		switch {
		case err != nil && ctx.Err() == nil:
			log.Error("deleting idle threads", "err", err)
		case n > 0:
			log.Info("deleted idle threads", "threads", n, "ttl", ttl.String())
		}
		m, err := st.PruneMemory(ctx, cutoff, false)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Error("deleting expired store items and ended crons", "err", err)
		case m.Items > 0 || m.Crons > 0:
			log.Info("deleted expired store items and ended crons", "items", m.Items, "crons", m.Crons)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(sweepInterval(ttl)):
		}
	}
}

// partitionsEvery is how often serve's partition keeper runs.
const partitionsEvery = time.Hour

// startPartitions keeps, in the background, the partitions of the run
// events table: it adds those of the days ahead and, with a TTL, drops
// the expired ones (see eventparts), right away and then every
// partitionsEvery. The returned function stops it and waits.
func startPartitions(ctx context.Context, st *store.Store, ttl time.Duration, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			keepPartitions(ctx, st, ttl, log)
			select {
			case <-ctx.Done():
				return
			case <-time.After(partitionsEvery):
			}
		}
	}()
	return func() { cancel(); <-done }
}

// keepPartitions is one pass of the partition keeper.
func keepPartitions(ctx context.Context, st *store.Store, ttl time.Duration, log *slog.Logger) {
	added, err := st.EventPartitions.Add(ctx)
	switch {
	case err != nil && ctx.Err() == nil:
		log.Error("adding run event partitions", "err", err)
	case added > 0:
		log.Info("added run event partitions", "partitions", added)
	}
	if ttl <= 0 {
		return
	}
	p, err := st.EventPartitions.Prune(ctx, time.Now().Add(-ttl), false)
	switch {
	case err != nil && ctx.Err() == nil:
		log.Error("dropping expired run events", "err", err)
	case len(p.Partitions) > 0 || len(p.Kept) > 0 || p.Rows > 0:
		log.Info("dropped expired run events", "partitions", p.Partitions, "kept_for_active_runs", p.Kept,
			"default_partition_rows", p.Rows, "ttl", ttl.String())
	}
}
