package main

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/model/offline"
	"github.com/tripgraph/tripgraph/netguard"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/mcpservers"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// A user's server added, disabled or deleted in one process reaches the
// next run of every other process sharing the database, although each
// process caches the user's tools: the change is announced and the bridge
// forgets what it held.
func TestServerChangesReachEveryProcess(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	a, url := storetest.OpenURL(t, "cmdwatch") // the process where the traveller changes their servers
	b, err := store.Open(ctx, url)             // another process, running their runs
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	guard, err := netguard.New(netguard.Options{Allow: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	ana, err := a.Accounts.EnsureUser(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	notes, _ := notesServer(t)
	m, err := offline.New()
	if err != nil {
		t.Fatal(err)
	}
	planner, bridge, err := newPlanner(ctx, m, &serving{st: b, mediaRoot: t.TempDir()}, mcpservers.Registry{Pool: b.Pool, Guard: guard},
		"http://127.0.0.1:1", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bridge.Close() })
	hasNotes := func() bool {
		anaTools := tenant.Factory{Records: tenant.OnPostgres(b, mcpservers.Registry{Pool: b.Pool, Guard: guard}),
			Planner: planner, Tools: tenant.Bridge(bridge)}.For(ana.ID).Tools
		tools, err := anaTools.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(tools, func(tool nodes.Tool) bool { return strings.Contains(tool.Name, "search_notes") })
	}
	within := func(what string, want bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); hasNotes() != want; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) { // a bound on a hang, not a timing assertion
				t.Fatalf("%s never reached the other process's runs", what)
			}
		}
	}

	reg := mcpservers.Registry{Pool: a.Pool, Guard: guard}
	if hasNotes() { // cached: ana has no server yet
		t.Fatal("ana has no server yet")
	}
	notesCfg, err := reg.Create(ctx, ana.ID, mcpservers.Input{Name: "notes", URL: notes.URL, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	within("adding a server", true)
	if _, err := reg.Modify(ctx, ana.ID, notesCfg.ID, func(s mcpservers.Server) mcpservers.Input {
		return mcpservers.Input{Name: s.Name, URL: s.URL, Enabled: false}
	}); err != nil {
		t.Fatal(err)
	}
	within("disabling the server", false)
	if _, err := reg.Modify(ctx, ana.ID, notesCfg.ID, func(s mcpservers.Server) mcpservers.Input {
		return mcpservers.Input{Name: s.Name, URL: s.URL, Enabled: true}
	}); err != nil {
		t.Fatal(err)
	}
	within("enabling it again", true)
	if err := reg.Delete(ctx, ana.ID, notesCfg.ID); err != nil {
		t.Fatal(err)
	}
	within("deleting the server", false)
}
