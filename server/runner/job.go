package runner

import (
	"encoding/json"
	"fmt"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
	"github.com/tripgraph/tripgraph/server/internal/wire"
)

// Job is what a run executes, decided and checked when the run is created
// and stored as the run's input (in this JSON form, which is the queue's
// own), so that a worker in any process can run it.
type Job struct {
	Input        *nodes.Update `json:"input,omitempty"`   // a new turn: the person's message
	Command      *Command      `json:"command,omitempty"` // or an answer to an interrupt
	CheckpointID string        `json:"checkpoint_id,omitempty"`
	StepLimit    int           `json:"step_limit,omitempty"`
	// StreamModes are the stream modes the run was created with: what a
	// client that joins its stream naming none gets, as in LangGraph, and
	// the modes whose parts repeat the state or a message's text at each
	// step that the run stores (see wire.Modes).
	StreamModes []string `json:"stream_modes,omitempty"`
	// Durability is when the run's checkpoints are written: sync when empty.
	Durability graph.Durability `json:"durability,omitempty"`
	// Breakpoints: the nodes the run stops before or after.
	InterruptBefore []string `json:"interrupt_before,omitempty"`
	InterruptAfter  []string `json:"interrupt_after,omitempty"`
	// DeleteThread: the run's thread is deleted once the run ends (a
	// cron's run on a thread of its own).
	DeleteThread bool `json:"delete_thread,omitempty"`
	// TraceParent is the W3C trace context of the request that queued the
	// run, when it was traced: the worker's span, in whichever process,
	// continues that trace and links to it.
	TraceParent string `json:"traceparent,omitempty"`
}

// Command is a graph.Command as a Job stores it.
type Command struct {
	Resume json.RawMessage `json:"resume,omitempty"`
	Update *nodes.Update   `json:"update,omitempty"`
	Goto   string          `json:"goto,omitempty"`
}

// DecodeJob reads a run's stored input.
func DecodeJob(raw json.RawMessage) (Job, error) {
	var j Job
	if len(raw) == 0 {
		return j, nil
	}
	if err := json.Unmarshal(raw, &j); err != nil {
		return j, fmt.Errorf("decoding a run's job: %w", err)
	}
	return j, nil
}

// config is the run configuration of j on a thread. A recovered run (one
// whose thread's newest checkpoint it wrote itself, before its worker
// stopped) goes on from that checkpoint instead of starting again, and
// stops again where it had stopped (graph.RunConfig.Recover).
func (j Job) config(threadID, runID string, recovered bool) graph.RunConfig[nodes.Update] {
	cfg := graph.RunConfig[nodes.Update]{ThreadID: threadID, RunID: runID, StepLimit: j.StepLimit,
		CheckpointID: j.CheckpointID, Durability: j.Durability, InterruptBefore: j.InterruptBefore, InterruptAfter: j.InterruptAfter}
	switch {
	case recovered:
		cfg.Recover, cfg.CheckpointID = true, ""
	case j.Command != nil:
		cmd := &graph.Command[nodes.Update]{Update: j.Command.Update, Goto: j.Command.Goto}
		if len(j.Command.Resume) > 0 {
			cmd.Resume = j.Command.Resume
		}
		cfg.Command = cmd
	case j.Input != nil:
		cfg.Input, cfg.InputDurable = *j.Input, mayWait(*j.Input)
	default:
		cfg.Resume = true
	}
	return cfg
}

// parts is how the run's events become its stored stream parts: those of
// the modes that repeat the state or a message's text only when the run
// was asked for them.
func (j Job) parts() *wire.Parts {
	return &wire.Parts{Graph: nodes.GraphID, Modes: j.StreamModes}
}

// added are the messages the job adds to its thread: its input's, and its
// command's state update's.
func (j Job) added() []nodes.Message {
	var out []nodes.Message
	if j.Input != nil {
		out = append(out, j.Input.Messages...)
	}
	if j.Command != nil && j.Command.Update != nil {
		out = append(out, j.Command.Update.Messages...)
	}
	return out
}

// mayWait reports whether a run's input checkpoints may wait for its
// first node's (graph.RunConfig.InputDurable): one commit fewer before the
// first output. The run's row keeps the input, and a take-over applies it
// again. The run's stream then holds what that node makes until the
// checkpoints are saved, so that they come first in it; a booking request
// goes straight to callTools, whose reply is streamed as it is written,
// so its input is saved at once instead. The planner's other first nodes
// (classify, extraction) make their output only as they end.
func mayWait(in nodes.Update) bool { return in.BookingRequest == nil }
