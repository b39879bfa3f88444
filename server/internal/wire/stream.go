package wire

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/nodes"
)

// Stream modes, as clients ask for them in stream_mode. A run's events are
// stored under the SSE event name of their mode: "messages" for
// ModeMessagesTuple.
const (
	ModeValues        = "values"
	ModeUpdates       = "updates"
	ModeCustom        = "custom"
	ModeMessagesTuple = "messages-tuple"
	ModeEvents        = "events"
	ModeDebug         = "debug"
)

// SSE event names that belong to no stream mode.
const (
	EventMetadata = "metadata"
	EventError    = "error"
	EventEnd      = "end"
	EventMessages = "messages"
)

// EventOfMode is the SSE event name a stream mode's parts go out under.
func EventOfMode(mode string) string {
	if mode == ModeMessagesTuple {
		return EventMessages
	}
	return mode
}

// StreamPart is one event of a run's stream: its SSE event name and data.
type StreamPart struct {
	Event string
	Data  json.RawMessage
}

// StreamError is the data of an error event.
type StreamError struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// RunMetadata is the data of a stream's first event.
type RunMetadata struct {
	RunID    string `json:"run_id"`
	ThreadID string `json:"thread_id"`
}

// UIMessage is a UI component as LangGraph's generative UI streams it in
// custom events.
type UIMessage struct {
	Type     string          `json:"type"` // "ui"
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Props    json.RawMessage `json:"props"`
	Metadata map[string]any  `json:"metadata"`
}

// MessageChunk is a piece of a streamed AI message in messages-tuple mode.
type MessageChunk struct {
	Type    string `json:"type"` // "AIMessageChunk"
	ID      string `json:"id"`
	Content string `json:"content"`
}

// messageMeta is the second member of a messages-tuple part.
type messageMeta struct {
	Node     string `json:"langgraph_node"`
	Step     int    `json:"langgraph_step"`
	RunID    string `json:"run_id"`
	ThreadID string `json:"thread_id"`
}

// interruptKey is where updates mode reports a pause, as LangGraph does.
const interruptKey = "__interrupt__"

// StreamParts converts one planner event into the stream parts it makes in
// each mode: values after each saved checkpoint, a node's update, custom
// events (UI components as UIMessage), streamed tokens as messages-tuple
// parts, and a pause as an update under "__interrupt__". Other events make
// none.
func StreamParts(ev graph.Event[nodes.State, nodes.Update]) ([]StreamPart, error) {
	var v any
	mode := ""
	switch ev.Kind {
	case graph.CheckpointSaved:
		if ev.Checkpoint == nil {
			return nil, nil
		}
		return []StreamPart{{Event: ModeValues, Data: ev.Checkpoint.State}}, nil
	case graph.NodeFinished:
		mode, v = ModeUpdates, map[string]nodes.Update{ev.Node: ev.Update}
	case graph.Custom:
		mode, v = ModeCustom, customData(ev)
	case graph.Token:
		mode = EventMessages
		v = []any{MessageChunk{Type: "AIMessageChunk", ID: ev.MessageID, Content: ev.Token},
			messageMeta{Node: ev.Node, Step: ev.Step, RunID: ev.RunID, ThreadID: ev.ThreadID}}
	case graph.Interrupted:
		if ev.Interrupt == nil {
			return nil, nil
		}
		mode = ModeUpdates
		v = map[string][]Interrupt{interruptKey: {{ID: ev.Interrupt.ID, Value: ev.Interrupt.Payload}}}
	default:
		return nil, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding a %s event of run %s: %w", ev.Kind, ev.RunID, err)
	}
	return []StreamPart{{Event: mode, Data: data}}, nil
}

// customData is what a custom event carries: a UI component as LangGraph's
// UI message, anything else as the node emitted it.
func customData(ev graph.Event[nodes.State, nodes.Update]) any {
	comp, ok := ev.Payload.(nodes.UIComponent)
	if !ok {
		return ev.Payload
	}
	return UIMessage{Type: "ui", ID: comp.ID, Name: comp.Name, Props: comp.Props,
		Metadata: map[string]any{"message_id": comp.MessageID, "run_id": ev.RunID}}
}

// Parts makes the stored stream parts of a run's events. Every run stores
// the parts of values, updates, custom and messages-tuple (StreamParts);
// those of debug and events, which repeat the state at each step, only
// when the run was asked for them. Each part is stored once, under its
// mode's SSE event name, and a stream sends the ones of the modes its
// client asks for.
type Parts struct {
	Graph  string           // the graph's name: the whole run's name in events mode
	Debug  bool             // make debug parts (DebugFrame)
	Events bool             // make events parts (RunnableEvent)
	Now    func() time.Time // the time of task frames; time.Now when nil
}

