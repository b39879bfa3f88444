package backendtest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tripgraph/tripgraph/errcode"
	"github.com/tripgraph/tripgraph/mcpserver"
	"github.com/tripgraph/tripgraph/textfold"
)

// albums returns the user's albums, as getUserAlbums lists them.
func (s *suite) userAlbums(t *testing.T) []map[string]any {
	t.Helper()
	return list(Call(t, s.user, "getUserAlbums", nil).Value, "albums")
}

// albumNamed returns the id of the user's album with that name.
func (s *suite) albumNamed(t *testing.T, name string) string {
	t.Helper()
	for _, a := range s.userAlbums(t) {
		if a["name"] == name {
			return a["id"].(string)
		}
	}
	t.Fatalf("no album %q", name)
	return ""
}

func names(albums []map[string]any) []string {
	out := make([]string, len(albums))
	for i, a := range albums {
		out[i], _ = a["name"].(string)
	}
	return out
}

func (s *suite) albums(t *testing.T) {
	all := s.userAlbums(t)
	if len(all) != 12 {
		t.Fatalf("%d albums, want the 12 demo albums: %v", len(all), names(all))
	}
	for i, a := range all {
		if a["photoCount"] == 0.0 || a["coverUrl"] == "" || len(a["locations"].([]any)) == 0 {
			t.Errorf("album %v lacks its figures", a)
		}
		if i > 0 && all[i-1]["startDate"].(string) < a["startDate"].(string) {
			t.Errorf("%s comes before %s: not newest trip first", all[i-1]["name"], a["name"])
		}
	}
	for _, tc := range []struct {
		limit any
		code  errcode.Code
		n     int
	}{{5, "", 5}, {1, "", 1}, {100000, "", 12}, {mcpserver.MaxLimit + 1, "", 12}, {-1, errcode.BadRequest, 0}, {"ten", errcode.BadRequest, 0}, {1.5, errcode.BadRequest, 0}} {
		r := Call(t, s.user, "getUserAlbums", map[string]any{"limit": tc.limit})
		s.want(t, r, tc.code)
		if got := list(r.Value, "albums"); tc.code == "" && (len(got) != tc.n || names(got)[0] != names(all)[0]) {
			t.Errorf("limit %v: %v, want the first %d", tc.limit, names(got), tc.n)
		}
	}
}

func (s *suite) albumNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		want string // an album the search must find
		not  string // an album it must not
	}{
		{"Lisbon", "Lisboa 2024", "Londres"},
		{"LISBOA", "Lisboa 2024", "Roma 2022"},
		{"lisbon 2024", "Lisboa 2024", "Londres"},
		{"Japão", "Japan 2025", "Lisboa 2024"},
		{"japao", "Japan 2025", "Barcelona"},
		{"London", "Londres", "Lisboa 2024"},
		{"Londres", "Londres", "Japan 2025"},
		{"Rome", "Roma 2022", "Londres"},
		{"New York", "Nova York", "Roma 2022"},
		{"Cape Town", "Cidade do Cabo", "Roma 2022"},
		{"vinho", "Porto e Douro", "Roma 2022"},          // its description
		{"Pelourinho", "Bahia: aniversário da Vivi", ""}, // a photo's place
		{"copacabana", "Rio de Janeiro", "Londres"},
		{"familia", "Paris em família", "Londres"},
		{"rio", "Rio de Janeiro", "Bahia: aniversário da Vivi"}, // a term matches at a word start, not inside "aniversário"
		{"janeiro", "Rio de Janeiro", "Bahia: aniversário da Vivi"},
		{"vivi", "Bahia: aniversário da Vivi", "Rio de Janeiro"},
		{"da vivi", "Bahia: aniversário da Vivi", "Rio de Janeiro"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := names(list(Call(t, s.user, "getAlbumByName", map[string]any{"name": tc.name}).Value, "albums"))
			if !slices.Contains(got, tc.want) || (tc.not != "" && slices.Contains(got, tc.not)) {
				t.Errorf("getAlbumByName(%q) = %v, want %q and not %q", tc.name, got, tc.want, tc.not)
			}
		})
	}
	for _, none := range []string{"Atlantis", "%", "_", "100%", "aneiro", "versario", "rio da vivi", "isboa"} {
		if got := list(Call(t, s.user, "getAlbumByName", map[string]any{"name": none}).Value, "albums"); len(got) != 0 {
			t.Errorf("getAlbumByName(%q) = %v, want none", none, names(got))
		}
	}
	for _, bad := range []any{"", " ", strings.Repeat("x", mcpserver.MaxTermLen+1), "a\x00b"} {
		s.want(t, Call(t, s.user, "getAlbumByName", map[string]any{"name": bad}), errcode.BadRequest)
	}
	s.want(t, Call(t, s.user, "getAlbumByName", map[string]any{}), errcode.BadRequest)
}

