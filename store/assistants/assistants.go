// Package assistants stores users' assistants: named, versioned
// configurations of a graph, as LangGraph has them. Every change makes a
// new version, any version can be made the current one again, and each
// user sees their own assistants only (Owned). The built-in trip-planner
// assistant is not stored here: every user has it.
package assistants

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store/paging"
)

// Untitled is the name of an assistant created without one, as LangGraph
// names it.
const Untitled = "Untitled"

// Assistant is an assistant at its current version.
type Assistant struct {
	ID          string
	GraphID     string
	Name        string
	Description *string // nil when none was given
	Config      json.RawMessage
	Context     json.RawMessage
	Metadata    json.RawMessage
	Version     int
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Version is one version of an assistant, as it was saved.
type Version struct {
	AssistantID string
	Version     int
	GraphID     string
	Name        string
	Description *string
	Config      json.RawMessage
	Context     json.RawMessage
	Metadata    json.RawMessage
	CreatedAt   time.Time
}

// New is an assistant to create.
type New struct {
	ID          string // optional: a UUID chosen by the client
	GraphID     string
	Name        string // Untitled when empty
	Description *string
	Config      json.RawMessage // optional JSON objects
	Context     json.RawMessage
	Metadata    json.RawMessage
}

// Patch changes an assistant, making a new version even when it sends
// nothing: the members set replace the current ones, but Metadata, which
// is merged into them.
type Patch struct {
	GraphID     *string
	Name        *string
	Description *string
	Config      json.RawMessage
	Context     json.RawMessage
	Metadata    json.RawMessage
}

// Query selects an owner's assistants.
type Query struct {
	GraphID   string          // only this graph's
	Name      string          // only those whose name contains this, ignoring case
	Metadata  json.RawMessage // only those whose metadata contains this object
	Limit     int             // at most this many; 0 means 10, the most is 1000
	Offset    int             // skip this many
	SortBy    string          // assistant_id, graph_id, name, created_at or updated_at; created_at when ""
	SortOrder string          // asc or desc; desc when ""
}

// Store reaches the assistants of every owner; ForOwner one owner's.
type Store struct {
	Pool *pgxpool.Pool
}

// ForOwner is userID's assistants.
func (s Store) ForOwner(userID string) Owned { return Owned{pool: s.Pool, owner: userID} }

// Owned is one user's assistants: another user's id is NOT_FOUND through
// it, as if it did not exist.
type Owned struct {
	pool  *pgxpool.Pool
	owner string
}

const columns = `id, graph_id, name, description, config, context, metadata, version, created_at, updated_at`

func scan(row pgx.CollectableRow) (Assistant, error) {
	var a Assistant
	err := row.Scan(&a.ID, &a.GraphID, &a.Name, &a.Description, &a.Config, &a.Context, &a.Metadata, &a.Version, &a.CreatedAt, &a.UpdatedAt)
	return a, err
}

// ErrNotFound is what every call answers for an assistant the owner does
// not have, in LangGraph's words.
var ErrNotFound = errcode.New(errcode.NotFound, "Assistant not found")

// ErrVersionNotFound is what SetLatest answers for a version the
// assistant does not have.
var ErrVersionNotFound = errcode.New(errcode.NotFound, "Assistant version not found")

// Check checks an assistant to create, and returns it with its defaults
// filled in: Untitled for a name not given, {} for a config, context or
// metadata not given. A member that is not a JSON object is a
// BAD_REQUEST.
func (n New) Check() (New, error) {
	for _, m := range []*json.RawMessage{&n.Config, &n.Context, &n.Metadata} {
		obj, err := Object(*m)
		if err != nil {
			return n, err
		}
		*m = obj
	}
	if n.Name == "" {
		n.Name = Untitled
	}
	return n, nil
}

// Create stores a new assistant, version 1. An id that exists is a
// CONFLICT.
func (o Owned) Create(ctx context.Context, n New) (Assistant, error) {
	n, err := n.Check()
	if err != nil {
		return Assistant{}, err
	}
	var out Assistant
	err = pgx.BeginFunc(ctx, o.pool, func(tx pgx.Tx) error {
		var err error
		out, err = one(ctx, tx, `INSERT INTO assistants (id, owner_id, graph_id, name, description, config, context, metadata)
			VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7, $8)
			RETURNING `+columns, nullable(n.ID), o.owner, n.GraphID, n.Name, n.Description, []byte(n.Config),
			[]byte(n.Context), []byte(n.Metadata))
		if err != nil {
			return err
		}
		return saveVersion(ctx, tx, o.owner, out)
	})
	return out, writeError(err, n.ID, "creating an assistant")
}

// Get returns one of the owner's assistants.
func (o Owned) Get(ctx context.Context, id string) (Assistant, error) {
	a, err := one(ctx, o.pool, `SELECT `+columns+` FROM assistants WHERE id::text = $1 AND owner_id = $2`, id, o.owner)
	return a, readError(err, id, "reading an assistant")
}

// Search lists the owner's assistants that match q, sorted and paged as q
// says, with how many match in all.
func (o Owned) Search(ctx context.Context, q Query) ([]Assistant, int, error) {
	where, args, err := o.filter(q)
	if err != nil {
		return nil, 0, err
	}
	var total int
	if err := o.pool.QueryRow(ctx, `SELECT count(*) FROM assistants WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("counting assistants: %w", err)
	}
	order, err := q.Order()
	if err != nil {
		return nil, 0, err
	}
	limit, offset := paging.Clamp(q.Limit, q.Offset, 10)
	args = append(args, limit, offset)
	rows, err := o.pool.Query(ctx, fmt.Sprintf(`SELECT %s FROM assistants WHERE %s ORDER BY %s LIMIT $%d OFFSET $%d`,
		columns, where, order.sql(), len(args)-1, len(args)), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("searching assistants: %w", err)
	}
	list, err := pgx.CollectRows(rows, scan)
	if err != nil {
		return nil, 0, fmt.Errorf("searching assistants: %w", err)
	}
	return list, total, nil
}

// Count is how many of the owner's assistants match q (its paging aside).
func (o Owned) Count(ctx context.Context, q Query) (int, error) {
	where, args, err := o.filter(q)
	if err != nil {
		return 0, err
	}
	var n int
	if err := o.pool.QueryRow(ctx, `SELECT count(*) FROM assistants WHERE `+where, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting assistants: %w", err)
	}
	return n, nil
}

// filter is the WHERE clause of q, and its arguments.
func (o Owned) filter(q Query) (string, []any, error) {
	args := []any{o.owner}
	where := []string{"owner_id = $1"}
	if q.GraphID != "" {
		args = append(args, q.GraphID)
		where = append(where, "graph_id = $"+strconv.Itoa(len(args)))
	}
	if q.Name != "" {
		args = append(args, q.Name)
		where = append(where, "strpos(lower(name), lower($"+strconv.Itoa(len(args))+")) > 0")
	}
	if len(q.Metadata) > 0 {
		meta, err := Object(q.Metadata)
		if err != nil {
			return "", nil, err
		}
		args = append(args, []byte(meta))
		where = append(where, "metadata @> $"+strconv.Itoa(len(args)))
	}
	return strings.Join(where, " AND "), args, nil
}

// sortColumns are the columns assistants sort by, by their API name.
var sortColumns = map[string]string{"assistant_id": "id", "graph_id": "graph_id", "name": "name",
	"created_at": "created_at", "updated_at": "updated_at"}

// Order is the order a search lists assistants in: by a column, then by
// id, both in one direction.
type Order struct {
	By   string // assistant_id, graph_id, name, created_at or updated_at
	Desc bool
}

// Order is q's order: created_at descending unless q says otherwise. A
// column or a direction it does not know is a BAD_REQUEST.
func (q Query) Order() (Order, error) {
	o := Order{By: q.SortBy, Desc: true}
	if o.By == "" {
		o.By = "created_at"
	}
	if _, ok := sortColumns[o.By]; !ok {
		return Order{}, errcode.New(errcode.BadRequest, "assistants cannot be sorted by %q", q.SortBy)
	}
	switch q.SortOrder {
	case "", "desc":
	case "asc":
		o.Desc = false
	default:
		return Order{}, errcode.New(errcode.BadRequest, "%q is not a sort order: asc or desc", q.SortOrder)
	}
	return o, nil
}

// sql is the order as an ORDER BY list.
func (o Order) sql() string {
	if o.Desc {
		return sortColumns[o.By] + " DESC, id DESC"
	}
	return sortColumns[o.By] + " ASC, id ASC"
}

// Update applies p to the owner's assistant as a new version, which
// becomes the current one.
func (o Owned) Update(ctx context.Context, id string, p Patch) (Assistant, error) {
	var out Assistant
	err := pgx.BeginFunc(ctx, o.pool, func(tx pgx.Tx) error {
		cur, err := one(ctx, tx, `SELECT `+columns+` FROM assistants WHERE id::text = $1 AND owner_id = $2 FOR UPDATE`, id, o.owner)
		if err != nil {
			return readError(err, id, "reading an assistant")
		}
		next, err := p.Apply(cur)
		if err != nil {
			return err
		}
		var latest int
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM assistant_versions WHERE assistant_id = $1 AND owner_id = $2`,
			cur.ID, o.owner).Scan(&latest); err != nil {
			return fmt.Errorf("reading the versions of assistant %s: %w", cur.ID, err)
		}
		if out, err = one(ctx, tx, `UPDATE assistants SET graph_id = $2, name = $3, description = $4, config = $5, context = $6,
				metadata = $7, version = $8, updated_at = now()
			WHERE id = $1 AND owner_id = $9 RETURNING `+columns, cur.ID, next.GraphID, next.Name, next.Description, next.Config, next.Context,
			next.Metadata, latest+1, o.owner); err != nil {
			return fmt.Errorf("updating assistant %s: %w", cur.ID, err)
		}
		return saveVersion(ctx, tx, o.owner, out)
	})
	return out, err
}

