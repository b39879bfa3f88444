package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store/paging"
	"github.com/tripgraph/tripgraph/store/replica"
)

// Thread statuses.
const (
	ThreadIdle        = "idle"
	ThreadBusy        = "busy"
	ThreadInterrupted = "interrupted"
	ThreadError       = "error"
)

// Thread is one conversation of one owner. Its checkpoints, runs and run
// events go when it is deleted.
type Thread struct {
	ID        string
	OwnerID   string
	Metadata  json.RawMessage
	Status    string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// NewThread describes a thread to create.
type NewThread struct {
	ID       string          // optional: a UUID chosen by the client
	Metadata json.RawMessage // optional: a JSON object
}

// ThreadQuery selects an owner's threads, newest first unless it says
// otherwise.
type ThreadQuery struct {
	Metadata  json.RawMessage // only threads whose metadata contains this object
	Status    string          // only threads with this status
	IDs       []string        // only these threads, when given
	Limit     int             // at most this many; 0 means 20, the most is 1000
	Offset    int             // skip this many
	SortBy    string          // thread_id, status, created_at or updated_at; created_at when ""
	SortOrder string          // asc or desc; desc when ""
}

// threadSorts are the columns threads sort by, by their API name.
var threadSorts = map[string]string{"": "created_at", "thread_id": "id", "status": "status",
	"created_at": "created_at", "updated_at": "updated_at"}

const threadColumns = `id, owner_id, metadata, status, created_at, updated_at`

// CreateThread creates a thread for the owner. A client-chosen id that exists
// already is a CONFLICT.
func (o Owner) CreateThread(ctx context.Context, nt NewThread) (Thread, error) {
	meta, err := CheckMetadata(nt.Metadata)
	if err != nil {
		return Thread{}, err
	}
	rows, err := o.s.Pool.Query(ctx, `
		INSERT INTO threads (id, owner_id, metadata)
		VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3)
		RETURNING `+threadColumns, nullable(nt.ID), o.id, meta)
	if err != nil {
		return Thread{}, threadError(err, "creating a thread", nt.ID)
	}
	t, err := pgx.CollectExactlyOneRow(rows, scanThread)
	if err != nil {
		return Thread{}, threadError(err, "creating a thread", nt.ID)
	}
	return t, nil
}

// Thread returns one of the owner's threads. Another owner's thread is
// NOT_FOUND, as if it did not exist.
func (o Owner) Thread(ctx context.Context, id string) (Thread, error) {
	rows, err := o.s.Pool.Query(ctx, `SELECT `+threadColumns+` FROM threads WHERE id = $1 AND owner_id = $2`, id, o.id)
	if err != nil {
		return Thread{}, threadError(err, "reading a thread", id)
	}
	t, err := pgx.CollectExactlyOneRow(rows, scanThread)
	if err != nil {
		return Thread{}, threadError(err, "reading a thread", id)
	}
	return t, nil
}

// SearchThreads lists the owner's threads that match q, in its order. A
// replica that has caught up may serve it (see package replica), as it may
// CountThreads.
func (o Owner) SearchThreads(ctx context.Context, q ThreadQuery) ([]Thread, error) {
	where, args, err := o.threadFilter(q)
	if err != nil {
		return nil, err
	}
	col, ok := threadSorts[q.SortBy]
	if !ok {
		return nil, errcode.New(errcode.BadRequest, "threads cannot be sorted by %q", q.SortBy)
	}
	dir := "DESC"
	switch q.SortOrder {
	case "asc":
		dir = "ASC"
	case "", "desc":
	default:
		return nil, errcode.New(errcode.BadRequest, "%q is not a sort order: asc or desc", q.SortOrder)
	}
	limit, offset := paging.Clamp(q.Limit, q.Offset, 20)
	args = append(args, limit, offset)
	sql := fmt.Sprintf(`SELECT %s FROM threads WHERE %s ORDER BY %s %s, id %s LIMIT $%d OFFSET $%d`,
		threadColumns, where, col, dir, dir, len(args)-1, len(args))
	var list []Thread
	err = o.s.reads.Read(ctx, func(db replica.Querier) error {
		rows, err := db.Query(ctx, sql, args...)
		if err == nil {
			list, err = pgx.CollectRows(rows, scanThread)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("searching threads: %w", err)
	}
	return list, nil
}

// CountThreads is how many of the owner's threads match q (its paging
// aside).
func (o Owner) CountThreads(ctx context.Context, q ThreadQuery) (int, error) {
	where, args, err := o.threadFilter(q)
	if err != nil {
		return 0, err
	}
	var n int
	err = o.s.reads.Read(ctx, func(db replica.Querier) error {
		return db.QueryRow(ctx, `SELECT count(*) FROM threads WHERE `+where, args...).Scan(&n)
	})
	if err != nil {
		return 0, fmt.Errorf("counting threads: %w", err)
	}
	return n, nil
}

// threadFilter is the WHERE clause of q's filters, and its arguments.
func (o Owner) threadFilter(q ThreadQuery) (string, []any, error) {
	args := []any{o.id}
	sql := `owner_id = $1`
	if len(q.Metadata) > 0 {
		meta, err := CheckMetadata(q.Metadata)
		if err != nil {
			return "", nil, err
		}
		args = append(args, meta)
		sql += ` AND metadata @> $` + strconv.Itoa(len(args))
	}
	if q.Status != "" {
		args = append(args, q.Status)
		sql += ` AND status = $` + strconv.Itoa(len(args))
	}
	if q.IDs != nil {
		args = append(args, q.IDs)
		sql += ` AND id::text = ANY($` + strconv.Itoa(len(args)) + `)`
	}
	return sql, args, nil
}

// UpdateThreadMetadata merges patch, a JSON object, into the metadata of
// one of the owner's threads: its keys replace the thread's.
func (o Owner) UpdateThreadMetadata(ctx context.Context, id string, patch json.RawMessage) (Thread, error) {
	meta, err := CheckMetadata(patch)
	if err != nil {
		return Thread{}, err
	}
	rows, err := o.s.Pool.Query(ctx, `
		UPDATE threads SET metadata = metadata || $3, updated_at = now()
		WHERE id = $1 AND owner_id = $2
		RETURNING `+threadColumns, id, o.id, meta)
	if err != nil {
		return Thread{}, threadError(err, "updating a thread", id)
	}
	t, err := pgx.CollectExactlyOneRow(rows, scanThread)
	if err != nil {
		return Thread{}, threadError(err, "updating a thread", id)
	}
	return t, nil
}

// DeleteThread deletes one of the owner's threads with its checkpoints, runs
// and run events.
func (o Owner) DeleteThread(ctx context.Context, id string) error {
	tag, err := o.s.Pool.Exec(ctx, `DELETE FROM threads WHERE id = $1 AND owner_id = $2`, id, o.id)
	if err != nil {
		return threadError(err, "deleting a thread", id)
	}
	if tag.RowsAffected() == 0 {
		return errcode.New(errcode.NotFound, "Thread with ID %s not found", id)
	}
	return nil
}

// DeleteThreadsWhere deletes the owner's threads whose metadata contains
// metadata, a JSON object, with their checkpoints, runs and events, and
// returns how many it deleted.
func (o Owner) DeleteThreadsWhere(ctx context.Context, metadata json.RawMessage) (int64, error) {
	meta, err := CheckMetadata(metadata)
	if err != nil {
		return 0, err
	}
	tag, err := o.s.Pool.Exec(ctx, `DELETE FROM threads WHERE owner_id = $1 AND metadata @> $2`, o.id, meta)
	if err != nil {
		return 0, fmt.Errorf("deleting the threads with metadata %s: %w", meta, err)
	}
	return tag.RowsAffected(), nil
}

func scanThread(row pgx.CollectableRow) (Thread, error) {
	var t Thread
	err := row.Scan(&t.ID, &t.OwnerID, &t.Metadata, &t.Status, &t.CreatedAt, &t.UpdatedAt)
	return t, err
}

// threadError turns the errors a thread query can meet into coded errors.
func threadError(err error, doing, id string) error {
	var pgErr *pgconn.PgError
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return errcode.New(errcode.NotFound, "Thread with ID %s not found", id)
	case errors.As(err, &pgErr) && pgErr.Code == "22P02":
		return errcode.New(errcode.NotFound, "Thread with ID %s not found", id)
	case errors.As(err, &pgErr) && pgErr.Code == "23505":
		return errcode.New(errcode.Conflict, "thread %s exists already", id)
	case errors.As(err, &pgErr) && pgErr.Code == "23503":
		return errcode.New(errcode.NotFound, "no such owner")
	}
	return fmt.Errorf("%s %s: %w", doing, id, err)
}

// CheckMetadata is the store's rule for metadata: a JSON object; none
// becomes {}.
func CheckMetadata(metadata json.RawMessage) ([]byte, error) {
	if len(metadata) == 0 {
		return []byte("{}"), nil
	}
	if !json.Valid(metadata) || !bytes.HasPrefix(bytes.TrimSpace(metadata), []byte("{")) {
		return nil, errcode.New(errcode.BadRequest, "metadata must be a JSON object")
	}
	return metadata, nil
}
