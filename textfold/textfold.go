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