func (s *suite) photos(t *testing.T) {
	id := s.albumNamed(t, "Lisboa 2024")
	whole := Call(t, s.user, "getAlbumPhotos", map[string]any{"albumId": id, "limit": mcpserver.MaxLimit})
	s.want(t, whole, "")
	all := list(whole.Value, "photos")
	if whole.Value["total"] != float64(len(all)) || len(all) == 0 {
		t.Fatalf("total %v, %d photos", whole.Value["total"], len(all))
	}
	for i := 1; i < len(all); i++ {
		p, c := all[i-1], all[i]
		if p["takenAt"].(string) > c["takenAt"].(string) || (p["takenAt"] == c["takenAt"] && p["id"].(string) > c["id"].(string)) {
			t.Fatalf("photo %v before %v: not in the order taken", p, c)
		}
	}
	var paged []map[string]any
	for offset := 0; offset < len(all)+7; offset += 7 {
		page := list(Call(t, s.user, "getAlbumPhotos", map[string]any{"albumId": id, "limit": 7, "offset": offset}).Value, "photos")
		paged = append(paged, page...)
	}
	if fmt.Sprint(ids(paged)) != fmt.Sprint(ids(all)) {
		t.Errorf("pages of 7 do not give the album in order")
	}
	if n := len(list(Call(t, s.user, "getAlbumPhotos", map[string]any{"albumId": id}).Value, "photos")); n != min(mcpserver.DefaultLimit, len(all)) {
		t.Errorf("default page = %d photos, want %d", n, min(mcpserver.DefaultLimit, len(all)))
	}
	foreign := Call(t, s.other, "getUserAlbums", nil)
	theirs := list(foreign.Value, "albums")[0]["id"]
	for _, tc := range []struct {
		args map[string]any
		code errcode.Code
	}{
		{map[string]any{"albumId": id, "offset": -1}, errcode.BadRequest},
		{map[string]any{"albumId": id, "offset": 10_000_000}, ""},
		{map[string]any{"albumId": theirs}, errcode.NotFound},
		{map[string]any{"albumId": "nope"}, errcode.NotFound},
		{map[string]any{"albumId": "00000000-0000-0000-0000-000000000000"}, errcode.NotFound},
	} {
		s.want(t, Call(t, s.user, "getAlbumPhotos", tc.args), tc.code)
	}
	day := all[0]["takenAt"].(string)
	byDate := list(Call(t, s.user, "getPhotosByDate", map[string]any{"albumId": id, "date": day}).Value, "photos")
	want := 0
	for _, p := range all {
		if p["takenAt"] == day {
			want++
		}
	}
	if len(byDate) != want {
		t.Errorf("getPhotosByDate(%s) = %d photos, the album has %d that day", day, len(byDate), want)
	}
	if r := Call(t, s.user, "getPhotosByDate", map[string]any{"albumId": id, "date": "2024-06-30"}); r.Code != "" || len(list(r.Value, "photos")) != 0 {
		t.Errorf("a day of no photos = %v %v, want none", r.Code, r.Value)
	}
	s.want(t, Call(t, s.user, "getPhotosByDate", map[string]any{"albumId": id, "date": "2024-02-30"}), errcode.BadRequest)
	s.want(t, Call(t, s.user, "getPhotosByDate", map[string]any{"albumId": id, "date": "01/07/2024"}), errcode.BadRequest)
	s.want(t, Call(t, s.user, "getPhotosByDate", map[string]any{"albumId": theirs, "date": day}), errcode.NotFound)
	s.want(t, Call(t, s.user, "getPhotosByLocation", map[string]any{"albumId": theirs, "query": "praia"}), errcode.NotFound)
	s.want(t, Call(t, s.user, "getPhotosByLocation", map[string]any{"albumId": id, "query": ""}), errcode.BadRequest)
	belem := list(Call(t, s.user, "getPhotosByLocation", map[string]any{"albumId": id, "query": "BELEM"}).Value, "photos")
	if len(belem) == 0 {
		t.Errorf("no photo of Belém found as BELEM")
	}
	for _, p := range belem {
		if p["albumId"] != id || !strings.Contains(strings.ToLower(fmt.Sprint(p["description"], p["locationName"])), "belém") {
			t.Errorf("getPhotosByLocation(BELEM) gave %v", p)
		}
	}
	if got := list(Call(t, s.user, "getPhotosByLocation", map[string]any{"albumId": id, "query": "rio"}).Value, "photos"); len(got) != 0 {
		t.Errorf("getPhotosByLocation(rio) in Lisboa 2024 = %v, want none: rio is inside aniversário", got)
	}
}

