package wire

import (
	"encoding/json"
	"fmt"
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
	ModeMessages      = "messages" // whole messages: messages/metadata, messages/partial, messages/complete
	ModeTasks         = "tasks"
	ModeCheckpoints   = "checkpoints"
	ModeEvents        = "events"
	ModeDebug         = "debug"
)

// SSE event names of the messages stream mode.
const (
	EventMessagesMetadata = "messages/metadata"
	EventMessagesPartial  = "messages/partial"
	EventMessagesComplete = "messages/complete"
)

// SSE event names that belong to no stream mode.
const (
	EventMetadata = "metadata"
	EventError    = "error"
	EventMessages = "messages"
)

// Mode is a stream mode: the SSE events its parts go out under and, for
// a mode whose parts repeat the state or a message's text at each step,
// the parts it makes of a planner event, which only the runs asked for
// it store. The parts of the other modes every run stores (StreamParts).
type Mode struct {
	Name   string
	Events []string
	frames func(*Parts, graph.Event[nodes.State, nodes.Update]) []namedFrame
}

// Modes are the stream modes a client may ask for, in the order a run's
// parts of one event are made: adding a mode is adding its entry, and the
// function that makes its parts.
var Modes = []Mode{
	{Name: ModeValues, Events: []string{ModeValues}},
	{Name: ModeUpdates, Events: []string{ModeUpdates}},
	{Name: ModeCustom, Events: []string{ModeCustom}},
	{Name: ModeMessagesTuple, Events: []string{EventMessages}},
	{Name: ModeMessages, Events: []string{EventMessagesMetadata, EventMessagesPartial, EventMessagesComplete}, frames: (*Parts).messageFrames},
	{Name: ModeTasks, Events: []string{ModeTasks}, frames: (*Parts).taskFrames},
	{Name: ModeCheckpoints, Events: []string{ModeCheckpoints}, frames: (*Parts).checkpointFrames},
	{Name: ModeDebug, Events: []string{ModeDebug}, frames: (*Parts).debugFrames},
	{Name: ModeEvents, Events: []string{ModeEvents}, frames: (*Parts).eventFrames},
}

// ModeNamed is the stream mode of that name.
func ModeNamed(name string) (Mode, bool) {
	for _, m := range Modes {
		if m.Name == name {
			return m, true
		}
	}
	return Mode{}, false
}

// ModeNames are the names of every stream mode.
func ModeNames() []string {
	out := make([]string, len(Modes))
	for i, m := range Modes {
		out[i] = m.Name
	}
	return out
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
	Attempt  int    `json:"attempt"` // the run's attempt: above 1 when a worker resumed it
}

// MessageChunk is a piece of a streamed AI message in messages-tuple mode.
type MessageChunk struct {
	Type    string `json:"type"` // "AIMessageChunk"
	ID      string `json:"id"`
	Content string `json:"content"`
}

// messageMeta is the second member of a messages-tuple part, and the
// metadata of a message in messages mode.
type messageMeta struct {
	Node     string `json:"langgraph_node"`
	Step     int    `json:"langgraph_step"`
	RunID    string `json:"run_id"`
	ThreadID string `json:"thread_id"`
}

// Message is a whole message as messages mode and events mode show it.
type Message struct {
	Type    string `json:"type"` // human or ai
	ID      string `json:"id"`
	Content string `json:"content"`
}

func messageOf(m nodes.Message) Message { return Message{Type: m.Type, ID: m.ID, Content: m.Content} }

// interruptKey is where updates and values report a pause, as LangGraph
// does.
const interruptKey = "__interrupt__"

// inObject is {"key": value}, value being JSON already (null when nil).
func inObject(key string, value json.RawMessage) json.RawMessage {
	if value == nil {
		value = json.RawMessage("null")
	}
	k, _ := json.Marshal(key)
	b := make([]byte, 0, len(k)+len(value)+3)
	b = append(append(append(b, '{'), k...), ':')
	return append(append(b, value...), '}')
}

