// Package checkpoint is the PostgreSQL graph.Checkpointer: each step of a
// run is one compare-and-set INSERT on its thread's head, and states are
// kept as snapshots and deltas so that a thread's storage grows linearly.
package checkpoint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/graph"
	"github.com/tripgraph/tripgraph/store/replica"
)

// Saver is the PostgreSQL graph.Checkpointer. It is safe for concurrent
// use, by several processes too.
//
// # Storage grows linearly
//
// Storing the full state at every step makes a thread's storage grow with
// the square of its length, since a chat state holds every message so far.
// Instead, a checkpoint row holds either
//
//   - a snapshot: the full state JSON, or
//   - a delta against its parent's state (see delta.go): for each
//     top-level member, "unchanged", "the parent's array plus these
//     elements", "the parent's array plus the elements of the update's array
//     k" (the update is stored anyway, so new messages are stored once) or
//     "this value". Its update is stored as copies from its parent where it
//     repeats it (see ref.go).
//
// A checkpoint is written as a snapshot when it has no parent, or when the
// bytes read to rebuild it from its chain's snapshot (deltas and updates)
// would exceed SnapshotRatio times that snapshot's size, or when its chain
// would hold more than MaxChain deltas. Snapshot sizes therefore grow
// geometrically, and their total stays within (1+1/SnapshotRatio) times the
// final state; the deltas and updates add each step's new data once.
// Reading a checkpoint reads its snapshot and at most SnapshotRatio times
// that snapshot's size more, in one statement: a backward scan of the
// (thread_id, id) primary key finds the checkpoint, and, since each row
// names its chain's snapshot in base_id and ids are UUIDv7, one range scan
// of the same index from base_id to id reads the chain. A checkpoint read
// alone (Latest, Get) is first read as one row: when its chain, or its
// parent's, is in the saver's cache (a thread's newest checkpoint usually
// is, in the process that wrote it), that row is all it takes.
//
// A delta is only written when it rebuilds the state byte for byte (the
// check runs at every Put); any other state is stored as a snapshot.
//
// # One writer per thread
//
// The thread row holds its head, the id of its newest checkpoint. One step
// is one INSERT statement, so one transaction and one round trip (a batch
// of steps, PutAll, is one statement that inserts them all), whose
// first part moves the head only if it is still the one the writer expects
// (UPDATE ... WHERE head IS NOT DISTINCT FROM $expected, which PostgreSQL
// re-checks on the newest row version when a concurrent writer committed
// first); the checkpoint is inserted only if the head moved. A refused
// write costs a second query, to tell a missing thread (NOT_FOUND) from a
// moved head (CONFLICT, wrapping *graph.ConflictError). The unscoped
// checkpointer needs the thread row; a scoped one creates it.
//
// Ids follow graph.Checkpointer's rule: they are checked before any query,
// and a malformed one, or a checkpoint id that does not sort after the head,
// is a BAD_REQUEST matching graph.ErrInvalidID.
type Saver struct{ *saver }

// Owned is the PostgreSQL graph.Checkpointer on one owner's threads: the
// checkpoints of any other thread are NOT_FOUND, and a thread's first
// checkpoint creates the thread, owned by them. Build it with
// Saver.ForOwner; ForRun makes the one a run writes with.
type Owned struct{ *saver }

// saver is what Saver and Owned share: the pool, the options and the cache
// of chains, and for Owned its owner and, for a run's writes, their fence
// and companion.
type saver struct {
	pool  *pgxpool.Pool
	opts  Options
	cache *chainCache
	owner string // Owned's: every query is limited to this owner's threads
	// reads serves Latest, Get and List: a replica that has caught up, or
	// the primary; nil, pool serves them (Saver's, and a run's).
	reads *replica.Router
	// fence and companion are those of a run's writes (Owned.ForRun).
	fence     *Fence
	companion Companion
}

// Options tune a Saver. The zero value is the default.
type Options struct {
	// FullState stores the full state at every step, as LangGraph's Postgres
	// checkpointer does. It exists to measure what the deltas save.
	FullState bool
	// SnapshotRatio is the bytes of deltas a chain may hold, as a multiple
	// of its snapshot's size, before a new snapshot is written. 0 means 2.
	SnapshotRatio float64
	// MaxChain is the most deltas between a checkpoint and its snapshot.
	// 0 means 1000.
	MaxChain int
	// CacheBytes bounds the memory of the threads' newest states, kept to
	// write their children without reading them back (a run's next step
	// needs its parent). 0 means DefaultCacheBytes; a negative value turns
	// the cache off.
	CacheBytes int64
	// Reads, when set, decides where the reads of the owners'
	// checkpointers (ForOwner's Latest, Get and List: the API's state and
	// history) are served: by a replica that has caught up with the
	// primary, or by pool. A run's checkpointer (ForRun) and the unscoped
	// Saver read pool always, as every write does.
	Reads *replica.Router
}

// DefaultCacheBytes is the default Options.CacheBytes: room for the
// newest states of ten long conversations, or about a hundred short ones
// (the cache keeps one per thread), while one process running a 200-turn
// thread stays well under 40 MiB (see bench/README.md).
const DefaultCacheBytes = 2 << 20

// rowCost stands for the fixed cost of reading one row of a chain.
const rowCost = 64

// minChainBytes lets small states grow a chain before the first snapshots.
const minChainBytes = 8 << 10

