package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/server/internal/wire"
	"github.com/tripgraph/tripgraph/server/tenant"
	"github.com/tripgraph/tripgraph/store"
	"github.com/tripgraph/tripgraph/telemetry"
)

// Request is a run to queue on one of a tenant's threads.
type Request struct {
	// ThreadID is the thread; "" makes a new thread of its own, with the
	// run, in one statement (a stateless run).
	ThreadID string
	// CreateThread creates the thread when it is missing.
	CreateThread      bool
	Job               Job
	Metadata          json.RawMessage // a JSON object, or none
	MultitaskStrategy string          // what to do with the thread's active run; reject when ""
	// Delay makes a delayed run: it holds the thread at once, and starts
	// once Delay has passed.
	Delay time.Duration
	// AssistantID is the assistant the run is for, as the client named it;
	// GraphID its graph. Both are stamped into the thread's metadata, as
	// LangGraph does, so that clients find a graph's threads.
	AssistantID, GraphID string
}

// ErrNothingToGoOn refuses a run with neither input nor command on a
// thread that has no checkpoint to go on from.
var ErrNothingToGoOn = errcode.New(errcode.BadRequest, "the thread has no state to go on from: send an input")

// Enqueue checks that req can run and queues it for a worker of any
// process. A run with nothing to do is refused (ErrNothingToGoOn), an
// answer (a Command with Resume) when nothing on the thread waits for one,
// and messages that would inject instructions into the conversation (see
// CheckAdded), before any thread is created.
func (r *Runner) Enqueue(ctx context.Context, t tenant.Tenant, req Request) (store.Run, error) {
	if err := canGoOn(ctx, t, &req.Job, req.ThreadID); err != nil {
		return store.Run{}, err
	}
	if err := CheckAdded(ctx, t, req.ThreadID, req.Job.CheckpointID, req.Job.added()); err != nil {
		return store.Run{}, err
	}
	req.Job.TraceParent = telemetry.TraceParent(ctx)
	raw, err := json.Marshal(req.Job)
	if err != nil {
		return store.Run{}, fmt.Errorf("encoding a run's job: %w", err)
	}
	if req.Metadata, err = withTraceID(ctx, req.Metadata); err != nil {
		return store.Run{}, err
	}
	nr := store.NewRun{Input: raw, Metadata: req.Metadata, MultitaskStrategy: req.MultitaskStrategy,
		Delay: req.Delay, AssistantID: req.AssistantID}
	if req.GraphID != "" {
		nr.ThreadMetadata, _ = json.Marshal(map[string]string{"graph_id": req.GraphID, "assistant_id": req.AssistantID})
	}
	return r.createFor(ctx, t, req, nr)
}

// createFor creates the run nr of req for t, claimed by an idle worker of
// this process when there is one and nothing waits in the queue, and hands
// it over; the reserved worker is answered whatever happens, a panic
// included, so that it never waits for nothing.
func (r *Runner) createFor(ctx context.Context, t tenant.Tenant, req Request, nr store.NewRun) (run store.Run, err error) {
	w, claim := r.claimFor()
	nr.ClaimFor = claim
	err = errors.New("the run's creation did not end") // what the worker is told if create panics
	defer func() { r.handOver(w, t, run, err) }()
	return create(ctx, t, req, nr)
}

// create creates the run nr of req for t: on a new thread of its own, or
// on req's thread, which it creates first when the request says so.
func create(ctx context.Context, t tenant.Tenant, req Request, nr store.NewRun) (store.Run, error) {
	if req.ThreadID == "" {
		return t.CreateRunOnNewThread(ctx, store.NewThread{ID: uuid.Must(uuid.NewV7()).String()}, nr)
	}
	run, err := t.CreateRun(ctx, req.ThreadID, nr)
	if errcode.Of(err) == errcode.NotFound && req.CreateThread {
		if err = createThread(ctx, t, req.ThreadID); err == nil {
			run, err = t.CreateRun(ctx, req.ThreadID, nr)
		}
	}
	return run, err
}

// canGoOn refuses, before anything is stored, a run that could only fail:
// one with neither input nor command on a thread that has no checkpoint to
// go on from (a new one, one that does not exist, which CreateThread might
// create, or an empty one); a command that is not an answer on such a
// thread; a start from a checkpoint the thread does not have; and an answer
// when nothing on the thread waits for one, such as a booking answered
// already. An answer in the human-in-the-loop shape is read as the
// planner's own here (wire.ResumeValue), against what the thread waits on,
// or, from a checkpoint (as useStream resumes, naming the checkpoint its
// branch is at), against what that checkpoint waits on.
func canGoOn(ctx context.Context, t tenant.Tenant, j *Job, threadID string) error {
	if j.CheckpointID != "" {
		cp, err := hasCheckpoint(ctx, t, threadID, j.CheckpointID)
		if err != nil || j.Command == nil || j.Command.Resume == nil {
			return err
		}
		j.Command.Resume, err = wire.ResumeValue(j.Command.Resume, cp.Interrupts)
		return err
	}
	if j.Command != nil && j.Command.Resume != nil {
		head, err := awaitsAnswer(ctx, t, threadID)
		if err != nil {
			return err
		}
		j.Command.Resume, err = wire.ResumeValue(j.Command.Resume, head.Interrupts)
		return err
	}
	if j.Input != nil {
		return nil
	}
	if graph.CheckID("thread id", threadID) == nil {
		head, err := Head(ctx, t, threadID)
		if err != nil || head != nil {
			return err
		}
	}
	if j.Command != nil {
		return ErrCommandWithoutState
	}
	return ErrNothingToGoOn
}