// StreamParts converts one planner event into the stream parts every run
// stores: values after each saved checkpoint (but an input still pending,
// which changes nothing), a node's update, custom events (UI components as
// UIMessage), streamed tokens as messages-tuple parts, and a pause as an
// update and a values part under "__interrupt__". Other events make none.
func StreamParts(ev graph.Event[nodes.State, nodes.Update]) ([]StreamPart, error) {
	var parts []StreamPart
	add := func(mode string, v any) error {
		data, ok := v.(json.RawMessage)
		if !ok {
			var err error
			if data, err = json.Marshal(v); err != nil {
				return fmt.Errorf("encoding a %s event of run %s: %w", ev.Kind, ev.RunID, err)
			}
		}
		parts = append(parts, StreamPart{Event: mode, Data: data})
		return nil
	}
	var err error
	switch ev.Kind {
	case graph.CheckpointSaved:
		if ev.Checkpoint != nil && !pendingInput(*ev.Checkpoint) {
			err = add(ModeValues, Values(ev.Checkpoint.State))
		}
	case graph.NodeFinished:
		err = add(ModeUpdates, inObject(ev.Node, UpdateJSON(ev.Update)))
	case graph.Custom:
		err = add(ModeCustom, customData(ev))
	case graph.Token:
		err = add(EventMessages, []any{MessageChunk{Type: "AIMessageChunk", ID: ev.MessageID, Content: ev.Token}, metaOf(ev)})
	case graph.Interrupted:
		if ev.Interrupt != nil {
			pause := map[string][]Interrupt{interruptKey: {interruptOf(*ev.Interrupt)}}
			if err = add(ModeUpdates, pause); err == nil {
				err = add(ModeValues, pause)
			}
		}
	}
	return parts, err
}

func metaOf(ev graph.Event[nodes.State, nodes.Update]) messageMeta {
	return messageMeta{Node: ev.Node, Step: ev.Step, RunID: ev.RunID, ThreadID: ev.ThreadID}
}

// pendingInput reports whether cp holds a run's input not applied yet.
func pendingInput(cp graph.Checkpoint) bool {
	return slices.Equal(cp.Next, []string{graph.START})
}

// customData is what a custom event carries: a UI component as LangGraph's
// UI message, anything else as the node emitted it.
func customData(ev graph.Event[nodes.State, nodes.Update]) any {
	comp, ok := ev.Payload.(nodes.UIComponent)
	if !ok {
		return ev.Payload
	}
	return uiMessage(comp, map[string]any{"run_id": ev.RunID})
}

// Parts makes the stored stream parts of one run's events, in order; it
// keeps what it has seen of the run (the messages streamed so far), so a
// run makes its parts with one Parts. Every run stores the parts of
// values, updates, custom and messages-tuple (StreamParts); those of the
// modes that repeat the state or a message's text at each step (messages,
// tasks, checkpoints, debug, events: see Modes) only when the run was
// asked for them. Each part is stored once, under its mode's SSE event
// name, and a stream sends the ones of the modes its client asks for.
type Parts struct {
	Graph string           // the graph's name: the whole run's name in events mode
	Modes []string         // the stream modes the run was asked for
	Now   func() time.Time // the time of task frames; time.Now when nil

	streamed  map[string]string // a message streamed: its text so far
	nodeInput []Message         // the messages the running node was given
}

// Of converts one event into its parts: StreamParts', then those of each
// mode the run was asked for that makes its own, in the order of Modes.
func (p *Parts) Of(ev graph.Event[nodes.State, nodes.Update]) ([]StreamPart, error) {
	parts, err := StreamParts(ev)
	if err != nil {
		return nil, err
	}
	var frames []namedFrame
	for _, m := range Modes {
		if m.frames != nil && slices.Contains(p.Modes, m.Name) {
			frames = append(frames, m.frames(p, ev)...)
		}
	}
	p.see(ev)
	for _, f := range frames {
		data, err := json.Marshal(f.v)
		if err != nil {
			return nil, fmt.Errorf("encoding a %s part of a %s event of run %s: %w", f.event, ev.Kind, ev.RunID, err)
		}
		parts = append(parts, StreamPart{Event: f.event, Data: data})
	}
	return parts, nil
}

