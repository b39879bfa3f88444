package catalog

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/textfold"
	"github.com/tripgraph/tripgraph/tripdata"
)

const photoColumns = `p.id, p.album_id, a.name, p.user_id, p.description, p.location_name, p.taken_at, p.lat, p.lng, p.path`

func scanPhoto(row pgx.CollectableRow) (tripdata.Photo, error) {
	var p tripdata.Photo
	err := row.Scan(&p.ID, &p.AlbumID, &p.AlbumName, &p.UserID, &p.Description, &p.LocationName, &p.TakenAt, &p.Lat, &p.Lng, &p.Path)
	return p, err
}

// AlbumPhotos returns a page of the photos of one of the user's albums in
// the order they were taken, and how many photos the album has.
func (s *Store) AlbumPhotos(ctx context.Context, userID, albumID string, limit, offset int) ([]tripdata.Photo, int, error) {
	album, err := s.Album(ctx, userID, albumID)
	if err != nil {
		return nil, 0, err
	}
	rows, err := s.Pool.Query(ctx, `SELECT `+photoColumns+`
		FROM photos p JOIN albums a ON a.id = p.album_id
		WHERE p.album_id = $1 AND p.user_id = $4
		ORDER BY p.taken_at, p.id
		LIMIT $2 OFFSET $3`, album.ID, limit, offset, userID)
	if err != nil {
		return nil, 0, fmt.Errorf("listing the photos of album %s: %w", albumID, err)
	}
	photos, err := pgx.CollectRows(rows, scanPhoto)
	if err != nil {
		return nil, 0, fmt.Errorf("reading the photos of album %s: %w", albumID, err)
	}
	return photos, album.PhotoCount, nil
}

// PhotosByDate returns up to limit photos of one of the user's albums taken
// on day.
func (s *Store) PhotosByDate(ctx context.Context, userID, albumID string, day time.Time, limit int) ([]tripdata.Photo, error) {
	if uuid.Validate(albumID) != nil {
		return nil, albumNotFound(albumID)
	}
	rows, err := s.Pool.Query(ctx, `SELECT `+photoColumns+`
		FROM photos p JOIN albums a ON a.id = p.album_id
		WHERE a.user_id = $1 AND p.album_id = $2 AND p.taken_at = $3
		ORDER BY p.taken_at, p.id
		LIMIT $4`, userID, albumID, day, limit)
	if err != nil {
		return nil, fmt.Errorf("listing the photos of album %s on %s: %w", albumID, day.Format(time.DateOnly), err)
	}
	photos, err := pgx.CollectRows(rows, scanPhoto)
	if err != nil {
		return nil, fmt.Errorf("reading photos by date: %w", err)
	}
	if len(photos) == 0 {
		// Tell an empty day of an album from an album the user cannot see.
		if _, err := s.Album(ctx, userID, albumID); err != nil {
			return nil, err
		}
	}
	return photos, nil
}

// searchPhotosSQL reads up to $4 of the user's photos that match, in the
// table's physical order, then returns the newest $5 of those with how many
// were read.
//
// reads are the photos read, in physical order; $3 is the rule a match
// must meet, textfold.WordStartRegexp of the folded term (the term at the
// start of a word), checked on the stored folded text, photos.search_text
// (migration 00027). regexp_like is a function, not the operator ~, so
// that the planner estimates the rows from the index condition alone.
func searchPhotosSQL(with, reads string) string {
	return with + `m AS MATERIALIZED (` + reads + `
		LIMIT $4)
	SELECT m.id, m.album_id, a.name, m.user_id, m.description, m.location_name, m.taken_at, m.lat, m.lng, m.path,
		(SELECT count(*) FROM m)
	FROM m JOIN albums a ON a.id = m.album_id
	ORDER BY m.taken_at DESC, m.id
	LIMIT $5`
}

// searchedPhotos is a query of the user's photos (in the album $2 if it
// is not null) that meet match, a condition that checks the rule $3.
func searchedPhotos(match string) string {
	return `SELECT p.id, p.album_id, p.user_id, p.description, p.location_name, p.taken_at, p.lat, p.lng, p.path
		FROM photos p
		WHERE p.user_id = $1 AND ($2::uuid IS NULL OR p.album_id = $2::uuid)
			AND ` + match
}

