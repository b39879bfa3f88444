package httpx

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/tripgraph/tripgraph/server/internal/metrics"
	"github.com/tripgraph/tripgraph/server/tenant"
)

// Limits bound what one request, one API key or one user may cost.
type Limits struct {
	MaxBodyBytes int64         // request bodies above this are refused (413)
	BodyTimeout  time.Duration // the whole body must arrive within this (408)
	WriteTimeout time.Duration // a non-streaming answer must be written within this
	RatePerSec   float64       // requests per second per API key, on average
	RateBurst    int           // requests an API key may send at once
	MaxStreams   int           // streams, waits and live streams a user may hold open at once, in one process
}

// DefaultLimits are the limits when nothing is configured. They fit the
// usual set-up, one backend key for all of an app's travellers: the rate
// guards against a runaway client, not against a busy app. Keys handed to
// people directly deserve tighter ones (10 a second, bursts of 40).
var DefaultLimits = Limits{MaxBodyBytes: 1 << 20, BodyTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second,
	RatePerSec: 500, RateBurst: 2000, MaxStreams: 1000}

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

// RequestIDs gives every request an id, with echo's request id
// middleware: the client's when it is short and plain, else a new one. It
// is echoed back and put in the request's context for logs.
func RequestIDs() echo.MiddlewareFunc {
	return middleware.RequestIDWithConfig(middleware.RequestIDConfig{
		TargetHeader: RequestIDHeader,
		Generator:    newRequestID,
		RequestIDHandler: func(c echo.Context, id string) {
			if !clientRequestID.MatchString(id) {
				id = newRequestID()
				c.Response().Header().Set(RequestIDHeader, id)
			}
			c.SetRequest(c.Request().WithContext(context.WithValue(c.Request().Context(), requestIDKey{}, id)))
		},
	})
}

func newRequestID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Recover turns a handler's panic, with echo's recover middleware, into
// an INTERNAL error that carries the stack: the error handler logs it once,
// with the request id, and answers 500 with the usual body.
func Recover() echo.MiddlewareFunc {
	return middleware.RecoverWithConfig(middleware.RecoverConfig{
		DisableErrorHandler: true, // the error goes back to Observe, which answers it
		LogErrorFunc: func(_ echo.Context, err error, stack []byte) error {
			return fmt.Errorf("a handler panicked: %w\n%s", err, stack)
		},
	})
}

// tenantKey holds the tenant a request acts as.
const tenantKey = "tripgraph.tenant"

// SetTenant makes t the tenant of a request, once its user is
// authenticated: everything the request touches after that goes through
// it.
func SetTenant(c echo.Context, t tenant.Tenant) { c.Set(tenantKey, t) }

// TenantOf is the tenant of a request; ok is false before SetTenant (a
// public route without a session).
func TenantOf(c echo.Context) (t tenant.Tenant, ok bool) {
	t, ok = c.Get(tenantKey).(tenant.Tenant)
	return t, ok
}

// actingKeyKey holds the id of the API key a request acts with for
// another user.
const actingKeyKey = "tripgraph.acting_key"

// SetActingKey records that the request acts for its tenant's user with
// the API key of this id, which belongs to another: the request's log
// line names it.
func SetActingKey(c echo.Context, keyID string) { c.Set(actingKeyKey, keyID) }

// Observe answers a handler's error itself, so that the status is known,
// then logs the request and counts it in the metrics.
func Observe(m *metrics.Metrics, log *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
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
			m.Request(c.Request().Context(), c.Request().Method, route, strconv.Itoa(status), elapsed)
			attrs := []any{"request_id", RequestID(c.Request().Context()), "method", c.Request().Method,
				"route", route, "status", status, "duration_ms", elapsed.Milliseconds()}
			if t, ok := TenantOf(c); ok {
				attrs = append(attrs, "user_id", t.ID)
			}
			if key, ok := c.Get(actingKeyKey).(string); ok {
				attrs = append(attrs, "acting_key_id", key)
			}
			log.InfoContext(c.Request().Context(), "request", attrs...)
			return nil
		}
	}
}

// Bounded caps a route's body and sets deadlines on reading it and on
// writing the answer, so that a slow client cannot hold the connection.
// (echo's body-limit middleware caps the size only; this also times the
// body, and says the cap in its 413.) The read deadline is lifted once the
// body is read: net/http then watches the connection for the client going
// away, and a deadline left on it would cancel a handler still at work.
// The write deadline is lifted afterwards: the connection may carry a
// streaming request next. A long route (one that answers when a run ends,
// or streams) has no write deadline.
func Bounded(l Limits, long bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			rc := http.NewResponseController(c.Response())
			now := time.Now()
			if r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
				if err := rc.SetReadDeadline(now.Add(l.BodyTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
					return err
				}
				r.Body = &untilEOF{ReadCloser: http.MaxBytesReader(c.Response(), r.Body, l.MaxBodyBytes),
					eof: func() { rc.SetReadDeadline(time.Time{}) }}
			}
			if long {
				return next(c)
			}
			if err := rc.SetWriteDeadline(now.Add(l.WriteTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
				return err
			}
			defer rc.SetWriteDeadline(time.Time{})
			return next(c)
		}
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

// Logger is log with the request's id.
func Logger(c echo.Context, log *slog.Logger) *slog.Logger {
	return log.With("request_id", RequestID(c.Request().Context()))
}

// Ctx is a request's context.
func Ctx(c echo.Context) context.Context { return c.Request().Context() }

// NoSniff tells browsers to take every answer as the type it says it is,
// so that no JSON body is ever run as a script or a page.
func NoSniff(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("X-Content-Type-Options", "nosniff")
		return next(c)
	}
}

// CloseUncertainFraming closes the connection after answering a request
// whose body's framing a proxy in front might have read differently, as
// RFC 9112 §6.1 requires, so that nothing sent after it on the connection
// (a smuggled request) is read as a request. Such a request names both a
// Content-Length and a Transfer-Encoding, or is HTTP/1.0 and names a
// Transfer-Encoding. Go's server frames the first by the chunked encoding
// alone and the second by its Content-Length alone, and drops the header
// it ignores before any handler sees the request: so every request with a
// chunked body is answered with Connection: close (a plain chunked
// request costs its client a new connection, and clients seldom chunk
// requests), and so is every HTTP/1.0 request (which keeps its connection
// only when it asks to).
func CloseUncertainFraming(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if r := c.Request(); len(r.TransferEncoding) > 0 || !r.ProtoAtLeast(1, 1) {
			c.Response().Header().Set("Connection", "close")
		}
		return next(c)
	}
}
