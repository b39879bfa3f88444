package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
)

// RequestIDHeader carries a request's id, in both directions.
const RequestIDHeader = "X-Request-Id"

type requestIDKey struct{}

// RequestID is the id of the request ctx belongs to, "" outside one.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// clientRequestID is what a client's own request id may look like to be
// kept; any other is replaced.
var clientRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// requestID gives every request an id: the client's when it is sensible,
// else a new one. It is echoed back and put in the context for logs.
func requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(RequestIDHeader)
		if !clientRequestID.MatchString(id) {
			var b [12]byte
			rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		c.Response().Header().Set(RequestIDHeader, id)
		c.SetRequest(c.Request().WithContext(context.WithValue(c.Request().Context(), requestIDKey{}, id)))
		return next(c)
	}
}

// observe answers a handler's error itself, so that the status is known,
// then logs the request and counts it in the metrics.
func (s *Server) observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		if err := next(c); err != nil {
			c.Error(err)
		}
		route, status := c.Path(), c.Response().Status
		if route == "" {
			route = "(unmatched)"
		}
		elapsed := time.Since(start)
		s.metrics.requests.WithLabelValues(c.Request().Method, route, strconv.Itoa(status)).Inc()
		s.metrics.duration.WithLabelValues(c.Request().Method, route).Observe(elapsed.Seconds())
		attrs := []any{"request_id", RequestID(c.Request().Context()), "method", c.Request().Method,
			"route", route, "status", status, "duration_ms", elapsed.Milliseconds()}
		if u, ok := c.Get(userKey).(string); ok {
			attrs = append(attrs, "user_id", u)
		}
		s.log.InfoContext(c.Request().Context(), "request", attrs...)
		return nil
	}
}

// bounded caps a non-streaming route's body and sets deadlines on reading
// it and on writing the answer, so that a slow client cannot hold the
// connection. The read deadline is lifted once the body is read: net/http
// then watches the connection for the client going away, and a deadline
// left on it would cancel a handler still at work. The write deadline is
// lifted afterwards: the connection may carry a streaming request next.
// A long route (one that answers when a run ends, or streams) has no write
// deadline.
func (s *Server) bounded(long bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return s.bound(next, long)
	}
}

func (s *Server) bound(next echo.HandlerFunc, long bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		rc := http.NewResponseController(c.Response())
		now := time.Now()
		if r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
			if err := rc.SetReadDeadline(now.Add(s.limits.BodyTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
				return err
			}
			r.Body = &untilEOF{ReadCloser: http.MaxBytesReader(c.Response(), r.Body, s.limits.MaxBodyBytes),
				eof: func() { rc.SetReadDeadline(time.Time{}) }}
		}
		if long {
			return next(c)
		}
		if err := rc.SetWriteDeadline(now.Add(s.limits.WriteTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return err
		}
		defer rc.SetWriteDeadline(time.Time{})
		return next(c)
	}
}

// untilEOF calls eof once, when the body has been read to its end.
type untilEOF struct {
	io.ReadCloser
	eof  func()
	done bool
}

func (b *untilEOF) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		b.eof()
	}
	return n, err
}

// logger is the request's logger, with its request id.
func (s *Server) logger(c echo.Context) *slog.Logger {
	return s.log.With("request_id", RequestID(c.Request().Context()))
}
