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
		name:    "prune",
		summary: "delete threads idle longer than TRIPGRAPH_THREAD_TTL (--ttl), with their checkpoints, runs, events and crons, and expired store items and ended crons",
		run: func(ctx context.Context, cfg config.Config, args []string) error {
			return runPrune(ctx, cfg, args, os.Stdout)
		},
	})
}

func runPrune(ctx context.Context, cfg config.Config, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("prune", flag.ContinueOnError)
	ttl := fs.Duration("ttl", cfg.Storage.ThreadTTL, "delete threads whose newest checkpoint is older than this, such as 720h (default $TRIPGRAPH_THREAD_TTL)")
	dryRun := fs.Bool("dry-run", false, "count the threads that would be deleted, and delete nothing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == "ttl" })
	if given && *ttl <= 0 {
		return fmt.Errorf("--ttl %s: want a positive duration such as 720h", *ttl)
	}
	if *ttl == 0 {
		return errors.New("no TTL: give --ttl or set TRIPGRAPH_THREAD_TTL")
	}
	st, err := openStore(ctx, cfg.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	cutoff := time.Now().Add(-*ttl)
	n, err := st.PruneThreads(ctx, cutoff, store.PruneOptions{DryRun: *dryRun})
	if err != nil {
		return err
	}
	m, err := st.PruneMemory(ctx, cutoff, *dryRun)
	if err != nil {
		return err
	}
	verb := "deleted"
	if *dryRun {
		verb = "would delete"
	}
	fmt.Fprintf(out, "%s %d threads idle since %s, %d expired store items and %d crons ended before then\n",
		verb, n, cutoff.UTC().Format(time.RFC3339), m.Items, m.Crons)
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
