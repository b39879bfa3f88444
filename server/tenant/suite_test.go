package tenant_test

import (
	"bytes"
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/secretbox"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/server/tenant/tenanttest"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/accounts"
	"github.com/tripgraph/tripgraph/store/mcpservers"
	"github.com/tripgraph/tripgraph/store/memstore"
	"github.com/tripgraph/tripgraph/store/quota"
	"github.com/tripgraph/tripgraph/testing/ownerkey"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// The in-memory twin passes the tenants' suite.
func TestInMemory(t *testing.T) {
	tenanttest.Run(t, func(t *testing.T) tenanttest.Backend { return inMemory(t, quota.Limits{}) })
}

// inMemory is a new in-memory twin holding users to limits.
func inMemory(t *testing.T, limits quota.Limits) tenanttest.Backend {
	guard, box := guardAndBox(t)
	ms := memstore.New(memstore.Options{Guard: guard, Box: box, Limits: limits})
	return tenanttest.Backend{Records: tenant.InMemory(ms), Queue: ms,
		NewUser:    func(t *testing.T) string { return newUser(t, ms.Accounts.EnsureUser) },
		WithLimits: inMemory}
}

// PostgreSQL passes the tenants' suite, and every statement the store
// sends while it does names its owner (see testing/ownerkey).
func TestOnPostgres(t *testing.T) {
	pgtest.Skip(t)
	admin, url := storetest.OpenURL(t, "tenantsuite")
	seen := &ownerkey.Recorder{}
	st, err := store.OpenWith(context.Background(), url, store.Options{Tracer: seen})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	tenanttest.Run(t, func(t *testing.T) tenanttest.Backend {
		// The queue serves every owner: no other test's runs may wait in it.
		if _, err := admin.Pool.Exec(context.Background(), `DELETE FROM threads`); err != nil {
			t.Fatal(err)
		}
		b := onPostgres(t, st)
		b.WithLimits = func(t *testing.T, limits quota.Limits) tenanttest.Backend {
			limited, err := store.OpenWith(context.Background(), url, store.Options{Limits: limits, Tracer: seen})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(limited.Close)
			return onPostgres(t, limited)
		}
		return b
	})
	if t.Failed() {
		return
	}
	for _, p := range ownerkey.Check(seen.Statements()) {
		t.Errorf("a statement of the store %s", p)
	}
}

// onPostgres is the suite's backend on st.
func onPostgres(t *testing.T, st *store.Store) tenanttest.Backend {
	guard, box := guardAndBox(t)
	return tenanttest.Backend{Records: tenant.OnPostgres(st, mcpservers.Registry{Pool: st.Pool, Guard: guard, Box: box}), Queue: st,
		NewUser: func(t *testing.T) string { return newUser(t, st.Accounts.EnsureUser) }}
}

// guardAndBox are the SSRF guard and the secret box users' MCP servers
// are vetted and sealed with.
func guardAndBox(t *testing.T) (*netguard.Guard, *secretbox.Box) {
	t.Helper()
	guard, err := netguard.New(netguard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	box, err := secretbox.New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return guard, box
}

var users atomic.Int64

// newUser makes a user with a name of its own.
func newUser(t *testing.T, ensure func(context.Context, string) (accounts.User, error)) string {
	t.Helper()
	u, err := ensure(context.Background(), fmt.Sprintf("suite-%d", users.Add(1)))
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}
