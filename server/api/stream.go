package api

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/metrics"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/server/runner"
	"github.com/tripgraph/tripgraph/store"
)

// streamRun creates a run and streams it. The run goes on when the client
// goes away, unless on_disconnect is cancel.
func (s *API) streamRun(c echo.Context) error {
	in, err := bindRun(c)
	if err != nil {
		return err
	}
	run, err := s.startRun(c, in, c.Param("thread_id"))
	if err != nil {
		return err
	}
	_, err = s.streamStarted(c, run, in)
	return err
}

// streamStarted streams a run just created from the body in, in the modes
// it asked for (bindRun has checked them), and reports whether the stream
// saw the run end.
func (s *API) streamStarted(c echo.Context, run store.Run, in wire.RunCreate) (ended bool, err error) {
	events, err := modesOf(in.StreamMode, "stream_mode")
	if err != nil {
		return false, err
	}
	return s.stream(c, run, events, 0, in.OnDisconnect == "cancel"), nil
}

// joinStream streams a run that exists, from after the Last-Event-ID
// header's event when it is sent, in the modes asked for, or else the
// modes the run was created with. With cancel_on_disconnect, a client that
// goes away cancels the run.
func (s *API) joinStream(c echo.Context) error {
	after, err := httpx.LastEventID(c)
	if err != nil {
		return err
	}
	run, err := threadRun(c)
	if err != nil {
		return err
	}
	created := wire.ModeNames() // a run created before runs kept their modes
	if j, err := runner.DecodeJob(run.Input); err == nil && len(j.StreamModes) > 0 {
		created = j.StreamModes
	}
	events, err := queryModes(c.QueryParams()["stream_mode"], created)
	if err != nil {
		return err
	}
	s.stream(c, run, events, after, truthy(c.QueryParam("cancel_on_disconnect")))
	return nil
}

// modeList reads stream_mode, a mode or a list of modes; values alone
// when it is absent, nil when it is not one of those.
func modeList(raw json.RawMessage) []string {
	var list []string
	if len(httpx.Object(raw)) > 0 {
		var one string
		if json.Unmarshal(raw, &one) == nil {
			list = []string{one}
		} else if json.Unmarshal(raw, &list) != nil {
			return nil
		}
	}
	if len(list) == 0 {
		list = []string{wire.ModeValues}
	}
	return list
}

// modesOf reads stream_mode, a mode or a list of modes, as the SSE event
// names to send; values alone when it is absent.
func modesOf(raw json.RawMessage, field string) (map[string]bool, error) {
	list := modeList(raw)
	if list == nil {
		return nil, httpx.InvalidField(field, "must be a stream mode or a list of them")
	}
	events := map[string]bool{}
	for _, name := range list {
		m, ok := wire.ModeNamed(name)
		if !ok {
			return nil, httpx.InvalidField(field, fmt.Sprintf("%q is not supported; use %s", name, strings.Join(wire.ModeNames(), ", ")))
		}
		for _, e := range m.Events {
			events[e] = true
		}
	}
	return events, nil
}

// queryModes reads the stream_mode query parameters: each a mode or a JSON
// list of modes, as the JS client sends a list. A joiner who names none
// gets the modes in none.
func queryModes(values, none []string) (map[string]bool, error) {
	list := []string{}
	for _, v := range values {
		if v == "" { // the Python client sends stream_mode= for none
			continue
		}
		if !strings.HasPrefix(v, "[") {
			list = append(list, v)
			continue
		}
		var more []string
		if json.Unmarshal([]byte(v), &more) != nil {
			return nil, httpx.InvalidField("stream_mode", "must be a stream mode or a list of them")
		}
		list = append(list, more...)
	}
	if len(list) == 0 {
		list = none
	}
	raw, _ := json.Marshal(list)
	return modesOf(raw, "stream_mode")
}

// stream sends a run's events after seq after as SSE: metadata first, then
// the events of the asked modes and errors, each with its seq as id. As
// LangGraph.js's server, it sends nothing after the last: the body ends.
// With cancel, a client that leaves before the run ends cancels it. It
// reports whether it relayed the run's events to their end, which is the
// run's end.
func (s *API) stream(c echo.Context, run store.Run, events map[string]bool, after int64, cancel bool) (ended bool) {
	c.Response().Header().Set("Content-Location", runPath(run))
	defer s.metrics.StreamOpened(metrics.LangGraph)()
	w := httpx.OpenSSE(c)
	meta, _ := json.Marshal(wire.RunMetadata{RunID: run.ID, ThreadID: run.ThreadID, Attempt: max(run.Attempts, 1)})
	if err := w.Event(0, wire.EventMetadata, meta); err != nil {
		return false
	}
	send := func(e store.RunEvent) error {
		if events[e.Event] || e.Event == wire.EventError {
			return w.Event(e.Seq, e.Event, e.Data)
		}
		return nil
	}
	s.follow(c, run, after, cancel, w, send, func(failed error) {
		ended = failed == nil
		s.endStream(c, w, failed)
	})
	return ended
}

// follow relays the run's events after seq after (see httpx.Closing.Relay);
// with cancel, a client that leaves before the run ends cancels it.
func (s *API) follow(c echo.Context, run store.Run, after int64, cancel bool, w httpx.SSE,
	send func(store.RunEvent) error, end func(error)) {
	t := tenantOf(c)
	left := s.closing.Relay(c, w, func(ctx context.Context) iter.Seq2[store.RunEvent, error] {
		return t.FollowRunEvents(ctx, run.ID, after)
	}, send, end)
	if cancel && left {
		s.cancelLeft(t, run.ID)
	}
}

// endStream writes an error event if following the run failed. Nothing
// else marks the end: LangGraph.js's server sends nothing after the last
// event, its JS client would hand an end frame to its caller as one more
// chunk, and its Python client ends cleanly without one.
func (s *API) endStream(c echo.Context, w httpx.SSE, failed error) {
	if failed != nil {
		data, _ := json.Marshal(s.streamError(c, failed))
		w.Event(0, wire.EventError, data)
	}
}

// streamError is what a stream tells its client of an error that stopped
// it; an internal one is logged.
func (s *API) streamError(c echo.Context, err error) wire.StreamError {
	return httpx.StreamError(c, s.log, err)
}
