package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"

	"github.com/tripgraph/tripgraph/devdb"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/store"
)

// loadDotEnv sets variables from a KEY=VALUE file that are not already set
// in the environment. A missing file is fine.
func loadDotEnv(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		if !ok {
			return fmt.Errorf("%s:%d: want KEY=VALUE", path, n)
		}
		key, value = strings.TrimSpace(key), strings.Trim(strings.TrimSpace(value), `"'`)
		if _, set := os.LookupEnv(key); !set {
			os.Setenv(key, value)
		}
	}
	return sc.Err()
}

// openStore finds the database, applies pending migrations and opens it.
func openStore(ctx context.Context) (*store.Store, error) {
	return openStorePool(ctx, 0, slog.Default())
}

// openStorePool is openStore with at most maxConns connections in the
// pool (0: the URL's pool_max_conns or pgxpool's default), saying on log
// when it uses the local cluster.
func openStorePool(ctx context.Context, maxConns int32, log *slog.Logger) (*store.Store, error) {
	url, err := devdb.URL(ctx)
	if err != nil {
		return nil, err
	}
	if os.Getenv("DATABASE_URL") == "" { // never log an operator's URL: it may hold a password
		log.Info("using the local PostgreSQL cluster", "database_url", url)
	}
	if err := migrations.Up(ctx, url); err != nil {
		return nil, err
	}
	return store.OpenPool(ctx, url, maxConns)
}
