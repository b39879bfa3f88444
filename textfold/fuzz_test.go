package textfold

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzFold checks folding on any text against the database: Fold gives
// what tg_fold gives, folding twice changes nothing more, and
// MatchesFolded agrees with the database matching tg_fold(text) against
// WordStartRegexp(Fold(term)), as the searches do.
func FuzzFold(f *testing.F) {
	for _, s := range [][2]string{
		{"aniversário da Vivi, no Rio!", "rio"}, {"Pão de Açúcar (V&A) 100%", "v&a"}, {"Straße ÆØÅ", "STRASSE"},
		{"Москва и Rio\tx", "москва"}, {"ǄǅǆǇǈǉ ﬁ ½ Ⅻ", "dz"}, {"e\u0301 A\u030a", "a"}, {"d'Ajuda; x.y*z+[a]{2}|^$\\", "[a]{"},
	} {
		f.Add(s[0], s[1])
	}
	conn := migratedConn(f, testURL)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, text, term string) {
		if !utf8.ValidString(text) || !utf8.ValidString(term) || strings.ContainsRune(text+term, 0) || len(term) > 200 {
			return // PostgreSQL text holds neither; a search term is short
		}
		folded := Fold(text)
		if again := Fold(folded); again != folded {
			t.Fatalf("Fold(%q) = %q, and folding that gives %q", text, folded, again)
		}
		pattern := WordStartRegexp(Fold(term))
		var dbFolded string
		var dbMatches bool
		if err := conn.QueryRow(ctx, `SELECT tg_fold($1), tg_fold($1) ~ $2`, text, pattern).Scan(&dbFolded, &dbMatches); err != nil {
			t.Fatalf("folding %q and matching %q in the database: %v", text, pattern, err)
		}
		if folded != dbFolded {
			t.Fatalf("Fold(%q) = %q, tg_fold gives %q", text, folded, dbFolded)
		}
		if got := MatchesFolded(folded, Fold(term)); got != dbMatches {
			t.Fatalf("%q in %q: MatchesFolded %v, the database (%q) %v", term, text, got, pattern, dbMatches)
		}
	})
}