var (
	_ graph.Checkpointer = (*Saver)(nil)
	_ graph.Checkpointer = (*Owned)(nil)
	_ graph.BatchPutter  = (*Owned)(nil)
	_ graph.HeadKnower   = (*Owned)(nil)
	_ graph.HeadKnower   = (*Saver)(nil)
)

// New returns a Saver on pool. It is not scoped to an owner: it reads and
// writes any thread (commands and benchmarks use it so); code that acts
// for a user works on ForOwner's Owned.
func New(pool *pgxpool.Pool, opts Options) *Saver {
	if opts.SnapshotRatio <= 0 {
		opts.SnapshotRatio = 2
	}
	if opts.MaxChain <= 0 {
		opts.MaxChain = 1000
	}
	if opts.CacheBytes == 0 {
		opts.CacheBytes = DefaultCacheBytes
	}
	return &Saver{&saver{pool: pool, opts: opts, cache: newChainCache(opts.CacheBytes)}}
}

// ForOwner returns the checkpointer of ownerID's threads only. It shares
// c's cache.
func (c *saver) ForOwner(ownerID string) *Owned {
	return &Owned{&saver{pool: c.pool, opts: c.opts, cache: c.cache, owner: ownerID, reads: c.opts.Reads}}
}

// ForRun returns the checkpointer a run writes with, on the same owner's
// threads: each write moves the thread's head only while the run's worker
// still holds it under f (a worker that lost its run to another writes
// nothing, ErrFenced), and carries comp's statements in its transaction;
// comp may be nil.
func (o *Owned) ForRun(f Fence, comp Companion) *Owned {
	run := *o.saver
	run.fence, run.companion = &f, comp
	run.reads = nil // a run reads what it writes: the primary
	return &Owned{&run}
}

// Put stores a checkpoint in one statement, so one transaction and one round
// trip, if the thread's head is still head ("" for a thread with no
// checkpoint); otherwise it stores nothing and returns an error that wraps a
// *graph.ConflictError and has the code CONFLICT. The thread row must exist,
// except for a checkpointer scoped to an owner (see ForOwner), which creates
// it, owned by that owner, with the thread's first checkpoint.
func (c *saver) Put(ctx context.Context, cp graph.Checkpoint, head string) error {
	_, err := c.PutAll(ctx, []graph.Checkpoint{cp}, head)
	return err
}

// PutAll stores checkpoints of one thread, each over the one before it and
// the first over head, in one batch (one round trip, one transaction), as
// Puts one after the other would: it returns how many it stored, and for
// the first it could not store, the error Put would return. An error of
// the database stores none.
func (c *saver) PutAll(ctx context.Context, cps []graph.Checkpoint, head string) (int, error) {
	if len(cps) == 0 {
		return 0, nil
	}
	rows := make([]newRow, len(cps))
	var prev *chain
	for i, cp := range cps {
		row, err := c.prepare(ctx, cp, head, prev)
		if err != nil {
			return 0, err
		}
		rows[i], prev, head = row, row.chain, cp.ID
	}
	b := &pgx.Batch{}
	var readCompanion func(pgx.BatchResults) error
	if c.companion != nil {
		readCompanion = queueCompanion(b, c.companion, cps)
	}
	groups := insertGroups(rows)
	for _, group := range groups {
		q, args, err := c.insertSQL(ctx, group)
		if err != nil {
			return 0, err
		}
		b.Queue(q, args...)
	}
	var readAfter func(pgx.BatchResults) error
	if closing, ok := c.companion.(Closing); ok {
		readAfter = closing.QueueAfter(b, cps)
	}
	n, err := c.sendAll(ctx, b, readCompanion, groups, readAfter)
	if n > 0 { // the thread's head now: the newest stored
		c.cache.put(rows[n-1].cp.ThreadID, rows[n-1].chain, rows[n-1].cp, c.owner)
	}
	return n, err
}

// queueCompanion queues on b a lock of the checkpoints' thread, then the
// companion's statements, and returns what reads their results. The
// companion may lock rows of its own (the runner's appends hold their
// run's row while they check its lease); locking the thread first keeps
// the order every change to a thread and its runs takes, thread then run,
// so that a checkpoint and, say, a cancel of its run queue up instead of
// deadlocking.
func queueCompanion(b *pgx.Batch, comp Companion, cps []graph.Checkpoint) func(pgx.BatchResults) error {
	b.Queue(`SELECT FROM threads WHERE id = $1 FOR NO KEY UPDATE`, cps[0].ThreadID)
	read := comp.Queue(b, cps)
	return func(res pgx.BatchResults) error {
		if _, err := res.Exec(); err != nil {
			return fmt.Errorf("locking thread %s: %w", cps[0].ThreadID, err)
		}
		if read == nil {
			return nil
		}
		return read(res)
	}
}

