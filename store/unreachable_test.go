package store

import (
	"context"
	"errors"
	"net"
	"testing"

	"github.com/jackc/pgx/v5"
)

// Unreachable tells a database that is not there or went away from a
// statement it refused, with errors the real driver returns.
func TestUnreachable(t *testing.T) {
	s := openTestStore(t)
	ctx := context.Background()

	// Nothing listens on a port just released.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, refused := pgx.Connect(ctx, "postgres://tripgraph@"+addr+"/none?connect_timeout=2")

	conn, err := pgx.Connect(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := s.Pool.Exec(ctx, `SELECT pg_terminate_backend($1)`, conn.PgConn().PID()); err != nil {
		t.Fatal(err)
	}
	_, terminated := conn.Exec(ctx, `SELECT 1`)
	_, afterwards := conn.Exec(ctx, `SELECT 1`)

	_, syntax := s.Pool.Exec(ctx, `SELEKT 1`)
	var n int
	noRows := s.Pool.QueryRow(ctx, `SELECT 1 WHERE false`).Scan(&n)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, canceled := s.Pool.Exec(cancelled, `SELECT 1`)

	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"connection refused", refused, true},
		{"backend terminated", terminated, true},
		{"a connection found closed", afterwards, true},
		{"a syntax error", syntax, false},
		{"no rows", noRows, false},
		{"the caller cancelled", canceled, false},
		{"no error", nil, false},
		{"another error", errors.New("the thread was written concurrently"), false},
	} {
		if tc.err == nil && tc.want {
			t.Fatalf("%s: no error", tc.name)
		}
		if got := Unreachable(tc.err); got != tc.want {
			t.Errorf("%s: Unreachable(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}