// EndMakesParts reports whether a run's end (graph.RunFinished) makes
// parts in the modes the run was asked for (the events mode's last
// on_chain_end does): a run whose end makes none has nothing left to
// write once its last checkpoint is saved.
func (p *Parts) EndMakesParts() bool {
	end := graph.Event[nodes.State, nodes.Update]{Kind: graph.RunFinished}
	if parts, _ := StreamParts(end); len(parts) > 0 {
		return true
	}
	for _, m := range Modes {
		if m.frames != nil && slices.Contains(p.Modes, m.Name) && len(m.frames(p, end)) > 0 {
			return true
		}
	}
	return false
}

// taskFrames are the tasks part of ev, if it makes one.
func (p *Parts) taskFrames(ev graph.Event[nodes.State, nodes.Update]) []namedFrame {
	if t := p.task(ev); t != nil {
		return []namedFrame{{ModeTasks, t}}
	}
	return nil
}

// checkpointFrames are the checkpoints part of ev, if it reports one.
func (p *Parts) checkpointFrames(ev graph.Event[nodes.State, nodes.Update]) []namedFrame {
	if cp := checkpointOf(ev); cp != nil {
		return []namedFrame{{ModeCheckpoints, debugCheckpoint(*cp)}}
	}
	return nil
}

// debugFrames are the debug part of ev, if it makes one.
func (p *Parts) debugFrames(ev graph.Event[nodes.State, nodes.Update]) []namedFrame {
	if f := p.debugFrame(ev); f != nil {
		return []namedFrame{{ModeDebug, f}}
	}
	return nil
}

// eventFrames are the events parts of ev.
func (p *Parts) eventFrames(ev graph.Event[nodes.State, nodes.Update]) []namedFrame {
	var out []namedFrame
	for _, e := range p.runnableEvents(ev) {
		out = append(out, namedFrame{ModeEvents, e})
	}
	return out
}

// see keeps what later events need: the text of each streamed message and
// the messages the running node was given.
func (p *Parts) see(ev graph.Event[nodes.State, nodes.Update]) {
	switch ev.Kind {
	case graph.NodeStarted:
		p.nodeInput = make([]Message, len(ev.State.Messages))
		for i, m := range ev.State.Messages {
			p.nodeInput[i] = messageOf(m)
		}
	case graph.Token:
		if p.streamed == nil {
			p.streamed = map[string]string{}
		}
		p.streamed[ev.MessageID] += ev.Token
	}
}

// checkpointOf is the checkpoint an event reports: a saved one, or the one
// a run without input continues from.
func checkpointOf(ev graph.Event[nodes.State, nodes.Update]) *graph.Checkpoint {
	if ev.Kind == graph.CheckpointSaved || ev.Kind == graph.RunStarted {
		return ev.Checkpoint
	}
	return nil
}

// namedFrame is the data of a part before it is encoded, with its SSE
// event name.
type namedFrame struct {
	event string
	v     any
}

// messageFrames are the messages mode parts of ev: a streamed message's
// metadata before its first token, then the message with its whole text
// so far at each token, and every message a node or the input added,
// whole, once it is complete.
func (p *Parts) messageFrames(ev graph.Event[nodes.State, nodes.Update]) []namedFrame {
	switch ev.Kind {
	case graph.Token:
		var out []namedFrame
		if _, seen := p.streamed[ev.MessageID]; !seen {
			out = append(out, namedFrame{EventMessagesMetadata, map[string]any{ev.MessageID: map[string]any{"metadata": metaOf(ev)}}})
		}
		text := p.streamed[ev.MessageID] + ev.Token
		return append(out, namedFrame{EventMessagesPartial, []Message{{Type: nodes.AI, ID: ev.MessageID, Content: text}}})
	case graph.CheckpointSaved:
		// A message is complete once the checkpoint that holds it is
		// saved, after that checkpoint's values part, as LangGraph's
		// server orders them: the input's, and each node's.
		if ev.Checkpoint == nil || pendingInput(*ev.Checkpoint) {
			return nil
		}
		var u nodes.Update
		if json.Unmarshal(ev.Checkpoint.Update, &u) != nil {
			return nil
		}
		return completeFrames(u.Messages)
	}
	return nil
}

