package api

// Run bodies: what a client sends to create a run, checked and turned into
// the runner's Job.

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/httpx"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/server/runner"
)

// bindRun reads and checks a run body.
func bindRun(c echo.Context) (wire.RunCreate, error) {
	var in wire.RunCreate
	if err := httpx.Bind(c, &in); err != nil {
		return in, err
	}
	if in.AssistantID == "" {
		return in, httpx.InvalidField("assistant_id", "is required")
	}
	_, err := modesOf(in.StreamMode, "stream_mode")
	return in, err
}

// jobOf is what a run body asks the planner to do: a new turn with the
// input's messages, or a command, or neither: then the thread goes on with
// the nodes its checkpoint left due, as after a breakpoint. The input is
// checked as chat input. An empty input ({}, as clients send beside a
// command) is none.
func (s *API) jobOf(in wire.RunCreate) (runner.Job, error) {
	var j runner.Job
	base, err := checkpointBase(in.CheckpointID, in.Checkpoint)
	if err != nil {
		return j, err
	}
	if base, err = configuredCheckpoint(base, in.Config); err != nil {
		return j, err
	}
	j.CheckpointID = base
	if in.Config != nil {
		j.StepLimit = in.Config.RecursionLimit
	}
	if err := s.runOptions(in, &j); err != nil {
		return j, err
	}
	input := in.Input
	if input.Empty() {
		input = nil
	}
	switch {
	case input != nil && in.Command != nil:
		return j, httpx.InvalidField("command", "cannot be sent with input")
	case input != nil:
		u, err := inputUpdate(*input)
		j.Input = &u
		return j, err
	case in.Command != nil:
		j.Command, err = s.commandOf(*in.Command)
		return j, err
	}
	return j, nil // no input: the thread goes on from where it stopped
}

// configuredCheckpoint is the checkpoint a run starts from: the one the
// body names, or else config.configurable.checkpoint_id, as LangGraph's
// clients may send it; the two must agree.
func configuredCheckpoint(base string, cfg *wire.RunConfig) (string, error) {
	if cfg == nil || httpx.EmptyJSON(cfg.Configurable) {
		return base, nil
	}
	var conf struct {
		CheckpointID string `json:"checkpoint_id"`
	}
	if json.Unmarshal(cfg.Configurable, &conf) != nil || conf.CheckpointID == "" {
		return base, nil
	}
	switch {
	case uuid.Validate(conf.CheckpointID) != nil:
		return "", httpx.InvalidField("config.configurable.checkpoint_id", "must be a UUID")
	case base != "" && base != conf.CheckpointID:
		return "", httpx.InvalidField("config.configurable.checkpoint_id", "names another checkpoint than checkpoint_id")
	}
	return conf.CheckpointID, nil
}

// runMetadata is the run's metadata: the body's, with config.metadata's
// members joined in (the body's win).
func runMetadata(in wire.RunCreate) (json.RawMessage, error) {
	meta := httpx.Object(in.Metadata)
	if in.Config == nil || httpx.EmptyJSON(in.Config.Metadata) {
		return meta, nil
	}
	merged := map[string]json.RawMessage{}
	for _, src := range []json.RawMessage{in.Config.Metadata, meta} {
		if len(src) > 0 && json.Unmarshal(src, &merged) != nil {
			return nil, httpx.InvalidField("metadata", "must be a JSON object")
		}
	}
	return json.Marshal(merged)
}