// sendAll sends a batch of the companion's statements (when read is not
// nil), one insert per group of rows and the companion's closing
// statements (when after is not nil), and reads their results: how many
// rows were stored, and why the next one was not. The batch runs in one
// implicit transaction, which an error rolls back whole; an insert that
// stores nothing (the head moved, the run's lease was lost) is no error,
// and then neither do those after it, whose heads are the rows before them.
func (c *saver) sendAll(ctx context.Context, b *pgx.Batch, read func(pgx.BatchResults) error, groups [][]newRow, after func(pgx.BatchResults) error) (int, error) {
	res := c.pool.SendBatch(ctx, b)
	var err error
	if read != nil {
		err = read(res)
	}
	stored := 0
	for _, group := range groups {
		if err != nil {
			break
		}
		tag, execErr := res.Exec()
		if execErr != nil || tag.RowsAffected() == 0 {
			res.Close()
			if execErr != nil {
				stored = 0 // the transaction is rolled back
			}
			return stored, c.inserted(ctx, group, tag, execErr)
		}
		stored += len(group)
	}
	if err == nil && after != nil {
		err = after(res)
	}
	if cerr := res.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("saving the checkpoints of thread %s: %w", groups[0][0].cp.ThreadID, err)
	}
	return stored, nil
}

// insertGroups splits rows, each over the one before it, into the groups
// one statement each inserts: all of them, when they are of one thread and
// their ids sort in order, as a run's batches are (the input's two
// checkpoints, or those an async run queued). A statement costs
// PostgreSQL a move of the thread's head (a new row version and an entry
// in each of its indexes) and the worker a round of pgx's encoding and
// reading, so one per batch rather than per row. Rows out of order go one
// a statement, so that the first one refused is named as Put would name
// it, with those before it stored.
func insertGroups(rows []newRow) [][]newRow {
	for i := 1; i < len(rows); i++ {
		if rows[i].cp.ThreadID != rows[0].cp.ThreadID || rows[i].cp.ID <= rows[i-1].cp.ID {
			groups := make([][]newRow, len(rows))
			for j := range rows {
				groups[j] = rows[j : j+1]
			}
			return groups
		}
	}
	return [][]newRow{rows}
}

// prepare makes the row of a checkpoint to store over head: a snapshot, or
// a delta against its parent's chain (parent, when given and cp's parent,
// else the cached or stored one).
func (c *saver) prepare(ctx context.Context, cp graph.Checkpoint, head string, parent *chain) (newRow, error) {
	if err := CheckPut(cp, head); err != nil {
		return newRow{}, err
	}
	interrupts, err := encodeInterrupts(cp.Interrupts)
	if err != nil {
		return newRow{}, err
	}
	if cp.CreatedAt.IsZero() {
		cp.CreatedAt = time.Now()
	}
	cp.Update = slices.Clone(cp.Update) // the cached chain keeps it
	if parent == nil || parent.id != cp.ParentID {
		if parent, err = c.parentChain(ctx, cp); err != nil {
			return newRow{}, err
		}
	}
	state, delta, ch := c.plan(cp, parent)
	update := cp.Update
	if delta != nil {
		update = storedUpdate(cp.Update, parent)
	}
	return newRow{cp: cp, head: head, baseID: ch.baseID, state: state, delta: delta, update: update,
		interrupts: interrupts, chain: ch}, nil
}

// parentChain returns the chain of cp's parent, or nil when cp must be a
// snapshot.
func (c *saver) parentChain(ctx context.Context, cp graph.Checkpoint) (*chain, error) {
	if c.opts.FullState || cp.ParentID == "" || cp.ParentID >= cp.ID {
		return nil, nil
	}
	if ch, ok := c.cache.get(cp.ThreadID, cp.ParentID); ok {
		return ch, nil
	}
	_, ch, err := c.one(ctx, c.pool, cp.ThreadID, cp.ParentID)
	if errors.Is(err, graph.ErrNotFound) {
		return nil, nil
	}
	return ch, err
}

// plan chooses between a snapshot and a delta. It returns the state or the
// delta to store, and the new checkpoint's chain. The state is the
// caller's, and the chain is cached: a delta's chain is rebuilt from its
// parent's, the delta and the update, and only a snapshot's keeps (a copy
// of) the state, so the state is copied only for a snapshot.
func (c *saver) plan(cp graph.Checkpoint, parent *chain) (state, delta []byte, ch *chain) {
	if parent == nil || parent.state == nil {
		return snapshot(cp, parent)
	}
	obj, err := parseAfter(cp.State, parent.state)
	if err != nil {
		return snapshot(cp, parent)
	}
	delta = makeDelta(parent.state, obj, cp.Update)
	cost := parent.cost + len(delta) + len(cp.Update) + rowCost
	limit := max(c.opts.SnapshotRatio*float64(parent.baseSize), minChainBytes)
	if parent.depth >= c.opts.MaxChain || float64(cost) > limit {
		return snapshot(cp, parent)
	}
	rebuilt, err := applyDelta(parent.state, delta, cp.Update)
	if err != nil || !rebuilt.encodes(cp.State) {
		return snapshot(cp, parent)
	}
	// The rebuilt state shares the parent's elements, where the parsed one
	// points into the caller's state: cache that one.
	return nil, delta, &chain{id: cp.ID, state: rebuilt, update: cp.Update, baseID: parent.baseID,
		baseSize: parent.baseSize, depth: parent.depth + 1, cost: cost}
}

// snapshot returns a snapshot's state to store and its chain, which holds
// a copy of the state split into its members (sharing those that repeat
// its parent's, when it has one), or no state when it does not split.
func snapshot(cp graph.Checkpoint, parent *chain) (state, delta []byte, ch *chain) {
	raw := slices.Clone(cp.State)
	var obj object
	var err error
	if parent != nil {
		obj, err = parseAfter(raw, parent.state)
	} else {
		obj, err = parseObject(raw)
	}
	if err != nil {
		obj = nil
	}
	return raw, nil, &chain{id: cp.ID, state: obj, update: cp.Update, baseID: cp.ID, baseSize: len(raw)}
}

