package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// ErrNotFound is returned by a Checkpointer when a thread or checkpoint does
// not exist.
var ErrNotFound = errors.New("checkpoint not found")

// ErrInvalidID is matched (with errors.Is) by the error a Checkpointer
// returns for an id that breaks the id rule of Checkpointer.
var ErrInvalidID = errors.New("invalid id")

// CheckID returns an error wrapping ErrInvalidID unless id is a UUID in its
// canonical form: 36 characters, lowercase hex, hyphenated. what names the
// id in the error ("thread id", "checkpoint id", ...).
func CheckID(what, id string) error {
	if !canonicalUUID(id) {
		return fmt.Errorf("%s %q is not a lowercase canonical UUID: %w", what, id, ErrInvalidID)
	}
	return nil
}

// canonicalUUID reports whether s is xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx in
// lowercase hex.
func canonicalUUID(s string) bool {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	return lowerHex(s[:8]) && lowerHex(s[9:13]) && lowerHex(s[14:18]) && lowerHex(s[19:23]) && lowerHex(s[24:])
}

// lowerHex reports whether s holds only lowercase hex digits.
func lowerHex(s string) bool {
	for i := range len(s) {
		if !isLowerHex[s[i]] {
			return false
		}
	}
	return true
}

var isLowerHex = [256]bool{
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true,
	'a': true, 'b': true, 'c': true, 'd': true, 'e': true, 'f': true,
}

// ErrConflict is matched (with errors.Is) by the *ConflictError a
// Checkpointer returns when another writer moved a thread's head first.
var ErrConflict = errors.New("thread written concurrently")

