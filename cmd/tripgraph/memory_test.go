package main

import (
	"context"
	"testing"

	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// The demo user is remembered unless they said otherwise.
func TestRememberDemo(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	st := storetest.Open(t, "cmdmemory")
	for _, name := range []string{"demo", "shy"} {
		if _, err := st.Accounts.EnsureUser(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
	shy, _ := st.Accounts.UserByName(ctx, "shy")
	shyMemory := tenant.MemoryIn(st.Items.ForOwner(shy.ID))
	if err := shyMemory.SetConsent(ctx, false); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"demo", "shy"} {
		if err := rememberDemo(ctx, st, name); err != nil {
			t.Fatal(err)
		}
	}
	demo, _ := st.Accounts.UserByName(ctx, "demo")
	if on, err := tenant.MemoryIn(st.Items.ForOwner(demo.ID)).Consent(ctx); !on || err != nil {
		t.Errorf("the demo user's memory is off (%v)", err)
	}
	if on, _ := shyMemory.Consent(ctx); on {
		t.Error("a user who turned memory off had it turned on by the seed")
	}
}
