package ownerkey

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Problem is a statement that breaks the rule, and why.
type Problem struct {
	SQL    string
	Reason string
}

func (p Problem) String() string { return p.Reason + ":\n    " + oneLine(p.SQL) }

// Check reads each statement and returns those that break the rule: a
// statement on a table of Keys names a key of one of its tables (compares
// it with a value, or inserts it), or carries a listed exception's mark.
func Check(statements []string) []Problem {
	var out []Problem
	for _, sql := range statements {
		if reason := check(sql); reason != "" {
			out = append(out, Problem{SQL: sql, Reason: reason})
		}
	}
	return out
}

var markRE = regexp.MustCompile(`/\*\s*any owner:\s*([^*]+?)\s*\*/`)

// check is the reason sql breaks the rule, or "" when it keeps it.
func check(sql string) string {
	if m := markRE.FindStringSubmatch(sql); m != nil {
		if _, ok := Exceptions[m[1]]; !ok {
			return fmt.Sprintf("marked as the exception %q, which is not listed", m[1])
		}
		return ""
	}
	s := scan(sql)
	var owned []string
	for _, t := range s.tables {
		if _, ok := Keys[t]; ok && !slices.Contains(owned, t) {
			owned = append(owned, t)
		}
	}
	if len(owned) == 0 || s.keyed() {
		return ""
	}
	return fmt.Sprintf("names no owner or thread key of %s", strings.Join(owned, ", "))
}

// scanned is what the scanner found in a statement.
type scanned struct {
	tokens  []string
	tables  []string          // the tables it reads or writes, in order
	aliases map[string]string // alias (or table name) to table
	// inserted are the columns of INSERT INTO table (columns), by table.
	inserted map[string][]string
}

// dml are the words after which a table's name comes.
var dml = map[string]bool{"from": true, "join": true, "update": true, "into": true, "using": true, "copy": true}

// notAlias are the words that may follow a table's name without being its alias.
var notAlias = map[string]bool{
	"where": true, "set": true, "on": true, "join": true, "left": true, "right": true, "inner": true,
	"full": true, "cross": true, "using": true, "order": true, "group": true, "limit": true, "offset": true,
	"for": true, "returning": true, "values": true, "select": true, "default": true, "union": true,
	"natural": true, "lateral": true, "having": true, "window": true, "with": true, "tablesample": true,
	"except": true, "intersect": true, "as": true,
}

func scan(sql string) scanned {
	toks := tokenize(sql)
	s := scanned{tokens: toks, aliases: map[string]string{}, inserted: map[string][]string{}}
	for i := 0; i < len(toks)-1; i++ {
		if !dml[toks[i]] {
			continue
		}
		j := i + 1
		if toks[j] == "only" && j+1 < len(toks) {
			j++
		}
		name := strings.TrimPrefix(toks[j], "public.")
		if _, owned := Keys[name]; !owned && !slices.Contains(Reference, name) {
			continue
		}
		s.tables = append(s.tables, name)
		s.aliases[name] = name
		k := j + 1
		if k < len(toks) && toks[k] == "as" {
			k++
		}
		if k < len(toks) && isIdent(toks[k]) && !notAlias[toks[k]] {
			s.aliases[toks[k]] = name
			k++
		}
		if toks[i] == "into" && k < len(toks) && toks[k] == "(" {
			for k++; k < len(toks) && toks[k] != ")"; k++ {
				if toks[k] != "," {
					s.inserted[name] = append(s.inserted[name], toks[k])
				}
			}
		}
	}
	return s
}

// keyed reports whether the statement inserts a key column of the table
// it inserts into, or compares a key column with a value it is given.
func (s scanned) keyed() bool {
	for t, cols := range s.inserted {
		for _, c := range cols {
			if slices.Contains(Keys[t], c) {
				return true
			}
		}
	}
	for i, tok := range s.tokens {
		if !isIdent(tok) || !s.isKey(tok) {
			continue
		}
		j := skipCasts(s.tokens, i+1)
		if j < len(s.tokens) && (s.tokens[j] == "=" || s.tokens[j] == "in") && s.isValue(j+1) {
			return true
		}
		if i >= 2 && s.tokens[i-1] == "=" && s.isValue(i-2) {
			return true
		}
	}
	return false
}

// isKey reports whether an identifier, perhaps qualified, is a key column
// of a table of the statement.
func (s scanned) isKey(ident string) bool {
	qual, col, found := strings.Cut(ident, ".")
	if found {
		t, ok := s.aliases[qual]
		return ok && slices.Contains(Keys[t], col)
	}
	col = qual
	if col == "id" { // unqualified: the id of the statement's first table
		return len(s.tables) > 0 && slices.Contains(Keys[s.tables[0]], "id")
	}
	for _, t := range s.tables {
		if slices.Contains(Keys[t], col) {
			return true
		}
	}
	return false
}

// isValue reports whether the tokens at i are a value the statement is
// given: a parameter (perhaps cast, or in ANY or a list) or a literal.
func (s scanned) isValue(i int) bool {
	for i < len(s.tokens) && (s.tokens[i] == "(" || s.tokens[i] == "any") {
		i++
	}
	if i >= len(s.tokens) {
		return false
	}
	t := s.tokens[i]
	return strings.HasPrefix(t, "$") || strings.HasPrefix(t, "'")
}

// skipCasts steps over ::type casts from i.
func skipCasts(toks []string, i int) int {
	for i+1 < len(toks) && toks[i] == "::" {
		i += 2
	}
	return i
}

func isIdent(t string) bool {
	if t == "" {
		return false
	}
	c := t[0]
	return c == '_' || c == '"' || (c >= 'a' && c <= 'z')
}

// tokenize splits a statement into lower-case words (a qualified name is
// one), parameters, string literals (emptied), and operators, dropping
// comments.
func tokenize(sql string) []string {
	var toks []string
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '-' && strings.HasPrefix(sql[i:], "--"):
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				return toks
			}
			i += end + 4
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '\'':
			j := i + 1
			for j < len(sql) && (sql[j] != '\'' || strings.HasPrefix(sql[j:], "''")) {
				if sql[j] == '\'' {
					j++
				}
				j++
			}
			toks = append(toks, "''")
			i = j + 1
		case c == '$' || c == '_' || c == '"' || isLetter(c):
			j := i + 1
			for j < len(sql) && (isLetter(sql[j]) || isDigit(sql[j]) || sql[j] == '_' || sql[j] == '.' || sql[j] == '"' || sql[j] == '$') {
				j++
			}
			toks = append(toks, strings.ToLower(strings.ReplaceAll(sql[i:j], `"`, "")))
			i = j
		case c == ':' && strings.HasPrefix(sql[i:], "::"):
			toks = append(toks, "::")
			i += 2
		default:
			toks = append(toks, string(c))
			i++
		}
	}
	return toks
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

func oneLine(sql string) string {
	s := strings.Join(strings.Fields(sql), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