// newRow is a checkpoint row to insert.
type newRow struct {
	cp           graph.Checkpoint
	head         string // the thread head the writer expects
	baseID       string
	state, delta []byte
	update       []byte // as stored: copies from the parent where it can
	interrupts   []byte
	chain        *chain // the checkpoint's, cached once it is stored
}

// insertSQL is the statement that writes a group of checkpoint rows, each
// over the one before it and the first over its head, if the thread's head
// is still that, and moves the head to the last of them.
func (c *saver) insertSQL(ctx context.Context, group []newRow) (string, []any, error) {
	args := make([]any, 0, insertFixedArgs+4+insertRowArgs*len(group))
	args = append(args, group[0].cp.ThreadID, nullable(group[0].head))
	shape := insertShape{rows: len(group), owned: c.owner != "", fenced: c.fence != nil,
		creates: c.owner != "" && group[0].head == ""}
	c.ownerArg(&args)
	c.fenceArgs(&args)
	for _, row := range group {
		var err error
		if args, err = appendRowArgs(args, row); err != nil {
			return "", nil, err
		}
	}
	return shape.text(), args, nil
}

// insertFixedArgs are the parameters of an insert before the owner's and
// the fence's: the thread and the head it expects.
const insertFixedArgs = 2

// insertRowArgs are the parameters of each row of an insert, in the order
// of insertColumns after thread_id and owner_id; created_at is the one at
// rowCreatedAt (from 0), which the head's time is moved to.
const (
	insertRowArgs = 13
	rowCreatedAt  = 11
)

// appendRowArgs appends a row's parameters to args.
func appendRowArgs(args []any, row newRow) ([]any, error) {
	cp := row.cp
	next, err := encodeNext(cp.Next)
	if err != nil {
		return nil, err
	}
	return append(args, cp.ID, nullable(cp.ParentID), row.baseID, cp.Step, cp.Node, next,
		cp.Metadata.Source, nullable(cp.Metadata.RunID), packed(row.state), packed(row.delta),
		packed(nilIfEmptyBytes(row.update)), cp.CreatedAt, row.interrupts), nil
}

// insertShape is what an insert's statement text depends on. The texts
// are made once each: pgx's statement cache finds a statement by its
// text, and a run's checkpointer (ForRun) is made anew for each run.
type insertShape struct {
	rows                   int
	owned, fenced, creates bool
}

// insertTexts holds the texts of the inserts of up to cachedRows rows,
// by shape; larger ones are made each time.
var insertTexts [2][2][2][cachedRows + 1]atomic.Pointer[string]

// cachedRows is the most rows of an insert whose text is kept: an async
// run's batches are at most 16 checkpoints (the engine's maxAsyncBatch).
const cachedRows = 16

// text returns the kept text of an insert of this shape, made on first
// use.
func (s insertShape) text() string {
	if s.rows > cachedRows {
		return s.sql()
	}
	slot := &insertTexts[b2i(s.owned)][b2i(s.fenced)][b2i(s.creates)][s.rows]
	if q := slot.Load(); q != nil {
		return *q
	}
	q := s.sql()
	slot.Store(&q)
	return q
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// insertRowTypes are the types of a row's parameters, as a VALUES list
// must be told them.
var insertRowTypes = [insertRowArgs]string{"uuid", "uuid", "uuid", "int", "text", "text", "text", "uuid",
	"bytea", "bytea", "bytea", "timestamptz", "bytea"}

// sql makes the statement text of an insert of this shape.
func (s insertShape) sql() string {
	n := insertFixedArgs + 1 // the next parameter's number
	var cond string
	if s.owned {
		cond = ownerSQL(n)
		n++
	}
	if s.fenced {
		cond += fenceSQL(n)
		n += 3
	}
	// The head moves to the last row's id (the first of a row's
	// parameters) and time; the first row's id must sort after the head it
	// expects.
	first := n
	last := n + insertRowArgs*(s.rows-1)
	lastAt := last + rowCreatedAt
	var rows strings.Builder
	for i := range s.rows {
		if i > 0 {
			rows.WriteString(", ")
		}
		rows.WriteByte('(')
		for j, typ := range insertRowTypes {
			if j > 0 {
				rows.WriteString(", ")
			}
			fmt.Fprintf(&rows, "$%d::%s", n, typ)
			n++
		}
		rows.WriteByte(')')
	}
	return `WITH t AS (` + moveHeadSQL(s.creates, cond, first, last, lastAt) + `)
		INSERT INTO checkpoints (thread_id, owner_id, id, parent_id, base_id, step, node, next, source, run_id,
			state, delta, update_json, created_at, interrupts)
		SELECT t.id, t.owner_id, v.* FROM t, (VALUES ` + rows.String() + `) AS v`
}

// inserted explains the result of a group's insert: nil when it stored
// the rows, otherwise why not, as Put would say of the group's first row
// (a refused head or a lost fence refuses the first; ids in a group sort
// in order, so none but the first can be refused for its own).
func (c *saver) inserted(ctx context.Context, group []newRow, tag pgconn.CommandTag, err error) error {
	cp, head := group[0].cp, group[0].head
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == "23505":
		return errcode.New(errcode.Conflict, "checkpoint %s of thread %s exists already", existing(group, pgErr), cp.ThreadID)
	case errors.As(err, &pgErr) && pgErr.Code == "23503":
		return NotFound("Thread with ID %s not found", cp.ThreadID)
	case err != nil:
		return fmt.Errorf("saving checkpoint %s of thread %s: %w", cp.ID, cp.ThreadID, err)
	case tag.RowsAffected() == 0 && c.fence != nil && !c.holds(ctx, cp.ThreadID, *c.fence):
		return c.fence.lost()
	case tag.RowsAffected() == 0:
		return c.refused(ctx, cp.ThreadID, cp.ID, head)
	}
	return nil
}

