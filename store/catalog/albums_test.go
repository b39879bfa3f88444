package catalog

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/testing/pgtest"
	"github.com/tripgraph/tripgraph/textfold"
	"github.com/tripgraph/tripgraph/tripdata"
)

// addTestAlbum stores an album of photos for user; each photo is
// {description, location, day}.
func addTestAlbum(t *testing.T, s *testStore, userID, name string, photos [][3]string) string {
	t.Helper()
	ctx := context.Background()
	id, err := s.EnsureAlbum(ctx, userID, uuid.NewString(), name, "")
	if err != nil {
		t.Fatal(err)
	}
	var list []tripdata.NewPhoto
	for i, p := range photos {
		day, err := time.Parse(time.DateOnly, p[2])
		if err != nil {
			t.Fatal(err)
		}
		pid := uuid.NewString()
		list = append(list, tripdata.NewPhoto{ID: pid, AlbumID: id, UserID: userID, Description: p[0], LocationName: p[1],
			TakenAt: day, Path: fmt.Sprintf("photos/%s/%d.png", pid, i)})
	}
	if _, err := s.AddPhotos(ctx, list); err != nil {
		t.Fatal(err)
	}
	return id
}

func TestAlbums(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	ana, _ := s.EnsureUser(ctx, "album-ana")
	bob, _ := s.EnsureUser(ctx, "album-bob")
	lisbon := addTestAlbum(t, s, ana.ID, "Lisboa 2024", [][3]string{
		{"aniversário da Vivi na praia", "Praia de Carcavelos", "2024-07-02"},
		{"sunset at Belém tower", "Belém", "2024-07-01"},
		{"pastéis de nata", "Belém", "2024-07-01"},
	})
	addTestAlbum(t, s, ana.ID, "Empty album", nil)
	bobs := addTestAlbum(t, s, bob.ID, "Bob in Rome", [][3]string{{"Colosseo", "Roma", "2023-05-01"}})

	albums, err := s.UserAlbums(ctx, ana.ID, 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(albums) != 2 || albums[0].ID != lisbon {
		t.Fatalf("UserAlbums = %+v, want Lisboa first of 2", albums)
	}
	a := albums[0]
	if a.PhotoCount != 3 || a.StartDate.Format(time.DateOnly) != "2024-07-01" || a.EndDate.Format(time.DateOnly) != "2024-07-02" ||
		!slices.Equal(a.Locations, []string{"Belém", "Praia de Carcavelos"}) || a.CoverID == "" {
		t.Errorf("album figures = %+v", a)
	}

	for _, tc := range []struct {
		name string
		want int
	}{{"lisboa", 1}, {"LISBOA", 1}, {"álbum", 1}, {"100%", 0}, {"bob", 0}, {"carcavelos", 1},
		{"boa", 0}, {"bum", 0}, {"arcavelos", 0}, {"praia de", 1}, {"ia de", 0}} {
		got, err := s.AlbumsMatching(ctx, ana.ID, []string{"nothing like it", tc.name}, 50)
		if err != nil || len(got) != tc.want {
			t.Errorf("AlbumsMatching(%q) = %d albums, %v; want %d", tc.name, len(got), err, tc.want)
		}
	}

	for _, id := range []string{bobs, uuid.NewString(), "not-a-uuid"} {
		if _, err := s.Album(ctx, ana.ID, id); errcode.Of(err) != errcode.NotFound {
			t.Errorf("Album(%s) = %v, want NOT_FOUND", id, err)
		}
		if _, _, err := s.AlbumPhotos(ctx, ana.ID, id, 10, 0); errcode.Of(err) != errcode.NotFound {
			t.Errorf("AlbumPhotos(%s) = %v, want NOT_FOUND", id, err)
		}
		if _, err := s.PhotosByDate(ctx, ana.ID, id, time.Now(), 10); errcode.Of(err) != errcode.NotFound {
			t.Errorf("PhotosByDate(%s) = %v, want NOT_FOUND", id, err)
		}
		if _, err := s.AlbumStats(ctx, ana.ID, id); errcode.Of(err) != errcode.NotFound {
			t.Errorf("AlbumStats(%s) = %v, want NOT_FOUND", id, err)
		}
	}

	photos, total, err := s.AlbumPhotos(ctx, ana.ID, lisbon, 2, 1)
	if err != nil || total != 3 || len(photos) != 2 {
		t.Fatalf("AlbumPhotos page = %d photos of %d, %v", len(photos), total, err)
	}
	day, _ := time.Parse(time.DateOnly, "2024-07-01")
	byDate, err := s.PhotosByDate(ctx, ana.ID, lisbon, day, 50)
	if err != nil || len(byDate) != 2 {
		t.Fatalf("PhotosByDate = %d, %v; want 2", len(byDate), err)
	}
	stats, err := s.AlbumStats(ctx, ana.ID, lisbon)
	if err != nil || stats.TotalPhotos != 3 || len(stats.Locations) != 2 || stats.Locations[0] != (tripdata.LocationCount{Name: "Belém", Count: 2}) {
		t.Fatalf("AlbumStats = %+v, %v", stats, err)
	}
}

func TestSearchPhotos(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	ana, _ := s.EnsureUser(ctx, "search-ana")
	bob, _ := s.EnsureUser(ctx, "search-bob")
	lisbon := addTestAlbum(t, s, ana.ID, "Lisboa", [][3]string{
		{"aniversário da Vivi na praia", "Carcavelos", "2024-07-02"},
		{"sunset at Belém tower", "", "2024-07-01"},
		{"50% off_sale", "Chiado", "2024-07-03"},
		{"Pfaffenhofenerstraßenfest", "Baviera", "2024-07-04"},
	})
	addTestAlbum(t, s, ana.ID, "Porto", [][3]string{{"ponte", "Ribeira, Porto", "2024-08-01"}})
	addTestAlbum(t, s, bob.ID, "Bob", [][3]string{{"aniversario do Bob na praia", "Praia", "2024-01-01"}})

	for _, tc := range []struct {
		term  string
		album string
		want  int
	}{
		{"aniversario", "", 1},
		{"ANIVERSÁRIO", "", 1},
		{"belem", "", 1},
		{"praia", "", 1},
		{"porto", "", 1},
		{"porto", lisbon, 0},
		{"carcavelos", lisbon, 1},
		{"%", "", 1},
		{"_", "", 1},
		{"50% off", "", 1},
		{"50%_off", "", 0},
		{"aniversário da vivi", "", 1},
		{"aniversário  da vivi", "", 0},
		{"vivi na praia", "", 1},
		{"da vivi carcavelos", "", 0}, // no match across description and location name
		{"praia carcavelos", "", 0},
		{"sunset at belem", "", 1},
		{"sunset belem", "", 0},
		{"nothing like it", "", 0},
		{"rio", "", 0}, // inside "aniversário": a term matches at the start of a word
		{"versario", "", 0},
		{"rio da vivi", "", 0},
		{"tower", "", 1},
		{"arcavelos", "", 0},
		// Longer than the index's longest word beginning (16 characters):
		// the index finds the first 16, the rule decides.
		{"pfaffenhofenerstrassenfest", "", 1},
		{"Pfaffenhofenerstraßen", "", 1},
		{"pfaffenhofenerst", "", 1},
		{"pfaffenhofenerstrassenfesx", "", 0},
		{"pfaffenhofenerstrassenfest baviera", "", 0},
		{"off_sale", "", 1},
		{"ff_sale", "", 0},
		{"_sale", "", 1}, // a term that starts with punctuation matches anywhere
	} {
		photos, total, err := s.SearchPhotos(ctx, tripdata.PhotoSearch{UserID: ana.ID, AlbumID: tc.album, Term: tc.term, Limit: 50})
		if err != nil || len(photos) != tc.want || total != tc.want {
			t.Errorf("SearchPhotos(%q in %q) = %d (total %d), %v; want %d", tc.term, tc.album, len(photos), total, err, tc.want)
		}
		for _, p := range photos {
			if p.UserID != ana.ID || p.AlbumName == "" {
				t.Errorf("SearchPhotos(%q) returned %+v", tc.term, p)
			}
		}
	}
	if _, _, err := s.SearchPhotos(ctx, tripdata.PhotoSearch{UserID: bob.ID, AlbumID: lisbon, Term: "praia", Limit: 5}); errcode.Of(err) != errcode.NotFound {
		t.Errorf("searching another user's album = %v, want NOT_FOUND", err)
	}
}

func TestSearchKeys(t *testing.T) {
	for _, tc := range []struct {
		term  string
		keys  []string
		pairs bool
	}{
		{"praia", []string{"praia"}, false},
		{"Belém", []string{"belem"}, false},
		{"aniversário da Vivi", []string{"aniversario da", "da vivi"}, true},
		{"sunset at", []string{"sunset at"}, true},
		{"Rio de Janeiro", []string{"rio de", "de jane"}, true}, // the second word's first four characters
		{"50% off_sale", []string{"50 off", "off sale"}, true},
		{"&a waterfront", []string{"a wate"}, true},
		{"rio rio rio", []string{"rio rio"}, true}, // each key once
		{"Straße", []string{"strasse"}, false},
		{"Pfaffenhofenerstraßenfest!", []string{"pfaffenhofenerst"}, false}, // its first 16 characters
		{"Pfaffenhofenerstraßenfest um", []string{"pfaffenhofenerst um"}, true},
		{"東京タワー", []string{"東京タワー"}, false},
		{"東京タワー 夜景です", []string{"東京タワー 夜景です"}, true},
		{"%", nil, false},
		{"&", nil, false},
	} {
		if got, pairs := searchKeys(tc.term); !slices.Equal(got, tc.keys) || pairs != tc.pairs {
			t.Errorf("searchKeys(%q) = %q, %v, want %q, %v", tc.term, got, pairs, tc.keys, tc.pairs)
		}
	}
}

func TestSearchPhotosCap(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	ana, _ := s.EnsureUser(ctx, "cap-ana")
	var photos [][3]string
	for i := range tripdata.MaxSearchCount + 10 {
		photos = append(photos, [3]string{fmt.Sprintf("dia de praia %d", i), "Cascais", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format(time.DateOnly)})
	}
	addTestAlbum(t, s, ana.ID, "Muitas praias", photos)
	addTestAlbum(t, s, ana.ID, "Poucas", [][3]string{{"praia rara", "Cascais", "2019-01-01"}, {"dia de praia", "Cascais", "2019-01-02"}})
	for _, tc := range []struct {
		term  string
		total int
		more  bool
	}{{"praia", tripdata.MaxSearchCount, true}, {"dia de praia 10", 21, false}, {"praia rara", 1, false}} {
		r, err := s.SearchPhotosPage(ctx, tripdata.PhotoSearch{UserID: ana.ID, Term: tc.term, Limit: 5})
		if err != nil || r.Total != tc.total || r.More != tc.more || len(r.Photos) != min(5, tc.total) {
			t.Fatalf("SearchPhotosPage(%q) = %d photos, total %d, more %v, %v; want total %d, more %v", tc.term, len(r.Photos), r.Total, r.More, err, tc.total, tc.more)
		}
		for i := 1; i < len(r.Photos); i++ {
			if r.Photos[i].TakenAt.After(r.Photos[i-1].TakenAt) {
				t.Errorf("SearchPhotosPage(%q) is not newest first: %v", tc.term, r.Photos)
			}
		}
	}
	// With more, they are the newest of the first MaxSearchCount+1 matches
	// in the table's physical order, the order the index's bitmap reads
	// them in.
	rows, err := s.Pool.Query(ctx, `SELECT description FROM (
			SELECT id, description, taken_at FROM photos WHERE user_id = $1 AND regexp_like(search_text, $2) ORDER BY ctid LIMIT $3) m
		ORDER BY taken_at DESC, id LIMIT 5`, ana.ID, textfold.WordStartRegexp("praia"), tripdata.MaxSearchCount+1)
	if err != nil {
		t.Fatal(err)
	}
	want, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	first, err := s.SearchPhotosPage(ctx, tripdata.PhotoSearch{UserID: ana.ID, Term: "praia", Limit: 5})
	var got []string
	for _, p := range first.Photos {
		got = append(got, p.Description)
	}
	if err != nil || !slices.Equal(got, want) || want[0] != "dia de praia 1000" {
		t.Errorf("SearchPhotosPage(praia) = %q, %v; want the newest of the first %d in the table, %q", got, err, tripdata.MaxSearchCount+1, want)
	}
	// With at most tripdata.MaxSearchCount matches (10, 100-109, 1000-1009), the
	// photos are the newest of all.
	r, err := s.SearchPhotosPage(ctx, tripdata.PhotoSearch{UserID: ana.ID, Term: "dia de praia 10", Limit: 1})
	if err != nil || len(r.Photos) != 1 || r.Photos[0].Description != "dia de praia 1009" {
		t.Errorf("newest match of 'dia de praia 10' = %+v, %v; want dia de praia 1009", r.Photos, err)
	}
}

// The search query scans the index of word beginnings,
// photos_search_prefixes, as the planner chooses it on its own (no
// enable_seqscan = off), with the term known (a custom plan) or not (the
// generic plan a prepared statement may switch to), for rare terms and for
// terms in 1% of 20,000 photos. (For a term in 20% of so few photos a
// sequential scan that stops at the 1001st match is cheaper, and chosen;
// on the 1M-photo benchmark it is not.)
// TestSearchUsesPrefixIndex checks the shape of the search's plans: a
// rare term of one word looks its word up in photos_search_prefixes, a
// rare term of several its pairs of words in photos_search_pairs, never by
// a sequential scan nor in parallel (which would lose the physical order);
// and a term in nearly every photo reads its first matches from the
// table's first blocks, without starting the index scan.
func TestSearchUsesPrefixIndex(t *testing.T) {
	ctx := context.Background()
	// 1% of the photos are of Vivi's birthday, 20% on a beach; the rest
	// say one of eight things at one of 5 × 40 places.
	tx, anaID := photosOnly(t, "explain-ana", `INSERT INTO photos (album_id, user_id, description, location_name, taken_at, path)
		SELECT $1, $2,
			CASE WHEN i % 100 = 0 THEN 'aniversário da Vivi'
				ELSE (ARRAY['sunset at', 'jantar com Leo em', 'walking around', 'café da manhã em', 'family photo at',
					'selfie em', 'view from', 'passeio por'])[1 + i % 8] || ' ' || city END,
			(ARRAY['praia de', 'museu de', 'parque de', 'castelo de', 'mercado de'])[1 + i % 5] || ' ' || city,
			date '2015-01-01' + i % 3000, 'photos/explain/' || i || '.png'
		FROM generate_series(1, 20000) i,
			LATERAL (SELECT 'Cidade ' || chr(65 + (i / 7) % 26) || chr(65 + (i / 181) % 26) || 'ville' AS city) c`)
	for _, mode := range []string{"auto", "force_generic_plan"} {
		if _, err := tx.Exec(ctx, `SET LOCAL plan_cache_mode = `+mode); err != nil {
			t.Fatal(err)
		}
		for _, term := range []string{"belem", "aniversario da vivi", "cidade qqville", "vivi", "rio", "praia", "cidade"} {
			plan := explainSearch(t, tx, tripdata.PhotoSearch{UserID: anaID, Term: term, Limit: 50})
			if !strings.Contains(plan, "Tid Range Scan on photos p ") || strings.Contains(plan, "Gather") {
				t.Errorf("the %s plan for %q does not read the head first, or reads in parallel:\n%s", mode, term, plan)
			}
			switch term {
			case "praia": // in one photo in five: either way, by the statistics
			case "cidade": // in nearly every photo: the head holds the first 1001, the rest is never read
				if !strings.Contains(plan, "on photos p_1 (never executed)") {
					t.Errorf("the %s plan for %q reads the index:\n%s", mode, term, plan)
				}
			default:
				index := "photos_search_prefixes"
				if strings.Contains(term, " ") {
					index = "photos_search_pairs"
				}
				if !strings.Contains(plan, "Tid Range Scan on photos p (actual rows=0") || !strings.Contains(plan, "Bitmap Index Scan on "+index) ||
					strings.Contains(plan, "Seq Scan on photos") {
					t.Errorf("the %s plan for %q has a head or does not scan %s:\n%s", mode, term, index, plan)
				}
			}
		}
	}
}

// emptyPhotos empties the table of photos in tx, so that the photos the
// test adds are the table's first rows, in the order they are inserted,
// whatever the package's other tests left. The tests of this package do
// not run in parallel, and the transaction is rolled back.
func emptyPhotos(t *testing.T, tx pgx.Tx) {
	t.Helper()
	if _, err := tx.Exec(context.Background(), `TRUNCATE photos`); err != nil {
		t.Fatal(err)
	}
}

// photosOnly opens a transaction, rolled back when the test ends, in
// which the photos table holds only what insert (an INSERT of photos into
// album $1 of user $2) writes, analyzed; it returns it with the user's id,
// a new user named user.
func photosOnly(t *testing.T, user, insert string) (pgx.Tx, string) {
	t.Helper()
	ctx := context.Background()
	s := openTestStore(t)
	u, err := s.EnsureUser(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	album := addTestAlbum(t, s, u.ID, "Search", [][3]string{{"first", "Belém", "2024-01-01"}})
	tx, err := s.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx.Rollback(context.Background()) })
	emptyPhotos(t, tx)
	if _, err := tx.Exec(ctx, insert, album, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `ANALYZE photos`); err != nil {
		t.Fatal(err)
	}
	return tx, u.ID
}

