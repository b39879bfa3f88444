package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/textfold"
	"github.com/tripgraph/tripgraph/tripdata"
)

// albumColumns selects an Album from albums a with its photo figures.
const albumColumns = `
	SELECT a.id, a.user_id, a.name, a.description,
	       s.start_date, s.end_date, coalesce(s.n, 0), coalesce(l.names, '{}'), c.id
	FROM albums a
	LEFT JOIN LATERAL (
		SELECT min(taken_at) AS start_date, max(taken_at) AS end_date, count(*) AS n
		FROM photos p WHERE p.album_id = a.id) s ON true
	LEFT JOIN LATERAL (
		SELECT array_agg(location_name ORDER BY n DESC, location_name) AS names FROM (
			SELECT location_name, count(*) AS n FROM photos p
			WHERE p.album_id = a.id AND location_name <> ''
			GROUP BY location_name ORDER BY n DESC, location_name LIMIT 10) t) l ON true
	LEFT JOIN LATERAL (
		SELECT id FROM photos p WHERE p.album_id = a.id ORDER BY taken_at, id LIMIT 1) c ON true`

// UserAlbums returns up to limit of the user's albums, newest trip first.
func (s *Store) UserAlbums(ctx context.Context, userID string, limit int) ([]tripdata.Album, error) {
	rows, err := s.Pool.Query(ctx, albumColumns+`
		WHERE a.user_id = $1
		ORDER BY s.start_date DESC NULLS LAST, a.name
		LIMIT $2`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("listing the albums of user %s: %w", userID, err)
	}
	return collectAlbums(rows)
}

// AlbumsMatching returns up to limit of the user's albums in which one of
// terms matches (textfold.Matches: at the start of a word, ignoring case
// and accents): in the album's name, its description, or one of its
// photos' location names.
func (s *Store) AlbumsMatching(ctx context.Context, userID string, terms []string, limit int) ([]tripdata.Album, error) {
	patterns := make([]string, len(terms))
	for i, t := range terms {
		patterns[i] = textfold.WordStartRegexp(textfold.Fold(t))
	}
	rows, err := s.Pool.Query(ctx, albumColumns+`
		WHERE a.user_id = $1 AND (
			tg_fold(a.name) ~ ANY ($2::text[])
			OR tg_fold(a.description) ~ ANY ($2::text[])
			OR EXISTS (SELECT 1 FROM photos ph WHERE ph.album_id = a.id AND tg_fold(ph.location_name) ~ ANY ($2::text[])))
		ORDER BY s.start_date DESC NULLS LAST, a.name
		LIMIT $3`, userID, patterns, limit)
	if err != nil {
		return nil, fmt.Errorf("finding albums matching %q: %w", terms, err)
	}
	return collectAlbums(rows)
}

// Album returns one of the user's albums. An album that does not exist and
// an album of another user are the same NOT_FOUND error.
func (s *Store) Album(ctx context.Context, userID, albumID string) (tripdata.Album, error) {
	if uuid.Validate(albumID) != nil {
		return tripdata.Album{}, albumNotFound(albumID)
	}
	rows, err := s.Pool.Query(ctx, albumColumns+` WHERE a.user_id = $1 AND a.id = $2`, userID, albumID)
	if err != nil {
		return tripdata.Album{}, fmt.Errorf("reading album %s: %w", albumID, err)
	}
	albums, err := collectAlbums(rows)
	if err != nil {
		return tripdata.Album{}, err
	}
	if len(albums) == 0 {
		return tripdata.Album{}, albumNotFound(albumID)
	}
	return albums[0], nil
}

func albumNotFound(albumID string) error {
	return errcode.New(errcode.NotFound, "no album with id %q", albumID)
}

func collectAlbums(rows pgx.Rows) ([]tripdata.Album, error) {
	albums, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (tripdata.Album, error) {
		var a tripdata.Album
		var start, end *time.Time
		var cover *string
		err := row.Scan(&a.ID, &a.UserID, &a.Name, &a.Description, &start, &end, &a.PhotoCount, &a.Locations, &cover)
		if start != nil {
			a.StartDate, a.EndDate = *start, *end
		}
		if cover != nil {
			a.CoverID = *cover
		}
		return a, err
	})
	if err != nil {
		return nil, fmt.Errorf("reading albums: %w", err)
	}
	return albums, nil
}

// EnsureAlbum creates the user's album named name with this id, or leaves
// the existing one as it is, and returns its id.
func (s *Store) EnsureAlbum(ctx context.Context, userID, id, name, description string) (string, error) {
	var got string
	err := s.Pool.QueryRow(ctx, `
		INSERT INTO albums (id, user_id, name, description) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id, name) DO UPDATE SET name = EXCLUDED.name
		RETURNING id`, id, userID, name, description).Scan(&got)
	if err != nil {
		return "", fmt.Errorf("ensuring album %q: %w", name, err)
	}
	return got, nil
}

// containsPattern is a LIKE pattern matching any text that contains term
// literally: LIKE's wildcards in term match only themselves.
func containsPattern(term string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(term) + "%"
}

// isNoRows reports whether err means a query found nothing.
func isNoRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }
