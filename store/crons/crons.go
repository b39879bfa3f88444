// Package crons keeps scheduled runs, as LangGraph's clients call them
// (/runs/crons): a cron expression in a time zone, an optional end time,
// the run to start each time it is due, on a thread or on a new thread
// each time. Each user's crons are apart: Owned reaches one user's only.
//
// Firing is Fire: any number of processes may call it at once, and each
// due time of a cron starts exactly one run, because the claim of a due
// cron (FOR NO KEY UPDATE SKIP LOCKED), the run it starts and its next due
// time commit in one transaction. A process that dies mid-way starts
// nothing: its transaction rolls back and the cron is due still.
package crons

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/robfig/cron/v3"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store/quota"
)

// What to do with a thread made for one run of a cron without a thread.
const (
	OnCompletedDelete = "delete"
	OnCompletedKeep   = "keep"
)

// Cron is a scheduled run.
type Cron struct {
	ID          string
	UserID      string
	ThreadID    string // "" for a new thread each run
	AssistantID string
	Schedule    string
	Timezone    string // an IANA zone; the schedule's times are read there
	Payload     json.RawMessage
	Job         json.RawMessage // what each run executes, as the runner stores it
	Metadata    json.RawMessage
	Enabled     bool
	OnCompleted string
	EndTime     *time.Time
	NextRunAt   *time.Time // nil: never again
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// parser reads the five-field cron expressions LangGraph takes, and the
// descriptors (@hourly, @daily, @every 1h…).
var parser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// Next is the first time after after at which a schedule in a zone is due,
// or nil when that is past end (or never). It refuses a schedule or a zone
// it cannot read (BAD_REQUEST), and a schedule that may be due again
// sooner than limits allow (quota.Limits.CheckCronInterval).
func Next(schedule, zone string, after time.Time, end *time.Time, limits quota.Limits) (*time.Time, error) {
	sched, loc, err := parse(schedule, zone)
	if err != nil {
		return nil, err
	}
	if err := limits.CheckCronInterval(schedule, shortest(sched, after.In(loc), limits.CronInterval)); err != nil {
		return nil, err
	}
	next := sched.Next(after.In(loc))
	if next.IsZero() || end != nil && next.After(*end) {
		return nil, nil
	}
	next = next.UTC()
	return &next, nil
}

func parse(schedule, zone string) (cron.Schedule, *time.Location, error) {
	if zone == "" {
		zone = "UTC"
	}
	loc, err := time.LoadLocation(zone)
	if err != nil || zone == "Local" {
		return nil, nil, errcode.New(errcode.BadRequest, "%q is not a time zone (say one such as Europe/Lisbon or UTC)", zone)
	}
	sched, err := parser.Parse(schedule)
	if err != nil {
		return nil, nil, errcode.New(errcode.BadRequest, "%q is not a cron schedule: %s", schedule, err.Error())
	}
	return sched, loc, nil
}

// shortest is the shortest time sched leaves between two of its due
// times, as far as a limit of interval needs to know: an @every's delay;
// a cron expression's is at least a minute, its finest field, and when
// interval is longer, the shortest between its next gapsSeen due times
// after from.
func shortest(sched cron.Schedule, from time.Time, interval time.Duration) time.Duration {
	if every, ok := sched.(cron.ConstantDelaySchedule); ok {
		return every.Delay
	}
	gap := time.Duration(math.MaxInt64)
	if interval <= time.Minute {
		return gap
	}
	prev := sched.Next(from)
	for range gapsSeen {
		next := sched.Next(prev)
		if next.IsZero() {
			break
		}
		if gap = min(gap, next.Sub(prev)); gap < interval {
			break
		}
		prev = next
	}
	return gap
}

// gapsSeen is how many due times of a cron expression shortest looks at:
// three days of one every five minutes.
const gapsSeen = 1000

// Store is the crons of every user; ForOwner is one user's part.
type Store struct {
	pool   *pgxpool.Pool
	limits quota.Limits
}

// New is the store on pool, holding each user to limits' crons and cron
// interval (quota.Default's where not set).
func New(pool *pgxpool.Pool, limits quota.Limits) *Store {
	return &Store{pool: pool, limits: limits.OrDefault()}
}

// Owned is one user's crons: every method reaches that user's only, and
// another user's cron is NOT_FOUND.
type Owned struct {
	s      *Store
	userID string
}

// ForOwner is userID's part of the store.
func (s *Store) ForOwner(userID string) Owned { return Owned{s: s, userID: userID} }

const columns = `id::text, user_id::text, coalesce(thread_id::text, ''), assistant_id, schedule, timezone, payload, job,
	metadata, enabled, on_run_completed, end_time, next_run_at, created_at, updated_at`

func scan(row pgx.CollectableRow) (Cron, error) {
	var c Cron
	err := row.Scan(&c.ID, &c.UserID, &c.ThreadID, &c.AssistantID, &c.Schedule, &c.Timezone, &c.Payload, &c.Job,
		&c.Metadata, &c.Enabled, &c.OnCompleted, &c.EndTime, &c.NextRunAt, &c.CreatedAt, &c.UpdatedAt)
	return c, err
}

// NewCron is a cron to create.
type NewCron struct {
	ThreadID    string // "": a new thread each run
	AssistantID string
	Schedule    string
	Timezone    string // "" is UTC
	Payload     json.RawMessage
	Job         json.RawMessage
	Metadata    json.RawMessage
	Enabled     bool
	OnCompleted string // OnCompletedDelete when ""
	EndTime     *time.Time
}

// Check checks a cron to create, and returns it with its defaults filled
// in (UTC, OnCompletedDelete, {} for a payload or metadata not given)
// and its first due time after now (nil when it ends before). A schedule
// or a zone it cannot read, an on_run_completed other than delete or keep,
// or a payload or metadata that is not a JSON object is a BAD_REQUEST;
// a schedule due again sooner than limits allow is a LIMIT_EXCEEDED; the
// job (which the server makes, not the client) must be JSON.
func (nc NewCron) Check(now time.Time, limits quota.Limits) (NewCron, *time.Time, error) {
	if nc.Timezone == "" {
		nc.Timezone = "UTC"
	}
	if nc.OnCompleted == "" {
		nc.OnCompleted = OnCompletedDelete
	}
	if err := checkOnCompleted(nc.OnCompleted); err != nil {
		return nc, nil, err
	}
	var err error
	if nc.Payload, err = object(nc.Payload, "payload"); err != nil {
		return nc, nil, err
	}
	if nc.Metadata, err = object(nc.Metadata, "metadata"); err != nil {
		return nc, nil, err
	}
	if err := checkJob(nc.Job); err != nil {
		return nc, nil, err
	}
	next, err := Next(nc.Schedule, nc.Timezone, now, nc.EndTime, limits)
	return nc, next, err
}

// Create stores a cron, first due at the schedule's next time after now.
// A thread must be the owner's. An owner who keeps the most crons the
// limits allow is refused one more (quota.Limits.CheckCrons), checked in
// the transaction that adds it, after the owner's row is locked: two
// processes cannot both add the last one.
func (o Owned) Create(ctx context.Context, nc NewCron) (Cron, error) {
	nc, next, err := nc.Check(time.Now(), o.s.limits)
	if err != nil {
		return Cron{}, err
	}
	var c Cron
	err = pgx.BeginFunc(ctx, o.s.pool, func(tx pgx.Tx) error {
		if err := o.roomForOneMore(ctx, tx); err != nil {
			return err
		}
		c, err = o.insert(ctx, tx, nc, next)
		return err
	})
	return c, err
}

// roomForOneMore locks the owner's row, then counts their crons, and
// refuses one more past the limit.
func (o Owned) roomForOneMore(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, quota.LockUser, o.userID); err != nil {
		return fmt.Errorf("locking the crons of user %s: %w", o.userID, err)
	}
	var have int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM crons WHERE user_id = $1`, o.userID).Scan(&have); err != nil {
		return fmt.Errorf("counting the crons of user %s: %w", o.userID, err)
	}
	return o.s.limits.CheckCrons(have)
}

// insert adds a checked cron, first due at next.
func (o Owned) insert(ctx context.Context, tx pgx.Tx, nc NewCron, next *time.Time) (Cron, error) {
	rows, err := tx.Query(ctx, `
		INSERT INTO crons (id, user_id, thread_id, assistant_id, schedule, timezone, payload, job, metadata,
			enabled, on_run_completed, end_time, next_run_at)
		SELECT $1::uuid, $2::uuid, t.id, $4, $5, $6, $7::jsonb, $8::jsonb, $9::jsonb, $10::boolean, $11, $12::timestamptz, $13::timestamptz
		FROM (SELECT NULL) one LEFT JOIN threads t ON t.id::text = $3 AND t.owner_id = $2
		WHERE $3 = '' OR t.id IS NOT NULL
		RETURNING `+columns,
		uuid.Must(uuid.NewV7()).String(), o.userID, nc.ThreadID, nc.AssistantID, nc.Schedule, nc.Timezone,
		raw(nc.Payload), raw(nc.Job), raw(nc.Metadata), nc.Enabled, nc.OnCompleted, nc.EndTime, next)
	if err != nil {
		return Cron{}, fmt.Errorf("creating a cron: %w", err)
	}
	c, err := pgx.CollectExactlyOneRow(rows, scan)
	if errors.Is(err, pgx.ErrNoRows) {
		return Cron{}, errcode.New(errcode.NotFound, "no thread %s", nc.ThreadID)
	}
	if err != nil {
		return Cron{}, writeError(err, "creating a cron")
	}
	return c, nil
}

// Get is one of the owner's crons.
func (o Owned) Get(ctx context.Context, id string) (Cron, error) {
	rows, err := o.s.pool.Query(ctx, `SELECT `+columns+` FROM crons WHERE id::text = $1 AND user_id = $2`, id, o.userID)
	if err != nil {
		return Cron{}, fmt.Errorf("reading cron %s: %w", id, err)
	}
	return one(rows, id)
}

// Change is what an update of a cron changes: the members set.
type Change struct {
	Schedule    *string
	Timezone    *string
	EndTime     *time.Time
	Payload     json.RawMessage // replaces the stored payload when set
	Job         json.RawMessage // and the job it makes
	Metadata    json.RawMessage // merged into the stored metadata
	Enabled     *bool
	OnCompleted *string
}

// Apply is c with the change made: its members replaced, its metadata
// merged (the change's keys replace the cron's), and its next due time
// after now worked out again. It refuses what NewCron.Check refuses.
func (ch Change) Apply(c Cron, now time.Time, limits quota.Limits) (Cron, error) {
	if ch.Schedule != nil {
		c.Schedule = *ch.Schedule
	}
	if ch.Timezone != nil {
		c.Timezone = *ch.Timezone
	}
	if ch.EndTime != nil {
		c.EndTime = ch.EndTime
	}
	if ch.Enabled != nil {
		c.Enabled = *ch.Enabled
	}
	if ch.OnCompleted != nil {
		if err := checkOnCompleted(*ch.OnCompleted); err != nil {
			return c, err
		}
		c.OnCompleted = *ch.OnCompleted
	}
	if len(ch.Payload) > 0 {
		payload, err := object(ch.Payload, "payload")
		if err != nil {
			return c, err
		}
		if err := checkJob(ch.Job); err != nil {
			return c, err
		}
		c.Payload, c.Job = payload, ch.Job
	}
	if len(ch.Metadata) > 0 {
		meta, err := merge(c.Metadata, ch.Metadata)
		if err != nil {
			return c, err
		}
		c.Metadata = meta
	}
	next, err := Next(c.Schedule, c.Timezone, now, c.EndTime, limits)
	if err != nil {
		return c, err
	}
	c.NextRunAt = next
	return c, nil
}

// Update changes a cron and works out its next due time again, in one
// transaction.
func (o Owned) Update(ctx context.Context, id string, ch Change) (Cron, error) {
	var out Cron
	err := pgx.BeginFunc(ctx, o.s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+columns+` FROM crons WHERE id::text = $1 AND user_id = $2 FOR UPDATE`, id, o.userID)
		if err != nil {
			return fmt.Errorf("reading cron %s: %w", id, err)
		}
		c, err := one(rows, id)
		if err != nil {
			return err
		}
		if c, err = ch.Apply(c, time.Now(), o.s.limits); err != nil {
			return err
		}
		rows, err = tx.Query(ctx, `
			UPDATE crons SET schedule = $3, timezone = $4, end_time = $5, enabled = $6, on_run_completed = $7,
				payload = $8, job = $9, metadata = $10, next_run_at = $11, updated_at = now()
			WHERE id::text = $1 AND user_id = $2
			RETURNING `+columns,
			id, o.userID, c.Schedule, c.Timezone, c.EndTime, c.Enabled, c.OnCompleted, raw(c.Payload), raw(c.Job),
			raw(c.Metadata), c.NextRunAt)
		if err != nil {
			return fmt.Errorf("updating cron %s: %w", id, err)
		}
		out, err = one(rows, id)
		return writeError(err, "updating a cron")
	})
	return out, err
}

// Delete removes one of the owner's crons.
func (o Owned) Delete(ctx context.Context, id string) error {
	tag, err := o.s.pool.Exec(ctx, `DELETE FROM crons WHERE id::text = $1 AND user_id = $2`, id, o.userID)
	if err != nil {
		return fmt.Errorf("deleting cron %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return errcode.New(errcode.NotFound, "no cron %s", id)
	}
	return nil
}

// Query is a search of crons.
type Query struct {
	AssistantID string
	ThreadID    string
	Enabled     *bool
	SortBy      string // a column of SortColumns; created_at when ""
	Ascending   bool
	Limit       int // 10 when 0
	Offset      int
}

// SortColumns are what a search may sort by.
var SortColumns = []string{"cron_id", "assistant_id", "thread_id", "created_at", "updated_at", "next_run_date", "end_time"}

var sortSQL = map[string]string{"cron_id": "id", "assistant_id": "assistant_id", "thread_id": "thread_id",
	"created_at": "created_at", "updated_at": "updated_at", "next_run_date": "next_run_at", "end_time": "end_time"}

// Check checks a search, and returns it with its defaults filled in:
// SortBy one of SortColumns (created_at when ""), a limit of 10 when 0.
// A column it does not know, or a limit or an offset below 0, is a
// BAD_REQUEST.
func (q Query) Check() (Query, error) {
	if q.SortBy == "" {
		q.SortBy = "created_at"
	}
	if !slices.Contains(SortColumns, q.SortBy) {
		return q, errcode.New(errcode.BadRequest, "sort_by %q is not one of the columns crons sort by", q.SortBy)
	}
	if q.Limit < 0 || q.Offset < 0 {
		return q, errcode.New(errcode.BadRequest, "limit and offset must be at least 0")
	}
	if q.Limit == 0 {
		q.Limit = 10
	}
	return q, nil
}

// Search lists the owner's crons: by q's column (nulls last), then by id,
// both in q's direction.
func (o Owned) Search(ctx context.Context, q Query) ([]Cron, error) {
	q, err := q.Check()
	if err != nil {
		return nil, err
	}
	col, dir := sortSQL[q.SortBy], "DESC"
	if q.Ascending {
		dir = "ASC"
	}
	rows, err := o.s.pool.Query(ctx, `SELECT `+columns+` FROM crons
		WHERE user_id = $1 AND ($2 = '' OR assistant_id = $2) AND ($3 = '' OR thread_id::text = $3)
			AND ($4::boolean IS NULL OR enabled = $4)
		ORDER BY `+col+` `+dir+` NULLS LAST, id `+dir+` LIMIT $5 OFFSET $6`,
		o.userID, q.AssistantID, q.ThreadID, q.Enabled, q.Limit, q.Offset)
	if err != nil {
		return nil, fmt.Errorf("searching crons: %w", err)
	}
	list, err := pgx.CollectRows(rows, scan)
	if err != nil {
		return nil, fmt.Errorf("searching crons: %w", err)
	}
	return list, nil
}

// Count counts the owner's crons of an assistant or thread ("": any).
func (o Owned) Count(ctx context.Context, assistantID, threadID string) (int, error) {
	var n int
	err := o.s.pool.QueryRow(ctx, `SELECT count(*) FROM crons
		WHERE user_id = $1 AND ($2 = '' OR assistant_id = $2) AND ($3 = '' OR thread_id::text = $3)`,
		o.userID, assistantID, threadID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("counting crons: %w", err)
	}
	return n, nil
}

// Start starts the run of a due cron within tx, as the cron's owner. An
// error skips this due time of the cron (the caller is told which).
type Start func(ctx context.Context, tx pgx.Tx, c Cron, due time.Time) error

// Fired is what Fire did with one due cron.
type Fired struct {
	Cron Cron
	Due  time.Time
	Err  error // the run was not started for this due time
}

// Fire claims up to limit enabled crons due at now, of any owner, that no
// other transaction holds, starts each one's run with start in the same
// transaction, and moves its next due time to the schedule's first time
// after now (so a process that was down for several due times starts one
// run, not one per missed time). A start that fails skips that due time:
// it is rolled back alone and reported. Everything else commits together.
func (s *Store) Fire(ctx context.Context, limit int, start Start) ([]Fired, error) {
	var out []Fired
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		out = nil
		rows, err := tx.Query(ctx, `SELECT `+columns+`, now() FROM crons /* any owner: cron poll */
			WHERE enabled AND next_run_at <= now()
			ORDER BY next_run_at LIMIT $1 FOR NO KEY UPDATE SKIP LOCKED`, limit)
		if err != nil {
			return fmt.Errorf("claiming due crons: %w", err)
		}
		var now time.Time
		due, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Cron, error) {
			var c Cron
			err := row.Scan(&c.ID, &c.UserID, &c.ThreadID, &c.AssistantID, &c.Schedule, &c.Timezone, &c.Payload, &c.Job,
				&c.Metadata, &c.Enabled, &c.OnCompleted, &c.EndTime, &c.NextRunAt, &c.CreatedAt, &c.UpdatedAt, &now)
			return c, err
		})
		if err != nil {
			return fmt.Errorf("claiming due crons: %w", err)
		}
		// Starting a run locks its owner's row (quota.LockUser) until this
		// transaction ends: in owner order, two processes firing at once
		// lock them in one order and never deadlock.
		slices.SortStableFunc(due, func(a, b Cron) int { return strings.Compare(a.UserID, b.UserID) })
		for _, c := range due {
			f := Fired{Cron: c, Due: *c.NextRunAt}
			f.Err = pgx.BeginFunc(ctx, tx, func(sp pgx.Tx) error { return start(ctx, sp, c, f.Due) })
			next, err := c.NextDue(now, s.limits)
			if err != nil {
				f.Err = errors.Join(f.Err, err)
			}
			if _, err := tx.Exec(ctx, `UPDATE crons SET next_run_at = $2 WHERE id = $1 AND user_id = $3`, c.ID, next, c.UserID); err != nil {
				return fmt.Errorf("moving cron %s to its next due time: %w", c.ID, err)
			}
			out = append(out, f)
		}
		return nil
	})
	return out, err
}

// NextDue is where a fired cron moves: its schedule's first time after
// now (so that a process that was down for several due times starts one
// run, not one per missed time), nil when that is past its end. A
// schedule or a zone that no longer reads (stored before a rule changed,
// such as an "@every 1ms" before the shortest interval was a minute)
// stops the cron, nil, with the error, rather than fire it again and
// again.
func (c Cron) NextDue(now time.Time, limits quota.Limits) (*time.Time, error) {
	return Next(c.Schedule, c.Timezone, now, c.EndTime, limits)
}

// PruneEnded deletes, of every owner, the crons that will never be due
// again (past their end time) and ended before cutoff, and returns how
// many; with dryRun it only counts them.
func (s *Store) PruneEnded(ctx context.Context, cutoff time.Time, dryRun bool) (int64, error) {
	if dryRun {
		var n int64
		err := s.pool.QueryRow(ctx, `SELECT count(*) FROM crons /* any owner: retention */ WHERE next_run_at IS NULL AND end_time < $1`, cutoff).Scan(&n)
		return n, err
	}
	tag, err := s.pool.Exec(ctx, `DELETE FROM crons /* any owner: retention */ WHERE next_run_at IS NULL AND end_time < $1`, cutoff)
	if err != nil {
		return 0, fmt.Errorf("deleting ended crons: %w", err)
	}
	return tag.RowsAffected(), nil
}

func one(rows pgx.Rows, id string) (Cron, error) {
	c, err := pgx.CollectExactlyOneRow(rows, scan)
	if errors.Is(err, pgx.ErrNoRows) {
		return Cron{}, errcode.New(errcode.NotFound, "no cron %s", id)
	}
	if err != nil {
		return Cron{}, fmt.Errorf("reading cron %s: %w", id, err)
	}
	return c, nil
}

func checkOnCompleted(s string) error {
	if s != OnCompletedDelete && s != OnCompletedKeep {
		return errcode.New(errcode.BadRequest, "on_run_completed must be delete or keep")
	}
	return nil
}

// object is a cron's payload or metadata, a JSON object: {} when absent.
func object(m json.RawMessage, field string) (json.RawMessage, error) {
	if len(m) == 0 {
		return json.RawMessage("{}"), nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(m, &obj); err != nil || obj == nil {
		return nil, errcode.New(errcode.BadRequest, "a cron's %s must be a JSON object", field)
	}
	return m, nil
}

// merge is metadata with patch's keys replacing its own; patch must be a
// JSON object.
func merge(metadata, patch json.RawMessage) (json.RawMessage, error) {
	var add map[string]json.RawMessage
	if err := json.Unmarshal(patch, &add); err != nil || add == nil {
		return nil, errcode.New(errcode.BadRequest, "a cron's metadata must be a JSON object")
	}
	out := map[string]json.RawMessage{}
	json.Unmarshal(metadata, &out)
	for k, v := range add {
		out[k] = v
	}
	return json.Marshal(out)
}

// checkJob refuses a cron without the job its runs execute, which the
// server makes.
func checkJob(job json.RawMessage) error {
	if !json.Valid(job) {
		return errors.New("a cron needs the job its runs execute, as JSON")
	}
	return nil
}

// raw is a JSON member as a query argument: NULL when absent.
func raw(m json.RawMessage) any {
	if len(m) == 0 {
		return nil
	}
	return []byte(m)
}

// writeError names what a failed write broke.
func writeError(err error, doing string) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23514" {
		return errcode.New(errcode.BadRequest, "%s: a value is out of its range (%s)", doing, pe.ConstraintName)
	}
	return err
}
