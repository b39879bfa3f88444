package server

import (
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
var streamModes = []string{wire.ModeValues, wire.ModeUpdates, wire.ModeCustom, wire.ModeMessagesTuple}

// streamRun creates a run and streams it. The run goes on when the client
// goes away, unless on_disconnect is cancel.
func (s *Server) streamRun(c echo.Context) error {
	in, err := bindRun(c)
	if err != nil {
		return err
	}
	events, err := modesOf(in.StreamMode, "stream_mode")
	if err != nil {
		return err
	}
	run, err := s.startRun(c, in)
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
// end. A comment goes out every keepAlive while nothing else does. With
// cancel, a client that leaves before the run ends cancels it.
func (s *Server) stream(c echo.Context, run store.Run, events map[string]bool, after int64, cancel bool) error {
	resp := c.Response()
	h := resp.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	h.Set("Content-Location", runPath(run))
	resp.WriteHeader(http.StatusOK)
	w := sseWriter{w: resp, rc: http.NewResponseController(resp)}
	meta, _ := json.Marshal(wire.RunMetadata{RunID: run.ID, ThreadID: run.ThreadID})
	if err := w.event(0, wire.EventMetadata, meta); err != nil {
		return nil
	}
	reqCtx := ctx(c)
	feed := make(chan store.RunEvent)
	failed := make(chan error, 1)
	go func() {
		defer close(feed)
		for e, err := range s.store.FollowRunEvents(reqCtx, owner(c), run.ID, after) {
			if err != nil {
				failed <- err
				return
			}
			select {
			case feed <- e:
			case <-reqCtx.Done():
				return
			}
		}
	}()
	s.relay(c, w, feed, failed, events)
	if cancel && reqCtx.Err() != nil {
		s.cancelLeft(owner(c), run.ID)
	}
	return nil
}

// relay writes the events of feed in the asked modes, and errors, until the
// feed ends (then an error frame if following failed, and end) or the
// client goes away.
func (s *Server) relay(c echo.Context, w sseWriter, feed <-chan store.RunEvent, failed chan error, events map[string]bool) {
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-ctx(c).Done():
			return
		case <-tick.C:
			if w.write(": keep-alive\n\n") != nil {
				return
			}
		case e, ok := <-feed:
			if !ok {
				s.endStream(c, w, failed)
				return
			}
			if (events[e.Event] || e.Event == wire.EventError) && w.event(e.Seq, e.Event, e.Data) != nil {
				return
			}
		}
	}
}

// endStream writes an error event if following the run failed, then end.
func (s *Server) endStream(c echo.Context, w sseWriter, failed chan error) {
	select {
	case err := <-failed:
		if ctx(c).Err() != nil {
			return
		}
		status, body, _ := describe(err)
		if status >= 500 {
			s.logger(c).Error("streaming a run", "err", err)
		}
		data, _ := json.Marshal(wire.StreamError{Error: body.Error, Message: body.Message})
		w.event(0, wire.EventError, data)
	default:
	}
	w.event(0, wire.EventEnd, []byte("null"))
}