func ids(photos []map[string]any) []any {
	out := make([]any, len(photos))
	for i, p := range photos {
		out[i] = p["id"]
	}
	return out
}

func (s *suite) search(t *testing.T) {
	r := Call(t, s.user, "searchPhotosAcrossAlbums", map[string]any{"query": "aniversario da vivi", "limit": mcpserver.MaxLimit})
	got := list(r.Value, "photos")
	if len(got) == 0 || r.Value["total"] != float64(len(got)) || r.Value["totalIsLowerBound"] != false {
		t.Fatalf("aniversario da vivi = %v", r.Value)
	}
	for i, p := range got {
		if !strings.Contains(strings.ToLower(p["description"].(string)), "aniversário da vivi") || p["albumName"] == "" {
			t.Errorf("photo %v does not match", p)
		}
		if i > 0 && got[i-1]["takenAt"].(string) < p["takenAt"].(string) {
			t.Errorf("photos not newest first")
		}
	}
	for _, tc := range []struct {
		limit any
		want  int
	}{{3, 3}, {nil, mcpserver.DefaultLimit}, {mcpserver.MaxLimit, mcpserver.MaxLimit}, {100000, mcpserver.MaxLimit}} {
		args := map[string]any{"query": "a"}
		if tc.limit != nil {
			args["limit"] = tc.limit
		}
		r := Call(t, s.user, "searchPhotosAcrossAlbums", args)
		if n := len(list(r.Value, "photos")); n != tc.want || num(r.Value["total"]) <= float64(mcpserver.MaxLimit) {
			t.Errorf("limit %v gave %d of %v photos, want %d", tc.limit, n, r.Value["total"], tc.want)
		}
	}
	theirs := map[any]bool{}
	for _, a := range list(Call(t, s.other, "getUserAlbums", nil).Value, "albums") {
		theirs[a["id"]] = true
	}
	for _, p := range list(Call(t, s.user, "searchPhotosAcrossAlbums", map[string]any{"query": "a", "limit": mcpserver.MaxLimit}).Value, "photos") {
		if theirs[p["albumId"]] {
			t.Fatalf("the search found another user's photo %v", p)
		}
	}
	s.wordStarts(t)
	s.searchMatchesEveryPhoto(t)
	guell := Call(t, s.user, "searchPhotosAcrossAlbums", map[string]any{"query": "PARK GUELL"})
	if len(list(guell.Value, "photos")) == 0 {
		t.Errorf("PARK GUELL does not find Park Güell")
	}
	s.want(t, Call(t, s.user, "searchPhotosAcrossAlbums", map[string]any{"query": "x", "album": "y"}), errcode.BadRequest)
}

