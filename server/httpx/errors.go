// Package httpx is the HTTP layer the API and the browser app share: the
// one error body and the status of each error code, request binding with
// its 422s, request ids, access logs and metrics, body and time bounds,
// panic recovery, the per-key rate limiter, the route table, and event
// streams that end cleanly when the server shuts down.
package httpx

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
)

// StatusError is a coded error answered with a status other than its
// code's: 413, 408, 422 and 429 are BAD_REQUEST or UNAVAILABLE with a more
// precise status.
type StatusError struct {
	Status     int
	Err        *errcode.Error
	Fields     []wire.FieldError
	RetryAfter int // seconds, for 429
}

func (e *StatusError) Error() string { return e.Err.Error() }
func (e *StatusError) Unwrap() error { return e.Err }

// Invalid is a 422: the body is JSON, but fields are unknown, of the wrong
// type or out of range.
func Invalid(fields ...wire.FieldError) error {
	return &StatusError{Status: http.StatusUnprocessableEntity,
		Err: errcode.New(errcode.BadRequest, "the request has invalid fields"), Fields: fields}
}

// InvalidField is a 422 naming one field.
func InvalidField(field, message string) error {
	return Invalid(wire.FieldError{Field: field, Message: message})
}

// TooMany is a 429 TOO_MANY_REQUESTS saying when to retry.
func TooMany(retryAfterSeconds int, message string) error {
	return &StatusError{Status: http.StatusTooManyRequests, RetryAfter: retryAfterSeconds,
		Err: errcode.New(errcode.TooManyRequests, "%s", message)}
}

// Prefixed puts prefix before the field names of a 422; any other error
// is returned as it is.
func Prefixed(err error, prefix string) error {
	return Renamed(err, "", prefix)
}

// Renamed replaces the prefix from of the field names of a 422 with to.
func Renamed(err error, from, to string) error {
	var se *StatusError
	if !errors.As(err, &se) {
		return err
	}
	for i, f := range se.Fields {
		if rest, ok := strings.CutPrefix(f.Field, from); ok {
			se.Fields[i].Field = to + rest
		}
	}
	return se
}

// ErrorHandler answers err with the status of its code and a wire.Error
// body. Internal errors are logged once, with the request id, and shown as
// "internal error". Any router (echo's or net/http's) can use WriteError.
func ErrorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		WriteError(c.Response(), c.Request(), log, err)
	}
}

// WriteError writes err as an error response: see ErrorHandler.
func WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	status, body, retryAfter := Describe(err)
	switch {
	case status == http.StatusInternalServerError:
		log.ErrorContext(r.Context(), "internal error", "request_id", RequestID(r.Context()),
			"method", r.Method, "path", r.URL.Path, "err", err)
	case body.Message == ErrDatabaseUnreachable.Message:
		log.WarnContext(r.Context(), "the database could not be reached", "request_id", RequestID(r.Context()),
			"method", r.Method, "path", r.URL.Path, "err", err)
	}
	if retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="tripgraph"`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

// ErrDatabaseUnreachable is what a request or a stream that the database
// failed, for a moment, tells its client.
var ErrDatabaseUnreachable = errcode.New(errcode.Unavailable,
	"the database cannot be reached right now: try again in a moment; a run already started goes on, join it again from the Last-Event-ID of the last event received")

// databaseRetryAfter is the Retry-After, in seconds, of a request the
// database failed.
const databaseRetryAfter = 2

// Describe turns any error into a status, a safe body and a Retry-After.
func Describe(err error) (int, wire.Error, int) {
	var se *StatusError
	if errors.As(err, &se) {
		return se.Status, wire.Error{Error: string(se.Err.Code), Message: se.Err.Message, Fields: se.Fields}, se.RetryAfter
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return he.Code, wire.Error{Error: string(codeOfStatus(he.Code)), Message: http.StatusText(he.Code)}, 0
	}
	if store.Unreachable(err) && errcode.Of(err) == errcode.Internal {
		return http.StatusServiceUnavailable, wire.Error{Error: string(errcode.Unavailable), Message: ErrDatabaseUnreachable.Message}, databaseRetryAfter
	}
	err = FromGraph(err)
	code, msg := errcode.Of(err), errcode.Message(err)
	if code == errcode.Internal {
		msg = "internal error"
	}
	retryAfter := 0
	if code == errcode.TooManyRequests {
		retryAfter = limitRetryAfter
	}
	return errcode.HTTPStatus(code), wire.Error{Error: string(code), Message: msg}, retryAfter
}

// limitRetryAfter is the Retry-After, in seconds, of a 429 that a limit
// on what a user does at once gave (their runs queued and running): a run
// ends in its own time, so the client is told to try again soon.
const limitRetryAfter = 2

// FromGraph gives the engine's sentinel errors their codes.
func FromGraph(err error) error {
	var ce *errcode.Error
	switch {
	case errors.As(err, &ce):
		return err
	case errors.Is(err, graph.ErrNotFound):
		return errcode.Wrap(errcode.NotFound, err, "no such checkpoint")
	case errors.Is(err, graph.ErrConflict):
		return errcode.Wrap(errcode.Conflict, err, "the thread was written concurrently; read its state and try again")
	case errors.Is(err, context.DeadlineExceeded):
		return errcode.Wrap(errcode.Unavailable, err, "the request took too long")
	}
	return err
}

// codeOfStatus is the code of a status echo itself answered with.
func codeOfStatus(status int) errcode.Code {
	switch {
	case status == http.StatusNotFound:
		return errcode.NotFound
	case status == http.StatusUnauthorized:
		return errcode.Unauthenticated
	case status == http.StatusForbidden:
		return errcode.Forbidden
	case status == http.StatusUnsupportedMediaType:
		return errcode.UnsupportedMedia
	case status == http.StatusTooManyRequests:
		return errcode.TooManyRequests
	case status == http.StatusServiceUnavailable:
		return errcode.Unavailable
	case status < 500:
		return errcode.BadRequest
	}
	return errcode.Internal
}