// existing names the checkpoint of group that a unique violation's detail
// names, or the group's first.
func existing(group []newRow, pgErr *pgconn.PgError) string {
	for _, row := range group {
		if strings.Contains(pgErr.Detail, row.cp.ID) {
			return row.cp.ID
		}
	}
	return group[0].cp.ID
}

// moveHeadSQL is the statement that moves a thread's head to checkpoint
// $last (created at $lastAt) if it is still $2 and the insert's first
// checkpoint, $first, sorts after it, and returns the thread's id and
// owner. An Owned's moves only its owner's threads (cond holds the owner's
// and the fence's conditions; the owner's id is $3), and creates a missing
// thread (creates), theirs, with its first checkpoint; a run's moves it
// only while its fence holds.
func moveHeadSQL(creates bool, cond string, first, last, lastAt int) string {
	to := fmt.Sprintf("$%d::uuid", last)
	at := fmt.Sprintf("$%d::timestamptz", lastAt)
	if creates {
		return `INSERT INTO threads AS th (id, owner_id, head, head_at) VALUES ($1, $3::uuid, ` + to + `, ` + at + `)
			ON CONFLICT (id) DO UPDATE SET head = excluded.head, head_at = excluded.head_at, updated_at = now()
			WHERE th.head IS NULL AND $2::uuid IS NULL` + cond + `
			RETURNING th.id, th.owner_id`
	}
	return `UPDATE threads AS th SET head = ` + to + `, head_at = ` + at + `, updated_at = now()
		WHERE th.id = $1 AND th.head IS NOT DISTINCT FROM $2::uuid
			AND ($2::uuid IS NULL OR $` + strconv.Itoa(first) + `::uuid > $2::uuid)` + cond + `
		RETURNING th.id, th.owner_id`
}

// refused explains a write that inserted nothing: the thread is missing (or
// another owner's), its head moved, or (when the head is still the expected
// one, since a head never moves back) the checkpoint does not sort after it.
func (c *saver) refused(ctx context.Context, threadID, id, expected string) error {
	var actual *string
	args := []any{threadID}
	err := c.pool.QueryRow(ctx, `SELECT head FROM threads th WHERE th.id = $1`+c.ownerCond(&args), args...).Scan(&actual)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return NotFound("Thread with ID %s not found", threadID)
	case err != nil:
		return fmt.Errorf("reading the head of thread %s: %w", threadID, err)
	}
	conflict := &graph.ConflictError{ThreadID: threadID, Expected: expected}
	if actual != nil {
		conflict.Actual = *actual
	}
	if conflict.Actual == expected {
		return InvalidID(fmt.Errorf("saving checkpoint %s: it does not sort after the head %s: %w", id, expected, graph.ErrInvalidID))
	}
	return &errcode.Error{Code: errcode.Conflict, Message: fmt.Sprintf("thread %s was written concurrently", threadID), Err: conflict}
}

// KnownHead returns the newest checkpoint of a thread this process's
// savers wrote or read, from the cache, if it holds it: for an Owned, one
// its owner's checkpointer wrote or read. It may be stale, and the engine
// uses it only where a stale head costs nothing (graph.HeadKnower). A
// run's checkpointer that writes a companion's statements (ForRun) knows
// none: a refused write would still commit them, so its run reads the
// head first.
func (c *saver) KnownHead(threadID string) (graph.Checkpoint, bool) {
	if c.companion != nil {
		return graph.Checkpoint{}, false
	}
	return c.cache.head(threadID, c.owner)
}

// Latest returns the newest checkpoint of a thread.
func (c *saver) Latest(ctx context.Context, threadID string) (graph.Checkpoint, error) {
	if err := graph.CheckID("thread id", threadID); err != nil {
		return graph.Checkpoint{}, InvalidID(err)
	}
	return c.oneRead(ctx, threadID, "")
}

// Get returns one checkpoint of a thread.
func (c *saver) Get(ctx context.Context, threadID, checkpointID string) (graph.Checkpoint, error) {
	if err := errors.Join(graph.CheckID("thread id", threadID), graph.CheckID("checkpoint id", checkpointID)); err != nil {
		return graph.Checkpoint{}, InvalidID(err)
	}
	return c.oneRead(ctx, threadID, checkpointID)
}

// oneRead is one, for a reader: served where the saver's reads say.
func (c *saver) oneRead(ctx context.Context, threadID, id string) (cp graph.Checkpoint, err error) {
	err = c.reading(ctx, func(q replica.Querier) error {
		cp, _, err = c.one(ctx, q, threadID, id)
		return err
	})
	return cp, err
}