// Of converts one event into its parts, in the order: StreamParts', then
// debug, then events.
func (p Parts) Of(ev graph.Event[nodes.State, nodes.Update]) ([]StreamPart, error) {
	parts, err := StreamParts(ev)
	if err != nil {
		return nil, err
	}
	var frames []any
	if p.Debug {
		if f := p.debugFrame(ev); f != nil {
			frames = append(frames, f)
		}
	}
	if p.Events {
		for _, e := range p.runnableEvents(ev) {
			frames = append(frames, e)
		}
	}
	for _, f := range frames {
		mode := ModeEvents
		if _, ok := f.(*DebugFrame); ok {
			mode = ModeDebug
		}
		data, err := json.Marshal(f)
		if err != nil {
			return nil, fmt.Errorf("encoding a %s part of a %s event of run %s: %w", mode, ev.Kind, ev.RunID, err)
		}
		parts = append(parts, StreamPart{Event: mode, Data: data})
	}
	return parts, nil
}

// DebugFrame is the data of a debug part, as LangGraph's debug mode sends
// it: a checkpoint saved (DebugCheckpoint), a task starting (DebugTask), or
// its result (DebugTaskResult). A task is one node's run in one step.
type DebugFrame struct {
	Type      string    `json:"type"` // checkpoint, task or task_result
	Timestamp time.Time `json:"timestamp"`
	Step      int       `json:"step"`
	Payload   any       `json:"payload"`
}

// DebugCheckpoint is the payload of a checkpoint frame.
type DebugCheckpoint struct {
	Config       Config          `json:"config"`
	ParentConfig *Config         `json:"parent_config"`
	Values       json.RawMessage `json:"values"`
	Metadata     map[string]any  `json:"metadata"`
	Next         []string        `json:"next"`
	Tasks        []Task          `json:"tasks"`
}

// DebugTask is the payload of a task frame: the node and the state it is
// given.
type DebugTask struct {
	ID       string   `json:"id"`
	Name     string   `json:"name"`
	Input    any      `json:"input"`
	Triggers []string `json:"triggers"`
}

// DebugTaskResult is the payload of a task_result frame: the node's update
// as [field, value] pairs, or the interrupts it paused on.
type DebugTaskResult struct {
	ID         string      `json:"id"`
	Name       string      `json:"name"`
	Error      *string     `json:"error"`
	Result     [][2]any    `json:"result"`
	Interrupts []Interrupt `json:"interrupts"`
}

// debugFrame is the debug frame of ev, nil for an event that makes none. A
// failed node makes no task_result: the run's error event says it failed.
func (p Parts) debugFrame(ev graph.Event[nodes.State, nodes.Update]) *DebugFrame {
	switch ev.Kind {
	case graph.CheckpointSaved:
		if ev.Checkpoint == nil {
			return nil
		}
		return &DebugFrame{Type: "checkpoint", Timestamp: ev.Checkpoint.CreatedAt, Step: ev.Checkpoint.Step,
			Payload: debugCheckpoint(*ev.Checkpoint)}
	case graph.NodeStarted:
		return &DebugFrame{Type: "task", Timestamp: p.now(), Step: ev.Step,
			Payload: DebugTask{ID: runTaskID(ev), Name: ev.Node, Input: ev.State, Triggers: []string{}}}
	case graph.NodeFinished:
		return &DebugFrame{Type: "task_result", Timestamp: p.now(), Step: ev.Step,
			Payload: DebugTaskResult{ID: runTaskID(ev), Name: ev.Node, Result: fieldPairs(ev.Update), Interrupts: []Interrupt{}}}
	case graph.Interrupted:
		if ev.Interrupt == nil {
			return nil
		}
		return &DebugFrame{Type: "task_result", Timestamp: p.now(), Step: ev.Step,
			Payload: DebugTaskResult{ID: runTaskID(ev), Name: ev.Node, Result: [][2]any{},
				Interrupts: []Interrupt{{ID: ev.Interrupt.ID, Value: ev.Interrupt.Payload}}}}
	}
	return nil
}

func (p Parts) now() time.Time {
	if p.Now != nil {
		return p.Now().UTC()
	}
	return time.Now().UTC()
}

// debugCheckpoint is a checkpoint as a debug frame carries it: the state
// the thread's state routes answer, with the checkpoints as configs.
func debugCheckpoint(cp graph.Checkpoint) DebugCheckpoint {
	st := FromCheckpoint(cp)
	out := DebugCheckpoint{Config: configOf(cp.ThreadID, cp.ID), Values: st.Values, Metadata: st.Metadata,
		Next: st.Next, Tasks: st.Tasks}
	if cp.ParentID != "" {
		parent := configOf(cp.ThreadID, cp.ParentID)
		out.ParentConfig = &parent
	}
	return out
}