func completeFrames(msgs []nodes.Message) []namedFrame {
	out := make([]namedFrame, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, namedFrame{EventMessagesComplete, []Message{messageOf(m)}})
	}
	return out
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

// DebugCheckpoint is the payload of a checkpoint frame, and the data of a
// checkpoints part: the state as the thread's state routes answer it,
// with the checkpoint and its parent named both as configs and as
// checkpoints.
type DebugCheckpoint struct {
	Config           Config          `json:"config"`
	ParentConfig     *Config         `json:"parent_config"`
	Values           json.RawMessage `json:"values"`
	Metadata         map[string]any  `json:"metadata"`
	Next             []string        `json:"next"`
	Tasks            []Task          `json:"tasks"`
	Checkpoint       *Checkpoint     `json:"checkpoint"`
	ParentCheckpoint *Checkpoint     `json:"parent_checkpoint"`
}

// DebugTask is the payload of a task frame, and a tasks part when a node
// starts: the node and the state it is given.
type DebugTask struct {
	ID         string      `json:"id"`
	Name       string      `json:"name"`
	Input      any         `json:"input"`
	Triggers   []string    `json:"triggers"`
	Interrupts []Interrupt `json:"interrupts"`
}

// DebugTaskResult is the payload of a task_result frame, and a tasks part
// when a node ends: the node's update as [field, value] pairs, or the
// interrupts it paused on.
type DebugTaskResult struct {
	ID     string                     `json:"id"`
	Name   string                     `json:"name"`
	Error  *string                    `json:"error"`
	Result map[string]json.RawMessage `json:"result"` // what the node wrote, by channel

	Interrupts []Interrupt `json:"interrupts"`
}

// task is the tasks part of ev: a node starting, ending or pausing; nil
// for other events. A failed node makes none: the run's error event says
// it failed.
func (p *Parts) task(ev graph.Event[nodes.State, nodes.Update]) any {
	switch ev.Kind {
	case graph.NodeStarted:
		return DebugTask{ID: runTaskID(ev), Name: ev.Node, Input: json.RawMessage(Values(mustMarshal(ev.State))),
			Triggers: []string{"branch:to:" + ev.Node}, Interrupts: []Interrupt{}}
	case graph.NodeFinished:
		return DebugTaskResult{ID: runTaskID(ev), Name: ev.Node, Result: writesOf(ev.Update), Interrupts: []Interrupt{}}
	case graph.Interrupted:
		if ev.Interrupt == nil {
			return nil
		}
		return DebugTaskResult{ID: runTaskID(ev), Name: ev.Node, Result: map[string]json.RawMessage{}, Interrupts: []Interrupt{interruptOf(*ev.Interrupt)}}
	}
	return nil
}

// debugFrame is the debug frame of ev, nil for an event that makes none:
// a checkpoint (a saved one, or the one a run without input continues
// from, first, as LangGraph sends it), or a task.
func (p *Parts) debugFrame(ev graph.Event[nodes.State, nodes.Update]) *DebugFrame {
	if cp := checkpointOf(ev); cp != nil {
		return &DebugFrame{Type: "checkpoint", Timestamp: cp.CreatedAt, Step: cp.Step, Payload: debugCheckpoint(*cp)}
	}
	t := p.task(ev)
	if t == nil {
		return nil
	}
	kind := "task_result"
	if _, ok := t.(DebugTask); ok {
		kind = "task"
	}
	return &DebugFrame{Type: kind, Timestamp: p.now(), Step: ev.Step, Payload: t}
}

