package catalog

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"time"
	"unicode"
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

// photoText is the text a search matches: the folded description and
// location name, joined by a unit separator. It is exactly the expression
// of the trigram index photos_search_trgm (migration 00003), so that the
// planner can use that index.
const photoText = `tg_fold(p.description || E'\x1f' || p.location_name)`

// searchPhotosSQL reads up to $5 of the user's photos that match, in the
// order the trigram index gives them (a bitmap heap scan: physical order),
// then returns the newest $6 of those with how many were read.
//
// $3 is the LIKE pattern the index is scanned with and rows are rechecked
// with, weaker than the term (see searchPattern); $4 is the rule a match
// must meet, textfold.WordStartRegexp of the folded term: the term at the
// start of a word. wordStart is the SQL condition that checks it.
func searchPhotosSQL(wordStart string) string {
	return `WITH m AS MATERIALIZED (
		SELECT p.id, p.album_id, p.user_id, p.description, p.location_name, p.taken_at, p.lat, p.lng, p.path
		FROM photos p
		WHERE p.user_id = $1 AND ($2::uuid IS NULL OR p.album_id = $2::uuid)
			AND ` + photoText + ` LIKE tg_fold($3)
			AND ` + wordStart + `
		LIMIT $5)
	SELECT m.id, m.album_id, a.name, m.user_id, m.description, m.location_name, m.taken_at, m.lat, m.lng, m.path,
		(SELECT count(*) FROM m)
	FROM m JOIN albums a ON a.id = m.album_id
	ORDER BY m.taken_at DESC, m.id
	LIMIT $6`
}

var (
	// searchRecheckSQL checks the rule on the rows the LIKE pattern
	// finds. regexp_like is a function, not the operator ~, so the
	// planner neither scans the index with it (which would add every
	// trigram of the term, the cost searchPattern avoids) nor estimates
	// from it that few rows match (which made it choose parallel scans).
	searchRecheckSQL = searchPhotosSQL(`regexp_like(` + photoText + `, $4)`)
	// searchWordStartSQL scans the index with the rule too: its
	// separators are word separators for pg_trgm, so the index gives only
	// the photos with a word starting with the term's first characters
	// (the padded trigrams "  r", " ri" of "rio").
	searchWordStartSQL = searchPhotosSQL(photoText + ` ~ $4`)
)

// scansWordStart reports whether a search for term scans the index with
// its word-start rule: when the term is one word of at most four
// characters. Such a term is often inside longer words ("rio" in 53,546
// of the benchmark's 1M photos, at a word start in 2,118), which the LIKE
// pattern alone would read and reject by the thousand; a longer term
// seldom is, and the padded trigrams would cost more than they save
// (bench/README.md, "MCP photo search").
func scansWordStart(term string) bool {
	runs := strings.FieldsFunc(term, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) })
	return len(runs) == 1 && utf8.RuneCountInString(runs[0]) <= 4
}

// searchPattern returns the LIKE pattern to scan the trigram index with
// for term. Every text in which the term matches (textfold.Matches)
// contains the term, so it matches the pattern:
//   - it keeps the term's runs of letters and digits, in order, with %
//     between them: pg_trgm pads a word next to a space, and those padded
//     trigrams (" da", "da ", "  v", …) are among the most common of all;
//     a run of one or two characters between % yields no trigram at all;
//   - it cuts a run of six or more characters into pieces of three, with %
//     between them, so the index scan uses every third trigram of a long
//     word ("aniversário" is scanned as ani%ver%sár%io): they are still
//     rare together, and 11 trigrams become 3.
//
// The pattern is weaker than the term, so that the index scan has fewer
// trigrams to intersect: its cost grows with their number times the
// matches of the rarest. "aniversário da Vivi" is scanned as
// %ani%ver%sár%io%da%Vivi%: half the time of %aniversário da Vivi% on the
// 1M-photo benchmark (bench/README.md). A term with no run of three or
// more characters keeps its own pattern, whose padded trigrams are then
// all the index has to go by.
func searchPattern(term string) string {
	var pieces []string
	long := false
	for _, run := range strings.FieldsFunc(term, func(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }) {
		r := []rune(run)
		long = long || len(r) >= 3
		if len(r) < 6 {
			pieces = append(pieces, run)
			continue
		}
		for i := 0; i < len(r); i += 3 {
			pieces = append(pieces, string(r[i:min(i+3, len(r))]))
		}
	}
	if !long {
		return containsPattern(term)
	}
	return "%" + strings.Join(pieces, "%") + "%"
}

// SearchPhotosQuery returns the query SearchPhotosPage runs for q and its
// arguments, to EXPLAIN it. It does not check that q.AlbumID is the user's.
func SearchPhotosQuery(q tripdata.PhotoSearch) (string, []any) {
	var album *string
	if q.AlbumID != "" {
		album = &q.AlbumID
	}
	sql := searchRecheckSQL
	if scansWordStart(q.Term) {
		sql = searchWordStartSQL
	}
	return sql, []any{q.UserID, album, searchPattern(q.Term), textfold.WordStartRegexp(textfold.Fold(q.Term)),
		tripdata.MaxSearchCount + 1, q.Limit}
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
// It reads at most tripdata.MaxSearchCount+1 matches, through the trigram index, and
// sorts those by date, so its cost is bounded however common the term is.
func (s *Store) SearchPhotosPage(ctx context.Context, q tripdata.PhotoSearch) (tripdata.PhotoSearchResult, error) {
	if q.AlbumID != "" {
		if _, err := s.Album(ctx, q.UserID, q.AlbumID); err != nil {
			return tripdata.PhotoSearchResult{}, err
		}
	}
	sql, args := SearchPhotosQuery(q)
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
	if _, err := tx.Exec(ctx, `CREATE TEMP TABLE new_photos (LIKE photos INCLUDING DEFAULTS) ON COMMIT DROP`); err != nil {
		return 0, fmt.Errorf("adding photos: %w", err)
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"new_photos"}, photoCopyColumns,
		pgx.CopyFromSlice(len(photos), func(i int) ([]any, error) { return photoValues(photos[i]), nil })); err != nil {
		return 0, fmt.Errorf("copying new photos: %w", err)
	}
	tag, err := tx.Exec(ctx, `INSERT INTO photos SELECT * FROM new_photos ON CONFLICT (id) DO NOTHING`)
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
