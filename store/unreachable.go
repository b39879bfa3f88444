package store

import (
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unreachable reports whether err says that the database could not be
// reached, or went away during the call: the connection was refused or
// lost, the server is shutting down or not yet taking connections, or it
// has no connection slot free. Such a call may succeed when tried again
// in a moment; a statement the database refused (a broken constraint, a
// missing row) is not Unreachable.
func Unreachable(err error) bool {
	if err == nil {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return unreachableCode(pgErr.Code)
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	switch {
	case errors.As(err, &connectErr), errors.As(err, &netErr),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return true
	}
	// pgx reports a connection it has already found broken with a plain
	// error of this text.
	return strings.Contains(err.Error(), "conn closed")
}

// unreachableCode reports whether a PostgreSQL error code (SQLSTATE) is
// one of a server going away or refusing connections for now.
func unreachableCode(code string) bool {
	switch {
	case strings.HasPrefix(code, "08"): // connection exception
		return true
	case code == "57P01", code == "57P02", code == "57P03": // admin shutdown, crash shutdown, cannot connect now
		return true
	case code == "53300": // too many connections
		return true
	}
	return false
}