// searchIndexSQL reads, in physical order, the photos that match: first
// those of the head, the table's first $7 blocks, one row after another (a
// TID range scan), then those of the blocks after it whose text the index
// gives for every key of the term, $6 (a bitmap heap scan); the second
// part is not started when the first found $4 matches. A common term finds
// its first matches in the head without the index, whose list of every
// match costs more to gather and sort than reading the blocks that hold
// the first $4; a rare term has no head ($7 is 0, searchStats.head).
// Which photos are read does not depend on the head's size. The head
// checks the rule only on the rows that contain the folded term, $8:
// strpos costs a fraction of the regular expression, and the CASE keeps
// the planner from running the expression first. The second
// part's bound is written as a test (IS TRUE) that the planner does not
// take for a TID range: the index, not the rest of the table, is how it
// should read a term that has no head.
// tg_block_start (migration 00029) also keeps the query from running in
// parallel, which would lose the order. keyed is the index's expression.
func searchIndexSQL(keyed string) string {
	return searchPhotosSQL(`WITH head AS MATERIALIZED (SELECT tg_block_start($7) AS bound),
	`, `
		(`+searchedPhotos(`p.ctid < (SELECT bound FROM head) AND CASE WHEN strpos(p.search_text, $8) > 0 THEN regexp_like(p.search_text, $3) END`)+`)
		UNION ALL
		(`+searchedPhotos(`(p.ctid >= (SELECT bound FROM head)) IS TRUE AND `+keyed+` @> $6::text[] AND regexp_like(p.search_text, $3)`)+`)`)
}

// The search's indexes, by name.
const (
	prefixesIndex = "photos_search_prefixes"
	pairsIndex    = "photos_search_pairs"
)

var (
	// searchWordsSQL serves a term of one word: its key is the word's
	// beginning, in the GIN index photos_search_prefixes (tg_word_prefixes,
	// migration 00027).
	searchWordsSQL = searchIndexSQL("tg_word_prefixes(p.search_text)")
	// searchPairsSQL serves a term of several words: its keys are its
	// consecutive pairs of words, in the GIN index photos_search_pairs
	// (tg_word_pairs, migration 00029), so that a term of common words
	// ("aniversário da Vivi") looks up the photos where they follow each
	// other, not every photo that has each.
	searchPairsSQL = searchIndexSQL("tg_word_pairs(p.search_text)")
	// searchScanSQL serves a term with no letter or digit ("&", "..."),
	// which has no key: it reads the user's photos in order until it has
	// found enough.
	searchScanSQL = searchPhotosSQL("WITH ", searchedPhotos(`regexp_like(p.search_text, $3)`))
)

// prefixMax is the longest word beginning the index of word beginnings
// holds: tg_word_prefixes (migration 00027) gives a word's first one to
// sixteen characters, and tg_word_pairs (migration 00029) the first
// sixteen of a pair's first word.
const prefixMax = 16

// pairPrefixMax is how many characters of a pair's second word
// tg_word_pairs keeps: its first one to four.
const pairPrefixMax = 4

// searchKeys returns the keys that the text of every photo a term matches
// (textfold.MatchesFolded) has in one of the search's indexes, each once,
// and whether they are pairs (tg_word_pairs) rather than word beginnings
// (tg_word_prefixes). Where a term occurs at the start of a word, each of
// its words begins a word of the text: the first by the rule (or after
// the punctuation the term begins with), every other after a separator;
// and each word but the last is a whole word of the text, followed by the
// text's word the next one begins. So a term of one word gives that word,
// cut to prefixMax characters; a term of several gives each two
// consecutive words, the first cut to prefixMax characters and the second
// to pairPrefixMax, joined by a space ("aniversário da Vivi": "aniversario
// da", "da vivi"). The keys narrow the photos down; the rule, checked on
// the rows read, decides ("sunset at" needs "sunset" then "at" with one
// space between).
func searchKeys(term string) (keys []string, pairs bool) {
	words := textfold.Words(term)
	switch len(words) {
	case 0:
		return nil, false
	case 1:
		return []string{cut(words[0], prefixMax)}, false
	}
	for i := 1; i < len(words); i++ {
		if k := cut(words[i-1], prefixMax) + " " + cut(words[i], pairPrefixMax); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys, true
}

// cut returns the first n characters of s.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) > n {
		return string([]rune(s)[:n])
	}
	return s
}

