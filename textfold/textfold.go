// Package textfold is the one form tripgraph compares text in: accents
// and ligatures removed, then ASCII letters in lower case ("São Paulo" is
// "sao paulo", "Ørsted" is "orsted", "Straße" is "strasse").
//
// It gives exactly what the database's tg_fold gives, which is
// lower(unaccent(t)) in a database whose character type is C: the
// characters are replaced by the rules of PostgreSQL's unaccent
// dictionary, embedded here as unaccent.rules (from PostgreSQL 15's
// contrib/unaccent, under the PostgreSQL Licence), and lower() changes only
// ASCII letters there. Package textfold's tests check the two against a
// real server.
//
// Matches is the rule of the album and photo searches: the folded term
// at the start of a word of the folded text; WordStartRegexp is the same
// rule for PostgreSQL.
package textfold

import (
	_ "embed"
	"strings"
	"unicode/utf8"
)

//go:embed unaccent.rules
var rulesFile string

// rules maps a character to what unaccent writes for it ("" drops it).
var rules = parseRules(rulesFile)

// parseRules reads lines "character<TAB>replacement"; a line with the
// character alone removes it (the combining marks). The replacement is
// taken without the white space around it, as unaccent reads it.
func parseRules(file string) map[rune]string {
	m := make(map[rune]string, 2048)
	for line := range strings.Lines(file) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		r, size := utf8.DecodeRuneInString(fields[0])
		if size != len(fields[0]) {
			panic("textfold: a rule's source is not one character: " + fields[0])
		}
		m[r] = strings.Join(fields[1:], " ")
	}
	return m
}

// Fold returns s without accents, with ASCII letters in lower case.
func Fold(s string) string {
	if isLowerASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if to, ok := rules[r]; ok {
			writeLowerASCII(&b, to)
			continue
		}
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Contains reports whether s contains sub once both are folded.
func Contains(s, sub string) bool { return strings.Contains(Fold(s), Fold(sub)) }

func isLowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

func writeLowerASCII(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
}

// Matches reports whether term occurs in s at the start of a word, once
// both are folded: "rio" matches "Rio de Janeiro" and "o rio Douro" but
// not "aniversário"; "praia" matches "Praia do Forte" and "praias". It is
// the rule of the album and photo searches; see MatchesFolded.
func Matches(s, term string) bool { return MatchesFolded(Fold(s), Fold(term)) }

// MatchesFolded is Matches on text and a term already folded.
//
// Words are separated by ASCII spaces, punctuation and control characters;
// every other character is part of a word. Folding turns the letters of
// Latin scripts into ASCII ones and common punctuation (« », “ ”, –, …)
// into ASCII punctuation, so a word of a Latin-script language is a run of
// ASCII letters and digits; a word of another script (Greek, Cyrillic) is a
// run of its letters. A term matches where the folded text contains it and,
// if the term begins with a word character, the character before is not
// one (or there is none). A term that begins with punctuation ("&a")
// matches anywhere. Text written without spaces (Chinese, Japanese) is one
// word until the next space or ASCII punctuation.
//
// WordStartRegexp is the same rule as a PostgreSQL regular expression.
func MatchesFolded(text, term string) bool {
	if term == "" || !isWordByte(term[0]) {
		return strings.Contains(text, term)
	}
	for from := 0; ; {
		i := strings.Index(text[from:], term)
		if i < 0 {
			return false
		}
		at := from + i
		if at == 0 || !isWordByte(text[at-1]) {
			return true
		}
		from = at + 1
	}
}

// Words splits s, folded, into its words, as MatchesFolded tells words
// apart: "Bahia: aniversário da Vivi" is bahia, aniversario, da, vivi.
func Words(s string) []string {
	return strings.FieldsFunc(Fold(s), func(r rune) bool { return r < utf8.RuneSelf && !isWordByte(byte(r)) })
}

// isWordByte reports whether c, a byte of UTF-8 text, is part of a word
// character: an ASCII letter or digit, or any byte of a multibyte
// character.
func isWordByte(c byte) bool {
	return c >= utf8.RuneSelf || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// wordSeparators is the bracket expression of the characters that are not
// word characters: ASCII, not a letter or digit (NUL is never in text).
const wordSeparators = `[\x01-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]`

// WordStartRegexp returns a PostgreSQL (advanced) regular expression that
// a folded text matches exactly when MatchesFolded(text, term) is true;
// term must be folded. Its meaning does not depend on the database's
// locale: it lists the separators by code and escapes every ASCII
// character of the term that is not a letter or digit. Because the
// separators are few and all of them separate words for pg_trgm too, a
// trigram index scanned with it looks for the term's padded trigrams ("  r",
// " ri" for "rio"): those of a word start.
func WordStartRegexp(term string) string {
	var b strings.Builder
	if term != "" && isWordByte(term[0]) {
		b.WriteString("(^|" + wordSeparators + ")")
	}
	for i := 0; i < len(term); i++ {
		c := term[i]
		if !isWordByte(c) {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}