// runOptions reads the members of a run body that say how it runs into j:
// the stream modes it stores, its durability, its breakpoints and its
// delay. Members that would make it do what this server does not do (a
// context, webhooks, feedback) are refused, each with why, rather than
// ignored.
func (s *API) runOptions(in wire.RunCreate, j *runner.Job) error {
	_, err := modesOf(in.StreamMode, "stream_mode")
	if err != nil {
		return err
	}
	j.StreamModes = modeList(in.StreamMode)
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
		return httpx.Invalid(problems...)
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
		{!httpx.EmptyJSON(in.Context), "context", "the trip planner takes no run context"},
		{in.Webhook != "", "webhook", "webhooks are not supported: join or stream the run instead"},
		{len(in.FeedbackKeys) > 0, "feedback_keys", "run feedback is not supported"},
		{in.Config != nil && !httpx.EmptyJSON(in.Config.Callbacks), "config.callbacks", "callbacks run in the client, not here"},
		{!httpx.EmptyJSON(in.LangsmithTracer), "langsmith_tracer", "runs are not traced to LangSmith here"},
	} {
		if u.sent {
			out = append(out, wire.FieldError{Field: u.field, Message: u.because})
		}
	}
	return out
}

// breakpoints reads interrupt_before or interrupt_after: "*" (every node)
// or a list of the graph's nodes.
func (s *API) breakpoints(raw json.RawMessage) ([]string, error) {
	if httpx.EmptyJSON(raw) {
		return nil, nil
	}
	graphNodes := s.tenants.Planner.Shape().Nodes
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

// inputUpdate is a run's input as a planner update: the person's messages,
// with ids, cleaned by the chat input checks, and their booking request.
func inputUpdate(in wire.RunInput) (nodes.Update, error) {
	list, err := wire.ClientMessages(in.Messages, "input.messages")
	if err != nil {
		return nodes.Update{}, invalid(err)
	}
	if list == nil && !httpx.EmptyJSON(in.Messages) {
		return nodes.Update{}, httpx.InvalidField("input.messages", "must be a list of messages")
	}
	if len(list) == 0 && in.BookingRequest == nil {
		return nodes.Update{}, httpx.InvalidField("input.messages", "is required unless a booking request is sent")
	}
	msgs := make([]nodes.Message, len(list))
	for i, m := range list {
		if m.Kind() != nodes.Human {
			return nodes.Update{}, httpx.InvalidField(fmt.Sprintf("input.messages[%d].type", i), "must be human or user: a run's input is the person's")
		}
		msgs[i] = nodes.Message{ID: m.ID, Type: nodes.Human, Content: string(m.Content)}
		if len(m.ID) > 100 {
			return nodes.Update{}, httpx.InvalidField(fmt.Sprintf("input.messages[%d].id", i), "must be at most 100 characters")
		}
	}
	if len(msgs) > 20 {
		return nodes.Update{}, httpx.InvalidField("input.messages", "must be at most 20")
	}
	u, err := runner.Turn(msgs, wire.ToBookingRequest(in.BookingRequest))
	if errors.Is(err, runner.ErrEmptyMessage) {
		return u, httpx.InvalidField("input.messages", "a message has no content")
	}
	return u, err
}

// invalid is a 422 for a value a client sent that wire refused; any other
// error as it is.
func invalid(err error) error {
	var ve *wire.ValueError
	if errors.As(err, &ve) {
		return httpx.InvalidField(ve.Field, ve.Message)
	}
	return err
}

// commandOf checks a command: its update as a state update, its goto as a
// node of the graph.
func (s *API) commandOf(in wire.RunCommand) (*runner.Command, error) {
	cmd := &runner.Command{Goto: in.Goto}
	if resume := httpx.Object(in.Resume); len(resume) > 0 {
		cmd.Resume = resume
	}
	if len(httpx.Object(in.Update)) > 0 {
		u, err := decodeUpdate(in.Update, nil) // each message checked alone: the state it adds to is the run's
		if err != nil {
			return nil, httpx.Renamed(err, "values.", "command.update.")
		}
		cmd.Update = &u
	}
	if in.Goto != "" && in.Goto != graph.END && !slices.Contains(s.tenants.Planner.Shape().Nodes, in.Goto) {
		return nil, httpx.InvalidField("command.goto", fmt.Sprintf("%q is not a node of the graph", in.Goto))
	}
	if cmd.Resume == nil && cmd.Update == nil && cmd.Goto == "" {
		return nil, httpx.InvalidField("command", "needs resume, update or goto")
	}
	return cmd, nil
}
