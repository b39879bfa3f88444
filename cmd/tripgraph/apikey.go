package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/accounts"
)

func init() {
	register(command{
		name:    "apikey",
		summary: "manage a user's API keys: apikey create|list|revoke|rotate --user NAME (create: [--label TEXT] [--role user|backend|operator]; revoke, rotate: KEY_ID)",
		run: func(ctx context.Context, cfg config.Config, args []string) error {
			return runAPIKey(ctx, cfg, args, os.Stdout)
		},
	})
}

const apikeyUsage = "usage: tripgraph apikey create|list|revoke|rotate --user NAME [KEY_ID]"

// runAPIKey manages a user's API keys: create prints a new key once (only
// its hash is stored), list shows the keys' records, revoke withdraws one
// (and ends the browser sessions opened with it, in every process at
// once), rotate replaces one with a new key of the same label and role.
// "apikey --user NAME" alone creates, as it always has.
func runAPIKey(ctx context.Context, cfg config.Config, args []string, out io.Writer) error {
	action := "create"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		action, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("apikey "+action, flag.ContinueOnError)
	userName := fs.String("user", "demo", "the user whose keys these are (tripgraph user create NAME makes one)")
	label := fs.String("label", "cli", "create: a note to tell keys apart")
	role := fs.String("role", "user", "create: user, backend (may act for an app's end users) or operator (manages every user's keys over the API)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	st, err := openStore(ctx, cfg.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := existingUser(ctx, st, *userName)
	if err != nil {
		return err
	}
	switch action {
	case "create":
		key, _, err := st.Accounts.CreateAPIKey(ctx, accounts.NewKey{UserID: u.ID, Label: *label, Role: accounts.Role(*role)})
		if err != nil {
			return fmt.Errorf("making a key for %s: %w", u.Name, err)
		}
		fmt.Fprintln(out, key)
	case "list":
		keys, err := st.Accounts.ListAPIKeys(ctx, u.ID)
		if err != nil {
			return err
		}
		printKeys(out, keys)
	case "revoke", "rotate":
		if fs.NArg() != 1 {
			return fmt.Errorf("usage: tripgraph apikey %s --user NAME KEY_ID (apikey list shows the ids)", action)
		}
		return withdrawKey(ctx, st, action, u, fs.Arg(0), out)
	default:
		return errors.New(apikeyUsage)
	}
	return nil
}

// existingUser is the user of that name; one that does not exist is
// refused, so that a typo cannot mint a working key that sees nothing.
func existingUser(ctx context.Context, st *store.Store, name string) (accounts.User, error) {
	u, err := st.Accounts.UserByName(ctx, name)
	if errcode.Of(err) == errcode.NotFound {
		return accounts.User{}, fmt.Errorf("there is no user %q: create it first with tripgraph user create %s", name, name)
	}
	if err != nil {
		return accounts.User{}, fmt.Errorf("finding user %q: %w", name, err)
	}
	return u, nil
}

// withdrawKey revokes or rotates one of the user's keys; rotate prints
// the new key.
func withdrawKey(ctx context.Context, st *store.Store, action string, u accounts.User, keyID string, out io.Writer) error {
	if action == "revoke" {
		k, err := st.Accounts.RevokeAPIKey(ctx, u.ID, keyID)
		if err != nil {
			return fmt.Errorf("revoking key %s of %s: %w", keyID, u.Name, err)
		}
		fmt.Fprintf(out, "revoked key %s (%s) of %s\n", k.ID, k.Label, u.Name)
		return nil
	}
	key, k, err := st.Accounts.RotateAPIKey(ctx, u.ID, keyID)
	if err != nil {
		return fmt.Errorf("rotating key %s of %s: %w", keyID, u.Name, err)
	}
	fmt.Fprintln(out, key)
	fmt.Fprintf(os.Stderr, "key %s replaces %s; the old key is revoked\n", k.ID, keyID)
	return nil
}

// printKeys shows keys as a table.
func printKeys(out io.Writer, keys []accounts.Key) {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tLABEL\tROLE\tCREATED\tLAST USED\tREVOKED")
	for _, k := range keys {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Label, k.Role, when(k.CreatedAt), when(k.LastUsedAt), when(k.RevokedAt))
	}
	w.Flush()
}

// when is a time for a person, "-" for none.
func when(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04")
}