// Apply is cur with p applied: the members p sets replace cur's (a config
// or context must be a JSON object), and p's metadata, a JSON object, is
// merged into cur's (its keys replace cur's). Its version and times are
// cur's still: the store sets them.
func (p Patch) Apply(cur Assistant) (Assistant, error) {
	next := cur
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&next.GraphID, p.GraphID)
	set(&next.Name, p.Name)
	if p.Description != nil {
		next.Description = p.Description
	}
	for _, r := range []struct {
		dst *json.RawMessage
		v   json.RawMessage
	}{{&next.Config, p.Config}, {&next.Context, p.Context}} {
		if len(r.v) > 0 {
			obj, err := Object(r.v)
			if err != nil {
				return next, err
			}
			*r.dst = obj
		}
	}
	if len(p.Metadata) > 0 {
		var merged map[string]json.RawMessage
		if err := json.Unmarshal(cur.Metadata, &merged); err != nil || merged == nil {
			merged = map[string]json.RawMessage{}
		}
		var add map[string]json.RawMessage
		if err := json.Unmarshal(p.Metadata, &add); err != nil {
			return next, errcode.New(errcode.BadRequest, "metadata must be a JSON object")
		}
		for k, v := range add {
			merged[k] = v
		}
		next.Metadata, _ = json.Marshal(merged)
	}
	return next, nil
}

