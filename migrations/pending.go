package migrations

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/pressly/goose/v3"
)

// Pending reports whether db lacks any of the embedded migrations: a server
// on such a database is not ready.
func Pending(ctx context.Context, db *sql.DB) (bool, error) {
	p, err := goose.NewProvider(goose.DialectPostgres, db, files)
	if err != nil {
		return false, fmt.Errorf("loading migrations: %w", err)
	}
	pending, err := p.HasPending(ctx)
	if err != nil {
		return false, fmt.Errorf("checking for pending migrations: %w", err)
	}
	return pending, nil
}