// explainSearch returns the plan, run, of the search for q.
func explainSearch(t *testing.T, tx pgx.Tx, q tripdata.PhotoSearch) string {
	t.Helper()
	sql, args := searchPhotosQuery(q, statsInTx(t, tx))
	return pgtest.Plan(t, tx, `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) `+sql, args...)
}

// TestSearchReadsInPhysicalOrder checks that a search with a head reads
// the same photos as one that reads every row in the table's order: the
// first 1001 matches, of which it returns the newest. The beach photos are
// rare in the first 6,000 rows and common after, so the head, sized from
// the share of the whole table, holds a few of them and the index gives
// the rest: the two parts must meet without a gap or an overlap.
func TestSearchReadsInPhysicalOrder(t *testing.T) {
	ctx := context.Background()
	tx, anaID := photosOnly(t, "seam-ana", `INSERT INTO photos (album_id, user_id, description, location_name, taken_at, path)
		SELECT $1, $2,
			CASE WHEN i <= 6000 AND i % 100 = 0 THEN 'praia rara'
				WHEN i <= 6000 AND i % 100 = 50 THEN 'praia cheia'
				WHEN i > 6000 AND i % 2 = 0 THEN 'praia cheia'
				ELSE 'outra coisa' END,
			'lugar ' || i % 37, date '2015-01-01' + i % 40, 'photos/seam/' || i || '.png'
		FROM generate_series(1, 20000) i`)
	// The photos a search must return: the newest 50 of the first 1001
	// matches in physical order, read one row after another.
	const want = `WITH m AS (SELECT id, taken_at FROM photos
			WHERE user_id = $1 AND regexp_like(search_text, $2) ORDER BY ctid LIMIT 1001)
		SELECT array(SELECT id::text FROM m ORDER BY taken_at DESC, id LIMIT 50), (SELECT count(*) FROM m)`
	var seams int
	for _, term := range []string{"praia", "praia cheia", "praia rara", "rara", "lugar 3", "outra"} {
		q := tripdata.PhotoSearch{UserID: anaID, Term: term, Limit: 50}
		got, read := searchInTx(t, tx, q)
		var wantIDs []string
		var wantRead int
		if err := tx.QueryRow(ctx, want, anaID, textfold.WordStartRegexp(textfold.Fold(term))).Scan(&wantIDs, &wantRead); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, wantIDs) || read != wantRead || read == 0 {
			t.Errorf("search for %q read %d and returned %d photos, want %d and the %d of a read in order", term, read, len(got), wantRead, len(wantIDs))
		}
		plan := explainSearch(t, tx, q)
		if !strings.Contains(plan, "Tid Range Scan on photos p (actual rows=0") && !strings.Contains(plan, "Bitmap Heap Scan on photos p_1 (never executed)") {
			seams++
		}
	}
	if seams < 2 {
		t.Errorf("%d searches read from both the head and the index, want praia and praia cheia", seams)
	}
}

