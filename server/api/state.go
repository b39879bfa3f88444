package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/server/runner"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store/paging"
	"github.com/tripgraph/tripgraph/tripdata"
)

// getState returns a thread's current state.
func (s *API) getState(c echo.Context) error {
	return s.answerState(c, c.Param("thread_id"), "")
}

// getStateAt returns a thread's state at the checkpoint in the path.
func (s *API) getStateAt(c echo.Context) error {
	return s.answerState(c, c.Param("thread_id"), c.Param("checkpoint_id"))
}

// getStateAtBody returns a thread's state at the checkpoint in the body.
func (s *API) getStateAtBody(c echo.Context) error {
	var in wire.StateCheckpointRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	if in.Checkpoint.ThreadID != "" && in.Checkpoint.ThreadID != c.Param("thread_id") {
		return httpx.InvalidField("checkpoint.thread_id", "must be the thread in the path")
	}
	return s.answerState(c, c.Param("thread_id"), in.Checkpoint.CheckpointID)
}

// answerState answers with a thread's state at a checkpoint ("" for the
// newest). A thread with no checkpoint has an empty state; an unknown
// checkpoint is NOT_FOUND.
func (s *API) answerState(c echo.Context, threadID, checkpointID string) error {
	t := tenantOf(c)
	if _, err := t.Thread(httpx.Ctx(c), threadID); err != nil { // a 404 rather than an empty state
		return err
	}
	if checkpointID == "" {
		head, err := runner.Head(httpx.Ctx(c), t, threadID)
		if err != nil || head == nil {
			return answerOr(c, wire.EmptyState(), err)
		}
		return s.answerCheckpoint(c, t, *head)
	}
	if uuid.Validate(checkpointID) != nil {
		return errcode.New(errcode.NotFound, "no checkpoint %q", checkpointID)
	}
	cp, err := t.Planner.Checkpoint(httpx.Ctx(c), threadID, checkpointID)
	if err != nil {
		return err
	}
	return s.answerCheckpoint(c, t, cp)
}

// answerCheckpoint answers with the state at cp, its run's metadata
// stamped in.
func (s *API) answerCheckpoint(c echo.Context, t tenant.Tenant, cp graph.Checkpoint) error {
	runs, err := metadataOfRuns(httpx.Ctx(c), t, cp.ThreadID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.WithRunMetadata(wire.FromCheckpoint(cp), runs))
}

// metadataOfRuns is the metadata of each of a thread's runs, by run id.
func metadataOfRuns(ctx context.Context, t tenant.Tenant, threadID string) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	for offset := 0; ; offset += paging.Max {
		runs, err := t.ListRuns(ctx, threadID, paging.Max, offset)
		if err != nil {
			return nil, err
		}
		for _, r := range runs {
			out[r.ID] = r.Metadata
		}
		if len(runs) < paging.Max {
			return out, nil
		}
	}
}

func answerOr(c echo.Context, v any, err error) error {
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// postHistory lists a thread's states, newest first.
func (s *API) postHistory(c echo.Context) error {
	var in wire.HistoryRequest
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	before, err := beforeID(in.Before)
	if err != nil {
		return err
	}
	return s.answerHistory(c, limitOr(in.Limit), before, in.Metadata)
}

// getHistory lists a thread's states, newest first; the query has limit
// and before (a checkpoint id).
func (s *API) getHistory(c echo.Context) error {
	q := struct {
		Limit  *int   `json:"limit" validate:"omitempty,min=1,max=1000"`
		Before string `json:"before" validate:"omitempty,uuid"`
	}{}
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return httpx.InvalidField("limit", "must be an integer")
		}
		q.Limit = &n
	}
	q.Before = c.QueryParam("before")
	if err := httpx.Check(&q); err != nil {
		return err
	}
	return s.answerHistory(c, limitOr(q.Limit), q.Before, nil)
}

