package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/chatinput"
	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/store"
)

// createRun creates a background run and answers with it.
func (s *Server) createRun(c echo.Context) error {
	in, err := bindRun(c)
	if err != nil {
		return err
	}
	run, err := s.startRun(c, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromRun(run, PlannerAssistantID))
}

// waitRun creates a run, waits for its end and answers with the thread's
// final values.
func (s *Server) waitRun(c echo.Context) error {
	in, err := bindRun(c)
	if err != nil {
		return err
	}
	run, err := s.startRun(c, in)
	if err != nil {
		return err
	}
	return s.answerFinal(c, run, in.OnDisconnect == "cancel")
}

// joinRun waits for a run's end and answers with the thread's final values.
func (s *Server) joinRun(c echo.Context) error {
	run, err := s.threadRun(c)
	if err != nil {
		return err
	}
	return s.answerFinal(c, run, false)
}

// getRun answers with one run of a thread.
func (s *Server) getRun(c echo.Context) error {
	run, err := s.threadRun(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, wire.FromRun(run, PlannerAssistantID))
}

// listRuns lists a thread's runs, newest first.
func (s *Server) listRuns(c echo.Context) error {
	limit, offset, err := pageQuery(c)
	if err != nil {
		return err
	}
	threadID := c.Param("thread_id")
	if _, err := s.store.ThreadByID(ctx(c), owner(c), threadID); err != nil {
		return err
	}
	runs, err := s.store.ListRuns(ctx(c), owner(c), threadID, limit, offset)
	if err != nil {
		return err
	}
	out := make([]wire.Run, 0, len(runs))
	for _, r := range runs {
		out = append(out, wire.FromRun(r, PlannerAssistantID))
	}
	return c.JSON(http.StatusOK, out)
}

// cancelRun asks a run to stop, wherever it executes: 202 at once, or
// with wait=1, 204 once it has ended. With action=rollback it also waits,
// then moves the thread back to the state before the run (see rollBack).
func (s *Server) cancelRun(c echo.Context) error {
	action := c.QueryParam("action")
	switch action {
	case "", "interrupt", "rollback":
	default:
		return invalid([]wire.FieldError{{Field: "action", Message: "must be interrupt or rollback"}})
	}
	run, err := s.threadRun(c)
	if err != nil {
		return err
	}
	if _, err := s.store.CancelRun(ctx(c), owner(c), run.ID); err != nil {
		return err
	}
	if action != "rollback" && !truthy(c.QueryParam("wait")) {
		return c.NoContent(http.StatusAccepted)
	}
	if _, err := s.awaitRun(ctx(c), owner(c), run.ID); err != nil {
		return err
	}
	if action == "rollback" {
		if err := s.rollBack(ctx(c), run); err != nil {
			return err
		}
	}
	return c.NoContent(http.StatusNoContent)
}

// rollBack makes the state before a cancelled run the thread's newest
// again: a new checkpoint with that state, forked from the checkpoint
// before the run's first. The run's own checkpoints stay in the history
// as an abandoned branch (checkpoints are never deleted), and the run
// stays listed, interrupted. A run that wrote nothing leaves the thread as
// it is; one that started the thread cannot be rolled back (CONFLICT).
func (s *Server) rollBack(ctx context.Context, run store.Run) error {
	before, err := s.before(ctx, run.ThreadID, run.ID)
	if errors.Is(err, errStartedThread) {
		return errcode.Wrap(errcode.Conflict, err, fmt.Sprintf("run %s was cancelled, but it started the thread, so there is no state to roll back to; delete the thread instead", run.ID))
	}
	if err != nil || before == "" {
		return err
	}
	_, base, err := s.planner.GetState(ctx, run.ThreadID, before)
	if err != nil {
		return fmt.Errorf("reading the checkpoint before run %s: %w", run.ID, err)
	}
	asNode := base.Node
	if asNode == "" {
		asNode = graph.START
	}
	if _, err := s.planner.UpdateState(ctx, run.ThreadID, before, nodes.Update{}, asNode); err != nil {
		return fmt.Errorf("rolling back run %s: %w", run.ID, fromGraph(err))
	}
	return nil
}

// truthy reads a boolean query parameter as the clients send it.
func truthy(v string) bool { return v == "1" || v == "true" }

