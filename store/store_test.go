package store

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
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
