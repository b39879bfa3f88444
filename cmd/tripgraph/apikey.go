package main

import (
	"context"
	"flag"
	"fmt"
)

func init() {
	register(command{
		name:    "apikey",
		summary: "create an API key for a user: apikey --user NAME [--label TEXT]",
		run:     runAPIKey,
	})
}

// runAPIKey makes an API key and prints it once: only its hash is stored.
func runAPIKey(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("apikey", flag.ContinueOnError)
	user := fs.String("user", "demo", "the user the key acts as (created if missing)")
	label := fs.String("label", "cli", "a note to tell keys apart")
	if err := fs.Parse(args); err != nil {
		return err
	}
	st, err := openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.EnsureUser(ctx, *user)
	if err != nil {
		return err
	}
	key, err := st.CreateAPIKey(ctx, u.ID, *label)
	if err != nil {
		return err
	}
	fmt.Println(key)
	return nil
}
