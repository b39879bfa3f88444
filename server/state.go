package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/chatinput"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/tripdata"
)

// getState returns a thread's current state.
func (s *Server) getState(c echo.Context) error {
	return s.answerState(c, c.Param("thread_id"), "")
}

// getStateAt returns a thread's state at the checkpoint in the path.
func (s *Server) getStateAt(c echo.Context) error {
	return s.answerState(c, c.Param("thread_id"), c.Param("checkpoint_id"))
}

// getStateAtBody returns a thread's state at the checkpoint in the body.
func (s *Server) getStateAtBody(c echo.Context) error {
	var in wire.StateCheckpointRequest
	if err := bind(c, &in); err != nil {
		return err
	}
	if in.Checkpoint.ThreadID != "" && in.Checkpoint.ThreadID != c.Param("thread_id") {
		return invalid([]wire.FieldError{{Field: "checkpoint.thread_id", Message: "must be the thread in the path"}})
	}
	return s.answerState(c, c.Param("thread_id"), in.Checkpoint.CheckpointID)
}

// answerState answers with a thread's state at a checkpoint ("" for the
// newest). A thread with no checkpoint has an empty state; an unknown
// checkpoint is NOT_FOUND.
func (s *Server) answerState(c echo.Context, threadID, checkpointID string) error {
	if _, err := s.store.ThreadByID(ctx(c), owner(c), threadID); err != nil {
		return err
	}
	if checkpointID == "" {
		head, err := s.head(ctx(c), threadID)
		if err != nil || head == nil {
			return answerOr(c, wire.EmptyState(), err)
		}
		return c.JSON(http.StatusOK, wire.FromCheckpoint(*head))
	}
	if uuid.Validate(checkpointID) != nil {
		return errcode.New(errcode.NotFound, "no checkpoint %q", checkpointID)
	}
	_, cp, err := s.planner.GetState(ctx(c), threadID, checkpointID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromCheckpoint(cp))
}

func answerOr(c echo.Context, v any, err error) error {
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// postHistory lists a thread's states, newest first.
func (s *Server) postHistory(c echo.Context) error {
	var in wire.HistoryRequest
	if err := bind(c, &in); err != nil {
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
func (s *Server) getHistory(c echo.Context) error {
	q := struct {
		Limit  *int   `json:"limit" validate:"omitempty,min=1,max=1000"`
		Before string `json:"before" validate:"omitempty,uuid"`
	}{}
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return invalid([]wire.FieldError{{Field: "limit", Message: "must be an integer"}})
		}
		q.Limit = &n
	}
	q.Before = c.QueryParam("before")
	if err := check(&q); err != nil {
		return err
	}
	return s.answerHistory(c, limitOr(q.Limit), q.Before, nil)
}

// answerHistory answers with up to limit states of a thread older than
// before, newest first, whose metadata has every member of filter.
func (s *Server) answerHistory(c echo.Context, limit int, before string, filter map[string]any) error {
	threadID := c.Param("thread_id")
	if _, err := s.store.ThreadByID(ctx(c), owner(c), threadID); err != nil {
		return err
	}
	opts := graph.ListOptions{Limit: limit, Before: before}
	if len(filter) > 0 {
		opts.Limit = 0 // filter first, then cut
	}
	list, err := s.cps.List(ctx(c), threadID, opts)
	if err != nil {
		return err
	}
	out := make([]wire.ThreadState, 0, min(len(list), limit))
	for _, cp := range list {
		st := wire.FromCheckpoint(cp)
		if contains(st.Metadata, filter) {
			out = append(out, st)
		}
		if len(out) == limit {
			break
		}
	}
	return c.JSON(http.StatusOK, out)
}

// beforeID reads history's before: a checkpoint id, or a config naming one.
func beforeID(raw json.RawMessage) (string, error) {
	raw = object(raw)
	if len(raw) == 0 {
		return "", nil
	}
	var id string
	if err := json.Unmarshal(raw, &id); err != nil {
		var cfg wire.Config
		if err := strictUnmarshal(raw, &cfg); err != nil {
			return "", invalid([]wire.FieldError{{Field: "before", Message: "must be a checkpoint id or a config naming one"}})
		}
		id = cfg.Configurable.CheckpointID
	}
	if uuid.Validate(id) != nil {
		return "", invalid([]wire.FieldError{{Field: "before", Message: "must name a checkpoint by its UUID"}})
	}
	return id, nil
}

// updateState applies values to a thread's state as if as_node had
// returned them, and saves the result as a new checkpoint. It is refused
// (409) while a run is active on the thread. Messages in the values pass
// the chat input checks first.
func (s *Server) updateState(c echo.Context) error {
	threadID := c.Param("thread_id")
	var in wire.StateUpdate
	if err := bind(c, &in); err != nil {
		return err
	}
	if _, err := s.store.ThreadByID(ctx(c), owner(c), threadID); err != nil {
		return err
	}
	update, err := decodeUpdate(in.Values)
	if err != nil {
		return err
	}
	checkpointID, err := checkpointBase(in.CheckpointID, in.Checkpoint)
	if err != nil {
		return err
	}
	asNode, err := s.asNode(c, threadID, checkpointID, in.AsNode)
	if err != nil {
		return err
	}
	if run, err := s.store.ActiveRun(ctx(c), owner(c), threadID); err == nil {
		return errcode.New(errcode.Conflict, "thread %s has an active run (%s); wait for it or cancel it", threadID, run.ID)
	} else if errcode.Of(err) != errcode.NotFound {
		return err
	}
	cp, err := s.planner.UpdateState(ctx(c), threadID, checkpointID, update, asNode)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.StateUpdateResult{Checkpoint: *wire.CheckpointOf(threadID, cp.ID)})
}

