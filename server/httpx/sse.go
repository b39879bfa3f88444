package httpx

import (
	"context"
	"errors"
	"iter"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
)

// KeepAlive is how often an idle stream sends a comment, so that proxies
// and clients keep the connection. Tests shorten it.
var KeepAlive = 15 * time.Second

// SSE writes server-sent events and flushes each.
type SSE struct {
	w  http.ResponseWriter
	rc *http.ResponseController
	// held, when on, keeps what is written from being flushed until it is
	// released: a relay writes the events that are ready together with
	// one flush (one write to the connection) instead of one each.
	held *heldFlush
}

// heldFlush is the state of an SSE's held flush, shared by its copies.
type heldFlush struct {
	on      bool // writes are not flushed
	pending bool // something written is not flushed yet
}

// OpenSSE writes the headers of an event stream and returns its writer.
func OpenSSE(c echo.Context) SSE {
	resp := c.Response()
	h := resp.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	resp.WriteHeader(http.StatusOK)
	return SSE{w: resp, rc: http.NewResponseController(resp), held: &heldFlush{}}
}

// Event writes one event; an id of 0 writes none. data must hold no line
// break (compact JSON holds none).
func (w SSE) Event(id int64, name string, data []byte) error {
	b := make([]byte, 0, len(data)+len(name)+40)
	b = appendID(b, id)
	b = append(b, "event: "...)
	b = append(b, name...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	return w.write(append(b, "\n\n"...))
}

// Lines writes an event whose data has several lines, a data line each.
func (w SSE) Lines(id int64, name, data string) error {
	b := make([]byte, 0, len(data)+len(name)+40)
	b = appendID(b, id)
	b = append(append(append(b, "event: "...), name...), '\n')
	for _, line := range strings.Split(data, "\n") {
		b = append(append(append(b, "data: "...), strings.TrimSuffix(line, "\r")...), '\n')
	}
	return w.write(append(b, '\n'))
}

// appendID appends an event's id line; an id of 0 has none.
func appendID(b []byte, id int64) []byte {
	if id <= 0 {
		return b
	}
	b = strconv.AppendInt(append(b, "id: "...), id, 10)
	return append(b, '\n')
}

// Write writes raw stream text and flushes it.
func (w SSE) Write(s string) error { return w.write([]byte(s)) }

// write writes raw stream bytes and flushes them, unless the flush is held
// (hold).
func (w SSE) write(b []byte) error {
	if _, err := w.w.Write(b); err != nil {
		return err
	}
	if w.held != nil && w.held.on {
		w.held.pending = true
		return nil
	}
	return w.rc.Flush()
}

// hold holds the flushes of what is written from now on until release.
func (w SSE) hold() {
	if w.held != nil {
		w.held.on = true
	}
}

// release flushes what was written while the flush was held, and flushes
// each write again from now on.
func (w SSE) release() error {
	if w.held == nil || !w.held.on {
		return nil
	}
	pending := w.held.pending
	w.held.on, w.held.pending = false, false
	if !pending {
		return nil
	}
	return w.rc.Flush()
}

// ErrShuttingDown is what a stream or a wait that Closing ended tells its
// client.
var ErrShuttingDown = errcode.New(errcode.Unavailable,
	"the server is shutting down: join the run again, from the Last-Event-ID of the last event received")

// Closing is the signal that ends the open streams and waits when the
// server shuts down.
type Closing struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
}

// NewClosing returns a signal not yet given.
func NewClosing() *Closing {
	ctx, cancel := context.WithCancelCause(context.Background())
	return &Closing{ctx: ctx, cancel: cancel}
}

// Close gives the signal: every context from Until ends with cause
// ErrShuttingDown.
func (c *Closing) Close() { c.cancel(ErrShuttingDown) }

// Until returns a context derived from parent that also ends, with cause
// ErrShuttingDown, when the signal is given. Call stop when done with it.
func (c *Closing) Until(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	unhook := context.AfterFunc(c.ctx, func() { cancel(context.Cause(c.ctx)) })
	return ctx, func() { unhook(); cancel(context.Canceled) }
}

// ShutdownCause is ErrShuttingDown when ctx (from Until) ended for the
// shutdown, whatever err the call it cut short returned; err otherwise.
func ShutdownCause(ctx context.Context, err error) error {
	if errors.Is(context.Cause(ctx), ErrShuttingDown) {
		return ErrShuttingDown
	}
	return err
}

// Relay passes a run's events, from events (stored ones first, then new
// ones as they come), to send until they end; then it calls end with the
// error that stopped them, if any (ErrShuttingDown when the server shut
// the stream). A comment goes out every KeepAlive while nothing else does.
// It reports whether the client left before the end.
func (c *Closing) Relay(ec echo.Context, w SSE, events func(context.Context) iter.Seq2[store.RunEvent, error],
	send func(store.RunEvent) error, end func(failed error)) (left bool) {
	reqCtx := Ctx(ec)
	followCtx, stop := c.Until(reqCtx)
	defer stop()
	feed := make(chan store.RunEvent, relayAhead)
	failed := make(chan error, 1)
	go func() {
		defer close(feed)
		for e, err := range events(followCtx) {
			if err != nil {
				failed <- ShutdownCause(followCtx, err)
				return
			}
			select {
			case feed <- e:
			case <-followCtx.Done():
				failed <- ShutdownCause(followCtx, context.Cause(followCtx))
				return
			}
		}
	}()
	relay(reqCtx, w, feed, failed, send, end)
	return reqCtx.Err() != nil
}

// relayAhead is how many of a run's events a relay's follower reads ahead
// of what was written to the client: the events that come together (a
// step's, handed over at once) are then written with one flush.
const relayAhead = 64

// relay passes the events of feed to send until the feed ends (then end,
// with the error following failed with, if any) or ctx ends. While more
// events wait in feed, what send writes is not flushed: the events ready
// together go to the client in one write, once the feed has no more.
func relay(ctx context.Context, w SSE, feed <-chan store.RunEvent, failed chan error,
	send func(store.RunEvent) error, end func(error)) {
	defer w.release()
	tick := time.NewTicker(KeepAlive)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if w.Write(": keep-alive\n\n") != nil {
				return
			}
		case e, ok := <-feed:
			if !ok {
				if w.release() != nil {
					return
				}
				select {
				case err := <-failed:
					if ctx.Err() == nil {
						end(err)
					}
				default:
					end(nil)
				}
				return
			}
			if len(feed) > 0 {
				w.hold()
			}
			if send(e) != nil {
				return
			}
			if len(feed) == 0 && w.release() != nil {
				return
			}
		}
	}
}

// LastEventID reads the Last-Event-ID header of a stream that resumes: the
// id of the last event the client has, 0 when it sends none or -1 (what
// LangGraph's JS client sends to join a stream from its start).
func LastEventID(c echo.Context) (int64, error) {
	last := c.Request().Header.Get("Last-Event-ID")
	if last == "" || last == "-1" {
		return 0, nil
	}
	after, err := strconv.ParseInt(last, 10, 64)
	if err != nil || after < 0 {
		return 0, InvalidField("Last-Event-ID", "must be an event id this stream sent")
	}
	return after, nil
}

// StreamError is what a stream tells its client of an error that stopped
// it; an internal one is logged, with the request id.
func StreamError(c echo.Context, log *slog.Logger, err error) wire.StreamError {
	status, body, _ := Describe(err)
	if status >= 500 && err != ErrShuttingDown {
		Logger(c, log).Error("streaming a run", "err", err)
	}
	return wire.StreamError{Error: body.Error, Message: body.Message}
}
