package catalog

import (
	"context"
	"os"
	"testing"

	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// testURL is this package's fresh database.
var testURL string

func TestMain(m *testing.M) {
	os.Exit(pgtest.Run(m, "catalog", &testURL))
}

// testStore is the catalog on the package's migrated database, with the
// accounts its tests make users in.
type testStore struct {
	*Store
	accounts *accounts.Store
}

// EnsureUser makes a user for a test.
func (s *testStore) EnsureUser(ctx context.Context, name string) (accounts.User, error) {
	return s.accounts.EnsureUser(ctx, name)
}

// openTestStore opens the package's migrated database.
func openTestStore(t testing.TB) *testStore {
	pool := pgtest.MigratedPool(t, testURL, migrations.Up)
	return &testStore{Store: New(pool), accounts: accounts.New(pool)}
}