// Delete deletes the owner's assistant with every version.
func (o Owned) Delete(ctx context.Context, id string) error {
	tag, err := o.pool.Exec(ctx, `DELETE FROM assistants WHERE id::text = $1 AND owner_id = $2`, id, o.owner)
	if err != nil {
		return fmt.Errorf("deleting assistant %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return ErrNotFound
	}
	return nil
}

// Versions lists an assistant's versions, newest first, those whose
// metadata contains metadata only when it is given.
func (o Owned) Versions(ctx context.Context, id string, metadata json.RawMessage, limit, offset int) ([]Version, error) {
	a, err := o.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	meta, err := Object(metadata)
	if err != nil {
		return nil, err
	}
	limit, offset = paging.Clamp(limit, offset, 10)
	rows, err := o.pool.Query(ctx, `SELECT assistant_id, version, graph_id, name, description, config, context, metadata, created_at
		FROM assistant_versions WHERE assistant_id = $1 AND owner_id = $5 AND metadata @> $2
		ORDER BY version DESC LIMIT $3 OFFSET $4`, a.ID, []byte(meta), limit, offset, o.owner)
	if err != nil {
		return nil, fmt.Errorf("listing the versions of assistant %s: %w", id, err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Version, error) {
		var v Version
		err := row.Scan(&v.AssistantID, &v.Version, &v.GraphID, &v.Name, &v.Description, &v.Config, &v.Context, &v.Metadata, &v.CreatedAt)
		return v, err
	})
	if err != nil {
		return nil, fmt.Errorf("listing the versions of assistant %s: %w", id, err)
	}
	return list, nil
}

// SetLatest makes one of an assistant's versions its current one again.
// A version it does not have is ErrVersionNotFound, one past the column's
// integer range included (compared as a bigint, it matches no row).
func (o Owned) SetLatest(ctx context.Context, id string, version int) (Assistant, error) {
	a, err := one(ctx, o.pool, `
		UPDATE assistants a SET graph_id = v.graph_id, name = v.name, description = v.description, config = v.config,
			context = v.context, metadata = v.metadata, version = v.version, updated_at = now()
		FROM assistant_versions v
		WHERE a.id::text = $1 AND a.owner_id = $2 AND v.assistant_id = a.id AND v.owner_id = $2 AND v.version = $3::bigint
		RETURNING a.id, a.graph_id, a.name, a.description, a.config, a.context, a.metadata, a.version, a.created_at, a.updated_at`,
		id, o.owner, version)
	if errors.Is(err, pgx.ErrNoRows) {
		if _, gerr := o.Get(ctx, id); gerr != nil {
			return Assistant{}, gerr
		}
		return Assistant{}, ErrVersionNotFound
	}
	return a, readError(err, id, "setting an assistant's version")
}

// saveVersion records the current version of owner's assistant a.
func saveVersion(ctx context.Context, tx pgx.Tx, owner string, a Assistant) error {
	_, err := tx.Exec(ctx, `INSERT INTO assistant_versions (assistant_id, owner_id, version, graph_id, name, description, config, context, metadata)
		VALUES ($1, $9, $2, $3, $4, $5, $6, $7, $8)`, a.ID, a.Version, a.GraphID, a.Name, a.Description, a.Config, a.Context, a.Metadata, owner)
	if err != nil {
		return fmt.Errorf("saving version %d of assistant %s: %w", a.Version, a.ID, err)
	}
	return nil
}

// querier is a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// one runs a query that returns one assistant; pgx.ErrNoRows when none.
func one(ctx context.Context, q querier, sql string, args ...any) (Assistant, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return Assistant{}, err
	}
	return pgx.CollectExactlyOneRow(rows, scan)
}

