// Command tripgraph is the one binary of the trip-planning agent runtime.
// Each subcommand lives in its own file and registers itself.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"github.com/tripgraph/tripgraph/config"
)

// command is one subcommand of the binary.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, cfg config.Config, args []string) error
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
	cfg, err := config.Load(os.Environ(), ".env")
	if err != nil {
		fmt.Fprintln(os.Stderr, "tripgraph:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := c.run(ctx, cfg, os.Args[2:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		fmt.Fprintf(os.Stderr, "tripgraph %s: %v\n", c.name, err)
		os.Exit(1)
	}
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
