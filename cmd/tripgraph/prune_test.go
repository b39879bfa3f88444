package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/store/eventparts"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/testing/storetest"
)

// pruneDB gives a test a migrated database of its own as DATABASE_URL, with
// one user's two threads: one last written 48 hours ago and one just now.
func pruneDB(t *testing.T) (st *store.Store, owner, old, fresh string) {
	t.Helper()
	ctx := context.Background()
	st, url := storetest.OpenURL(t, "cmdprune")
	t.Setenv("DATABASE_URL", url)
	u, err := st.Accounts.EnsureUser(ctx, "pruner")
	if err != nil {
		t.Fatal(err)
	}
	cp := st.Checkpoints.ForOwner(u.ID)
	old, fresh = uuid.NewString(), uuid.NewString()
	for _, th := range []struct {
		id string
		at time.Time
	}{{old, time.Now().Add(-48 * time.Hour)}, {fresh, time.Now()}} {
		c := graph.Checkpoint{ThreadID: th.id, ID: uuid.Must(uuid.NewV7()).String(), State: []byte(`{}`),
			Metadata: graph.Metadata{Source: graph.SourceInput}, CreatedAt: th.at}
		if err := cp.Put(ctx, c, ""); err != nil {
			t.Fatal(err)
		}
	}
	return st, u.ID, old, fresh
}

func threadExists(t *testing.T, st *store.Store, owner, id string) bool {
	t.Helper()
	_, err := st.ForOwner(owner).Thread(context.Background(), id)
	if err != nil && errcode.Of(err) != errcode.NotFound {
		t.Fatal(err)
	}
	return err == nil
}

func TestPruneCommand(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	st, owner, old, fresh := pruneDB(t)
	tests := []struct {
		name      string
		ttl       time.Duration // the configured one
		eventsTTL time.Duration // the configured one
		args      []string
		wantErr   string
		wantOut   string
		oldExists bool
	}{
		{"no TTL", 0, 0, nil, "no TTL", "", true},
		{"a negative TTL", 0, 0, []string{"--ttl", "-5h"}, "want a positive duration", "", true},
		{"a zero TTL", 72 * time.Hour, 0, []string{"--ttl", "0s"}, "want a positive duration", "", true},
		{"a negative events TTL", 0, 0, []string{"--events-ttl", "-5h"}, "want a positive duration", "", true},
		{"a dry run", 0, 0, []string{"--ttl", "24h", "--dry-run"}, "", "would delete 1 threads idle since", true},
		{"events only", 0, 72 * time.Hour, nil, "", "deleted the events of runs created before", true},
		{"a TTL longer than the idle time", 72 * time.Hour, 0, nil, "", "deleted 0 threads", true},
		{"the flag overrides the configuration", 72 * time.Hour, 0, []string{"--ttl=24h"}, "", "deleted 1 threads", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := envConfig(t)
			cfg.Storage.ThreadTTL, cfg.Storage.RunEventsTTL = tt.ttl, tt.eventsTTL
			var out bytes.Buffer
			err := runPrune(ctx, cfg, tt.args, &out)
			if (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("prune %v: %v, want error %q", tt.args, err, tt.wantErr)
			}
			if !strings.Contains(out.String(), tt.wantOut) {
				t.Fatalf("prune %v printed %q, want %q", tt.args, out.String(), tt.wantOut)
			}
			if got := threadExists(t, st, owner, old); got != tt.oldExists {
				t.Fatalf("after prune %v the idle thread exists = %v, want %v", tt.args, got, tt.oldExists)
			}
			if !threadExists(t, st, owner, fresh) {
				t.Fatal("the fresh thread was deleted")
			}
		})
	}
}

// serve's sweeper deletes idle threads as soon as it starts, and stops
// when told; without a TTL it does nothing.
func TestSweeper(t *testing.T) {
	pgtest.Skip(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, owner, old, fresh := pruneDB(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))

	stop := startSweeper(ctx, st, 0, log)
	stop()
	if !threadExists(t, st, owner, old) {
		t.Fatal("a sweeper without a TTL deleted a thread")
	}

	stop = startSweeper(ctx, st, 24*time.Hour, log)
	defer stop()
	for threadExists(t, st, owner, old) { // the first sweep runs at once
		select {
		case <-ctx.Done():
			t.Fatal("the sweeper did not delete the idle thread")
		case <-time.After(20 * time.Millisecond):
		}
	}
	stop()
	if !threadExists(t, st, owner, fresh) {
		t.Fatal("the sweeper deleted the fresh thread")
	}
}

func TestSweepInterval(t *testing.T) {
	for _, tt := range []struct{ ttl, want time.Duration }{
		{time.Second, time.Minute},
		{30 * time.Minute, 3 * time.Minute},
		{720 * time.Hour, time.Hour},
	} {
		if got := sweepInterval(tt.ttl); got != tt.want {
			t.Errorf("sweepInterval(%v) = %v, want %v", tt.ttl, got, tt.want)
		}
	}
}

// serve's partition keeper adds the run events partitions of the days
// ahead as soon as it starts, and stops when told.
func TestPartitionKeeper(t *testing.T) {
	pgtest.Skip(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, _, _, _ := pruneDB(t)
	last := eventparts.NameOf(time.Now().AddDate(0, 0, eventparts.DaysAhead))
	if _, err := st.Pool.Exec(ctx, `DROP TABLE `+last); err != nil {
		t.Fatal(err)
	}
	stop := startPartitions(ctx, st, 72*time.Hour, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer stop()
	for {
		var found bool
		if err := st.Pool.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, last).Scan(&found); err != nil {
			t.Fatal(err)
		}
		if found {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the keeper did not add %s", last)
		case <-time.After(20 * time.Millisecond):
		}
	}
	stop()
}
