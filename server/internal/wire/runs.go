package wire

import (
	"encoding/json"
	"time"

	"github.com/tripgraph/tripgraph/store"
)

// RunCreate is the body of the routes that create a run on a thread:
// every member LangGraph's run bodies have that its official clients
// send. A few are refused unless sent empty (see the README).
type RunCreate struct {
	AssistantID       string          `json:"assistant_id" validate:"required,max=200"`
	Input             *RunInput       `json:"input"`
	Command           *RunCommand     `json:"command"`
	Config            *RunConfig      `json:"config"`
	Metadata          json.RawMessage `json:"metadata" validate:"omitempty,object"`
	StreamMode        json.RawMessage `json:"stream_mode"` // a mode or a list of modes
	MultitaskStrategy string          `json:"multitask_strategy" validate:"omitempty,oneof=reject enqueue interrupt rollback"`
	IfNotExists       string          `json:"if_not_exists" validate:"omitempty,oneof=create reject"`
	CheckpointID      string          `json:"checkpoint_id" validate:"omitempty,uuid"`
	Checkpoint        *CheckpointRef  `json:"checkpoint"`
	OnDisconnect      string          `json:"on_disconnect" validate:"omitempty,oneof=cancel continue"`
	OnCompletion      string          `json:"on_completion" validate:"omitempty,oneof=delete keep"` // stateless runs: their thread's fate
	Durability        string          `json:"durability" validate:"omitempty,oneof=sync async exit"`
	CheckpointDuring  *bool           `json:"checkpoint_during"` // the older durability: true is async, false exit
	InterruptBefore   json.RawMessage `json:"interrupt_before"`  // "*" or node names
	InterruptAfter    json.RawMessage `json:"interrupt_after"`   // "*" or node names
	StreamSubgraphs   bool            `json:"stream_subgraphs"`
	StreamResumable   bool            `json:"stream_resumable"`
	AfterSeconds      float64         `json:"after_seconds" validate:"min=0,max=86400"` // a delayed run: it starts this long after it is created
	// RaiseError is the Python client's: whether its wait raises a failed
	// run's error. The answer is the same either way (the error in
	// __error__), so it changes nothing here.
	RaiseError *bool `json:"raise_error"`
	// StrictResume asks that a resume with nothing waiting for it be
	// refused: here it always is (409), so it changes nothing.
	StrictResume *bool `json:"strict_resume"`
	// Refused unless empty: the server has no use for them (see the README).
	Context         json.RawMessage `json:"context"`
	Webhook         string          `json:"webhook"`
	FeedbackKeys    []string        `json:"feedback_keys"`
	LangsmithTracer json.RawMessage `json:"langsmith_tracer"`
}

// RunInput is a run's input: the person's new messages, or a booking
// they asked for directly (say with a Book button), or both. Messages are
// ClientMessages, read by ClientMessages.
type RunInput struct {
	Messages       json.RawMessage `json:"messages"`
	BookingRequest *BookingRequest `json:"bookingRequest"`
}

// Empty reports whether the input says nothing: {} or null, as the
// clients send beside a command.
func (in *RunInput) Empty() bool {
	return in == nil || (emptyJSON(in.Messages) && in.BookingRequest == nil)
}

// BookingRequest asks to book one stay: the planner asks the person to
// confirm it (an interrupt answered with command.resume) without asking
// the model.
type BookingRequest struct {
	ID        string `json:"id" validate:"required,max=100"`
	StartDate string `json:"startDate" validate:"required,datetime=2006-01-02"`
	EndDate   string `json:"endDate" validate:"required,datetime=2006-01-02"`
	Guests    int    `json:"guests" validate:"required,min=1,max=20"`
}

// RunCommand continues a thread that paused: resume answers its interrupt,
// update changes the state first, goto names the next node.
type RunCommand struct {
	Resume json.RawMessage `json:"resume"`
	Update json.RawMessage `json:"update"`
	Goto   string          `json:"goto" validate:"max=100"`
}

// RunConfig is a run's configuration, as LangGraph's clients send it:
// recursion_limit bounds its steps; metadata joins the run's; configurable
// may name the checkpoint to start from. Tags, run_name, run_id,
// max_concurrency and callbacks change nothing here: the run's name and id
// are the server's, and the planner runs one node at a time.
type RunConfig struct {
	RecursionLimit int             `json:"recursion_limit" validate:"omitempty,min=1,max=1000"`
	Configurable   json.RawMessage `json:"configurable" validate:"omitempty,object"`
	Tags           []string        `json:"tags" validate:"max=20"`
	Metadata       json.RawMessage `json:"metadata" validate:"omitempty,object"`
	RunName        string          `json:"run_name" validate:"max=200"`
	RunID          string          `json:"run_id" validate:"omitempty,uuid"`
	MaxConcurrency *int            `json:"max_concurrency" validate:"omitempty,min=1"`
	Callbacks      json.RawMessage `json:"callbacks"`
}

// Run is one execution of the assistant on a thread.
type Run struct {
	RunID             string          `json:"run_id"`
	ThreadID          string          `json:"thread_id"`
	AssistantID       string          `json:"assistant_id"`
	CreatedAt         time.Time       `json:"created_at"`
	UpdatedAt         time.Time       `json:"updated_at"`
	Status            string          `json:"status"`
	Metadata          json.RawMessage `json:"metadata"`
	MultitaskStrategy string          `json:"multitask_strategy"`
	Kwargs            map[string]any  `json:"kwargs"`
}

// runStatus maps a stored run status to LangGraph's (pending, running,
// success, error, timeout, interrupted): a run queued behind another is
// pending, and a cancelled run is interrupted, as is one that paused for a
// person. No run of ours times out.
var runStatus = map[string]string{store.RunQueued: "pending", store.RunPending: "pending",
	store.RunRunning: "running", store.RunSuccess: "success", store.RunError: "error",
	store.RunInterrupted: "interrupted", store.RunCancelled: "interrupted"}

// RunStatus is LangGraph's name for a stored run status.
func RunStatus(stored string) string {
	if s, ok := runStatus[stored]; ok {
		return s
	}
	return stored
}

// StoredStatuses are the stored run statuses LangGraph's status names:
// none for a name that is not one of its statuses. No run of ours times
// out: timeout names itself, which no run has.
func StoredStatuses(name string) []string {
	if name == "timeout" {
		return []string{name}
	}
	var out []string
	for _, stored := range []string{store.RunQueued, store.RunPending, store.RunRunning, store.RunSuccess,
		store.RunError, store.RunInterrupted, store.RunCancelled} {
		if RunStatus(stored) == name {
			out = append(out, stored)
		}
	}
	return out
}

// FromRun is the wire form of a run of assistantID, its status named as
// LangGraph names it (see RunStatus).
func FromRun(r store.Run, assistantID string) Run {
	return Run{RunID: r.ID, ThreadID: r.ThreadID, AssistantID: assistantID, CreatedAt: r.CreatedAt,
		UpdatedAt: r.UpdatedAt, Status: RunStatus(r.Status), Metadata: r.Metadata, MultitaskStrategy: r.MultitaskStrategy,
		Kwargs: map[string]any{}}
}

// RunError is what /wait and /join answer for a run that failed, as
// LangGraph does: the client raises it.
type RunError struct {
	Error StreamError `json:"__error__"`
}
