package main

import (
	"context"
	"fmt"
	"os"

	"github.com/tripgraph/tripgraph/config"
	"github.com/tripgraph/tripgraph/devdb"
)

func init() {
	register(command{
		name:    "db",
		summary: "manage the project-local PostgreSQL cluster: start (default) | stop | reset | url",
		run:     runDB,
	})
}

func runDB(ctx context.Context, cfg config.Config, args []string) error {
	action := "start"
	if len(args) > 0 {
		action = args[0]
	}
	if cfg.Database.URL != "" && action != "url" {
		return fmt.Errorf("DATABASE_URL is set, so the local cluster is not used; unset it to %s the local cluster", action)
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	c, err := devdb.New(wd)
	if err != nil {
		return err
	}
	switch action {
	case "start", "url":
		u, err := devdb.URL(ctx, cfg.Database.URL)
		if err != nil {
			return err
		}
		fmt.Println(u)
		return nil
	case "stop":
		return c.Stop(ctx)
	case "reset":
		return c.Reset(ctx)
	}
	return fmt.Errorf("unknown action %q: want start, stop, reset or url", action)
}
