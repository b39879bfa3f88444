// Package items is the long-term store that LangGraph's clients call
// /store/items: JSON objects kept across conversations, each under a
// namespace (a path of labels) and a key, with an optional time to live
// that reads refresh. Each user's items are apart: every method of Owned
// reaches its user's items only, so another user's are neither read,
// listed, searched nor overwritten.
//
// Queries are full-text searches with PostgreSQL's own text search over
// the folded strings of each value, up to MaxIndexedText bytes of them
// (see PutItem.IndexedText), ranked by ts_rank.
package items

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/store/paging"
	"github.com/tripgraph/tripgraph/store/quota"
	"github.com/tripgraph/tripgraph/store/replica"
	"github.com/tripgraph/tripgraph/textfold"
)

// Bounds of what the store keeps.
const (
	MaxDepth     = 20         // labels in a namespace
	MaxLabelLen  = 256        // bytes of one label
	MaxKeyLen    = 1024       // bytes of a key
	MaxPageSize  = paging.Max // items or namespaces in one answer
	MaxQueryLen  = 500        // bytes of a search query
	MaxFilterLen = 20         // members of a search filter
	// MaxNamespaceLen bounds the bytes of a namespace's labels together,
	// so that a namespace and a key fit in an entry of the table's
	// primary key (a btree entry holds at most 2704 bytes).
	MaxNamespaceLen = 1024
	// MaxIndexedText bounds the bytes of an item's folded text that
	// queries search (see PutItem.IndexedText): PostgreSQL's tsvector
	// holds at most 1 MiB of words and their positions, which a text
	// three or four times shorter fills (a hyphenated word is kept whole
	// and as its parts).
	MaxIndexedText = 128 << 10
)

// Item is one stored object.
type Item struct {
	Namespace []string
	Key       string
	Value     json.RawMessage // a JSON object
	CreatedAt time.Time
	UpdatedAt time.Time
	// Score is the item's rank for a search's query; nil without one.
	Score *float64
}

// Store is the items of every user; ForOwner is one user's part.
type Store struct {
	pool   *pgxpool.Pool
	reads  *replica.Router // where searches are served
	limits quota.Limits
}

// New is the store on pool, holding each user's items to limits' items and
// bytes (quota.Default's where not set). Searches that change nothing (no
// TTL to refresh) and namespace listings are served where reads decides:
// a replica that has caught up, or pool (every one of them when reads is
// nil).
func New(pool *pgxpool.Pool, reads *replica.Router, limits quota.Limits) *Store {
	if reads == nil {
		reads = replica.Primary(pool)
	}
	return &Store{pool: pool, reads: reads, limits: limits.OrDefault()}
}

// Owned is one user's items: every method reaches that user's only.
type Owned struct {
	s      *Store
	userID string
}

// ForOwner is userID's part of the store.
func (s *Store) ForOwner(userID string) Owned { return Owned{s: s, userID: userID} }

// PutItem is an item to store, replacing any with its namespace and key.
type PutItem struct {
	Namespace []string
	Key       string
	Value     json.RawMessage // a JSON object
	// Index lists the fields whose strings full-text queries find, as
	// dotted paths ("title", "address.city"); nil indexes every string of
	// the value, NoIndex none.
	Index   []string
	NoIndex bool
	// TTL, when above 0, is how long the item lives after it is written or
	// last read with a refresh.
	TTL time.Duration
}

// live keeps items whose time to live has not run out.
const live = `(expires_at IS NULL OR expires_at > now())`

