package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/devdb"
	"github.com/tripgraph/tripgraph/migrations"
)

func init() {
	register(command{
		name:    "migrate",
		summary: "apply or roll back the database schema: up (default) | down [version] | status",
		run:     runMigrate,
	})
}

// runMigrate applies every pending migration (up), rolls back the newest one
// or every one above a version (down [version]), or prints their status.
func runMigrate(ctx context.Context, cfg config.Config, args []string) error {
	action := "up"
	if len(args) > 0 {
		action = args[0]
	}
	u, err := devdb.URL(ctx, cfg.Database.URL)
	if err != nil {
		return err
	}
	switch {
	case action == "up" && len(args) <= 1:
		return migrations.Up(ctx, u)
	case action == "down" && len(args) == 1:
		return migrations.Down(ctx, u)
	case action == "down" && len(args) == 2:
		v, err := strconv.ParseInt(args[1], 10, 64)
		if err != nil || v < 0 {
			return fmt.Errorf("down %q: want a version number", args[1])
		}
		return migrations.DownTo(ctx, u, v)
	case action == "status" && len(args) == 1:
		return migrations.Status(ctx, u, os.Stdout)
	}
	return fmt.Errorf("usage: tripgraph migrate up | down [version] | status")
}
