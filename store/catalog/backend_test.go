package catalog_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/mcpserver/backendtest"
	"github.com/tripgraph/tripgraph/mcpserver/memory"
	"github.com/tripgraph/tripgraph/seed"
	"github.com/tripgraph/tripgraph/store/catalog"
	"github.com/tripgraph/tripgraph/testing/ownerkey"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// TestBackend runs the tool suite on the store, in a database of its own
// seeded as `tripgraph seed` does, after checking that the in-memory
// backend, given the same seed, answers every read exactly as it does;
// every statement the store sent meanwhile names its owner or is a listed
// exception (see testing/ownerkey).
func TestBackend(t *testing.T) {
	f, seen := seededFixture(t)
	want := backendtest.Transcript(t, backendtest.Fixture{Backend: memory.NewDemo(backendtest.Cities(), f.User, f.Other), User: f.User})
	got := backendtest.Transcript(t, f)
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || got[i] != want[i] {
			t.Fatalf("answer %d differs between the backends:\nstore:  %.2000s\nmemory: %.2000s", i, at(got, i), at(want, i))
		}
	}
	backendtest.Run(t, func(*testing.T) backendtest.Fixture { return f })
	if t.Failed() {
		return
	}
	for _, p := range ownerkey.Check(seen.Statements()) {
		t.Errorf("a statement of the catalog %s", p)
	}
}

func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return "(nothing)"
}

// seededFixture seeds a database and returns the suite's fixture on it,
// with the recorder of the statements its catalog sends.
func seededFixture(t *testing.T) (backendtest.Fixture, *ownerkey.Recorder) {
	t.Helper()
	ctx := context.Background()
	st, url := storetest.OpenURL(t, "storebackend")
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
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	seen := &ownerkey.Recorder{}
	cfg.ConnConfig.Tracer = seen
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return backendtest.Fixture{Backend: catalog.New(pool), User: demo.ID, Other: other.ID}, seen
}
