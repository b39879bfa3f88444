// Package errcode defines tripgraph's stable error codes and an error type
// that carries one, so that every layer (store, MCP tools, HTTP) reports bad
// input and missing data the same way.
package errcode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// Code is a stable, machine-readable error code.
type Code string

// The codes clients may rely on.
const (
	BadRequest       Code = "BAD_REQUEST"
	Unauthenticated  Code = "UNAUTHENTICATED"
	Forbidden        Code = "FORBIDDEN"
	NotFound         Code = "NOT_FOUND"
	Conflict         Code = "CONFLICT"
	UnsupportedMedia Code = "UNSUPPORTED_MEDIA"
	TooManyRequests  Code = "TOO_MANY_REQUESTS"
	Unavailable      Code = "UNAVAILABLE"
	Internal         Code = "INTERNAL"
	LimitExceeded    Code = "LIMIT_EXCEEDED" // a user's limit on what they keep, or on a value: see HTTPStatus
)

// Error is an error with a code and a message fit to show a client.
type Error struct {
	Code    Code
	Message string
	Err     error // the cause, if any; not shown to clients
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// New returns an *Error with a formatted message.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an *Error with a message and a cause.
func Wrap(code Code, err error, message string) *Error {
	return &Error{Code: code, Message: message, Err: err}
}

// Of returns the code of the first *Error in err's chain, or Internal.
func Of(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return Internal
}

// Message returns the client-facing message of err: the *Error's message, or
// a generic one that reveals nothing of an internal failure.
func Message(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// Body is the JSON form of an error, as every client of tripgraph sees it:
// {"error":{"code":"NOT_FOUND","message":"…"}}.
type Body struct {
	Error struct {
		Code    Code   `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// JSON returns err as clients see it: {"error":{"code":…,"message":…}},
// with Of's code and Message's message.
func JSON(err error) []byte {
	var b Body
	b.Error.Code, b.Error.Message = Of(err), Message(err)
	data, _ := json.Marshal(b)
	return data
}

// ParseJSON reads an error in the form JSON writes; ok is false for any
// other text.
func ParseJSON(data []byte) (code Code, message string, ok bool) {
	var b Body
	if !bytes.HasPrefix(bytes.TrimSpace(data), []byte(`{"error":`)) || json.Unmarshal(data, &b) != nil || b.Error.Code == "" {
		return "", "", false
	}
	return b.Error.Code, b.Error.Message, true
}

// HTTPStatus is the HTTP status that answers an error with this code:
// every HTTP route of tripgraph (the API, MCP and media) maps codes the
// same way. An unknown code is a 500.
func HTTPStatus(code Code) int {
	switch code {
	case BadRequest:
		return http.StatusBadRequest
	case Unauthenticated:
		return http.StatusUnauthorized
	case Forbidden:
		return http.StatusForbidden
	case NotFound:
		return http.StatusNotFound
	case Conflict:
		return http.StatusConflict
	case UnsupportedMedia:
		return http.StatusUnsupportedMediaType
	case TooManyRequests:
		return http.StatusTooManyRequests
	case LimitExceeded:
		// What would take a user past a limit on what they keep (crons,
		// the long-term store's items and bytes) or on a value (how often
		// a cron may be due); its message names the limit. Limits on what
		// a user does at once (runs, streams) are TooManyRequests.
		return http.StatusUnprocessableEntity
	case Unavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}