// Put stores an item, or replaces the one with its namespace and key (whose
// creation time it keeps). Its updated_at always moves forward, by at least
// a millisecond, so that clients that compare times at that precision see
// the change. A put that would take the owner's live items past the
// limits' items or bytes is refused (quota.Limits.CheckItems), checked in
// its transaction after the owner's store is locked, so that two processes
// cannot both fill the last room.
//
// The lock, the sum and the write go in one batch, one implicit
// transaction and one round trip: the lock is held from the moment it is
// taken to the commit, with no wait for this process between, so that one
// user's puts, which queue on it, each hold it as briefly as PostgreSQL
// allows.
func (o Owned) Put(ctx context.Context, in PutItem) error {
	value, err := in.Check()
	if err != nil {
		return err
	}
	var text *string
	if t, ok := in.IndexedText(value); ok {
		text = &t
	}
	var ttl *time.Duration
	if in.TTL > 0 {
		ttl = &in.TTL
	}
	size := in.Size()
	b := &pgx.Batch{}
	b.Queue(quota.LockUserItems, o.userID)
	b.Queue(putSQL, o.userID, in.Namespace, in.Key, in.Value, text, ttl, size, o.s.limits.Items, o.s.limits.ItemBytes)
	res := o.s.pool.SendBatch(ctx, b)
	held, replaced, stored, err := putResult(res)
	if cerr := res.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("storing item %q: %w", in.Key, cerr)
	}
	if err != nil || stored {
		return err
	}
	if err := o.s.limits.CheckItems(held, held.AfterPut(size, replaced)); err != nil {
		return err
	}
	return fmt.Errorf("storing item %q: the database refused it as past the store's limits, which quota.CheckItems does not (%d items, %d bytes held)", in.Key, held.Items, held.Bytes)
}

// putResult reads Put's batch: what the owner's store held before the
// put, the bytes of the item it replaces (nil for none), and whether it
// was stored.
func putResult(res pgx.BatchResults) (held quota.Usage, replaced *int64, stored bool, err error) {
	if _, err := res.Exec(); err != nil {
		return held, nil, false, fmt.Errorf("locking a user's store: %w", err)
	}
	if err := res.QueryRow().Scan(&held.Items, &held.Bytes, &replaced, &stored); err != nil {
		return held, nil, false, fmt.Errorf("storing an item: %w", err)
	}
	return held, replaced, stored, nil
}

// putSQL sums the owner's live items ($1), and writes the item unless
// that would take the store past $8 items or $9 bytes, as
// quota.Limits.CheckItems decides (a put that does not grow the store past
// a limit is never refused); it returns the sums, the bytes of the live
// item it replaces, and whether it wrote.
const putSQL = `
	WITH held AS (
		SELECT count(*) AS items, coalesce(sum(bytes), 0) AS bytes,
			sum(bytes) FILTER (WHERE namespace = $2::text[] AND key = $3::text) AS replaced
		FROM store_items WHERE user_id = $1::uuid AND ` + live + `),
	after AS (
		SELECT held.*, items + CASE WHEN replaced IS NULL THEN 1 ELSE 0 END AS items_after,
			bytes - coalesce(replaced, 0) + $7::integer AS bytes_after
		FROM held),
	put AS (
		INSERT INTO store_items AS i (user_id, namespace, key, value, search, ttl, expires_at, bytes)
		SELECT $1::uuid, $2::text[], $3::text, $4::jsonb, to_tsvector('simple', $5::text), $6::interval, now() + $6::interval, $7::integer
		FROM after
		WHERE NOT (items_after > $8::bigint AND items_after > items) AND NOT (bytes_after > $9::bigint AND bytes_after > bytes)
		ON CONFLICT (user_id, namespace, key) DO UPDATE SET
			value = EXCLUDED.value, search = EXCLUDED.search, ttl = EXCLUDED.ttl, expires_at = EXCLUDED.expires_at,
			bytes = EXCLUDED.bytes,
			created_at = CASE WHEN i.expires_at IS NULL OR i.expires_at > now() THEN i.created_at ELSE now() END,
			updated_at = greatest(now(), i.updated_at + interval '1 millisecond')
		RETURNING 1)
	SELECT items, bytes, replaced, EXISTS (SELECT FROM put) FROM after`

// Get is the item with this namespace and key; ok is false when there is
// none (or its time ran out). With refresh, its time to live starts again.
func (o Owned) Get(ctx context.Context, namespace []string, key string, refresh bool) (it Item, ok bool, err error) {
	if err := (Ref{namespace, key}).Check(); err != nil {
		return it, false, err
	}
	query := `SELECT namespace, key, value, created_at, updated_at, NULL::float8 FROM store_items
		WHERE user_id = $1 AND namespace = $2 AND key = $3 AND ` + live
	if refresh { // items without a time to live are not written to
		query = `WITH touched AS (UPDATE store_items SET expires_at = now() + ttl
			WHERE user_id = $1 AND namespace = $2 AND key = $3 AND ttl IS NOT NULL AND ` + live + `)
			` + query
	}
	rows, err := o.s.pool.Query(ctx, query, o.userID, namespace, key)
	if err != nil {
		return it, false, fmt.Errorf("reading item %q: %w", key, err)
	}
	list, err := pgx.CollectRows(rows, scanItem)
	if err != nil {
		return it, false, fmt.Errorf("reading item %q: %w", key, err)
	}
	if len(list) == 0 {
		return it, false, nil
	}
	return list[0], true, nil
}