// answerHistory answers with up to limit states of a thread older than
// before, newest first, whose metadata has every member of filter.
func (s *API) answerHistory(c echo.Context, limit int, before string, filter map[string]any) error {
	threadID, t := c.Param("thread_id"), tenantOf(c)
	if _, err := t.Thread(httpx.Ctx(c), threadID); err != nil { // a 404 rather than an empty history
		return err
	}
	opts := graph.ListOptions{Limit: limit, Before: before}
	if len(filter) > 0 {
		opts.Limit = 0 // filter first, then cut
	}
	list, err := t.Checkpoints.List(httpx.Ctx(c), threadID, opts)
	if err != nil {
		return err
	}
	runs, err := metadataOfRuns(httpx.Ctx(c), t, threadID)
	if err != nil {
		return err
	}
	out := make([]wire.ThreadState, 0, min(len(list), limit))
	for _, cp := range list {
		st := wire.WithRunMetadata(wire.FromCheckpoint(cp), runs)
		if contains(st.Metadata, filter) {
			out = append(out, st)
		}
		if len(out) == limit {
			break
		}
	}
	return c.JSON(http.StatusOK, out)
}

// beforeID reads history's before: a checkpoint id, a config naming one,
// or a checkpoint as the state routes name it (what the Python client
// sends).
func beforeID(raw json.RawMessage) (string, error) {
	raw = httpx.Object(raw)
	if len(raw) == 0 {
		return "", nil
	}
	var id string
	if err := json.Unmarshal(raw, &id); err != nil {
		var cfg wire.Config
		var ref wire.CheckpointRef
		switch {
		case httpx.StrictUnmarshal(raw, &cfg) == nil:
			id = cfg.Configurable.CheckpointID
		case httpx.StrictUnmarshal(raw, &ref) == nil:
			id = ref.CheckpointID
		default:
			return "", httpx.InvalidField("before", "must be a checkpoint id, a checkpoint, or a config naming one")
		}
	}
	if uuid.Validate(id) != nil {
		return "", httpx.InvalidField("before", "must name a checkpoint by its UUID")
	}
	return id, nil
}

// updateState applies values to a thread's state as if as_node had
// returned them, and saves the result as a new checkpoint. It is refused
// (409) while a run is active on the thread. Messages in the values pass
// the chat input checks first.
func (s *API) updateState(c echo.Context) error {
	threadID, t := c.Param("thread_id"), tenantOf(c)
	var in wire.StateUpdate
	if err := httpx.Bind(c, &in); err != nil {
		return err
	}
	if _, err := t.Thread(httpx.Ctx(c), threadID); err != nil { // UpdateState would create it
		return err
	}
	checkpointID, err := checkpointBase(in.CheckpointID, in.Checkpoint)
	if err != nil {
		return err
	}
	earlier, err := conversation(httpx.Ctx(c), t, threadID, checkpointID)
	if err != nil {
		return err
	}
	update, err := decodeUpdate(in.Values, earlier)
	if err != nil {
		return err
	}
	if err := runner.CheckAdded(httpx.Ctx(c), t, threadID, checkpointID, update.Messages); err != nil {
		return err
	}
	asNode, err := asNode(httpx.Ctx(c), t, threadID, checkpointID, in.AsNode)
	if err != nil {
		return err
	}
	if err := idle(httpx.Ctx(c), t, threadID); err != nil {
		return err
	}
	cp, err := t.Planner.UpdateState(httpx.Ctx(c), threadID, checkpointID, update, asNode)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.StateUpdateResult{Checkpoint: *wire.CheckpointOf(threadID, cp.ID)})
}

// idle refuses (409) changing a thread's state while a run is active on
// it, a delayed one included: in LangGraph's words, the thread is busy.
func idle(ctx context.Context, t tenant.Tenant, threadID string) error {
	run, err := t.ActiveRun(ctx, threadID)
	if err == nil {
		return errcode.New(errcode.Conflict, "Thread is busy: run %s is active on thread %s; wait for it or cancel it", run.ID, threadID)
	}
	if errcode.Of(err) != errcode.NotFound {
		return err
	}
	return nil
}

// checkpointBase is the checkpoint an update or a run starts from:
// checkpoint_id or checkpoint.checkpoint_id, which must agree; "" for the
// newest.
func checkpointBase(id string, ref *wire.CheckpointRef) (string, error) {
	if ref != nil {
		if err := httpx.Check(ref); err != nil {
			return "", err
		}
		if id != "" && id != ref.CheckpointID {
			return "", httpx.InvalidField("checkpoint", "names another checkpoint than checkpoint_id")
		}
		id = ref.CheckpointID
	}
	return id, nil
}

