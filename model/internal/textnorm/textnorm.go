// Package textnorm splits text into words for matching, on anything that
// is not a letter or a digit, each folded by package textfold (lower case,
// accents removed).
package textnorm

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tripgraph/tripgraph/textfold"
)

// Word is one word of a text, as folded for matching and as written.
type Word struct {
	Fold  string // lower case, without accents
	Raw   string // as written
	Start int    // byte offset of Raw in the text
	End   int    // byte offset just past Raw
	Cap   bool   // Raw starts with an upper-case letter
}

// Fold returns s in lower case with accents removed ("São" → "sao"): the
// one folding of package textfold, the same the database searches with.
func Fold(s string) string { return textfold.Fold(s) }

// Words splits s into words. Apostrophes inside a word are dropped
// ("d'Ampezzo" → "dampezzo" is not wanted, so they split instead).
func Words(s string) []Word {
	words := make([]Word, 0, 16)
	eachWord(s, func(start, end int) { words = append(words, newWord(s, start, end)) })
	return words
}

// eachWord calls fn with the start and end of each word of s, in order.
func eachWord(s string, fn func(start, end int)) {
	start := -1
	for i, r := range s {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			fn(start, i)
			start = -1
		}
	}
	if start >= 0 {
		fn(start, len(s))
	}
}

func newWord(s string, start, end int) Word {
	raw := s[start:end]
	r, _ := utf8.DecodeRuneInString(raw)
	return Word{Fold: Fold(raw), Raw: raw, Start: start, End: end, Cap: unicode.IsUpper(r)}
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Key folds s and joins its words with single spaces: the form under which
// names are indexed ("Rio-de-Janeiro" → "rio de janeiro").
// It splits s as Words does, without making its list: the gazetteer keys
// every name it loads.
func Key(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	words := 0
	eachWord(s, func(start, end int) {
		if words > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(Fold(s[start:end]))
		words++
	})
	return b.String()
}