// Ref names an item by its namespace and key.
type Ref struct {
	Namespace []string
	Key       string
}

// Check refuses a ref to an item the store cannot keep: its namespace
// (CheckNamespace) or its key (CheckKey).
func (r Ref) Check() error {
	if err := CheckNamespace(r.Namespace, "namespace"); err != nil {
		return err
	}
	return CheckKey(r.Key)
}

// GetEach reads the items refs name, in one statement: those that exist and
// are live, in no particular order. Unlike Get, it never refreshes their
// time to live.
func (o Owned) GetEach(ctx context.Context, refs ...Ref) ([]Item, error) {
	args := []any{o.userID}
	var which []string
	for _, r := range refs {
		if err := r.Check(); err != nil {
			return nil, err
		}
		args = append(args, r.Namespace, r.Key)
		which = append(which, fmt.Sprintf("(namespace = $%d AND key = $%d)", len(args)-1, len(args)))
	}
	if len(which) == 0 {
		return nil, nil
	}
	rows, err := o.s.pool.Query(ctx, `SELECT namespace, key, value, created_at, updated_at, NULL::float8 FROM store_items
		WHERE user_id = $1 AND (`+strings.Join(which, " OR ")+`) AND `+live, args...)
	if err != nil {
		return nil, fmt.Errorf("reading %d items: %w", len(refs), err)
	}
	list, err := pgx.CollectRows(rows, scanItem)
	if err != nil {
		return nil, fmt.Errorf("reading %d items: %w", len(refs), err)
	}
	return list, nil
}

// Delete removes the item with this namespace and key; deleting a missing
// item is not an error.
func (o Owned) Delete(ctx context.Context, namespace []string, key string) error {
	if err := (Ref{namespace, key}).Check(); err != nil {
		return err
	}
	if _, err := o.s.pool.Exec(ctx, `DELETE FROM store_items WHERE user_id = $1 AND namespace = $2 AND key = $3`,
		o.userID, namespace, key); err != nil {
		return fmt.Errorf("deleting item %q: %w", key, err)
	}
	return nil
}

// DeleteNamespace removes every item whose namespace starts with prefix,
// and returns how many.
func (o Owned) DeleteNamespace(ctx context.Context, prefix []string) (int64, error) {
	if err := CheckNamespace(prefix, "namespace"); err != nil {
		return 0, err
	}
	tag, err := o.s.pool.Exec(ctx, `DELETE FROM store_items WHERE user_id = $1 AND namespace[1:cardinality($2::text[])] = $2`,
		o.userID, prefix)
	if err != nil {
		return 0, fmt.Errorf("deleting the items under %s: %w", strings.Join(prefix, "."), err)
	}
	return tag.RowsAffected(), nil
}

// Query is a search of items.
type Query struct {
	Prefix []string // the namespaces searched start with it; empty: all
	// Filter keeps items whose value's top-level members match: a value
	// equal to the member's, or an object of operators ($eq, $ne, $gt,
	// $gte, $lt, $lte) and operands.
	Filter map[string]json.RawMessage
	// Text, when set, keeps the items whose indexed strings have any of its
	// words (or words they begin), best ranked first.
	Text    string
	Limit   int // 10 when 0
	Offset  int
	Refresh bool // the items found start their time to live again
}

// Check checks a search: its prefix, its page (a limit of 1 to
// MaxPageSize, 10 when 0; an offset of at least 0) and its filter. It
// returns the page's limit and the filter's conditions.
func (q Query) Check() (limit int, conds []Condition, err error) {
	if len(q.Prefix) > 0 {
		if err := CheckNamespace(q.Prefix, "namespace_prefix"); err != nil {
			return 0, nil, err
		}
	}
	if limit, err = page(q.Limit, q.Offset); err != nil {
		return 0, nil, err
	}
	conds, err = q.Conditions()
	return limit, conds, err
}