// ConflictError says that a thread's head was not the one a writer expected:
// another run or update wrote to the thread first, and nothing was stored.
type ConflictError struct {
	ThreadID string
	Expected string // the head the writer expected; "" for an empty thread
	Actual   string // the thread's head when the write was refused
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("thread %q was written concurrently: its head is %q, not %q", e.ThreadID, e.Actual, e.Expected)
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// Sources of a checkpoint, recorded in its metadata.
const (
	SourceInput  = "input"  // the run's input was applied
	SourceLoop   = "loop"   // a node ran
	SourceUpdate = "update" // UpdateState wrote it
	SourceFork   = "fork"   // a run branched off an earlier checkpoint
)

// Checkpoint is one saved step of a thread. State and Update are the JSON
// encodings of the graph's state and update types. A checkpoint never changes
// once saved.
type Checkpoint struct {
	ThreadID  string
	ID        string // UUIDv7: sorts by creation time
	ParentID  string
	Step      int
	Node      string // the node that produced it; "" for input
	State     json.RawMessage
	Update    json.RawMessage
	Next      []string // nodes to run next; empty when the run ended
	Metadata  Metadata
	CreatedAt time.Time
	// Interrupts are the pauses pending at this checkpoint: a node called
	// Interrupt and waits for a resume value. Empty when none is pending.
	Interrupts []PendingInterrupt
}

// PendingInterrupt is a pause a node asked for: Payload is what it shows a person,
// and a later run resumes Node with that person's answer. Answers are the
// answers to the node's earlier Interrupt calls in the same step, in order:
// when the node runs again, they are returned again before the new one.
type PendingInterrupt struct {
	ID      string
	Node    string
	Payload json.RawMessage
	Answers []json.RawMessage
}

// Metadata says how a checkpoint came to be.
type Metadata struct {
	Source string // SourceInput, SourceLoop, SourceUpdate or SourceFork
	RunID  string
}

// ListOptions pages through a thread's history, newest first.
type ListOptions struct {
	Limit  int    // at most this many; 0 means all
	Before string // only checkpoints with an ID below this one
}

// Select picks from a thread's checkpoints, oldest first, those the
// options name, newest first, each a copy.
func (o ListOptions) Select(oldestFirst []Checkpoint) []Checkpoint {
	var out []Checkpoint
	for i := len(oldestFirst) - 1; i >= 0; i-- {
		if o.Before != "" && oldestFirst[i].ID >= o.Before {
			continue
		}
		if o.Limit > 0 && len(out) == o.Limit {
			break
		}
		out = append(out, oldestFirst[i].Clone())
	}
	return out
}

// Checkpointer stores checkpoints. Implementations must be safe for
// concurrent use and return ErrNotFound (possibly wrapped) for missing data.
//
// Ids are UUIDs in lowercase canonical form (see CheckID): thread ids,
// checkpoint ids (UUIDv7, so that they sort by creation time), parent ids and
// run ids in metadata when set, and ListOptions.Before when set. A new
// checkpoint's id sorts after the head it replaces. Every implementation
// refuses any other id with an error wrapping ErrInvalidID, and stores
// nothing.
//
// A thread's head is its newest checkpoint. Put is a compare-and-set on it:
// cp becomes the new head only if the head is still head ("" for a thread
// with no checkpoint); otherwise nothing is stored and Put returns a
// *ConflictError. So of two runs racing on a thread exactly one wins, while
// a deliberate fork (a checkpoint whose parent is older than the head) is
// stored like any other write.
type Checkpointer interface {
	Put(ctx context.Context, cp Checkpoint, head string) error
	Latest(ctx context.Context, threadID string) (Checkpoint, error)
	Get(ctx context.Context, threadID, checkpointID string) (Checkpoint, error)
	List(ctx context.Context, threadID string, opts ListOptions) ([]Checkpoint, error)
}

// BatchPutter is a Checkpointer that can store several checkpoints of a
// thread at once. PutAll stores cps, each over the one before it and the
// first over head, as Puts one after the other would, and returns how many
// it stored and, for the first it could not, the error Put would return.
type BatchPutter interface {
	PutAll(ctx context.Context, cps []Checkpoint, head string) (int, error)
}

// HeadKnower is a Checkpointer that may know a thread's newest checkpoint
// without reading it: the newest one it wrote or read. What it knows may
// be stale (another process may have written since), so the engine trusts
// it only where a stale head costs nothing: a run with input from the
// thread's head at sync durability, which does not hold its input for the
// first node's batch (RunConfig.InputDurable), starts from it. Its input's
// checkpoints are a compare-and-set on that head written before any node
// runs or any event but RunStarted is emitted: when the head had moved
// before the run started, they are refused, nothing is stored, and the run
// reads the head and saves its input over that; a head moved after the run
// started is a race it loses, as if it had read the head. A thread's
// Latest, as GetState and the history read it, always reads the store.
type HeadKnower interface {
	// KnownHead returns the newest checkpoint of the thread the
	// checkpointer knows of, and whether it knows one.
	KnownHead(threadID string) (Checkpoint, bool)
}

// PutAll stores checkpoints of one thread in order, each over the one
// before it and the first over head: at once when saver is a BatchPutter,
// else with one Put after the other. It returns how many were stored.
func PutAll(ctx context.Context, saver Checkpointer, cps []Checkpoint, head string) (int, error) {
	b, ok := saver.(BatchPutter)
	if !ok || len(cps) < 2 {
		return putEach(ctx, saver, cps, head)
	}
	n, err := b.PutAll(ctx, cps, head)
	if err != nil {
		cp := cps[n]
		err = fmt.Errorf("saving the checkpoint of step %d of thread %q: %w", cp.Step, cp.ThreadID, err)
	}
	return n, err
}

// putEach stores checkpoints with one Put after the other, each over the
// one before it and the first over head, and returns how many it stored.
func putEach(ctx context.Context, saver Checkpointer, cps []Checkpoint, head string) (int, error) {
	for i := range cps {
		if err := putCheckpoint(ctx, saver, cps[i], head); err != nil {
			return i, err
		}
		head = cps[i].ID
	}
	return len(cps), nil
}

// MemorySaver is a Checkpointer that keeps checkpoints in memory.
type MemorySaver struct {
	mu      sync.RWMutex
	threads map[string][]Checkpoint // each in ID (creation) order
}

// NewMemorySaver returns an empty in-memory Checkpointer.
func NewMemorySaver() *MemorySaver {
	return &MemorySaver{threads: make(map[string][]Checkpoint)}
}

// Put stores a copy of cp as the thread's new head, if its head is head and
// ctx is not done.
func (m *MemorySaver) Put(ctx context.Context, cp Checkpoint, head string) error {
	return m.keep(ctx, cp, head, true)
}

// owning is a MemorySaver that keeps the checkpoints it is given as they
// are, without copying them: for the engine's own, which it never changes
// and, in a run without a consumer, hands to no one else (see run.saver).
type owning struct{ *MemorySaver }

// Put stores cp itself as the thread's new head, as MemorySaver.Put would
// store a copy.
func (o owning) Put(ctx context.Context, cp Checkpoint, head string) error {
	return o.keep(ctx, cp, head, false)
}

// keep stores cp, or a copy of it, as the thread's new head, if its head
// is head and ctx is not done.
func (m *MemorySaver) keep(ctx context.Context, cp Checkpoint, head string, copied bool) error {
	if err := checkIDs(cp, head); err != nil {
		return fmt.Errorf("saving a checkpoint: %w", err)
	}
	if err := ctx.Err(); err != nil { // as a database would, for a cancelled write
		return fmt.Errorf("saving checkpoint %q: %w", cp.ID, err)
	}
	if copied {
		cp = cp.Clone()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	list := m.threads[cp.ThreadID]
	if actual := headOf(list); actual != head {
		return &ConflictError{ThreadID: cp.ThreadID, Expected: head, Actual: actual}
	}
	if cp.ID <= head {
		return fmt.Errorf("saving checkpoint %q: it does not sort after the head %q: %w", cp.ID, head, ErrInvalidID)
	}
	if list == nil {
		// A thread's first run writes its input's two checkpoints and
		// most often a node's or two: room for them at once.
		list = make([]Checkpoint, 0, 4)
	}
	m.threads[cp.ThreadID] = append(list, cp)
	return nil
}

// Latest returns the newest checkpoint of a thread.
func (m *MemorySaver) Latest(_ context.Context, threadID string) (Checkpoint, error) {
	if err := CheckID("thread id", threadID); err != nil {
		return Checkpoint{}, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	list := m.threads[threadID]
	if len(list) == 0 {
		return Checkpoint{}, ErrNotFound
	}
	return list[len(list)-1].Clone(), nil
}

// Get returns one checkpoint of a thread.
func (m *MemorySaver) Get(_ context.Context, threadID, checkpointID string) (Checkpoint, error) {
	if err := errors.Join(CheckID("thread id", threadID), CheckID("checkpoint id", checkpointID)); err != nil {
		return Checkpoint{}, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	list := m.threads[threadID]
	i, ok := slices.BinarySearchFunc(list, checkpointID, func(c Checkpoint, id string) int { return compare(c.ID, id) })
	if !ok {
		return Checkpoint{}, ErrNotFound
	}
	return list[i].Clone(), nil
}

// List returns a thread's checkpoints, newest first.
func (m *MemorySaver) List(_ context.Context, threadID string, opts ListOptions) ([]Checkpoint, error) {
	if err := errors.Join(CheckID("thread id", threadID), optionalID("list cursor", opts.Before)); err != nil {
		return nil, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	return opts.Select(m.threads[threadID]), nil
}

// checkIDs applies the id rule to what Put is given.
func checkIDs(cp Checkpoint, head string) error {
	return errors.Join(
		CheckID("thread id", cp.ThreadID),
		CheckID("checkpoint id", cp.ID),
		optionalID("parent checkpoint id", cp.ParentID),
		optionalID("run id", cp.Metadata.RunID),
		optionalID("head checkpoint id", head),
	)
}

// optionalID is CheckID for an id that may be empty.
func optionalID(what, id string) error {
	if id == "" {
		return nil
	}
	return CheckID(what, id)
}

// headOf returns the ID of the newest checkpoint of a list, "" if empty.
func headOf(list []Checkpoint) string {
	if len(list) == 0 {
		return ""
	}
	return list[len(list)-1].ID
}

func compare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Clone copies the slices of a checkpoint so that no caller shares them:
// what a Checkpointer stores and what it returns.
func (cp Checkpoint) Clone() Checkpoint {
	cp.State = slices.Clone(cp.State)
	cp.Update = slices.Clone(cp.Update)
	cp.Next = slices.Clone(cp.Next)
	cp.Interrupts = slices.Clone(cp.Interrupts)
	for i := range cp.Interrupts {
		in := &cp.Interrupts[i]
		in.Payload = slices.Clone(in.Payload)
		in.Answers = slices.Clone(in.Answers)
		for j := range in.Answers {
			in.Answers[j] = slices.Clone(in.Answers[j])
		}
	}
	return cp
}
