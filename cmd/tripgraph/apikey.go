package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/errcode"
)

func init() {
	register(command{
		name:    "apikey",
		summary: "create an API key for an existing user: apikey --user NAME [--label TEXT]",
		run: func(ctx context.Context, cfg config.Config, args []string) error {
			return runAPIKey(ctx, cfg, args, os.Stdout)
		},
	})
}

// runAPIKey makes an API key for an existing user and prints it once: only
// its hash is stored. A user that does not exist is refused, so that a typo
// cannot mint a working key that sees nothing.
func runAPIKey(ctx context.Context, cfg config.Config, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("apikey", flag.ContinueOnError)
	user := fs.String("user", "demo", "the user the key acts as (tripgraph user create NAME makes one)")
	label := fs.String("label", "cli", "a note to tell keys apart")
	if err := fs.Parse(args); err != nil {
		return err
	}
	st, err := openStore(ctx, cfg.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.Accounts.UserByName(ctx, *user)
	if errcode.Of(err) == errcode.NotFound {
		return fmt.Errorf("there is no user %q: create it first with tripgraph user create %s", *user, *user)
	}
	if err != nil {
		return fmt.Errorf("finding user %q: %w", *user, err)
	}
	key, err := st.Accounts.CreateAPIKey(ctx, u.ID, *label)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, key)
	return nil
}
