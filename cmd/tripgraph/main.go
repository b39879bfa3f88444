// Command tripgraph is the one binary of the trip-planning agent runtime.
// Each subcommand lives in its own file and registers itself.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/telemetry"
)

// command is one subcommand of the binary.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, cfg config.Config, args []string) error
	// serving commands log JSON lines on stderr, their failure included
	// (see servingLog); the others write text for a person.
	serving bool
}

var commands = map[string]command{}

// register adds a subcommand; each command file calls it from init.
func register(c command) { commands[c.name] = c }

func main() {
	if len(os.Args) < 2 || os.Args[1] == "help" || os.Args[1] == "-h" || os.Args[1] == "--help" {
		usage()
		os.Exit(2)
	}
	c, ok := commands[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "tripgraph: unknown command %q\n\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	if c.serving {
		servingLog(os.Stderr)
	}
	cfg, err := config.Load(os.Environ(), ".env")
	if err != nil {
		fail(c, err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := c.run(ctx, cfg, os.Args[2:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		fail(c, err)
		os.Exit(1)
	}
}

// fail reports a command's failure: a JSON line for a serving command,
// text for a person otherwise.
func fail(c command, err error) {
	if c.serving {
		slog.Error("tripgraph "+c.name+" failed", "err", err)
		return
	}
	fmt.Fprintf(os.Stderr, "tripgraph %s: %v\n", c.name, err)
}

// servingLog makes JSON lines on w the default slog logger, which the
// serving commands log with. The standard log package then writes through
// it too, so that what net/http, a model provider or any other library
// logs with that package is a JSON line as well, not plain text among
// them.
func servingLog(w io.Writer) *slog.Logger {
	l := slog.New(telemetry.LogHandler(slog.NewJSONHandler(w, nil))) // a request's or a run's lines carry its trace
	slog.SetDefault(l)
	return l
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: tripgraph <command> [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-9s %s\n", n, commands[n].summary)
	}
}