// Terms are the words of q's text, folded as the indexed text is: an item
// matches when one of its indexed words is one of them or begins with
// one ("vegetarian" finds "vegetarians"). None when the text has no
// words.
func (q Query) Terms() []string { return textfold.Words(q.Text) }

// FindsNothing reports a text that is not blank yet has no words ("!!"):
// such a search finds nothing, where a blank text finds every item.
func (q Query) FindsNothing() bool {
	return strings.TrimSpace(q.Text) != "" && len(q.Terms()) == 0
}

// Search finds items: with a text, best ranked first; without, the most
// recently updated first. The search is served where the store's reads
// are (a replica that has caught up may serve it); with q.Refresh, the
// found items that have a time to live, and are still live, then have it
// started again on the primary.
func (o Owned) Search(ctx context.Context, q Query) ([]Item, error) {
	limit, conds, err := q.Check()
	if err != nil {
		return nil, err
	}
	args := []any{o.userID, nonNil(q.Prefix)}
	where := []string{"user_id = $1", live, "($2::text[] = '{}' OR namespace[1:cardinality($2::text[])] = $2)"}
	where = append(where, filterSQL(conds, &args)...)
	score, order := "NULL::float8", "updated_at DESC, namespace, key"
	terms := q.Terms()
	switch {
	case len(terms) > 0:
		args = append(args, tsQuery(terms))
		n := len(args)
		where = append(where, fmt.Sprintf("search @@ to_tsquery('simple', $%d)", n))
		score = fmt.Sprintf("ts_rank(search, to_tsquery('simple', $%d))::float8", n)
		order = "score DESC, updated_at DESC, namespace, key"
	case q.FindsNothing():
		return []Item{}, nil
	}
	args = append(args, limit, q.Offset)
	query := fmt.Sprintf(`SELECT namespace, key, value, created_at, updated_at, %s AS score, ttl IS NOT NULL FROM store_items
		WHERE %s ORDER BY %s LIMIT $%d OFFSET $%d`, score, strings.Join(where, " AND "), order, len(args)-1, len(args))
	var found []searched
	err = o.s.reads.Read(ctx, func(db replica.Querier) error {
		rows, err := db.Query(ctx, query, args...)
		if err == nil {
			found, err = pgx.CollectRows(rows, scanSearched)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("searching items: %w", err)
	}
	list := make([]Item, len(found))
	var expiring []Ref
	for i, f := range found {
		list[i] = f.Item
		if f.expires {
			expiring = append(expiring, Ref{Namespace: f.Namespace, Key: f.Key})
		}
	}
	if q.Refresh {
		if err := o.refresh(ctx, expiring); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// searched is an item a search found, and whether it has a time to live.
type searched struct {
	Item
	expires bool
}

func scanSearched(row pgx.CollectableRow) (searched, error) {
	var s searched
	err := row.Scan(&s.Namespace, &s.Key, &s.Value, &s.CreatedAt, &s.UpdatedAt, &s.Score, &s.expires)
	return s, err
}

// refresh starts the time to live of the owner's live items refs again.
func (o Owned) refresh(ctx context.Context, refs []Ref) error {
	if len(refs) == 0 {
		return nil
	}
	type ref struct {
		Namespace []string `json:"namespace"`
		Key       string   `json:"key"`
	}
	rows := make([]ref, len(refs))
	for i, r := range refs {
		rows[i] = ref(r)
	}
	found, err := json.Marshal(rows)
	if err != nil {
		return fmt.Errorf("refreshing the found items' time to live: %w", err)
	}
	_, err = o.s.pool.Exec(ctx, `UPDATE store_items i SET expires_at = now() + i.ttl
		FROM jsonb_to_recordset($2::jsonb) AS f(namespace text[], key text)
		WHERE i.user_id = $1 AND i.namespace = f.namespace AND i.key = f.key AND i.ttl IS NOT NULL AND `+live, o.userID, found)
	if err != nil {
		return fmt.Errorf("refreshing the found items' time to live: %w", err)
	}
	return nil
}

// NamespaceQuery lists namespaces.
type NamespaceQuery struct {
	// Prefix and Suffix are the labels a namespace starts and ends with; a
	// label "*" matches any label.
	Prefix, Suffix []string
	// MaxDepth, when above 0, cuts longer namespaces to that many labels
	// (and lists each cut one once).
	MaxDepth int
	Limit    int // 100 when 0
	Offset   int
}

// Check checks a listing: its page (a limit of 1 to MaxPageSize, 100
// when 0; an offset of at least 0), its depth and the labels of its
// prefix and suffix. It returns the page's limit.
func (q NamespaceQuery) Check() (limit int, err error) {
	if q.Limit == 0 {
		q.Limit = 100
	}
	if limit, err = page(q.Limit, q.Offset); err != nil {
		return 0, err
	}
	if q.MaxDepth < 0 {
		return 0, errcode.New(errcode.BadRequest, "max_depth must be at least 1")
	}
	for _, m := range []struct {
		labels []string
		field  string
	}{{q.Prefix, "prefix"}, {q.Suffix, "suffix"}} {
		if len(m.labels) > 0 {
			if err := CheckNamespace(m.labels, m.field); err != nil {
				return 0, err
			}
		}
	}
	return limit, nil
}

// Namespaces lists the namespaces that hold items, in order.
func (o Owned) Namespaces(ctx context.Context, q NamespaceQuery) ([][]string, error) {
	limit, err := q.Check()
	if err != nil {
		return nil, err
	}
	depth := any(nil)
	if q.MaxDepth > 0 {
		depth = min(q.MaxDepth, MaxDepth) // no namespace is deeper; an array subscript is an integer
	}
	var list [][]string
	err = o.s.reads.Read(ctx, func(db replica.Querier) error {
		list, err = o.namespaces(ctx, db, q, depth, limit)
		return err
	})
	return list, err
}

// namespaces runs Namespaces' query on db.
func (o Owned) namespaces(ctx context.Context, db replica.Querier, q NamespaceQuery, depth any, limit int) ([][]string, error) {
	rows, err := db.Query(ctx, `
		SELECT DISTINCT CASE WHEN $4::int IS NULL THEN namespace ELSE namespace[1:$4] END AS ns
		FROM store_items
		WHERE user_id = $1 AND `+live+`
			AND cardinality(namespace) >= cardinality($2::text[]) AND cardinality(namespace) >= cardinality($3::text[])
			AND NOT EXISTS (SELECT 1 FROM unnest($2::text[]) WITH ORDINALITY p(label, n)
				WHERE p.label <> '*' AND p.label IS DISTINCT FROM namespace[p.n])
			AND NOT EXISTS (SELECT 1 FROM unnest($3::text[]) WITH ORDINALITY s(label, n)
				WHERE s.label <> '*' AND s.label IS DISTINCT FROM namespace[cardinality(namespace) - cardinality($3::text[]) + s.n])
		ORDER BY ns LIMIT $5 OFFSET $6`,
		o.userID, nonNil(q.Prefix), nonNil(q.Suffix), depth, limit, q.Offset)
	if err != nil {
		return nil, fmt.Errorf("listing namespaces: %w", err)
	}
	list, err := pgx.CollectRows(rows, pgx.RowTo[[]string])
	if err != nil {
		return nil, fmt.Errorf("listing namespaces: %w", err)
	}
	return list, nil
}

// PruneExpired deletes, of every user, the items whose time to live ran
// out, and returns how many; with dryRun it only counts them.
func (s *Store) PruneExpired(ctx context.Context, dryRun bool) (int64, error) {
	if dryRun {
		var n int64
		err := s.pool.QueryRow(ctx, `SELECT count(*) FROM store_items /* any owner: retention */ WHERE expires_at <= now()`).Scan(&n)
		return n, err
	}
	tag, err := s.pool.Exec(ctx, `DELETE FROM store_items /* any owner: retention */ WHERE expires_at <= now()`)
	if err != nil {
		return 0, fmt.Errorf("deleting expired store items: %w", err)
	}
	return tag.RowsAffected(), nil
}

func scanItem(row pgx.CollectableRow) (Item, error) {
	var it Item
	err := row.Scan(&it.Namespace, &it.Key, &it.Value, &it.CreatedAt, &it.UpdatedAt, &it.Score)
	return it, err
}

// CheckNamespace refuses a namespace the store does not keep: empty, too
// deep, too long altogether, or with a label that is empty, too long, not
// text PostgreSQL can store, or has a period (the clients join labels with
// periods in a query string).
func CheckNamespace(ns []string, field string) error {
	switch {
	case len(ns) == 0:
		return errcode.New(errcode.BadRequest, "%s must have at least one label", field)
	case len(ns) > MaxDepth:
		return errcode.New(errcode.BadRequest, "%s has more than %d labels", field, MaxDepth)
	case len(strings.Join(ns, "")) > MaxNamespaceLen:
		return errcode.New(errcode.BadRequest, "the labels of %s have more than %d bytes together", field, MaxNamespaceLen)
	}
	for _, l := range ns {
		switch {
		case l == "":
			return errcode.New(errcode.BadRequest, "%s has an empty label", field)
		case len(l) > MaxLabelLen:
			return errcode.New(errcode.BadRequest, "a label of %s is longer than %d bytes", field, MaxLabelLen)
		case !storable(l):
			return errcode.New(errcode.BadRequest, "a label of %s is not UTF-8 text without NUL characters", field)
		case strings.Contains(l, "."):
			return errcode.New(errcode.BadRequest, "the label %q of %s has a period, which labels cannot have", l, field)
		}
	}
	return nil
}

// CheckKey refuses a key the store does not keep: empty, too long, or not
// text PostgreSQL can store.
func CheckKey(key string) error {
	if key == "" || len(key) > MaxKeyLen {
		return errcode.New(errcode.BadRequest, "an item's key must have 1 to %d bytes", MaxKeyLen)
	}
	if !storable(key) {
		return errcode.New(errcode.BadRequest, "an item's key must be UTF-8 text without NUL characters")
	}
	return nil
}

// storable reports whether PostgreSQL can keep s as text: valid UTF-8
// without NUL. Bodies are checked when they are read; query strings reach
// the store as they came.
func storable(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

// page checks a page's bounds and returns its limit.
func page(limit, offset int) (int, error) {
	if limit == 0 {
		limit = 10
	}
	if limit < 1 || limit > MaxPageSize {
		return 0, errcode.New(errcode.BadRequest, "limit must be between 1 and %d", MaxPageSize)
	}
	if offset < 0 {
		return 0, errcode.New(errcode.BadRequest, "offset must be at least 0")
	}
	return limit, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// operators are the comparisons a filter may ask for, as SQL.
var operators = map[string]string{OpEq: "=", OpNe: "<>", OpGt: ">", OpGte: ">=", OpLt: "<", OpLte: "<="}

// The operators of a filter.
const (
	OpEq  = "$eq"
	OpNe  = "$ne"
	OpGt  = "$gt"
	OpGte = "$gte"
	OpLt  = "$lt"
	OpLte = "$lte"
)

// Condition is one comparison of a search's filter: the top-level member
// Field of an item's value against Operand, both compared as jsonb
// values are. An item without the member fails every condition on it,
// $ne too.
type Condition struct {
	Field   string
	Op      string // one of OpEq, OpNe, OpGt, OpGte, OpLt, OpLte
	Operand json.RawMessage
}

// Conditions are the comparisons q's filter asks for, by field and
// operator: a member whose value is an object of operators and operands
// ({"$gte": 2, "$lt": 4}) makes one per operator; any other value, one
// of equality. A filter of more than MaxFilterLen members, or with a
// member that is not JSON, is a BAD_REQUEST.
func (q Query) Conditions() ([]Condition, error) {
	if len(q.Filter) > MaxFilterLen {
		return nil, errcode.New(errcode.BadRequest, "a filter may have at most %d members", MaxFilterLen)
	}
	var out []Condition
	for _, field := range sortedKeys(q.Filter) {
		raw := q.Filter[field]
		if !json.Valid(raw) {
			return nil, errcode.New(errcode.BadRequest, "filter.%s is not JSON", field)
		}
		var ops map[string]json.RawMessage
		if json.Unmarshal(raw, &ops) != nil || !allOperators(ops) {
			out = append(out, Condition{Field: field, Op: OpEq, Operand: raw})
			continue
		}
		for _, name := range sortedKeys(ops) {
			out = append(out, Condition{Field: field, Op: name, Operand: ops[name]})
		}
	}
	return out, nil
}

// filterSQL turns a filter's conditions into conditions on value, adding
// their operands to args.
func filterSQL(conds []Condition, args *[]any) []string {
	var out []string
	for _, c := range conds {
		*args = append(*args, c.Field, string(c.Operand))
		n := len(*args)
		out = append(out, fmt.Sprintf("value -> $%d %s $%d::jsonb", n-1, operators[c.Op], n))
	}
	return out
}

// allOperators reports an object whose members are all operators.
func allOperators(m map[string]json.RawMessage) bool {
	if len(m) == 0 {
		return false
	}
	for k := range m {
		if _, ok := operators[k]; !ok {
			return false
		}
	}
	return true
}

// Check checks an item to put: its namespace, its key and its value, which
// must be a JSON object. It returns the value, decoded.
func (in PutItem) Check() (map[string]any, error) {
	if err := (Ref{in.Namespace, in.Key}).Check(); err != nil {
		return nil, err
	}
	var value map[string]any
	err := json.Unmarshal(in.Value, &value)
	var tooBig *json.UnmarshalTypeError
	if errors.As(err, &tooBig) && strings.HasPrefix(tooBig.Value, "number") {
		return nil, errcode.New(errcode.BadRequest, "an item's value holds a %s that does not fit a 64-bit float, as every number of an item must", tooBig.Value)
	}
	if err != nil || value == nil {
		return nil, errcode.New(errcode.BadRequest, "an item's value must be a JSON object")
	}
	return value, nil
}

// Size is the bytes an item counts against its owner's limit: its value
// as compact JSON, its key and its namespace's labels. Its value must be
// JSON (Check).
func (in PutItem) Size() int64 {
	var b bytes.Buffer
	n := len(in.Value)
	if json.Compact(&b, in.Value) == nil {
		n = b.Len()
	}
	n += len(in.Key)
	for _, label := range in.Namespace {
		n += len(label)
	}
	return int64(n)
}

// IndexedText is the folded text of the strings a query may find in the
// item, whose value Check decoded: every string in it, or those under the
// paths of Index, up to the last whole word within MaxIndexedText bytes
// (the value is kept whole; a query does not find the words past that).
// ok is false with NoIndex: queries find nothing in it.
func (in PutItem) IndexedText(value map[string]any) (text string, ok bool) {
	if in.NoIndex {
		return "", false
	}
	return bounded(indexText(value, in.Index)), true
}

// bounded is text cut after its last whole word within MaxIndexedText
// bytes; a word longer than that is cut between two characters.
func bounded(text string) string {
	if len(text) <= MaxIndexedText {
		return text
	}
	if i := strings.LastIndexByte(text[:MaxIndexedText+1], ' '); i > 0 {
		return text[:i]
	}
	i := MaxIndexedText
	for !utf8.RuneStart(text[i]) {
		i--
	}
	return text[:i]
}

// indexText is the folded text of the strings a query may find in value:
// every string in it, or those under the given dotted paths.
func indexText(value map[string]any, paths []string) string {
	var b strings.Builder
	if paths == nil {
		appendStrings(&b, value)
	}
	for _, p := range paths {
		var v any = value
		for _, part := range strings.Split(p, ".") {
			m, ok := v.(map[string]any)
			if !ok {
				v = nil
				break
			}
			v = m[part]
		}
		appendStrings(&b, v)
	}
	return textfold.Fold(b.String())
}

func appendStrings(b *strings.Builder, v any) {
	switch v := v.(type) {
	case string:
		b.WriteString(v)
		b.WriteByte(' ')
	case []any:
		for _, e := range v {
			appendStrings(b, e)
		}
	case map[string]any:
		for _, k := range sortedKeys(v) {
			appendStrings(b, v[k])
		}
	}
}

// tsQuery is a text search query that matches an item with any of a
// search's terms, or a word that begins with one (Query.Terms).
func tsQuery(terms []string) string {
	out := make([]string, 0, len(terms))
	for _, w := range terms {
		out = append(out, "'"+strings.ReplaceAll(w, "'", "''")+"':*")
	}
	return strings.Join(out, " | ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