// ErrCommandWithoutState refuses a command on a thread with no checkpoint:
// a command continues a thread; an input starts one.
var ErrCommandWithoutState = errcode.New(errcode.BadRequest, "the thread has no state for a command to continue (its goto or update): send an input to start it")

// hasCheckpoint returns the checkpoint a run starts from, or refuses a
// start from a checkpoint the thread does not have (NOT_FOUND), before the
// run is queued.
func hasCheckpoint(ctx context.Context, t tenant.Tenant, threadID, checkpointID string) (graph.Checkpoint, error) {
	if threadID == "" || graph.CheckID("checkpoint id", checkpointID) != nil {
		return graph.Checkpoint{}, errcode.New(errcode.NotFound, "no checkpoint %s on the thread", checkpointID)
	}
	cp, err := t.Planner.Checkpoint(ctx, threadID, checkpointID)
	if errors.Is(err, graph.ErrNotFound) || errors.Is(err, graph.ErrInvalidID) {
		return cp, errcode.New(errcode.NotFound, "no checkpoint %s on thread %s", checkpointID, threadID)
	}
	return cp, err
}

// awaitsAnswer returns the thread's newest checkpoint, or refuses with
// CONFLICT when it has no pending interrupt: the run would only fail.
// Another user's thread, or a missing one, is not found.
func awaitsAnswer(ctx context.Context, t tenant.Tenant, threadID string) (*graph.Checkpoint, error) {
	var head *graph.Checkpoint
	if threadID != "" {
		if _, err := t.Thread(ctx, threadID); err != nil {
			return nil, err
		}
		var err error
		if head, err = Head(ctx, t, threadID); err != nil {
			return nil, err
		}
	}
	if head == nil || len(head.Interrupts) == 0 {
		return nil, errcode.New(errcode.Conflict, "nothing on the thread is waiting for an answer: it was answered already, or never asked")
	}
	return head, nil
}

// createThread creates a thread of the tenant's with the id a client
// chose for it (a run's if_not_exists "create"); one created meanwhile
// will do.
func createThread(ctx context.Context, t tenant.Tenant, threadID string) error {
	if uuid.Validate(threadID) != nil {
		return errcode.New(errcode.BadRequest, "a thread id is a UUID")
	}
	_, err := t.CreateThread(ctx, store.NewThread{ID: threadID})
	if errcode.Of(err) == errcode.Conflict {
		return nil // created meanwhile
	}
	return err
}

// Head is a thread's newest checkpoint, nil when it has none.
func Head(ctx context.Context, t tenant.Tenant, threadID string) (*graph.Checkpoint, error) {
	cp, err := t.Planner.Checkpoint(ctx, threadID, "")
	if errors.Is(err, graph.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &cp, nil
}

// Ended is a run as it ended, with what its error event said when it
// failed.
type Ended struct {
	store.Run
	Failure *wire.StreamError
}

// Await follows a run's events, from any process, until it ends, and
// returns it as it ended.
func Await(ctx context.Context, t tenant.Tenant, runID string) (Ended, error) {
	var failure *wire.StreamError
	for e, err := range t.FollowRunEvents(ctx, runID, 0) {
		if err != nil {
			return Ended{}, err
		}
		if e.Event == wire.EventError {
			var f wire.StreamError
			if json.Unmarshal(e.Data, &f) == nil {
				failure = &f
			}
		}
	}
	run, err := t.Run(ctx, runID)
	return Ended{Run: run, Failure: failure}, err
}

// RollBack discards a run that has ended, as LangGraph's rollback does:
// the run, its events and the checkpoints it wrote are deleted, and the
// thread's state is again what it was before the run (none, if the run
// started the thread). A run discarded already is not an error.
func RollBack(ctx context.Context, t tenant.Tenant, runID string) error {
	err := t.DiscardRun(ctx, runID)
	if err != nil && errcode.Of(err) != errcode.NotFound {
		return fmt.Errorf("rolling back run %s: %w", runID, err)
	}
	return nil
}

// TraceIDKey is the member of a run's metadata that names the trace its
// work is in, when the request that created it was traced: what an
// operator looks the run up by in the trace back end.
const TraceIDKey = "trace_id"

// withTraceID adds ctx's trace id to a run's metadata (a JSON object, or
// none) under TraceIDKey, unless the client set that member itself.
func withTraceID(ctx context.Context, metadata json.RawMessage) (json.RawMessage, error) {
	id := telemetry.TraceID(ctx)
	if id == "" {
		return metadata, nil
	}
	m := map[string]json.RawMessage{}
	if len(metadata) > 0 && string(metadata) != "null" {
		if err := json.Unmarshal(metadata, &m); err != nil {
			return nil, fmt.Errorf("adding the trace id to a run's metadata: %w", err)
		}
	}
	if _, set := m[TraceIDKey]; set {
		return metadata, nil
	}
	m[TraceIDKey], _ = json.Marshal(id)
	return json.Marshal(m)
}
