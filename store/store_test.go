package store

import (
	"context"
	"strings"
	"testing"

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
