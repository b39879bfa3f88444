package catalog_test

import (
	"context"
	"testing"

	"github.com/tripgraph/tripgraph/mcpserver/backendtest"
	"github.com/tripgraph/tripgraph/mcpserver/memory"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// TestBackend runs the tool suite on the store, in a database of its own
// seeded as `tripgraph seed` does, after checking that the in-memory
// backend, given the same seed, answers every read exactly as it does.
func TestBackend(t *testing.T) {
	f := seededFixture(t)
	want := backendtest.Transcript(t, backendtest.Fixture{Backend: memory.NewDemo(backendtest.Cities(), f.User, f.Other), User: f.User})
	got := backendtest.Transcript(t, f)
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || got[i] != want[i] {
			t.Fatalf("answer %d differs between the backends:\nstore:  %.2000s\nmemory: %.2000s", i, at(got, i), at(want, i))
		}
	}
	backendtest.Run(t, func(*testing.T) backendtest.Fixture { return f })
}

func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return "(nothing)"
}

func seededFixture(t *testing.T) backendtest.Fixture {
	t.Helper()
	ctx := context.Background()
	st := storetest.Open(t, "storebackend")
	if err := seed.Run(ctx, st, seed.Options{Cities: backendtest.Cities(), DemoUser: "demo"}); err != nil {
		t.Fatal(err)
	}
	demo, err := st.Accounts.UserByName(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	other, err := st.Accounts.EnsureUser(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := seed.DemoAlbums(ctx, st, other.ID); err != nil {
		t.Fatal(err)
	}
	return backendtest.Fixture{Backend: st.Catalog, User: demo.ID, Other: other.ID}
}