// pageQuery reads limit (default 10, at most 1000) and offset.
func pageQuery(c echo.Context) (limit, offset int, err error) {
	limit = defaultLimit
	for _, p := range []struct {
		name string
		dst  *int
		max  int
	}{{"limit", &limit, 1000}, {"offset", &offset, 1 << 30}} {
		v := c.QueryParam(p.name)
		if v == "" {
			continue
		}
		n := 0
		if _, err := fmt.Sscan(v, &n); err != nil || n < 0 || n > p.max || (p.name == "limit" && n == 0) {
			return 0, 0, invalid([]wire.FieldError{{Field: p.name, Message: "is out of range"}})
		}
		*p.dst = n
	}
	return limit, offset, nil
}

// threadRun is the run named in the path, which must be of the thread
// named there and the user's.
func (s *Server) threadRun(c echo.Context) (store.Run, error) {
	run, err := s.store.RunByID(ctx(c), owner(c), c.Param("run_id"))
	if err != nil {
		return run, err
	}
	if run.ThreadID != c.Param("thread_id") {
		return store.Run{}, errcode.New(errcode.NotFound, "no run %s on thread %s", run.ID, c.Param("thread_id"))
	}
	return run, nil
}

// bindRun reads and checks a run body.
func bindRun(c echo.Context) (wire.RunCreate, error) {
	var in wire.RunCreate
	if err := bind(c, &in); err != nil {
		return in, err
	}
	if in.AssistantID == "" {
		return in, invalid([]wire.FieldError{{Field: "assistant_id", Message: "is required"}})
	}
	if _, err := assistant(in.AssistantID); err != nil {
		return in, err
	}
	_, err := modesOf(in.StreamMode, "stream_mode")
	return in, err
}

// startRun turns a run body into a job and queues it on the thread named
// in the path, creating the thread first when if_not_exists says so. The
// answer carries the run's Content-Location.
func (s *Server) startRun(c echo.Context, in wire.RunCreate) (store.Run, error) {
	return s.startRunOn(c, in, c.Param("thread_id"))
}

// startRunOn is startRun on the thread threadID; none means a new thread.
func (s *Server) startRunOn(c echo.Context, in wire.RunCreate, threadID string) (store.Run, error) {
	j, err := s.jobOf(in)
	if err != nil {
		return store.Run{}, err
	}
	if err := s.canGoOn(c, j, threadID); err != nil {
		return store.Run{}, err
	}
	raw, err := json.Marshal(j)
	if err != nil {
		return store.Run{}, fmt.Errorf("encoding a run's job: %w", err)
	}
	nr := store.NewRun{Input: raw, Metadata: object(in.Metadata), MultitaskStrategy: in.MultitaskStrategy}
	var run store.Run
	if threadID == "" { // a stateless run: on a new thread of its own, made with the run
		run, err = s.store.CreateRunOnNewThread(ctx(c), owner(c), store.NewThread{ID: uuid.Must(uuid.NewV7()).String()}, nr)
	} else if err = s.ensureThread(c, threadID, in.IfNotExists); err == nil {
		run, err = s.store.CreateRun(ctx(c), owner(c), threadID, nr)
	}
	if err != nil {
		return run, err
	}
	s.pool.nudge()
	c.Response().Header().Set("Content-Location", runPath(run))
	return run, nil
}

// canGoOn refuses a job with neither input nor command on a thread that
// has no checkpoint to go on from: a new one ("" for a stateless run's),
// one that does not exist (which if_not_exists might create), or an empty
// one; and an answer (command.resume) when nothing on the thread waits
// for one, such as a booking answered already. It is checked before any
// thread is created.
func (s *Server) canGoOn(c echo.Context, j job, threadID string) error {
	if j.Command != nil && j.Command.Resume != nil && j.CheckpointID == "" {
		return s.awaitsAnswer(c, threadID)
	}
	if j.Input != nil || j.Command != nil || j.CheckpointID != "" {
		return nil
	}
	if graph.CheckID("thread id", threadID) == nil {
		head, err := s.head(ctx(c), threadID)
		if err != nil || head != nil {
			return err
		}
	}
	return invalid([]wire.FieldError{{Field: "input", Message: "is required: the thread has no state to go on from"}})
}