// wordStarts checks that a search term matches at the start of a word of
// a photo's description or place, never inside one: each query finds
// photos whose text has all of want (any case) and none without.
func (s *suite) wordStarts(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  []string // in every photo found (folded by strings.ToLower only); none: no photo must be found
	}{
		{"rio", []string{"rio sena"}}, // the Seine's photos, not "aniversário da Vivi"
		{"Rio Sena", []string{"rio sena"}},
		{"rio da vivi", nil},
		{"forte", []string{"praia do forte"}}, // a word start inside the text
		{"orte", nil},
		{"praia do", []string{"praia do forte"}},
		{"do forte", []string{"praia do forte"}},
		{"PAO DE ACUCAR", []string{"pão de açúcar"}},  // accents and case folded
		{"ão de açúcar", nil},                         // folds to "ao de acucar": inside "pão"
		{"V&A", []string{"v&a waterfront"}},           // punctuation inside a term
		{"&a waterfront", []string{"v&a waterfront"}}, // a term starting with punctuation matches anywhere
		{"vivi's birthday", []string{"vivi's birthday"}},
		{"ivi's birthday", nil},
		{"eiffel tower", []string{"eiffel tower"}},
		{"iffel", nil},
	} {
		r := Call(t, s.user, "searchPhotosAcrossAlbums", map[string]any{"query": tc.query, "limit": mcpserver.MaxLimit})
		got := list(r.Value, "photos")
		if (len(got) == 0) != (tc.want == nil) {
			t.Errorf("searchPhotosAcrossAlbums(%q) = %d photos, want %s", tc.query, len(got), map[bool]string{true: "none", false: "some"}[tc.want == nil])
		}
		for _, p := range got {
			text := strings.ToLower(fmt.Sprint(p["description"], " / ", p["locationName"]))
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("searchPhotosAcrossAlbums(%q) found %q, which lacks %q", tc.query, text, w)
				}
			}
		}
	}
}

func (s *suite) stats(t *testing.T) {
	id := s.albumNamed(t, "Japan 2025")
	st := Call(t, s.user, "getTripStats", map[string]any{"albumId": id}).Value
	locs := list(st, "locations")
	sum := 0.0
	for i, l := range locs {
		sum += num(l["count"])
		if i > 0 && num(locs[i-1]["count"]) < num(l["count"]) {
			t.Errorf("places not most photographed first: %v", locs)
		}
	}
	if st["name"] != "Japan 2025" || st["startDate"] != "2025-03-27" || num(st["days"]) < 1 || num(st["days"]) > 10 ||
		sum > num(st["totalPhotos"]) || sum == 0 {
		t.Errorf("stats = %v", st)
	}
	s.want(t, Call(t, s.user, "getTripStats", map[string]any{}), errcode.BadRequest)
	s.want(t, Call(t, s.user, "getTripStats", map[string]any{"albumId": "nope"}), errcode.NotFound)
}

func (s *suite) identity(t *testing.T) {
	s.want(t, Call(t, s.user, "getUserAlbums", map[string]any{"userId": s.f.User}), "")
	s.want(t, Call(t, s.user, "getUserAlbums", map[string]any{"userId": s.f.Other}), errcode.Forbidden)
	s.want(t, Call(t, s.user, "list-restaurants", map[string]any{"location": "Tokyo", "userId": s.f.Other}), errcode.Forbidden)
	nobody := Connect(t, Config(s.f.Backend, ""))
	s.want(t, Call(t, nobody, "getUserAlbums", nil), errcode.Forbidden)
}