// configOf is the config that names a checkpoint of a thread.
func configOf(threadID, checkpointID string) Config {
	var c Config
	c.Configurable.ThreadID, c.Configurable.CheckpointID = threadID, checkpointID
	return c
}

// runTaskID names the task of ev's node in ev's step of its run, the same
// in its task and task_result frames and in its events.
func runTaskID(ev graph.Event[nodes.State, nodes.Update]) string {
	return uuid.NewSHA1(taskSpace, fmt.Appendf(nil, "%s/%d/%s", ev.RunID, ev.Step, ev.Node)).String()
}

// fieldPairs is an update as the [field, value] pairs it writes, by field
// name: the members its JSON form has.
func fieldPairs(u nodes.Update) [][2]any {
	var fields map[string]json.RawMessage
	if data, err := json.Marshal(u); err != nil || json.Unmarshal(data, &fields) != nil {
		return [][2]any{}
	}
	out := make([][2]any, 0, len(fields))
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		out = append(out, [2]any{k, fields[k]})
	}
	return out
}

// RunnableEvent is the data of an events part, shaped as LangChain's
// stream events (version 2) are: the whole run is a chain named after the
// graph, each node a chain inside it, tokens come from a chat model
// inside their node, and custom events from their node.
type RunnableEvent struct {
	Event     string         `json:"event"` // on_chain_start, on_chain_stream, on_chain_end, on_chat_model_stream, on_custom_event
	Name      string         `json:"name"`
	RunID     string         `json:"run_id"`
	Tags      []string       `json:"tags"`
	Metadata  map[string]any `json:"metadata"`
	ParentIDs []string       `json:"parent_ids"`
	Data      any            `json:"data"`
}

// chatModelName is the name events mode gives the model that streams a
// node's tokens: which provider it is is configuration, not the graph's.
const chatModelName = "model"

// runnableEvents are the events of ev in events mode: none for a saved
// checkpoint or a failure (the run's error event says it failed).
func (p Parts) runnableEvents(ev graph.Event[nodes.State, nodes.Update]) []RunnableEvent {
	root := RunnableEvent{Name: p.Graph, RunID: ev.RunID, Tags: []string{}, ParentIDs: []string{},
		Metadata: map[string]any{"graph_id": p.Graph, "thread_id": ev.ThreadID, "run_id": ev.RunID}}
	inNode := func(event, name, id string, data any) RunnableEvent {
		meta := map[string]any{"graph_id": p.Graph, "thread_id": ev.ThreadID, "run_id": ev.RunID,
			"langgraph_node": ev.Node, "langgraph_step": ev.Step}
		parents := []string{ev.RunID}
		if id != runTaskID(ev) {
			parents = append(parents, runTaskID(ev))
		}
		return RunnableEvent{Event: event, Name: name, RunID: id, Tags: []string{}, Metadata: meta, ParentIDs: parents, Data: data}
	}
	with := func(e RunnableEvent, event string, data any) RunnableEvent { e.Event, e.Data = event, data; return e }
	switch ev.Kind {
	case graph.RunStarted:
		return []RunnableEvent{with(root, "on_chain_start", map[string]any{})}
	case graph.NodeStarted:
		return []RunnableEvent{inNode("on_chain_start", ev.Node, runTaskID(ev), map[string]any{"input": ev.State})}
	case graph.NodeFinished:
		return []RunnableEvent{inNode("on_chain_end", ev.Node, runTaskID(ev), map[string]any{"output": ev.Update})}
	case graph.Custom:
		return []RunnableEvent{inNode("on_custom_event", ev.Name, runTaskID(ev), customData(ev))}
	case graph.Token:
		model := uuid.NewSHA1(taskSpace, []byte(ev.RunID+"/message/"+ev.MessageID)).String()
		return []RunnableEvent{inNode("on_chat_model_stream", chatModelName, model,
			map[string]any{"chunk": MessageChunk{Type: "AIMessageChunk", ID: ev.MessageID, Content: ev.Token}})}
	case graph.Interrupted:
		end := with(root, "on_chain_end", map[string]any{"output": ev.State})
		if ev.Interrupt == nil { // a breakpoint stopped the run
			return []RunnableEvent{end}
		}
		pause := map[string][]Interrupt{interruptKey: {{ID: ev.Interrupt.ID, Value: ev.Interrupt.Payload}}}
		return []RunnableEvent{with(root, "on_chain_stream", map[string]any{"chunk": pause}), end}
	case graph.RunFinished:
		return []RunnableEvent{with(root, "on_chain_end", map[string]any{"output": ev.State})}
	}
	return nil
}