// SearchPhotosQuery returns the query SearchPhotosPage runs for q and its
// arguments, to EXPLAIN it. It does not check that q.AlbumID is the user's.
func (s *Store) SearchPhotosQuery(ctx context.Context, q tripdata.PhotoSearch) (string, []any, error) {
	st, err := s.searchStats(ctx)
	if err != nil {
		return "", nil, err
	}
	sql, args := searchPhotosQuery(q, st)
	return sql, args, nil
}

// searchPhotosQuery returns the query for q, its head sized from st.
func searchPhotosQuery(q tripdata.PhotoSearch, st *searchStats) (string, []any) {
	var album *string
	if q.AlbumID != "" {
		album = &q.AlbumID
	}
	term := textfold.Fold(q.Term)
	want := tripdata.MaxSearchCount + 1
	args := []any{q.UserID, album, textfold.WordStartRegexp(term), want, q.Limit}
	keys, pairs := searchKeys(q.Term)
	sql, index := searchWordsSQL, prefixesIndex
	switch {
	case len(keys) == 0:
		return searchScanSQL, args
	case pairs:
		sql, index = searchPairsSQL, pairsIndex
	}
	var head int64
	if album == nil { // an album's photos are together, not spread over the table
		head = st.head(index, q.UserID, keys, want)
	}
	return sql, append(args, keys, head, term)
}

// SearchPhotos returns up to q.Limit of the user's photos whose description
// or location name matches q.Term (textfold.Matches), and how many match in all, counted up
// to tripdata.MaxSearchCount; see SearchPhotosPage for their order.
func (s *Store) SearchPhotos(ctx context.Context, q tripdata.PhotoSearch) ([]tripdata.Photo, int, error) {
	r, err := s.SearchPhotosPage(ctx, q)
	return r.Photos, r.Total, err
}

// SearchPhotosPage returns up to q.Limit of the user's photos whose
// description or location name matches q.Term: contains it at the start of
// a word, ignoring case and accents (textfold.Matches).
// It reads at most tripdata.MaxSearchCount+1 matches, through the index of
// word beginnings, and sorts those by date, so its cost is bounded however
// common the term is.
func (s *Store) SearchPhotosPage(ctx context.Context, q tripdata.PhotoSearch) (tripdata.PhotoSearchResult, error) {
	if q.AlbumID != "" {
		if _, err := s.Album(ctx, q.UserID, q.AlbumID); err != nil {
			return tripdata.PhotoSearchResult{}, err
		}
	}
	sql, args, err := s.SearchPhotosQuery(ctx, q)
	if err != nil {
		return tripdata.PhotoSearchResult{}, fmt.Errorf("searching photos for %q: %w", q.Term, err)
	}
	rows, err := s.Pool.Query(ctx, sql, args...)
	if err != nil {
		return tripdata.PhotoSearchResult{}, fmt.Errorf("searching photos for %q: %w", q.Term, err)
	}
	var read int
	photos, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (tripdata.Photo, error) {
		var p tripdata.Photo
		err := row.Scan(&p.ID, &p.AlbumID, &p.AlbumName, &p.UserID, &p.Description, &p.LocationName, &p.TakenAt, &p.Lat, &p.Lng, &p.Path, &read)
		return p, err
	})
	if err != nil {
		return tripdata.PhotoSearchResult{}, fmt.Errorf("reading photos matching %q: %w", q.Term, err)
	}
	return tripdata.PhotoSearchResult{Photos: photos, Total: min(read, tripdata.MaxSearchCount), More: read > tripdata.MaxSearchCount}, nil
}

// PhotoFile returns the owner and media path of a photo, or NOT_FOUND.
func (s *Store) PhotoFile(ctx context.Context, photoID string) (userID, path string, err error) {
	if uuid.Validate(photoID) != nil {
		return "", "", errcode.New(errcode.NotFound, "no photo with id %q", photoID)
	}
	err = s.Pool.QueryRow(ctx, `SELECT user_id, path FROM photos /* any owner: media */ WHERE id = $1`, photoID).Scan(&userID, &path)
	if isNoRows(err) {
		return "", "", errcode.New(errcode.NotFound, "no photo with id %q", photoID)
	}
	if err != nil {
		return "", "", fmt.Errorf("reading photo %s: %w", photoID, err)
	}
	return userID, path, nil
}

