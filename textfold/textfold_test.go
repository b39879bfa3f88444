package textfold

import (
	"context"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/migrations"
	"github.com/tripgraph/tripgraph/testing/pgtest"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "textfold", &testURL)) }

func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"São Paulo": "sao paulo", "Ørsted": "orsted", "øre": "ore", "Straße": "strasse", "STRAẞE": "strasse",
		"Ærø": "aero", "Œuvre": "oeuvre", "Łódź": "lodz", "Þingvellir": "thingvellir", "Reykjavík": "reykjavik",
		"İstanbul": "istanbul", "Gdańsk": "gdansk", "Crème Brûlée": "creme brulee", "plain ascii": "plain ascii",
		"ＡＢＣ": "abc", "ﬁle": "file", "Ж": "Ж",
	} {
		if got := Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
	if !Contains("Aniversário da Vivi", "ANIVERSARIO") || Contains("Lisboa", "Porto") {
		t.Error("Contains does not fold")
	}
}

// TestSameAsDatabase checks Fold against the database's tg_fold on every
// character unaccent has a rule for, on the Latin, Greek and Cyrillic
// blocks, punctuation, letter-like symbols and full-width forms, and on
// words: in the package's database (character type C) and in one whose
// default collation is ICU's, where lower() changes every letter.
func TestSameAsDatabase(t *testing.T) {
	inputs := foldInputs()
	t.Run("C", func(t *testing.T) { compareWithDatabase(t, testURL, inputs) })
	t.Run("ICU", func(t *testing.T) {
		url, drop := icuDatabase(t)
		defer drop()
		compareWithDatabase(t, url, inputs)
	})
	t.Logf("%d inputs, %d of them characters with an unaccent rule", len(inputs), len(rules))
}

func foldInputs() []string {
	inputs := []string{"São Paulo", "Ørsted øre", "Straße STRAẞE", "ÆØÅ æøå", "Łódź", "İstanbul ı", "Crème Brûlée", "ǄǅǆǇǈǉ",
		"Ångström Å", "naïve café", "e\u0301", "A\u030a", "½ ¼ ¾", "© ® ™", "«quoted»", "ＡＢＣ ｘｙｚ", "ﬁ ﬂ ﬀ ﬃ", "Ⅻ ⅻ"}
	for r := range rules {
		inputs = append(inputs, string(r))
	}
	for _, block := range [][2]rune{{0x20, 0x7e}, {0xa0, 0x24f}, {0x250, 0x2ff}, {0x300, 0x36f}, {0x370, 0x3ff},
		{0x400, 0x4ff}, {0x1e00, 0x1eff}, {0x2000, 0x206f}, {0x2100, 0x218f}, {0x2460, 0x24ff}, {0xfb00, 0xfb06}, {0xff01, 0xff5e}} {
		for r := block[0]; r <= block[1]; r++ {
			if unicode.IsPrint(r) || unicode.Is(unicode.Mn, r) || unicode.IsSpace(r) {
				inputs = append(inputs, string(r), "x"+string(r)+"Y")
			}
		}
	}
	return inputs
}

func compareWithDatabase(t *testing.T, url string, inputs []string) {
	pgtest.Skip(t)
	ctx := context.Background()
	conn := migratedConn(t, url)
	rows, err := conn.Query(ctx, `SELECT tg_fold(s) FROM unnest($1::text[]) WITH ORDINALITY AS t(s, n) ORDER BY n`, inputs)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(inputs) {
		t.Fatalf("%d answers for %d inputs", len(got), len(inputs))
	}
	var differ []string
	for i, in := range inputs {
		if Fold(in) != got[i] {
			differ = append(differ, strings.Join([]string{in, Fold(in), got[i]}, " → "))
		}
	}
	if len(differ) > 0 {
		t.Errorf("Fold differs from tg_fold on %d of %d inputs (input → Fold → tg_fold):\n%s",
			len(differ), len(inputs), strings.Join(differ[:min(40, len(differ))], "\n"))
	}
}

