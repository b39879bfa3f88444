package accounts_test

import (
	"os"
	"testing"

	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// testURL is this package's fresh database.
var testURL string

func TestMain(m *testing.M) {
	os.Exit(pgtest.Run(m, "accounts", &testURL))
}

// openTestStore opens the accounts on the package's migrated database.
func openTestStore(t testing.TB) *accounts.Store {
	return accounts.New(pgtest.MigratedPool(t, testURL, migrations.Up))
}
