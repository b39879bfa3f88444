package catalog

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"
)

// statsFresh is how long a Store sizes its searches' heads from the
// statistics it read before it reads them again: ANALYZE (autovacuum)
// changes them every few thousand photos written, and the head's size
// decides only how fast a search is, never what it finds.
const statsFresh = time.Minute

// headSlack is how many times the rows that hold the matches a search
// reads, at the share of photos its rarest key is in, the head holds: the
// matches are not spread evenly over the table.
const headSlack = 1.25

// searchStats is what the planner's statistics (ANALYZE) say of the photos:
// the share of photos each of the most common keys of the search's two
// indexes is in, each of the most common owners' share, and how many
// photos there are and how many a block holds.
type searchStats struct {
	keys     map[string]map[string]float64 // index name → key → share
	owners   map[string]float64            // user id → share
	photos   float64
	perBlock float64
}

// querier is a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// readSearchStats reads the statistics of photos and of its search indexes
// photos_search_prefixes and photos_search_pairs.
func readSearchStats(ctx context.Context, q querier) (*searchStats, error) {
	st := &searchStats{keys: map[string]map[string]float64{}, owners: map[string]float64{}}
	rows, err := q.Query(ctx, `SELECT s.tablename::text, e.key, e.freq
		FROM pg_stats s, unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) e(key, freq)
		WHERE s.schemaname = current_schema() AND s.tablename IN ('photos_search_prefixes', 'photos_search_pairs')
			AND e.key IS NOT NULL`)
	if err != nil {
		return nil, fmt.Errorf("reading the statistics of the photo search's indexes: %w", err)
	}
	var index, key string
	var share float64
	if _, err := pgx.ForEachRow(rows, []any{&index, &key, &share}, func() error {
		if st.keys[index] == nil {
			st.keys[index] = map[string]float64{}
		}
		st.keys[index][key] = share
		return nil
	}); err != nil {
		return nil, fmt.Errorf("reading the statistics of the photo search's indexes: %w", err)
	}
	rows, err = q.Query(ctx, `SELECT u.id::text, u.freq
		FROM pg_stats s, unnest(s.most_common_vals::text::uuid[], s.most_common_freqs) u(id, freq)
		WHERE s.schemaname = current_schema() AND s.tablename = 'photos' AND s.attname = 'user_id'`)
	if err != nil {
		return nil, fmt.Errorf("reading the statistics of the photos' owners: %w", err)
	}
	var owner string
	if _, err := pgx.ForEachRow(rows, []any{&owner, &share}, func() error {
		st.owners[owner] = share
		return nil
	}); err != nil {
		return nil, fmt.Errorf("reading the statistics of the photos' owners: %w", err)
	}
	if err := q.QueryRow(ctx, `SELECT greatest(reltuples, 0), coalesce(reltuples / nullif(relpages, 0), 0)
		FROM pg_class WHERE oid = 'photos'::regclass`).Scan(&st.photos, &st.perBlock); err != nil {
		return nil, fmt.Errorf("reading the size of photos: %w", err)
	}
	return st, nil
}

// head returns how many of the table's first blocks a search of owner's
// photos for keys, looked up in index, reads row by row before it turns
// to the index: enough to hold want matches, or none. The rarest key's
// share of the photos times the owner's share bounds the share that match
// (each key is in every match); the head holds headSlack times the rows
// in which that share gives want matches. It has none when those rows are
// more than the index's list of the rarest key, which the index would
// gather and sort (a row read costs about what an entry of the list does:
// bench/README.md), or when a key or the owner is not among the
// statistics' most common.
func (st *searchStats) head(index, owner string, keys []string, want int) int64 {
	keyShare := 1.0
	for _, k := range keys {
		f, ok := st.keys[index][k]
		if !ok {
			return 0
		}
		keyShare = min(keyShare, f)
	}
	share := keyShare * st.owners[owner]
	if share <= 0 || st.perBlock <= 0 {
		return 0
	}
	rows := headSlack * float64(want) / share
	if rows > keyShare*st.photos {
		return 0
	}
	return int64(math.Ceil(rows / st.perBlock))
}

// searchStats returns the statistics the search's heads are sized from,
// reading them at most once per statsFresh.
func (s *Store) searchStats(ctx context.Context) (*searchStats, error) {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	if s.stats != nil && time.Since(s.statsRead) < statsFresh {
		return s.stats, nil
	}
	st, err := readSearchStats(ctx, s.Pool)
	if err != nil {
		return nil, err
	}
	s.stats, s.statsRead = st, time.Now()
	return st, nil
}
