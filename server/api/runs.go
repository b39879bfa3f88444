package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/server/runner"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
)

// createRun creates a background run and answers with it.
func (s *API) createRun(c echo.Context) error {
	in, err := bindRun(c)
	if err != nil {
		return err
	}
	run, err := s.startRun(c, in, c.Param("thread_id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, fromRun(run))
}

// waitRun creates a run, waits for its end and answers with the thread's
// final values.
func (s *API) waitRun(c echo.Context) error {
	in, err := bindRun(c)
	if err != nil {
		return err
	}
	run, err := s.startRun(c, in, c.Param("thread_id"))
	if err != nil {
		return err
	}
	return s.answerFinal(c, run, in.OnDisconnect == "cancel")
}

// joinRun waits for a run's end and answers with the thread's final values.
func (s *API) joinRun(c echo.Context) error {
	run, err := threadRun(c)
	if err != nil {
		return err
	}
	return s.answerFinal(c, run, false)
}

// getRun answers with one run of a thread.
func (s *API) getRun(c echo.Context) error {
	run, err := threadRun(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, fromRun(run))
}

// listRuns lists a thread's runs, newest first.
func (s *API) listRuns(c echo.Context) error {
	limit, offset, err := pageQuery(c)
	if err != nil {
		return err
	}
	t, threadID := tenantOf(c), c.Param("thread_id")
	if _, err := t.Thread(httpx.Ctx(c), threadID); err != nil { // a 404 rather than an empty list
		return err
	}
	var statuses []string
	if status := c.QueryParam("status"); status != "" {
		if statuses = wire.StoredStatuses(status); statuses == nil {
			return httpx.InvalidField("status", "must be one of: pending, running, success, error, timeout, interrupted")
		}
	}
	runs, err := t.ListRuns(httpx.Ctx(c), threadID, limit, offset, statuses...)
	if err != nil {
		return err
	}
	out := make([]wire.Run, 0, len(runs))
	for _, r := range runs {
		out = append(out, fromRun(r))
	}
	return c.JSON(http.StatusOK, out)
}

// cancelRun asks a run to stop, wherever it executes: 202 at once, or
// with wait=1, 204 once it has ended. A run that has ended already stays
// as it ended. A delayed run that has not started ends at once. With
// action=rollback it also waits, then discards the run with what it
// wrote, as LangGraph does (see runner.RollBack).
func (s *API) cancelRun(c echo.Context) error {
	action := c.QueryParam("action")
	switch action {
	case "", "interrupt", "rollback":
	default:
		return httpx.InvalidField("action", "must be interrupt or rollback")
	}
	run, err := threadRun(c)
	if err != nil {
		return err
	}
	t := tenantOf(c)
	_, err = t.CancelRun(httpx.Ctx(c), run.ID)
	if err != nil && (errcode.Of(err) != errcode.Conflict || action == "rollback") {
		return err // a run that has ended (CONFLICT) is left as it ended, as LangGraph does, but for a rollback
	}
	if action != "rollback" && !truthy(c.QueryParam("wait")) {
		return c.NoContent(http.StatusAccepted)
	}
	if _, err := runner.Await(httpx.Ctx(c), t, run.ID); err != nil {
		return err
	}
	if action == "rollback" {
		if err := runner.RollBack(httpx.Ctx(c), t, run.ID); err != nil {
			return err
		}
	}
	return c.NoContent(http.StatusNoContent)
}

// truthy reads a boolean query parameter as the clients send it.
func truthy(v string) bool { return v == "1" || v == "true" }

// pageQuery reads limit (defaultLimit unless given, at most maxLimit) and
// offset from the query string, as decimal whole numbers.
func pageQuery(c echo.Context) (limit, offset int, err error) {
	limit = defaultLimit
	for _, p := range []struct {
		name     string
		dst      *int
		min, max int
	}{{"limit", &limit, 1, maxLimit}, {"offset", &offset, 0, 1 << 30}} {
		v := c.QueryParam(p.name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v) // decimal digits only: no 0x10, no "1 junk"
		if err != nil || n < p.min || n > p.max {
			return 0, 0, httpx.InvalidField(p.name, fmt.Sprintf("must be a whole number from %d to %d", p.min, p.max))
		}
		*p.dst = n
	}
	return limit, offset, nil
}

// threadRun is the run named in the path, which must be of the thread
// named there and the user's.
func threadRun(c echo.Context) (store.Run, error) {
	run, err := tenantOf(c).Run(httpx.Ctx(c), c.Param("run_id"))
	if err != nil {
		return run, err
	}
	if run.ThreadID != c.Param("thread_id") {
		return store.Run{}, errcode.New(errcode.NotFound, "no run %s on thread %s", run.ID, c.Param("thread_id"))
	}
	return run, nil
}

// startRun turns a run body into a job and queues it on the thread
// threadID ("" for a new thread of its own), creating the thread first
// when if_not_exists says so. The answer carries the run's
// Content-Location.
func (s *API) startRun(c echo.Context, in wire.RunCreate, threadID string) (store.Run, error) {
	t := tenantOf(c)
	a, err := runAssistant(httpx.Ctx(c), t, in.AssistantID)
	if err != nil {
		return store.Run{}, err
	}
	j, err := s.jobOf(in)
	if err != nil {
		return store.Run{}, err
	}
	if j.StepLimit == 0 {
		j.StepLimit = configLimit(a)
	}
	meta, err := runMetadata(in)
	if err != nil {
		return store.Run{}, err
	}
	run, err := s.runner.Enqueue(httpx.Ctx(c), t, runner.Request{ThreadID: threadID,
		CreateThread: in.IfNotExists == "create", Job: j, Metadata: meta,
		MultitaskStrategy: in.MultitaskStrategy, Delay: time.Duration(in.AfterSeconds * float64(time.Second)),
		AssistantID: a.AssistantID, GraphID: a.GraphID})
	if errors.Is(err, runner.ErrNothingToGoOn) {
		return run, httpx.InvalidField("input", "is required: the thread has no state to go on from")
	}
	if err != nil {
		return run, invalid(err)
	}
	c.Response().Header().Set("Content-Location", runPath(run))
	return run, nil
}

// fromRun is the wire form of a run: of the assistant it was created for,
// or the built-in one for runs created before runs named theirs.
func fromRun(r store.Run) wire.Run {
	id := r.AssistantID
	if id == "" {
		id = PlannerAssistantID
	}
	return wire.FromRun(r, id)
}

// runPath is where a run is found.
func runPath(r store.Run) string { return "/threads/" + r.ThreadID + "/runs/" + r.ID }

// answerFinal waits for a run's end and answers with its thread's values,
// or with the run's error as LangGraph does. With cancel, a client that
// goes away first cancels the run.
func (s *API) answerFinal(c echo.Context, run store.Run, cancel bool) error {
	v, err := s.final(c, run, cancel)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// final waits for a run's end and returns what answerFinal answers; when
// the server shuts down first, httpx.ErrShuttingDown.
func (s *API) final(c echo.Context, run store.Run, cancel bool) (any, error) {
	t := tenantOf(c)
	waitCtx, stop := s.closing.Until(httpx.Ctx(c))
	defer stop()
	done, err := runner.Await(waitCtx, t, run.ID)
	if err != nil {
		err = httpx.ShutdownCause(waitCtx, err)
		if cancel && httpx.Ctx(c).Err() != nil {
			s.cancelLeft(t, run.ID)
		}
		return nil, err
	}
	if done.Status == store.RunError {
		failure := wire.StreamError{Error: string(errcode.Internal), Message: done.Error}
		if done.Failure != nil {
			failure = *done.Failure
		}
		return wire.RunError{Error: failure}, nil
	}
	head, err := runner.Head(httpx.Ctx(c), t, done.ThreadID)
	if err != nil || head == nil {
		return json.RawMessage("{}"), err
	}
	return wire.Values(head.State), nil
}

// cancelLeft cancels a run whose client went away.
func (s *API) cancelLeft(t tenant.Tenant, runID string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := t.CancelRun(ctx, runID); err != nil && errcode.Of(err) != errcode.Conflict {
		s.log.Error("cancelling a run whose client went away", "run_id", runID, "err", err)
	}
}

// statelessWait runs on a new thread of its own and answers as waitRun
// does; the thread is deleted once the run has ended unless on_completion
// is keep.
func (s *API) statelessWait(c echo.Context) error {
	in, err := bindRun(c)
	if err != nil {
		return err
	}
	run, err := s.startRun(c, in, "")
	if err != nil {
		return err
	}
	v, err := s.final(c, run, in.OnDisconnect == "cancel")
	s.complete(tenantOf(c), run, in.OnCompletion, err == nil) // final read the run as it ended
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// statelessStream runs on a new thread of its own and streams as
// streamRun does; the thread is deleted once the run has ended unless
// on_completion is keep.
func (s *API) statelessStream(c echo.Context) error {
	in, err := bindRun(c)
	if err != nil {
		return err
	}
	run, err := s.startRun(c, in, "")
	if err != nil {
		return err
	}
	ended, err := s.streamStarted(c, run, in)
	s.complete(tenantOf(c), run, in.OnCompletion, ended)
	return err
}

// complete deletes a stateless run's thread if the run has ended and
// onCompletion is not keep. A run still going (its client left without
// cancelling it) keeps its thread; ended tells that the caller saw the run
// end, so it is not read again.
func (s *API) complete(t tenant.Tenant, run store.Run, onCompletion string, ended bool) {
	if onCompletion == "keep" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var err error
	if !ended {
		var now store.Run
		now, err = t.Run(ctx, run.ID)
		ended = err == nil && now.Final()
	}
	if ended {
		err = t.DeleteThread(ctx, run.ThreadID)
	}
	if err != nil {
		s.log.Error("deleting a stateless run's thread", "run_id", run.ID, "err", err)
	}
}
