package store

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/store/accounts"
)

// A request's run is created, and its key checked, while every connection
// of the store's pool is taken by the runs' work: they have connections of
// their own.
func TestRequestsDoNotWaitForThePool(t *testing.T) {
	ctx := context.Background()
	s, err := OpenWith(ctx, migratedDatabase(t), Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	owner, thread := newThread(t, s, "requester")
	key, _, err := s.Accounts.CreateAPIKey(ctx, accounts.NewKey{UserID: owner, Label: "test"})
	if err != nil {
		t.Fatal(err)
	}
	var held []*pgxpool.Conn
	for range s.Pool.Config().MaxConns {
		c, err := s.Pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	defer func() {
		for _, c := range held {
			c.Release()
		}
	}()

	// A bound, so that the test fails rather than waits for a connection.
	bounded, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, _, err := accounts.New(s.RequestPool()).UserByAPIKey(bounded, key); err != nil {
		t.Errorf("checking a key with the pool taken: %v", err)
	}
	o := s.ForOwner(owner)
	if _, err := o.CreateRunOnNewThread(bounded, NewThread{}, NewRun{}); err != nil {
		t.Errorf("creating a run on a new thread with the pool taken: %v", err)
	}
	if _, err := o.CreateRun(bounded, thread, NewRun{}); err != nil {
		t.Errorf("creating a run on an idle thread with the pool taken: %v", err)
	}
	if _, err := o.CreateRun(bounded, thread, NewRun{MultitaskStrategy: MultitaskEnqueue}); err != nil {
		t.Errorf("queueing a run behind another with the pool taken: %v", err)
	}
}