// AlbumStats returns the trip statistics of one of the user's albums.
func (s *Store) AlbumStats(ctx context.Context, userID, albumID string) (tripdata.TripStats, error) {
	album, err := s.Album(ctx, userID, albumID)
	if err != nil {
		return tripdata.TripStats{}, err
	}
	rows, err := s.Pool.Query(ctx, `
		SELECT location_name, count(*) AS n FROM photos
		WHERE album_id = $1 AND user_id = $2 AND location_name <> ''
		GROUP BY location_name ORDER BY n DESC, location_name LIMIT 100`, album.ID, userID)
	if err != nil {
		return tripdata.TripStats{}, fmt.Errorf("counting the locations of album %s: %w", albumID, err)
	}
	locations, err := pgx.CollectRows(rows, pgx.RowToStructByPos[tripdata.LocationCount])
	if err != nil {
		return tripdata.TripStats{}, fmt.Errorf("reading the locations of album %s: %w", albumID, err)
	}
	return tripdata.TripStats{
		AlbumID:     album.ID,
		Name:        album.Name,
		TotalPhotos: album.PhotoCount,
		Locations:   locations,
		StartDate:   album.StartDate,
		EndDate:     album.EndDate,
	}, nil
}

var photoCopyColumns = []string{"id", "album_id", "user_id", "description", "location_name", "taken_at", "lat", "lng", "path"}

func photoValues(p tripdata.NewPhoto) []any {
	return []any{p.ID, p.AlbumID, p.UserID, p.Description, p.LocationName, p.TakenAt, p.Lat, p.Lng, p.Path}
}

// CopyPhotos stores new photos with COPY, the fastest way in. Every id must
// be new: one that exists fails the whole copy.
func (s *Store) CopyPhotos(ctx context.Context, photos iter.Seq[tripdata.NewPhoto]) (int64, error) {
	next, stop := iter.Pull(photos)
	defer stop()
	n, err := s.Pool.CopyFrom(ctx, pgx.Identifier{"photos"}, photoCopyColumns,
		pgx.CopyFromFunc(func() ([]any, error) {
			p, ok := next()
			if !ok {
				return nil, nil
			}
			return photoValues(p), nil
		}))
	if err != nil {
		return n, fmt.Errorf("copying photos: %w", err)
	}
	return n, nil
}

// AddPhotos stores photos, skipping those whose id is already stored, and
// returns how many were new.
func (s *Store) AddPhotos(ctx context.Context, photos []tripdata.NewPhoto) (int64, error) {
	tx, err := s.Pool.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("adding photos: %w", err)
	}
	defer tx.Rollback(ctx)
	// The columns a photo is written with, without those the database
	// fills in (created_at, the generated search_text).
	columns := strings.Join(photoCopyColumns, ", ")
	if _, err := tx.Exec(ctx, `CREATE TEMP TABLE new_photos ON COMMIT DROP AS SELECT `+columns+` FROM photos WITH NO DATA`); err != nil {
		return 0, fmt.Errorf("adding photos: %w", err)
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"new_photos"}, photoCopyColumns,
		pgx.CopyFromSlice(len(photos), func(i int) ([]any, error) { return photoValues(photos[i]), nil })); err != nil {
		return 0, fmt.Errorf("copying new photos: %w", err)
	}
	tag, err := tx.Exec(ctx, `INSERT INTO photos (`+columns+`) SELECT `+columns+` FROM new_photos ON CONFLICT (id) DO NOTHING`)
	if err != nil {
		return 0, fmt.Errorf("adding photos: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("adding photos: %w", err)
	}
	return tag.RowsAffected(), nil
}

// CountPhotos returns how many photos an album has.
func (s *Store) CountPhotos(ctx context.Context, albumID string) (int, error) {
	var n int
	if err := s.Pool.QueryRow(ctx, `SELECT count(*) FROM photos WHERE album_id = $1`, albumID).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting the photos of album %s: %w", albumID, err)
	}
	return n, nil
}