// reading runs read where the saver's reads are served.
func (c *saver) reading(ctx context.Context, read func(replica.Querier) error) error {
	if c.reads == nil {
		return read(c.pool)
	}
	return c.reads.Read(ctx, read)
}

// List returns a thread's checkpoints, newest first.
func (c *saver) List(ctx context.Context, threadID string, opts graph.ListOptions) ([]graph.Checkpoint, error) {
	if err := graph.CheckID("thread id", threadID); err != nil {
		return nil, InvalidID(err)
	}
	if opts.Before != "" {
		if err := graph.CheckID("list cursor", opts.Before); err != nil {
			return nil, InvalidID(err)
		}
	}
	var rows []cpRow
	err := c.reading(ctx, func(q replica.Querier) (err error) {
		rows, err = c.read(ctx, q, threadID, "", opts.Before, opts.Limit)
		return err
	})
	if err != nil {
		if errors.Is(err, graph.ErrNotFound) {
			return nil, nil
		}
		return nil, err
	}
	var out []graph.Checkpoint
	resolved, err := resolve(threadID, rows, nil)
	if err != nil {
		return nil, err
	}
	for i := len(rows) - 1; i >= 0; i-- {
		if rows[i].wanted {
			out = append(out, resolved[rows[i].id].checkpoint)
		}
	}
	return out, nil
}

// one reads a checkpoint (the newest when id is "") and its chain.
func (c *saver) one(ctx context.Context, q replica.Querier, threadID, id string) (graph.Checkpoint, *chain, error) {
	head, err := c.readOne(ctx, q, threadID, id)
	if err != nil {
		return graph.Checkpoint{}, nil, err
	}
	if head == nil {
		return graph.Checkpoint{}, nil, missing(threadID, id)
	}
	if r, ok := c.fromCache(threadID, *head); ok {
		return r.checkpoint, r.chain, nil
	}
	// The chain the row's delta starts from is not cached: read it whole,
	// up to this row.
	rows, err := c.read(ctx, q, threadID, head.id, "", 1)
	if err != nil {
		return graph.Checkpoint{}, nil, err
	}
	if len(rows) == 0 { // deleted meanwhile
		return graph.Checkpoint{}, nil, missing(threadID, id)
	}
	resolved, err := resolve(threadID, rows, nil)
	if err != nil {
		return graph.Checkpoint{}, nil, err
	}
	r := resolved[rows[len(rows)-1].id]
	c.cache.put(threadID, r.chain, r.checkpoint, c.owner)
	return r.checkpoint, r.chain, nil
}

// missing is the error of a thread without checkpoints (id "") or without
// checkpoint id.
func missing(threadID, id string) error {
	if id == "" {
		return NotFound("thread %s has no checkpoint", threadID)
	}
	return NotFound("no checkpoint %s in thread %s", id, threadID)
}

// readOne fetches one checkpoint's row (the newest when id is ""), or nil
// when there is none.
func (c *saver) readOne(ctx context.Context, db replica.Querier, threadID, id string) (*cpRow, error) {
	page, args := c.pageSQL(threadID, id, "")
	q := `SELECT c.id, c.parent_id, c.step, c.node, c.next, c.source, c.run_id,
			c.state, c.delta, c.update_json, c.created_at, c.interrupts, true
		FROM checkpoints c WHERE ` + page + ` ORDER BY c.id DESC LIMIT 1`
	var r cpRow
	err := db.QueryRow(ctx, q, args...).Scan(&r.id, &r.parentID, &r.step, &r.node, &r.next, &r.source, &r.runID,
		&r.state, &r.delta, &r.update, &r.createdAt, &r.interrupts, &r.wanted)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, readError(err, threadID)
	}
	return &r, r.unpack()
}

// fromCache rebuilds a row read alone: a snapshot, or a delta whose
// checkpoint or parent has its chain cached (a thread's newest checkpoint,
// written or read by this process, usually has).
func (c *saver) fromCache(threadID string, r cpRow) (rebuilt, bool) {
	done := map[string]rebuilt{}
	if r.delta != nil {
		if ch, ok := c.cache.get(threadID, r.id); ok && ch.state != nil {
			r.update = ch.update
			cp, err := r.checkpoint(threadID, ch.state.encode())
			return rebuilt{checkpoint: cp, chain: ch}, err == nil
		}
		if r.parentID == nil {
			return rebuilt{}, false
		}
		parent, ok := c.cache.get(threadID, *r.parentID)
		if !ok || parent.state == nil {
			return rebuilt{}, false
		}
		done[parent.id] = rebuilt{chain: parent}
	}
	resolved, err := resolve(threadID, []cpRow{r}, done)
	if err != nil {
		return rebuilt{}, false
	}
	out, ok := resolved[r.id]
	if ok {
		c.cache.put(threadID, out.chain, out.checkpoint, c.owner)
	}
	return out, ok
}

// read fetches the rows needed to rebuild a page of checkpoints: the page
// (flagged wanted) and every row between the oldest snapshot its chains
// start from and its newest checkpoint, oldest first. It is one statement,
// so it sees one snapshot of the database.
func (c *saver) read(ctx context.Context, db replica.Querier, threadID, id, before string, limit int) ([]cpRow, error) {
	q, args := c.readSQL(threadID, id, before, limit)
	rows, err := db.Query(ctx, q, args...)
	if err != nil {
		return nil, readError(err, threadID)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (cpRow, error) {
		var r cpRow
		err := row.Scan(&r.id, &r.parentID, &r.step, &r.node, &r.next, &r.source, &r.runID,
			&r.state, &r.delta, &r.update, &r.createdAt, &r.interrupts, &r.wanted)
		if err != nil {
			return r, err
		}
		return r, r.unpack()
	})
	if err != nil {
		return nil, readError(err, threadID)
	}
	return list, nil
}

