package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
)

// keepAlive is how often an idle stream sends a comment, so that proxies
// and clients keep the connection. Tests shorten it.
var keepAlive = 15 * time.Second

// streamModes are the stream modes a client may ask for.
var streamModes = []string{wire.ModeValues, wire.ModeUpdates, wire.ModeCustom, wire.ModeMessagesTuple, wire.ModeEvents, wire.ModeDebug}

// streamRun creates a run and streams it. The run goes on when the client
// goes away, unless on_disconnect is cancel.
func (s *Server) streamRun(c echo.Context) error {
	in, err := bindRun(c)
	if err != nil {
		return err
	}
	run, err := s.startRun(c, in)
	if err != nil {
		return err
	}
	return s.streamStarted(c, run, in)
}

// streamStarted streams a run just created from the body in, in the modes
// it asked for (bindRun has checked them).
func (s *Server) streamStarted(c echo.Context, run store.Run, in wire.RunCreate) error {
	events, err := modesOf(in.StreamMode, "stream_mode")
	if err != nil {
		return err
	}
	return s.stream(c, run, events, 0, in.OnDisconnect == "cancel")
}

// joinStream streams a run that exists, from after the Last-Event-ID
// header's event when it is sent. With cancel_on_disconnect, a client that
// goes away cancels the run.
func (s *Server) joinStream(c echo.Context) error {
	events, err := queryModes(c.QueryParams()["stream_mode"])
	if err != nil {
		return err
	}
	var after int64
	if last := c.Request().Header.Get("Last-Event-ID"); last != "" {
		if after, err = strconv.ParseInt(last, 10, 64); err != nil || after < 0 {
			return invalid([]wire.FieldError{{Field: "Last-Event-ID", Message: "must be an event id this stream sent"}})
		}
	}
	run, err := s.threadRun(c)
	if err != nil {
		return err
	}
	return s.stream(c, run, events, after, truthy(c.QueryParam("cancel_on_disconnect")))
}

// modesOf reads stream_mode, a mode or a list of modes, as the SSE event
// names to send; values alone when it is absent.
func modesOf(raw json.RawMessage, field string) (map[string]bool, error) {
	var list []string
	if len(object(raw)) > 0 {
		var one string
		if json.Unmarshal(raw, &one) == nil {
			list = []string{one}
		} else if json.Unmarshal(raw, &list) != nil {
			return nil, invalid([]wire.FieldError{{Field: field, Message: "must be a stream mode or a list of them"}})
		}
	}
	if len(list) == 0 {
		list = []string{wire.ModeValues}
	}
	events := map[string]bool{}
	for _, m := range list {
		if !slices.Contains(streamModes, m) {
			return nil, invalid([]wire.FieldError{{Field: field,
				Message: fmt.Sprintf("%q is not supported; use %s", m, strings.Join(streamModes, ", "))}})
		}
		events[wire.EventOfMode(m)] = true
	}
	return events, nil
}

// queryModes reads the stream_mode query parameters: each a mode or a JSON
// list of modes, as the JS client sends a list. A joiner who names none
// gets every mode.
func queryModes(values []string) (map[string]bool, error) {
	list := []string{}
	for _, v := range values {
		if !strings.HasPrefix(v, "[") {
			list = append(list, v)
			continue
		}
		var more []string
		if json.Unmarshal([]byte(v), &more) != nil {
			return nil, invalid([]wire.FieldError{{Field: "stream_mode", Message: "must be a stream mode or a list of them"}})
		}
		list = append(list, more...)
	}
	if len(list) == 0 {
		list = streamModes
	}
	raw, _ := json.Marshal(list)
	return modesOf(raw, "stream_mode")
}

// sseWriter writes server-sent events and flushes each.
type sseWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func (w sseWriter) event(id int64, name string, data []byte) error {
	var b strings.Builder
	if id > 0 {
		fmt.Fprintf(&b, "id: %d\n", id)
	}
	fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", name, data)
	return w.write(b.String())
}

