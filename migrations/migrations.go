// Package migrations holds tripgraph's SQL schema as embedded goose
// migrations. A migration never changes after it lands: add a new file.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// lockWait is how many seconds a process waits for another's migrations
// before it gives up.
const lockWait = 300

//go:embed *.sql
var files embed.FS

// provider opens the database and a goose provider over the embedded
// files. The provider holds a PostgreSQL advisory lock while it migrates,
// so that processes of a new release started together (a rolling update
// with surge, a blue-green fleet) apply each migration once, one after
// another, instead of failing on one another's half.
func provider(databaseURL string) (*goose.Provider, *sql.DB, error) {
	db, err := sql.Open("pgx", databaseURL)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the database for migrations: %w", err)
	}
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, lockWait))
	if err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("making the migrations' lock: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, files, goose.WithSessionLocker(locker))
	if err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("loading migrations: %w", err)
	}
	return p, db, nil
}

// Up applies every pending migration.
func Up(ctx context.Context, databaseURL string) error {
	p, db, err := provider(databaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("applying migrations: %w", err)
	}
	return nil
}

// Down rolls back the newest applied migration.
func Down(ctx context.Context, databaseURL string) error {
	p, db, err := provider(databaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := p.Down(ctx); err != nil {
		return fmt.Errorf("rolling back a migration: %w", err)
	}
	return nil
}

// DownTo rolls back every migration above version (0 rolls back all).
func DownTo(ctx context.Context, databaseURL string, version int64) error {
	p, db, err := provider(databaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := p.DownTo(ctx, version); err != nil {
		return fmt.Errorf("rolling back migrations to version %d: %w", version, err)
	}
	return nil
}

// Status writes one line per migration: its version, file and whether it is
// applied.
func Status(ctx context.Context, databaseURL string, w io.Writer) error {
	p, db, err := provider(databaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	list, err := p.Status(ctx)
	if err != nil {
		return fmt.Errorf("reading migration status: %w", err)
	}
	for _, s := range list {
		applied := "pending"
		if s.State == goose.StateApplied {
			applied = "applied " + s.AppliedAt.Format("2006-01-02 15:04:05")
		}
		fmt.Fprintf(w, "%5d  %-40s %s\n", s.Source.Version, s.Source.Path, applied)
	}
	return nil
}

var _ = stdlib.GetDefaultDriver // registers the "pgx" database/sql driver