// readSQL builds read's statement.
func (c *saver) readSQL(threadID, id, before string, limit int) (string, []any) {
	cond, args := c.pageSQL(threadID, id, before)
	page := `SELECT c.id, c.base_id FROM checkpoints c WHERE ` + cond
	page += ` ORDER BY c.id DESC`
	if limit > 0 {
		page += ` LIMIT ` + strconv.Itoa(limit)
	}
	return `WITH page AS (` + page + `)
		SELECT c.id, c.parent_id, c.step, c.node, c.next, c.source, c.run_id,
			c.state, c.delta, c.update_json, c.created_at, c.interrupts,
			EXISTS (SELECT 1 FROM page p WHERE p.id = c.id)
		FROM checkpoints c
		WHERE c.thread_id = $1
			AND c.id >= (SELECT base_id FROM page ORDER BY base_id LIMIT 1)
			AND c.id <= (SELECT id FROM page ORDER BY id DESC LIMIT 1)
		ORDER BY c.id`, args
}

// pageSQL is the condition on checkpoints c of a page: thread $1, the
// checkpoint id or those before before, the owner's.
func (c *saver) pageSQL(threadID, id, before string) (string, []any) {
	args := []any{threadID}
	page := `c.thread_id = $1`
	if id != "" {
		args = append(args, id)
		page += ` AND c.id = $` + strconv.Itoa(len(args))
	}
	if before != "" {
		args = append(args, before)
		page += ` AND c.id < $` + strconv.Itoa(len(args))
	}
	if c.owner != "" {
		args = append(args, c.owner)
		page += ` AND EXISTS (SELECT 1 FROM threads t WHERE t.id = $1 AND t.owner_id = $` + strconv.Itoa(len(args)) + `)`
	}
	return page, args
}

// readError wraps an error of a checkpoint read.
func readError(err error, threadID string) error {
	return fmt.Errorf("reading checkpoints of thread %s: %w", threadID, err)
}

// cpRow is one row of the checkpoints table.
type cpRow struct {
	id, source           string
	parentID, runID      *string
	step                 int
	node                 string
	next                 *string
	state, delta, update []byte
	interrupts           []byte
	createdAt            time.Time
	wanted               bool
}

// rebuilt is a checkpoint read back, with its chain.
type rebuilt struct {
	checkpoint graph.Checkpoint
	chain      *chain
}

// resolve rebuilds the states of rows, which are in id order, so that each
// parent comes before its children. A row whose chain starts before the
// first row is skipped; it is an error only if it was wanted.
func resolve(threadID string, rows []cpRow, parents map[string]rebuilt) (map[string]rebuilt, error) {
	out := parents
	if out == nil {
		out = make(map[string]rebuilt, len(rows))
	}
	for _, r := range rows {
		ch, state, err := rebuildState(&r, out)
		var cp graph.Checkpoint
		if err == nil && r.wanted {
			cp, err = r.checkpoint(threadID, state)
		}
		if err != nil {
			if r.wanted {
				return nil, fmt.Errorf("rebuilding checkpoint %s of thread %s: %w", r.id, threadID, err)
			}
			continue
		}
		out[r.id] = rebuilt{checkpoint: cp, chain: ch}
	}
	return out, nil
}

// rebuildState returns a row's chain and, when it is wanted, its state JSON.
// It turns the row's stored update back into the update.
func rebuildState(r *cpRow, done map[string]rebuilt) (*chain, []byte, error) {
	if r.delta == nil {
		obj, err := parseObject(r.state)
		if err != nil {
			obj = nil
		}
		return &chain{id: r.id, state: obj, update: r.update, baseID: r.id, baseSize: len(r.state)}, r.state, nil
	}
	if r.parentID == nil {
		return nil, nil, errors.New("a delta without a parent")
	}
	p, ok := done[*r.parentID]
	if !ok || p.chain.state == nil {
		return nil, nil, fmt.Errorf("parent %s is missing from the delta chain", *r.parentID)
	}
	update, err := readUpdate(r.update, p.chain)
	if err != nil {
		return nil, nil, err
	}
	r.update = update
	obj, err := applyDelta(p.chain.state, r.delta, r.update)
	if err != nil {
		return nil, nil, err
	}
	ch := &chain{id: r.id, state: obj, update: r.update, baseID: p.chain.baseID, baseSize: p.chain.baseSize,
		depth: p.chain.depth + 1, cost: p.chain.cost + len(r.delta) + len(r.update) + rowCost}
	var state []byte
	if r.wanted {
		state = obj.encode()
	}
	return ch, state, nil
}

