package store

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

// Options.MaxConns wins over the URL's pool_max_conns; 0 keeps the URL's.
func TestOpenWithPoolSize(t *testing.T) {
	pgtest.Skip(t)
	sep := "?"
	if strings.Contains(testURL, "?") {
		sep = "&"
	}
	for _, tc := range []struct {
		name     string
		url      string
		maxConns int32
		want     int32
	}{
		{"set", testURL, 7, 7},
		{"from the URL", testURL + sep + "pool_max_conns=3", 0, 3},
		{"set over the URL", testURL + sep + "pool_max_conns=3", 5, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := OpenWith(context.Background(), tc.url, Options{MaxConns: tc.maxConns})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if got := st.Pool.Config().MaxConns; got != tc.want {
				t.Fatalf("MaxConns %d, want %d", got, tc.want)
			}
		})
	}
}

// MostConnections is what the two pools of a sized store may open, and
// the two connections for notifications.
func TestMostConnectionsCountsBothPools(t *testing.T) {
	pgtest.Skip(t)
	for _, maxConns := range []int32{2, 3, 8} {
		st, err := OpenWith(context.Background(), testURL, Options{MaxConns: maxConns})
		if err != nil {
			t.Fatal(err)
		}
		pools := st.Pool.Config().MaxConns + st.RequestPool().Config().MaxConns
		st.Close()
		if got, want := MostConnections(maxConns), pools+2; got != want {
			t.Errorf("MostConnections(%d) = %d, want the pools' %d and 2", maxConns, got, pools)
		}
	}
}

// The store's connections scan a table from its first block: a photo
// search that stops at its 1001st match finds the same photos each time.
func TestOpenScansTablesFromTheStart(t *testing.T) {
	s := openTestStore(t)
	for _, pool := range []interface {
		QueryRow(context.Context, string, ...any) pgx.Row
	}{s.Pool, s.RequestPool()} {
		var sync string
		if err := pool.QueryRow(context.Background(), `SHOW synchronize_seqscans`).Scan(&sync); err != nil || sync != "off" {
			t.Errorf("synchronize_seqscans = %q, %v; want off", sync, err)
		}
	}
}

// A sized pool opens no more connections than its statements at once
// needed, and marks the ones past its warm one to be closed once idle:
// each is a backend holding memory in PostgreSQL.
func TestSizedPoolsGrowOnDemand(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	st, err := OpenWith(ctx, testURL, Options{MaxConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var held []*pgxpool.Conn
	for range 3 {
		c, err := st.Pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	for _, c := range held {
		c.Release()
	}
	// The warm connection may still be opening when the first is asked
	// for, and then is one more.
	if got := st.Pool.Stat().TotalConns(); got < 3 || got > 3+warmConns {
		t.Fatalf("the pool holds %d connections after 3 statements at once, want 3 to %d (max 8)", got, 3+warmConns)
	}
	if got := st.RequestPool().Stat().TotalConns(); got > warmConns {
		t.Fatalf("the requests' pool holds %d connections unused, want at most %d", got, warmConns)
	}
	for _, p := range []*pgxpool.Pool{st.Pool, st.RequestPool()} {
		if c := p.Config(); c.MinConns != warmConns || c.MaxConnIdleTime != IdleConnTimeout {
			t.Fatalf("a pool keeps %d connections and closes the others after %v idle, want %d and %v",
				c.MinConns, c.MaxConnIdleTime, warmConns, IdleConnTimeout)
		}
	}
}
