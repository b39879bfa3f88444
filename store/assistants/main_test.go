package assistants

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
	os.Exit(pgtest.Run(m, "assistants", &testURL))
}

// openTestStore opens the package's migrated database and makes a user
// for each name, returning their assistants in order.
func openTestStore(t testing.TB, users ...string) []Owned {
	t.Helper()
	pool := pgtest.MigratedPool(t, testURL, migrations.Up)
	acc := accounts.New(pool)
	var out []Owned
	for _, name := range users {
		u, err := acc.EnsureUser(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Store{Pool: pool}.ForOwner(u.ID))
	}
	return out
}
