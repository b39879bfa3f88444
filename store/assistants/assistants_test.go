package assistants

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// The behaviour the in-memory twin shares (versions, refusals, searches,
// each user's assistants apart) is tested by the tenants' suite
// (server/tenant/tenanttest), on PostgreSQL too. Here is what is this
// store's own.

// An assistant for a user the database does not have is NOT_FOUND (its
// foreign key), and nothing is stored.
func TestNoSuchOwner(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.MigratedPool(t, testURL, migrations.Up)
	_, err := Store{Pool: pool}.ForOwner(uuid.NewString()).Create(ctx, New{GraphID: "trip-planner"})
	if errcode.Of(err) != errcode.NotFound {
		t.Fatalf("an assistant for no user: %v, want NOT_FOUND", err)
	}
	var n int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM assistant_versions`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d versions stored (%v)", n, err)
	}
}