// checkpoint turns a row and its rebuilt state into a graph.Checkpoint.
func (r cpRow) checkpoint(threadID string, state []byte) (graph.Checkpoint, error) {
	cp := graph.Checkpoint{
		ThreadID:  threadID,
		ID:        r.id,
		Step:      r.step,
		Node:      r.node,
		State:     state,
		Update:    slices.Clone(r.update), // the cached chain may hold r.update
		Metadata:  graph.Metadata{Source: r.source},
		CreatedAt: r.createdAt,
	}
	if r.next != nil {
		json.Unmarshal([]byte(*r.next), &cp.Next) // written by encodeNext
	}
	if r.parentID != nil {
		cp.ParentID = *r.parentID
	}
	if r.runID != nil {
		cp.Metadata.RunID = *r.runID
	}
	if r.interrupts != nil {
		list, err := decodeInterrupts(r.interrupts)
		if err != nil {
			return cp, err
		}
		cp.Interrupts = list
	}
	return cp, nil
}

// ownerCond is the SQL condition that limits a query of threads (as th)
// to an Owned's owner, whose id it appends to args; none for a Saver.
func (c *saver) ownerCond(args *[]any) string {
	if !c.ownerArg(args) {
		return ""
	}
	return ownerSQL(len(*args))
}

// ownerArg appends an Owned's owner to args, and reports whether it did.
func (c *saver) ownerArg(args *[]any) bool {
	if c.owner == "" {
		return false
	}
	*args = append(*args, c.owner)
	return true
}

// ownerSQL is ownerCond's condition, the owner's id being parameter n.
func ownerSQL(n int) string { return " AND th.owner_id = $" + strconv.Itoa(n) + "::uuid" }

// CheckPut applies graph.Checkpointer's id rule to what Put is given: a
// BAD_REQUEST matching graph.ErrInvalidID when it breaks it.
func CheckPut(cp graph.Checkpoint, head string) error {
	check := func(what, id string) error {
		if id == "" {
			return nil
		}
		return graph.CheckID(what, id)
	}
	err := errors.Join(graph.CheckID("thread id", cp.ThreadID), graph.CheckID("checkpoint id", cp.ID),
		check("parent checkpoint id", cp.ParentID), check("run id", cp.Metadata.RunID), check("head checkpoint id", head))
	if err != nil {
		return InvalidID(fmt.Errorf("saving a checkpoint: %w", err))
	}
	return nil
}

// InvalidID is a BAD_REQUEST error that also matches graph.ErrInvalidID.
func InvalidID(err error) error {
	return &errcode.Error{Code: errcode.BadRequest, Message: "malformed id: thread, checkpoint and run ids are lowercase UUIDs", Err: err}
}

// NotFound is a NOT_FOUND error that also matches graph.ErrNotFound.
func NotFound(format string, args ...any) error {
	return &errcode.Error{Code: errcode.NotFound, Message: fmt.Sprintf(format, args...), Err: graph.ErrNotFound}
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// encodeNext stores a checkpoint's next nodes as a JSON array, or NULL:
// as encoding/json writes it, which node names with none of the bytes it
// escapes are written as they are.
func encodeNext(next []string) (any, error) {
	if len(next) == 0 {
		return nil, nil
	}
	if plain(next) {
		n := 2 + len(next)
		for _, name := range next {
			n += len(name) + 2
		}
		b := make([]byte, 0, n)
		b = append(b, '[')
		for i, name := range next {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(append(append(b, '"'), name...), '"')
		}
		return string(append(b, ']')), nil
	}
	b, err := json.Marshal(next)
	if err != nil {
		return nil, fmt.Errorf("encoding next nodes: %w", err)
	}
	return string(b), nil
}

// plain reports whether names hold only printable ASCII that encoding/json
// writes as it is, with none of the bytes it escapes.
func plain(names []string) bool {
	for _, name := range names {
		for i := range len(name) {
			switch c := name[i]; {
			case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
				return false
			}
		}
	}
	return true
}

// storedInterrupt is a pending interrupt as stored: its JSON values are
// kept as strings, so that they read back byte for byte.
type storedInterrupt struct {
	ID      string   `json:"id"`
	Node    string   `json:"node"`
	Payload string   `json:"payload,omitempty"`
	Answers []string `json:"answers,omitempty"`
}

// encodeInterrupts stores a checkpoint's interrupts as a JSON array, or
// NULL when there are none.
func encodeInterrupts(list []graph.PendingInterrupt) ([]byte, error) {
	if len(list) == 0 {
		return nil, nil
	}
	stored := make([]storedInterrupt, len(list))
	for i, in := range list {
		stored[i] = storedInterrupt{ID: in.ID, Node: in.Node, Payload: string(in.Payload)}
		for _, a := range in.Answers {
			stored[i].Answers = append(stored[i].Answers, string(a))
		}
	}
	b, err := json.Marshal(stored)
	if err != nil {
		return nil, fmt.Errorf("encoding pending interrupts: %w", err)
	}
	return b, nil
}

// decodeInterrupts reads what encodeInterrupts stored.
func decodeInterrupts(b []byte) ([]graph.PendingInterrupt, error) {
	var stored []storedInterrupt
	if err := json.Unmarshal(b, &stored); err != nil {
		return nil, fmt.Errorf("reading pending interrupts: %w", err)
	}
	out := make([]graph.PendingInterrupt, len(stored))
	for i, in := range stored {
		out[i] = graph.PendingInterrupt{ID: in.ID, Node: in.Node}
		if in.Payload != "" {
			out[i].Payload = json.RawMessage(in.Payload)
		}
		for _, a := range in.Answers {
			out[i].Answers = append(out[i].Answers, json.RawMessage(a))
		}
	}
	return out, nil
}

func nilIfEmptyBytes(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}
