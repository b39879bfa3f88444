package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tripgraph/tripgraph/config"
)

func init() {
	register(command{
		name:    "user",
		summary: "manage users: user create NAME",
		run: func(ctx context.Context, cfg config.Config, args []string) error {
			return runUser(ctx, cfg, args, os.Stdout)
		},
	})
}

// runUser makes a user and prints its id.
func runUser(ctx context.Context, cfg config.Config, args []string, out io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: tripgraph user create NAME")
	}
	fs := flag.NewFlagSet("user create", flag.ContinueOnError)
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: tripgraph user create NAME")
	}
	st, err := openStore(ctx, cfg.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.Accounts.CreateUser(ctx, fs.Arg(0))
	if err != nil {
		return fmt.Errorf("creating user %q: %w", fs.Arg(0), err)
	}
	fmt.Fprintf(out, "created user %s (id %s)\n", u.Name, u.ID)
	return nil
}