// awaitsAnswer refuses with CONFLICT when the user's thread has no
// pending interrupt at its newest checkpoint: the run would only fail.
// Another user's thread, or a missing one, is not found.
func (s *Server) awaitsAnswer(c echo.Context, threadID string) error {
	var head *graph.Checkpoint
	if threadID != "" {
		if _, err := s.store.ThreadByID(ctx(c), owner(c), threadID); err != nil {
			return err
		}
		var err error
		if head, err = s.head(ctx(c), threadID); err != nil {
			return err
		}
	}
	if head == nil || len(head.Interrupts) == 0 {
		return errcode.New(errcode.Conflict, "nothing on the thread is waiting for an answer: it was answered already, or never asked")
	}
	return nil
}

// ensureThread checks that the thread is the user's, and creates it for
// the user when it is missing and ifNotExists is create.
func (s *Server) ensureThread(c echo.Context, threadID, ifNotExists string) error {
	_, err := s.store.ThreadByID(ctx(c), owner(c), threadID)
	if errcode.Of(err) != errcode.NotFound || ifNotExists != "create" {
		return err
	}
	if uuid.Validate(threadID) != nil {
		return errcode.New(errcode.BadRequest, "a thread id is a UUID")
	}
	_, err = s.store.CreateThread(ctx(c), owner(c), store.NewThread{ID: threadID})
	if errcode.Of(err) == errcode.Conflict {
		return nil // created meanwhile
	}
	return err
}

// runPath is where a run is found.
func runPath(r store.Run) string { return "/threads/" + r.ThreadID + "/runs/" + r.ID }

// jobOf is what a run body asks the planner to do: a new turn with the
// input's messages, or a command, or neither: then the thread goes on with
// the nodes its checkpoint left due, as after a breakpoint. The input is
// checked as chat input.
func (s *Server) jobOf(in wire.RunCreate) (job, error) {
	var j job
	base, err := checkpointBase(in.CheckpointID, in.Checkpoint)
	if err != nil {
		return j, err
	}
	j.CheckpointID = base
	if in.Config != nil {
		j.StepLimit = in.Config.RecursionLimit
	}
	if err := s.runOptions(in, &j); err != nil {
		return j, err
	}
	switch {
	case in.Input != nil && in.Command != nil:
		return j, invalid([]wire.FieldError{{Field: "command", Message: "cannot be sent with input"}})
	case in.Input != nil:
		u, err := inputUpdate(*in.Input)
		j.Input = &u
		return j, err
	case in.Command != nil:
		j.Command, err = s.commandOf(*in.Command)
		return j, err
	}
	return j, nil // no input: the thread goes on from where it stopped
}

// runOptions reads the members of a run body that say how it runs into j:
// the stream modes it stores, its durability and its breakpoints. Members
// that would make it do what this server does not do (a context, webhooks,
// feedback, a delayed start) are refused, each with why, rather than
// ignored.
func (s *Server) runOptions(in wire.RunCreate, j *job) error {
	modes, err := modesOf(in.StreamMode, "stream_mode")
	if err != nil {
		return err
	}
	j.Debug, j.Events = modes[wire.ModeDebug], modes[wire.ModeEvents]
	var problems []wire.FieldError
	if j.Durability, err = durabilityOf(in); err != nil {
		problems = append(problems, wire.FieldError{Field: "checkpoint_during", Message: err.Error()})
	}
	for _, b := range []struct {
		field string
		raw   json.RawMessage
		dst   *[]string
	}{{"interrupt_before", in.InterruptBefore, &j.InterruptBefore}, {"interrupt_after", in.InterruptAfter, &j.InterruptAfter}} {
		if *b.dst, err = s.breakpoints(b.raw); err != nil {
			problems = append(problems, wire.FieldError{Field: b.field, Message: err.Error()})
		}
	}
	if problems = append(problems, unsupported(in)...); len(problems) > 0 {
		return invalid(problems)
	}
	return nil
}

// durabilityOf reads durability, or checkpoint_during, its older form:
// true is async, false exit.
func durabilityOf(in wire.RunCreate) (graph.Durability, error) {
	d := graph.Durability(in.Durability)
	if in.CheckpointDuring == nil {
		return d, nil
	}
	during := graph.DurabilityExit
	if *in.CheckpointDuring {
		during = graph.DurabilityAsync
	}
	if d != "" && d != during {
		return d, errors.New("contradicts durability; send durability alone")
	}
	return during, nil
}

