package replica

import (
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tripgraph/tripgraph/errcode"
)

// WAL positions compare as PostgreSQL's do: the part before the slash
// first.
func TestParseLSN(t *testing.T) {
	low, err1 := parseLSN("0/FFFFFFFF")
	high, err2 := parseLSN("1/0")
	mid, err3 := parseLSN("16/B374D848")
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	if !(low < high && high < mid) || mid != 0x16<<32|0xB374D848 {
		t.Errorf("0/FFFFFFFF = %x, 1/0 = %x, 16/B374D848 = %x", low, high, mid)
	}
	for _, bad := range []string{"", "16", "x/1", "1/100000000"} {
		if _, err := parseLSN(bad); err == nil {
			t.Errorf("%q read as a WAL position", bad)
		}
	}
}

// An answer to a read is the reader's to have, whoever served it; a
// failure of the server sends the read to the primary and leaves the
// replica alone.
func TestAnswersAreNotFailures(t *testing.T) {
	for _, c := range []struct {
		err    error
		answer bool
	}{
		{errcode.New(errcode.NotFound, "no thread"), true},
		{fmt.Errorf("reading: %w", pgx.ErrNoRows), true},
		{fmt.Errorf("reading: %w", &pgconn.PgError{Code: "22P02"}), true}, // a malformed id
		{&pgconn.PgError{Code: "42P01"}, true},
		{&pgconn.PgError{Code: "57P01"}, false}, // the replica shuts down
		{&pgconn.PgError{Code: "40001"}, false}, // a conflict with recovery cancelled the read
		{fmt.Errorf("reading: %w", errors.New("conn closed")), false},
	} {
		if got := answered(c.err); got != c.answer {
			t.Errorf("answered(%v) = %v, want %v", c.err, got, c.answer)
		}
	}
}
