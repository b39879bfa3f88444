// Command peer measures tripgraph's engine side by side with LangGraph.js on
// the same trip-shaped graph: START routes to classify or extraction
// (routeStart), classify to extraction or callTools (routeAfterClassifying),
// extraction to callTools or END (routeAfterExtraction), callTools to END.
// The nodes are deterministic (no model): each request of the workload
// (workload.json, read by both programs) carries what a model would have
// extracted from it, and callTools appends an assistant message and an
// accommodations-list component with five hotels. js/peer.mjs is the same
// graph on LangGraph.js.
//
//	peer bench    the driver: checks that both programs reach the same
//	              states, alternates measured rounds between them, measures
//	              the storage of a 200-turn thread, and prints the table
//	peer dump     [-saver memory|postgres] [-db URL] [-short]: the final
//	              states, read back from the saver, as JSON (-short: without
//	              the 200-turn thread)
//	peer run      -saver memory|postgres [-db URL] [-seconds N]: one round
//	peer storage  -db URL: writes the 200-turn thread, prints its final state
//
// make bench-peer builds it, installs the npm packages and runs peer bench.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"

	"github.com/tripgraph/tripgraph/graph"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := dispatch(ctx, os.Args[1], os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "peer:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: peer bench|dump|run|storage [flags]; peer <mode> -h lists the flags")
	os.Exit(2)
}

func dispatch(ctx context.Context, mode string, args []string) error {
	fs := flag.NewFlagSet(mode, flag.ExitOnError)
	saver := fs.String("saver", saverMemory, "the saver: memory or postgres")
	dbURL := fs.String("db", "", "the PostgreSQL database, for the postgres saver")
	seconds := fs.Float64("seconds", 2, "run: time to spend in timed runs, after a warm-up pass")
	short := fs.Bool("short", false, "dump: leave out the long thread")
	cpuProfile := fs.String("cpuprofile", "", "run: write a CPU profile of the round to this file")
	durability := fs.String("durability", string(graph.DurabilitySync), "run: when checkpoints are written: sync or async")
	var cfg benchConfig
	cfg.flags(fs)
	fs.Parse(args)
	w, err := loadWorkload()
	if err != nil {
		return err
	}
	var out any
	switch mode {
	case "bench":
		return runBench(ctx, w, cfg)
	case "dump":
		out, err = runDump(ctx, w, *saver, *dbURL, *short)
	case "run":
		stopProfile, perr := startProfile(*cpuProfile)
		if perr != nil {
			return perr
		}
		out, err = runRound(ctx, w, *saver, *dbURL, *seconds, graph.Durability(*durability))
		stopProfile()
	case "storage":
		out, err = runStorage(ctx, w, *dbURL)
	default:
		usage()
	}
	if err != nil {
		return err
	}
	data, err := printJSON(out)
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(data)
	return err
}

func startProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("creating the CPU profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("starting the CPU profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