// icuDatabase creates a database whose default collation is ICU's root
// locale, on the test server, and returns its URL and how to drop it.
func icuDatabase(t *testing.T) (string, func()) {
	pgtest.Skip(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	name := pgx.Identifier{"textfold_icu_" + strings.ReplaceAll(uuid.NewString()[:8], "-", "")}
	if _, err := conn.Exec(ctx, `CREATE DATABASE `+name.Sanitize()+
		` TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'und' LOCALE 'C.utf8'`); err != nil {
		t.Skipf("the server cannot make an ICU database: %v", err)
	}
	u, _ := url.Parse(testURL)
	u.Path = "/" + name[0]
	return u.String(), func() {
		c, err := pgx.Connect(ctx, testURL)
		if err != nil {
			return
		}
		defer c.Close(ctx)
		c.Exec(ctx, `DROP DATABASE IF EXISTS `+name.Sanitize()+` WITH (FORCE)`)
	}
}

func TestMatches(t *testing.T) {
	for _, tc := range []struct {
		text, term string
		want       bool
	}{
		{"Rio de Janeiro", "rio", true},
		{"o rio Douro", "RIO", true},
		{"aniversário da Vivi", "rio", false},
		{"bolo de aniversário, Rio", "rio", true}, // the second occurrence starts a word
		{"Praia do Forte", "praia", true},
		{"dia de praias", "praia", true}, // a longer form
		{"Praia do Forte", "forte", true},
		{"Praia do Forte", "orte", false},
		{"aniversário da Vivi", "aniversario da vivi", true},
		{"aniversário da Vivi", "rio da vivi", false},
		{"Pão de Açúcar", "pao de acucar", true},
		{"Pão de Açúcar", "ao de açúcar", false},
		{"V&A Waterfront", "v&a", true},
		{"V&A Waterfront", "&a water", true}, // a term that starts with punctuation
		{"V&A Waterfront", "a waterfront", true},
		{"café (Belém)", "belem", true},
		{"d'Ajuda", "ajuda", true},
		{"Lisboa 2024", "2024", true},
		{"Lisboa2024", "2024", false},
		{"Ørsted", "orsted", true},
		{"Москва", "Москва", true}, // other scripts: words of their letters
		{"Москва", "сква", false},
		{"Москвa", "a", false}, // a Latin a after Cyrillic letters: inside the word
		{"Москва, Rio", "rio", true},
		{"東京タワー", "東京", true},
		{"私の東京", "東京", false}, // no spaces: one word
		{"私の 東京", "東京", true},
		{"🎂 rio", "rio", true},
		{"🎂rio", "rio", false},
		{"x\x1fRio Sena", "rio", true},
		{"100% natural", "100%", true},
		{"a.b", "a.b", true},
		{"axb", "a.b", false},
		{"", "rio", false},
		{"rio", "", true},
	} {
		if got := Matches(tc.text, tc.term); got != tc.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", tc.text, tc.term, got, tc.want)
		}
	}
}

// TestWordStartRegexpSameAsMatches checks that the database, matching
// tg_fold(text) against WordStartRegexp(Fold(term)), agrees with Matches
// on every substring of a few texts as a term (so at word starts, inside
// words, with spaces and punctuation), in the package's database and in
// an ICU one.
func TestWordStartRegexpSameAsMatches(t *testing.T) {
	texts := []string{"aniversário da Vivi, no Rio!", "Pão de Açúcar (V&A) 100%", "d'Ajuda; x.y*z+[a]{2}|^$\\", "Москва и Rio\tx", "Москваrio", "ÆØ-Straße\x1fØrsted"}
	var pairs [][2]string
	for _, text := range texts {
		r := []rune(text)
		for i := range r {
			for j := i + 1; j <= min(len(r), i+6); j++ {
				pairs = append(pairs, [2]string{text, string(r[i:j])})
			}
			pairs = append(pairs, [2]string{texts[(i+1)%len(texts)], string(r[i:min(len(r), i+4)])})
		}
	}
	t.Run("C", func(t *testing.T) { compareMatches(t, testURL, pairs) })
	t.Run("ICU", func(t *testing.T) {
		url, drop := icuDatabase(t)
		defer drop()
		compareMatches(t, url, pairs)
	})
}

func compareMatches(t *testing.T, url string, pairs [][2]string) {
	pgtest.Skip(t)
	ctx := context.Background()
	conn := migratedConn(t, url)
	texts, patterns := make([]string, len(pairs)), make([]string, len(pairs))
	for i, p := range pairs {
		texts[i], patterns[i] = p[0], WordStartRegexp(Fold(p[1]))
	}
	rows, err := conn.Query(ctx, `SELECT tg_fold(s) ~ r FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(s, r, n) ORDER BY n`, texts, patterns)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[bool])
	if err != nil {
		t.Fatal(err)
	}
	var differ, matched int
	for i, p := range pairs {
		want := Matches(p[0], p[1])
		if want {
			matched++
		}
		if got[i] != want {
			differ++
			if differ <= 20 {
				t.Errorf("%q in %q: Matches %v, the database (%q) %v", p[1], p[0], want, patterns[i], got[i])
			}
		}
	}
	if matched == 0 || matched == len(pairs) {
		t.Fatalf("%d of %d pairs match: the cases do not test both ways", matched, len(pairs))
	}
	t.Logf("%d pairs, %d matching", len(pairs), matched)
}

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Bahia: aniversário da Vivi", []string{"bahia", "aniversario", "da", "vivi"}},
		{"Vivi's  birthday!", []string{"vivi", "s", "birthday"}},
		{"Japão 2023", []string{"japao", "2023"}},
		{" ,. ", nil},
	}
	for _, tt := range tests {
		if got := Words(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Words(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// migratedConn connects to the database at url, migrated, until the test
// ends.
func migratedConn(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	pgtest.Skip(t)
	ctx := context.Background()
	if err := migrations.Up(ctx, url); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	return conn
}