// Object is a config, a context, metadata or a metadata filter as the
// store keeps it: a JSON object, {} when empty or null. Anything else is a
// BAD_REQUEST.
func Object(m json.RawMessage) (json.RawMessage, error) {
	t := bytes.TrimSpace(m)
	switch {
	case len(t) == 0 || string(t) == "null":
		return json.RawMessage("{}"), nil
	case json.Valid(t) && t[0] == '{':
		return json.RawMessage(t), nil
	}
	return nil, errcode.New(errcode.BadRequest, "config, context and metadata must be JSON objects")
}

// readError turns "no such row" and malformed ids into NOT_FOUND.
func readError(err error, id, doing string) error {
	var pgErr *pgconn.PgError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, pgx.ErrNoRows), errors.As(err, &pgErr) && pgErr.Code == "22P02":
		return ErrNotFound
	}
	return fmt.Errorf("%s %s: %w", doing, id, err)
}

// writeError turns a clash of ids into CONFLICT and a malformed id into
// BAD_REQUEST.
func writeError(err error, id, doing string) error {
	var pgErr *pgconn.PgError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &pgErr) && pgErr.Code == "23505":
		return errcode.New(errcode.Conflict, "Assistant already exists")
	case errors.As(err, &pgErr) && pgErr.Code == "22P02":
		return errcode.New(errcode.BadRequest, "an assistant id is a UUID")
	case errors.As(err, &pgErr) && pgErr.Code == "23503":
		return errcode.New(errcode.NotFound, "no such owner")
	}
	var coded *errcode.Error
	if errors.As(err, &coded) {
		return err
	}
	return fmt.Errorf("%s %s: %w", doing, id, err)
}

// nullable is s as a query argument: NULL when empty.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