// unsupported lists the members of a run body sent with a value this
// server does not act on, each with why.
func unsupported(in wire.RunCreate) []wire.FieldError {
	var out []wire.FieldError
	for _, u := range []struct {
		sent           bool
		field, because string
	}{
		{!emptyJSON(in.Context), "context", "the trip planner takes no run context"},
		{in.Webhook != "", "webhook", "webhooks are not supported: join or stream the run instead"},
		{len(in.FeedbackKeys) > 0, "feedback_keys", "run feedback is not supported"},
		{in.AfterSeconds != 0, "after_seconds", "delayed runs are not supported: a run is queued at once"},
	} {
		if u.sent {
			out = append(out, wire.FieldError{Field: u.field, Message: u.because})
		}
	}
	return out
}

// breakpoints reads interrupt_before or interrupt_after: "*" (every node)
// or a list of the graph's nodes.
func (s *Server) breakpoints(raw json.RawMessage) ([]string, error) {
	if emptyJSON(raw) {
		return nil, nil
	}
	graphNodes := s.planner.Shape().Nodes
	var all string
	if json.Unmarshal(raw, &all) == nil && all == "*" {
		return slices.Clone(graphNodes), nil
	}
	var list []string
	if json.Unmarshal(raw, &list) != nil {
		return nil, errors.New(`must be "*" or a list of node names`)
	}
	for _, n := range list {
		if !slices.Contains(graphNodes, n) {
			return nil, fmt.Errorf("%q is not a node of the graph; its nodes are %s", n, strings.Join(graphNodes, ", "))
		}
	}
	return list, nil
}

// emptyJSON reports whether a member was left out or sent empty: null, an
// empty object, list or string.
func emptyJSON(raw json.RawMessage) bool {
	switch string(bytes.TrimSpace(raw)) {
	case "", "null", "{}", "[]", `""`:
		return true
	}
	return false
}

// inputUpdate is a run's input as a planner update: the person's messages,
// with ids, cleaned by the chat input checks, and their booking request.
func inputUpdate(in wire.RunInput) (nodes.Update, error) {
	if len(in.Messages) == 0 && in.BookingRequest == nil {
		return nodes.Update{}, invalid([]wire.FieldError{{Field: "input.messages", Message: "is required unless a booking request is sent"}})
	}
	msgs := make([]chatinput.Message, len(in.Messages))
	for i, m := range in.Messages {
		if m.Role == "" && m.Type == "" {
			return nodes.Update{}, invalid([]wire.FieldError{{Field: fmt.Sprintf("input.messages[%d].type", i), Message: "must be human or user"}})
		}
		msgs[i] = chatinput.Message{Role: chatinput.RoleUser, Content: m.Content}
	}
	var clean []chatinput.Message
	if len(msgs) > 0 { // a booking request alone has no conversation to check
		var err error
		if clean, err = chatinput.Clean(msgs); err != nil {
			return nodes.Update{}, err
		}
	}
	if len(clean) != len(msgs) {
		return nodes.Update{}, invalid([]wire.FieldError{{Field: "input.messages", Message: "a message has no content"}})
	}
	u := nodes.Update{Timestamp: time.Now().UnixMilli(), BookingRequest: wire.ToBookingRequest(in.BookingRequest)}
	for i, m := range clean {
		id := in.Messages[i].ID
		if id == "" {
			id = uuid.Must(uuid.NewV7()).String()
		}
		u.Messages = append(u.Messages, nodes.Message{ID: id, Type: nodes.Human, Content: m.Content})
	}
	return u, nil
}

// commandOf checks a command: its update as a state update, its goto as a
// node of the graph.
func (s *Server) commandOf(in wire.RunCommand) (*jobCommand, error) {
	cmd := &jobCommand{Goto: in.Goto}
	if resume := object(in.Resume); len(resume) > 0 {
		cmd.Resume = resume
	}
	if len(object(in.Update)) > 0 {
		u, err := decodeUpdate(in.Update)
		if err != nil {
			return nil, renamed(err, "values.", "command.update.")
		}
		cmd.Update = &u
	}
	if in.Goto != "" && in.Goto != graph.END && !slices.Contains(s.planner.Shape().Nodes, in.Goto) {
		return nil, invalid([]wire.FieldError{{Field: "command.goto", Message: fmt.Sprintf("%q is not a node of the graph", in.Goto)}})
	}
	if cmd.Resume == nil && cmd.Update == nil && cmd.Goto == "" {
		return nil, invalid([]wire.FieldError{{Field: "command", Message: "needs resume, update or goto"}})
	}
	return cmd, nil
}