// statsInTx reads the statistics the search's head is sized from as tx
// sees them, after its ANALYZE.
func statsInTx(t *testing.T, tx pgx.Tx) *searchStats {
	t.Helper()
	st, err := readSearchStats(context.Background(), tx)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// searchInTx runs the search for q in tx and returns the ids of the photos
// it returns and how many it read.
func searchInTx(t *testing.T, tx pgx.Tx, q tripdata.PhotoSearch) (ids []string, read int) {
	t.Helper()
	sql, args := searchPhotosQuery(q, statsInTx(t, tx))
	rows, err := tx.Query(context.Background(), sql, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		v, err := rows.Values()
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, uuid.UUID(v[0].([16]byte)).String())
		read = int(v[len(v)-1].(int64))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids, read
}

// tg_word_prefixes, the index's list of word beginnings (migration
// 00027), splits a folded text into words where textfold does, and gives
// each word's first one to prefixMax characters: the keys searchKeys
// looks up are then in the index exactly when the text has such a word.
// tg_word_pairs (migration 00029) gives each two consecutive words, the
// first cut to prefixMax characters and the second's first one to
// pairPrefixMax.
func TestWordPrefixesSplitAsTextfold(t *testing.T) {
	ctx := context.Background()
	s := openTestStore(t)
	for _, text := range []string{
		"", " ", "praia do forte", "  Praia do Forte, Bahia  ", "aniversário da Vivi\x1fPelourinho",
		"V&A Waterfront", "vivi's birthday", "São Paulo–Rio (2024)", "a.b,c;d:e!f?g\"h'i`j~k|l\\m/n@o#p$q%r^s&t*u(v)w[x]y{z}_-+=<>\x7f\x01end",
		"東京タワー Tokyo", "Ελληνικά κείμενα", "Pfaffenhofenerstraßenfest", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx y", "🙂 emoji🙂word", "abc123 123abc",
	} {
		var got []string
		if err := s.Pool.QueryRow(ctx, `SELECT tg_word_prefixes(tg_fold($1))`, text).Scan(&got); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, w := range textfold.Words(text) {
			r := []rune(w)
			for n := 1; n <= min(len(r), prefixMax); n++ {
				want = append(want, string(r[:n]))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("tg_word_prefixes(%q) = %q, want %q", text, got, want)
		}
		if err := s.Pool.QueryRow(ctx, `SELECT tg_word_pairs(tg_fold($1))`, text).Scan(&got); err != nil {
			t.Fatal(err)
		}
		want = nil
		words := textfold.Words(text)
		for i := 1; i < len(words); i++ {
			r := []rune(words[i])
			for n := 1; n <= min(len(r), pairPrefixMax); n++ {
				want = append(want, cut(words[i-1], prefixMax)+" "+string(r[:n]))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("tg_word_pairs(%q) = %q, want %q", text, got, want)
		}
	}
}
