package server

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/server/internal/wire"
)

// statusError is a coded error answered with a status other than its
// code's: 413, 408, 422 and 429 are BAD_REQUEST or UNAVAILABLE with a more
// precise status.
type statusError struct {
	status     int
	err        *errcode.Error
	fields     []wire.FieldError
	retryAfter int // seconds, for 429
}

func (e *statusError) Error() string { return e.err.Error() }
func (e *statusError) Unwrap() error { return e.err }

// invalid is a 422: the body is JSON, but fields are unknown, of the wrong
// type or out of range.
func invalid(fields []wire.FieldError) error {
	return &statusError{status: http.StatusUnprocessableEntity,
		err: errcode.New(errcode.BadRequest, "the request has invalid fields"), fields: fields}
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
	status, body, retryAfter := describe(err)
	if status == http.StatusInternalServerError {
		log.ErrorContext(r.Context(), "internal error", "request_id", RequestID(r.Context()),
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

// describe turns any error into a status, a safe body and a Retry-After.
func describe(err error) (int, wire.Error, int) {
	var se *statusError
	if errors.As(err, &se) {
		return se.status, wire.Error{Error: string(se.err.Code), Message: se.err.Message, Fields: se.fields}, se.retryAfter
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return he.Code, wire.Error{Error: string(codeOfStatus(he.Code)), Message: http.StatusText(he.Code)}, 0
	}
	err = fromGraph(err)
	code, msg := errcode.Of(err), errcode.Message(err)
	if code == errcode.Internal {
		msg = "internal error"
	}
	return errcode.HTTPStatus(code), wire.Error{Error: string(code), Message: msg}, 0
}

// fieldNames are the names of the refused fields of an error body: a page
// names them in its own language, where the body's words are English.
func fieldNames(fields []wire.FieldError) []string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Field
	}
	return names
}

// fromGraph gives the engine's sentinel errors their codes.
func fromGraph(err error) error {
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
	case status == http.StatusServiceUnavailable:
		return errcode.Unavailable
	case status < 500:
		return errcode.BadRequest
	}
	return errcode.Internal
}