// renamed replaces a field name prefix in a 422.
func renamed(err error, from, to string) error {
	se, ok := err.(*statusError)
	if !ok {
		return err
	}
	for i, f := range se.fields {
		if len(f.Field) >= len(from) && f.Field[:len(from)] == from {
			se.fields[i].Field = to + f.Field[len(from):]
		}
	}
	return se
}

// awaitRun follows a run's events, from any process, until it ends, and
// returns it as it ended.
func (s *Server) awaitRun(ctx context.Context, ownerID, runID string) (store.Run, error) {
	for _, err := range s.store.FollowRunEvents(ctx, ownerID, runID, 0) {
		if err != nil {
			return store.Run{}, err
		}
	}
	return s.store.RunByID(ctx, ownerID, runID)
}

// answerFinal waits for a run's end and answers with its thread's values,
// or with the run's error as LangGraph does. With cancel, a client that
// goes away first cancels the run.
func (s *Server) answerFinal(c echo.Context, run store.Run, cancel bool) error {
	v, err := s.final(c, run, cancel)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// final waits for a run's end and returns what answerFinal answers; when
// Shutdown comes first, errShuttingDown.
func (s *Server) final(c echo.Context, run store.Run, cancel bool) (any, error) {
	waitCtx, stop := s.untilShutdown(ctx(c))
	defer stop()
	done, err := s.awaitRun(waitCtx, owner(c), run.ID)
	if err != nil {
		err = shutdownCause(waitCtx, err)
		if cancel && ctx(c).Err() != nil {
			s.cancelLeft(owner(c), run.ID)
		}
		return nil, err
	}
	if done.Status == store.RunError {
		return wire.RunError{Error: wire.StreamError{Error: string(errcode.Internal), Message: done.Error}}, nil
	}
	head, err := s.head(ctx(c), done.ThreadID)
	if err != nil || head == nil {
		return json.RawMessage("{}"), err
	}
	return head.State, nil
}

// cancelLeft cancels a run whose client went away.
func (s *Server) cancelLeft(ownerID, runID string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.store.CancelRun(ctx, ownerID, runID); err != nil && errcode.Of(err) != errcode.Conflict {
		s.log.Error("cancelling a run whose client went away", "run_id", runID, "err", err)
	}
}

// statelessWait runs on a new thread of its own and answers as waitRun
// does; the thread is deleted once the run has ended unless on_completion
// is keep.
func (s *Server) statelessWait(c echo.Context) error {
	in, err := bindRun(c)
	if err != nil {
		return err
	}
	run, err := s.startRun(c, in)
	if err != nil {
		return err
	}
	v, err := s.final(c, run, in.OnDisconnect == "cancel")
	s.complete(owner(c), run, in.OnCompletion)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

// statelessStream runs on a new thread of its own and streams as
// streamRun does; the thread is deleted once the run has ended unless
// on_completion is keep.
func (s *Server) statelessStream(c echo.Context) error {
	in, err := bindRun(c)
	if err != nil {
		return err
	}
	run, err := s.startRun(c, in)
	if err != nil {
		return err
	}
	defer s.complete(owner(c), run, in.OnCompletion)
	return s.streamStarted(c, run, in)
}

// complete deletes a stateless run's thread if the run has ended and
// onCompletion is not keep. A run still going (its client left without
// cancelling it) keeps its thread.
func (s *Server) complete(ownerID string, run store.Run, onCompletion string) {
	if onCompletion == "keep" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	now, err := s.store.RunByID(ctx, ownerID, run.ID)
	if err == nil && now.Final() {
		err = s.store.DeleteThread(ctx, ownerID, run.ThreadID)
	}
	if err != nil {
		s.log.Error("deleting a stateless run's thread", "run_id", run.ID, "err", err)
	}
}
