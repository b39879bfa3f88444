package chatinput

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// pattern is a compiled pattern together with words one of which every
// match of it contains. A text that holds none of them cannot match, and
// the regular expression is not run on it: a traveller's message rarely
// holds any of the words an attempt needs, and scanning for a few words is
// far cheaper than running the expression.
type pattern struct {
	*regexp.Regexp
	needs []string // nil when no such words were found: the pattern always runs
}

// compilePattern compiles expr and finds the words its matches need.
func compilePattern(expr string) pattern {
	re := regexp.MustCompile(expr)
	parsed, err := syntax.Parse(expr, syntax.Perl)
	if err != nil { // regexp compiled it with the same flags
		panic(err)
	}
	needs, _ := needed(parsed)
	return pattern{Regexp: re, needs: needs}
}

// may reports whether text may hold a match: it holds one of the words
// every match needs, or no such words are known.
func (p pattern) may(text string) bool {
	if p.needs == nil {
		return true
	}
	for _, w := range p.needs {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// findAll returns the places of every match in text, as
// FindAllStringIndex does.
func (p pattern) findAll(text string) [][]int {
	if !p.may(text) {
		return nil
	}
	return p.FindAllStringIndex(text, -1)
}

// findAllString returns every match in text, as FindAllString does.
func (p pattern) findAllString(text string) []string {
	if !p.may(text) {
		return nil
	}
	return p.FindAllString(text, -1)
}

// needed returns strings one of which every match of re contains, and
// whether it found any: a literal is itself; an alternation needs one of
// what its branches need, if each needs something; a concatenation needs
// what the part of it with the longest such strings needs; a group or a
// repetition at least once, what its contents need. Anything else (a
// character class, an optional part, a case-folded literal) needs
// nothing known.
func needed(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 || len(re.Rune) == 0 {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCapture, syntax.OpPlus:
		return needed(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min < 1 {
			return nil, false
		}
		return needed(re.Sub[0])
	case syntax.OpAlternate:
		var any []string
		for _, sub := range re.Sub {
			words, ok := needed(sub)
			if !ok {
				return nil, false
			}
			any = append(any, words...)
		}
		return any, true
	case syntax.OpConcat:
		var best []string
		for _, sub := range re.Sub {
			if words, ok := needed(sub); ok && (best == nil || shortest(words) > shortest(best)) {
				best = words
			}
		}
		return best, best != nil
	}
	return nil, false
}

// shortest is the length of the shortest of words.
func shortest(words []string) int {
	n := len(words[0])
	for _, w := range words[1:] {
		n = min(n, len(w))
	}
	return n
}