// checkpointBase is the checkpoint an update or a run starts from:
// checkpoint_id or checkpoint.checkpoint_id, which must agree; "" for the
// newest.
func checkpointBase(id string, ref *wire.CheckpointRef) (string, error) {
	if ref != nil {
		if err := check(ref); err != nil {
			return "", err
		}
		if id != "" && id != ref.CheckpointID {
			return "", invalid([]wire.FieldError{{Field: "checkpoint", Message: "names another checkpoint than checkpoint_id"}})
		}
		id = ref.CheckpointID
	}
	return id, nil
}

// asNode is the node an update is applied as: the one asked for, which
// must be one of the graph's (or __start__), or else the node that wrote
// the base checkpoint, as LangGraph does.
func (s *Server) asNode(c echo.Context, threadID, checkpointID, asked string) (string, error) {
	if asked != "" {
		if asked != graph.START && !slices.Contains(s.planner.Shape().Nodes, asked) {
			return "", invalid([]wire.FieldError{{Field: "as_node", Message: fmt.Sprintf("%q is not a node of the graph", asked)}})
		}
		return asked, nil
	}
	_, base, err := s.planner.GetState(ctx(c), threadID, checkpointID)
	if err != nil && (checkpointID != "" || errcode.Of(fromGraph(err)) != errcode.NotFound) {
		return "", err
	}
	if base.Node == "" {
		return graph.START, nil
	}
	return base.Node, nil
}

// decodeUpdate reads the values of a state update as a planner update:
// only its fields, of the right types; messages need a known type and
// content, get an id when they have none, and pass the chat input checks;
// trip details must be complete.
func decodeUpdate(raw json.RawMessage) (nodes.Update, error) {
	var u nodes.Update
	raw = object(raw)
	if len(raw) == 0 || !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		return u, invalid([]wire.FieldError{{Field: "values", Message: "must be an object"}})
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return u, invalid([]wire.FieldError{{Field: "values", Message: "must be an object"}})
	}
	if problems := decodeFields(fields, &u); len(problems) > 0 {
		for i := range problems {
			problems[i].Field = "values." + problems[i].Field
		}
		return u, invalid(problems)
	}
	if u.TripDetails != nil {
		if err := check(u.TripDetails); err != nil {
			return u, prefixed(err, "values.tripDetails.")
		}
		if err := stayFits(*u.TripDetails, time.Now()); err != nil {
			return u, prefixed(err, "values.tripDetails.")
		}
	}
	msgs := make([]chatinput.Message, 0, len(u.Messages))
	for i := range u.Messages {
		m := &u.Messages[i]
		role := map[string]string{nodes.Human: chatinput.RoleUser, nodes.AI: chatinput.RoleAssistant}[m.Type]
		if role == "" {
			return u, invalid([]wire.FieldError{{Field: fmt.Sprintf("values.messages[%d].type", i), Message: "must be human or ai"}})
		}
		if m.ID == "" {
			m.ID = uuid.Must(uuid.NewV7()).String()
		}
		msgs = append(msgs, chatinput.Message{Role: role, Content: m.Content})
	}
	if len(msgs) > 0 {
		if _, err := chatinput.Clean(msgs); err != nil {
			return u, err
		}
	}
	return u, nil
}

// stayFits refuses the stays the planner refuses in a message: one that
// ends before it starts, starts before today (UTC), starts further ahead
// than tripdata.MaxDaysAhead or lasts longer than tripdata.MaxNights.
func stayFits(td nodes.TripDetails, now time.Time) error {
	start, _ := time.Parse(time.DateOnly, td.StartDate)
	today := now.UTC().Truncate(24 * time.Hour)
	var fe wire.FieldError
	switch {
	case td.Nights() < 1:
		fe = wire.FieldError{Field: "endDate", Message: "must be after the start date"}
	case start.Before(today):
		fe = wire.FieldError{Field: "startDate", Message: "must not be in the past"}
	case start.After(today.AddDate(0, 0, tripdata.MaxDaysAhead)):
		fe = wire.FieldError{Field: "startDate", Message: fmt.Sprintf("must be at most %d days ahead", tripdata.MaxDaysAhead)}
	case td.Nights() > tripdata.MaxNights:
		fe = wire.FieldError{Field: "endDate", Message: fmt.Sprintf("must make a stay of at most %d nights", tripdata.MaxNights)}
	default:
		return nil
	}
	return invalid([]wire.FieldError{fe})
}

// prefixed puts prefix before the field names of a 422.
func prefixed(err error, prefix string) error {
	se, ok := err.(*statusError)
	if !ok {
		return err
	}
	for i := range se.fields {
		se.fields[i].Field = prefix + se.fields[i].Field
	}
	return se
}