func (w sseWriter) write(s string) error {
	if _, err := w.w.Write([]byte(s)); err != nil {
		return err
	}
	return w.rc.Flush()
}

// stream sends a run's events after seq after as SSE: metadata first, then
// the events of the asked modes and errors, each with its seq as id, then
// end. With cancel, a client that leaves before the run ends cancels it.
func (s *Server) stream(c echo.Context, run store.Run, events map[string]bool, after int64, cancel bool) error {
	c.Response().Header().Set("Content-Location", runPath(run))
	defer s.metrics.streamOpened(protoLangGraph)()
	w := openSSE(c)
	meta, _ := json.Marshal(wire.RunMetadata{RunID: run.ID, ThreadID: run.ThreadID})
	if err := w.event(0, wire.EventMetadata, meta); err != nil {
		return nil
	}
	send := func(e store.RunEvent) error {
		if events[e.Event] || e.Event == wire.EventError {
			return w.event(e.Seq, e.Event, e.Data)
		}
		return nil
	}
	s.follow(c, run, after, cancel, w, send, func(failed error) { s.endStream(c, w, failed) })
	return nil
}

// openSSE writes the headers of an event stream and returns its writer.
func openSSE(c echo.Context) sseWriter {
	resp := c.Response()
	h := resp.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	resp.WriteHeader(http.StatusOK)
	return sseWriter{w: resp, rc: http.NewResponseController(resp)}
}

// follow replays a run's events after seq after from run_events and
// follows new ones, passing each to send, until the run's events end (then
// end, with the error that stopped following, if any: errShuttingDown when
// Shutdown closed the stream) or the client goes away. A comment goes out
// every keepAlive while nothing else does. With cancel, a client that
// leaves before the run ends cancels it.
func (s *Server) follow(c echo.Context, run store.Run, after int64, cancel bool, w sseWriter,
	send func(store.RunEvent) error, end func(failed error)) {
	reqCtx := ctx(c)
	followCtx, stop := s.untilShutdown(reqCtx)
	defer stop()
	feed := make(chan store.RunEvent)
	failed := make(chan error, 1)
	go func() {
		defer close(feed)
		for e, err := range s.store.FollowRunEvents(followCtx, owner(c), run.ID, after) {
			if err != nil {
				failed <- shutdownCause(followCtx, err)
				return
			}
			select {
			case feed <- e:
			case <-followCtx.Done():
				failed <- shutdownCause(followCtx, context.Cause(followCtx))
				return
			}
		}
	}()
	relay(reqCtx, w, feed, failed, send, end)
	if cancel && reqCtx.Err() != nil {
		s.cancelLeft(owner(c), run.ID)
	}
}

// relay passes the events of feed to send until the feed ends (then end,
// with the error following failed with, if any) or ctx ends.
func relay(ctx context.Context, w sseWriter, feed <-chan store.RunEvent, failed chan error,
	send func(store.RunEvent) error, end func(error)) {
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if w.write(": keep-alive\n\n") != nil {
				return
			}
		case e, ok := <-feed:
			if !ok {
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
			if send(e) != nil {
				return
			}
		}
	}
}

// endStream writes an error event if following the run failed, then end.
func (s *Server) endStream(c echo.Context, w sseWriter, failed error) {
	if failed != nil {
		data, _ := json.Marshal(s.streamError(c, failed))
		w.event(0, wire.EventError, data)
	}
	w.event(0, wire.EventEnd, []byte("null"))
}

// streamError is what a stream tells its client of an error that stopped
// it; an internal one is logged.
func (s *Server) streamError(c echo.Context, err error) wire.StreamError {
	status, body, _ := describe(err)
	if status >= 500 && err != errShuttingDown {
		s.logger(c).Error("streaming a run", "err", err)
	}
	return wire.StreamError{Error: body.Error, Message: body.Message}
}