// asNode is the node an update is applied as: the one asked for, which
// must be one of the graph's (or __start__), or else the node that wrote
// the base checkpoint, as LangGraph does.
func asNode(ctx context.Context, t tenant.Tenant, threadID, checkpointID, asked string) (string, error) {
	if asked != "" {
		if asked != graph.START && asked != graph.INPUT && !slices.Contains(t.Planner.Shape().Nodes, asked) {
			return "", httpx.InvalidField("as_node", fmt.Sprintf("%q is not a node of the graph", asked))
		}
		return asked, nil
	}
	base, err := t.Planner.Checkpoint(ctx, threadID, checkpointID)
	if err != nil && (checkpointID != "" || errcode.Of(httpx.FromGraph(err)) != errcode.NotFound) {
		return "", err
	}
	if base.Node == "" {
		return graph.START, nil
	}
	return base.Node, nil
}

// decodeUpdate reads the values of a state update as a planner update,
// after wire.ClientValues has read them as clients send them: only its
// fields, of the right types; messages need a known type and content, get
// an id when they have none, and pass the chat input checks of messages
// added to the earlier conversation; trip details must be complete.
func decodeUpdate(raw json.RawMessage, earlier []nodes.Message) (nodes.Update, error) {
	var u nodes.Update
	raw = httpx.Object(raw)
	if len(raw) == 0 || !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		return u, httpx.InvalidField("values", "must be an object")
	}
	raw, err := wire.ClientValues(raw)
	if err != nil {
		return u, httpx.Prefixed(invalid(err), "values.")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return u, httpx.InvalidField("values", "must be an object")
	}
	if problems := httpx.DecodeFields(fields, &u); len(problems) > 0 {
		for i := range problems {
			problems[i].Field = "values." + problems[i].Field
		}
		return u, httpx.Invalid(problems...)
	}
	if u.TripDetails != nil {
		if err := httpx.Check(u.TripDetails); err != nil {
			return u, httpx.Prefixed(err, "values.tripDetails.")
		}
		if err := stayFits(*u.TripDetails, time.Now()); err != nil {
			return u, httpx.Prefixed(err, "values.tripDetails.")
		}
	}
	for i := range u.Messages {
		m := &u.Messages[i]
		if m.Type != nodes.Human && m.Type != nodes.AI {
			return u, httpx.InvalidField(fmt.Sprintf("values.messages[%d].type", i), "must be human or ai")
		}
		if m.ID == "" {
			m.ID = uuid.Must(uuid.NewV7()).String()
		}
	}
	return u, runner.CheckAddedTo(earlier, u.Messages)
}

// conversation is the thread's messages at a checkpoint ("" for the
// newest), which an update adds to; none on a thread with no checkpoint.
func conversation(ctx context.Context, t tenant.Tenant, threadID, checkpointID string) ([]nodes.Message, error) {
	s, _, err := t.Planner.GetState(ctx, threadID, checkpointID)
	if errors.Is(err, graph.ErrNotFound) && checkpointID == "" {
		return nil, nil
	}
	if err != nil && checkpointID != "" && errors.Is(err, graph.ErrNotFound) {
		return nil, errcode.New(errcode.NotFound, "no checkpoint %s on thread %s", checkpointID, threadID)
	}
	return s.Messages, err
}

// stayFits refuses the stays the planner refuses in a message (see
// nodes.TripDetails.Fault), as a 422 naming the field at fault.
func stayFits(td nodes.TripDetails, now time.Time) error {
	return stayError(td.Fault(now.UTC().Truncate(24 * time.Hour)))
}

// stayError is the 422 of a stay the planner refuses, naming the field at
// fault; nil when there is no fault.
func stayError(f nodes.StayFault) error {
	msg := map[nodes.StayFault]string{
		nodes.EndBeforeStart: "must be after the start date",
		nodes.PastDates:      "must not be in the past",
		nodes.TooFarAhead:    fmt.Sprintf("must be at most %d days ahead", tripdata.MaxDaysAhead),
		nodes.TooLong:        fmt.Sprintf("must make a stay of at most %d nights", tripdata.MaxNights),
		nodes.TooManyGuests:  fmt.Sprintf("must be at most %d", tripdata.MaxGuests),
	}[f]
	if f == "" {
		return nil
	}
	return httpx.InvalidField(f.Field(), msg)
}