func (p *Parts) now() time.Time {
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
		Next: st.Next, Tasks: st.Tasks, Checkpoint: st.Checkpoint, ParentCheckpoint: st.ParentCheckpoint}
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

// writesOf is what an update writes, by channel: a task result as
// LangGraph's server gives it.
func writesOf(u nodes.Update) map[string]json.RawMessage {
	fields := map[string]json.RawMessage{}
	if json.Unmarshal(UpdateJSON(u), &fields) != nil {
		return map[string]json.RawMessage{}
	}
	return fields
}

// mustMarshal encodes a value that always encodes, such as a state.
func mustMarshal(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return data
}

// RunnableEvent is the data of an events part, shaped as LangChain's
// stream events (version 2) are: the whole run is a chain named after the
// graph, each node a chain inside it, each message a node streams comes
// from a chat model inside it (start, stream, end), and custom events
// from their node.
type RunnableEvent struct {
	Event     string         `json:"event"` // on_chain_start, on_chain_stream, on_chain_end, on_chat_model_start, on_chat_model_stream, on_chat_model_end, on_custom_event
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
func (p *Parts) runnableEvents(ev graph.Event[nodes.State, nodes.Update]) []RunnableEvent {
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
	model := func(messageID string) string {
		return uuid.NewSHA1(taskSpace, []byte(ev.RunID+"/message/"+messageID)).String()
	}
	modelInput := map[string]any{"messages": [][]Message{nonNilMessages(p.nodeInput)}}
	with := func(e RunnableEvent, event string, data any) RunnableEvent { e.Event, e.Data = event, data; return e }
	switch ev.Kind {
	case graph.RunStarted:
		return []RunnableEvent{with(root, "on_chain_start", map[string]any{})}
	case graph.NodeStarted:
		return []RunnableEvent{inNode("on_chain_start", ev.Node, runTaskID(ev), map[string]any{"input": Values(mustMarshal(ev.State))})}
	case graph.NodeFinished:
		var out []RunnableEvent
		for _, m := range ev.Update.Messages {
			if _, streamed := p.streamed[m.ID]; streamed {
				out = append(out, inNode("on_chat_model_end", chatModelName, model(m.ID), map[string]any{"output": messageOf(m), "input": modelInput}))
			}
		}
		return append(out, inNode("on_chain_end", ev.Node, runTaskID(ev), map[string]any{"output": UpdateJSON(ev.Update)}))
	case graph.Custom:
		return []RunnableEvent{inNode("on_custom_event", ev.Name, runTaskID(ev), customData(ev))}
	case graph.Token:
		var out []RunnableEvent
		if _, seen := p.streamed[ev.MessageID]; !seen {
			out = append(out, inNode("on_chat_model_start", chatModelName, model(ev.MessageID), map[string]any{"input": modelInput}))
		}
		return append(out, inNode("on_chat_model_stream", chatModelName, model(ev.MessageID),
			map[string]any{"chunk": MessageChunk{Type: "AIMessageChunk", ID: ev.MessageID, Content: ev.Token}}))
	case graph.Interrupted:
		end := with(root, "on_chain_end", map[string]any{"output": Values(mustMarshal(ev.State))})
		if ev.Interrupt == nil { // a breakpoint stopped the run
			return []RunnableEvent{end}
		}
		pause := map[string][]Interrupt{interruptKey: {interruptOf(*ev.Interrupt)}}
		return []RunnableEvent{with(root, "on_chain_stream", map[string]any{"chunk": pause}), end}
	case graph.RunFinished:
		return []RunnableEvent{with(root, "on_chain_end", map[string]any{"output": Values(mustMarshal(ev.State))})}
	}
	return nil
}

func nonNilMessages(m []Message) []Message {
	if m == nil {
		return []Message{}
	}
	return m
}