// everyPhoto returns each of the user's photos, read album by album
// through getAlbumPhotos, with the text a search matches: the description
// and the place joined by a unit separator.
func (s *suite) everyPhoto(t *testing.T) (photos []map[string]any, texts []string) {
	t.Helper()
	for _, a := range s.userAlbums(t) {
		for offset := 0; ; offset += mcpserver.MaxLimit {
			page := list(Call(t, s.user, "getAlbumPhotos", map[string]any{"albumId": a["id"], "limit": mcpserver.MaxLimit, "offset": offset}).Value, "photos")
			for _, p := range page {
				photos = append(photos, p)
				texts = append(texts, fmt.Sprint(p["description"], "\x1f", p["locationName"]))
			}
			if len(page) < mcpserver.MaxLimit {
				break
			}
		}
	}
	return photos, texts
}

// searchTerms returns terms cut from the photos' own texts at word starts
// (a word, its beginning, two or three words from the middle, in upper
// case), from one photo in five, and a few that match only inside words
// or across the description and the place.
func searchTerms(texts []string) []string {
	terms := []string{"a", "o", "x", "&", "'s", "-", "v&", "ivi", "da", "de ", "praia do", "aniversario da vivi", "ão", "tower", "vivi\x1f", "ü"}
	for i := 0; i < len(texts); i += 5 {
		words := strings.FieldsFunc(texts[i], func(r rune) bool { return r == ' ' || r == '\x1f' })
		if len(words) == 0 {
			continue
		}
		w := words[i%len(words)]
		terms = append(terms, w, strings.ToUpper(w), string([]rune(w)[:min(3, len([]rune(w)))]), strings.Join(words[i%len(words):min(len(words), i%len(words)+3)], " "))
		if len(words) > 1 {
			terms = append(terms, strings.Join(words[len(words)-2:], " "))
		}
	}
	slices.Sort(terms)
	return slices.Compact(terms)
}

// searchMatchesEveryPhoto checks the photo searches against the user's
// photos read one by one: for each term, searchPhotosAcrossAlbums answers
// exactly the newest of the photos whose text the term matches
// (textfold.Matches), newest first (then by id), and their number; and
// getPhotosByLocation the newest of those in one album. Both stores must
// give the same answers for the same photos.
func (s *suite) searchMatchesEveryPhoto(t *testing.T) {
	photos, texts := s.everyPhoto(t)
	if len(photos) < 100 {
		t.Fatalf("%d photos: too few to search", len(photos))
	}
	album := photos[0]["albumId"]
	for _, term := range searchTerms(texts) {
		var want, inAlbum []map[string]any
		for i, p := range photos {
			if textfold.Matches(texts[i], term) {
				want = append(want, p)
			}
		}
		slices.SortStableFunc(want, func(x, y map[string]any) int {
			return cmp.Or(strings.Compare(y["takenAt"].(string), x["takenAt"].(string)), strings.Compare(x["id"].(string), y["id"].(string)))
		})
		for _, p := range want {
			if p["albumId"] == album {
				inAlbum = append(inAlbum, p)
			}
		}
		r := Call(t, s.user, "searchPhotosAcrossAlbums", map[string]any{"query": term, "limit": mcpserver.MaxLimit})
		if r.Code != "" {
			t.Errorf("searchPhotosAcrossAlbums(%q): %v", term, r.Code)
			continue
		}
		got := list(r.Value, "photos")
		if fmt.Sprint(ids(got)) != fmt.Sprint(ids(want[:min(len(want), mcpserver.MaxLimit)])) || r.Value["total"] != float64(len(want)) || r.Value["totalIsLowerBound"] != false {
			t.Errorf("searchPhotosAcrossAlbums(%q) = %d photos of %v, want the newest %d of %d", term, len(got), r.Value["total"], min(len(want), mcpserver.MaxLimit), len(want))
		}
		byPlace := list(Call(t, s.user, "getPhotosByLocation", map[string]any{"albumId": album, "query": term, "limit": mcpserver.MaxLimit}).Value, "photos")
		if fmt.Sprint(ids(byPlace)) != fmt.Sprint(ids(inAlbum[:min(len(inAlbum), mcpserver.MaxLimit)])) {
			t.Errorf("getPhotosByLocation(%q) = %d photos, want the newest %d of the album's %d", term, len(byPlace), min(len(inAlbum), mcpserver.MaxLimit), len(inAlbum))
		}
	}
}
