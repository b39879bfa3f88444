package jsonb

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/tripgraph/tripgraph/testing/pgtest"
)

var testURL string

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m, "jsonb", &testURL)) }

// value is a JSON value with a problem PostgreSQL refuses, or none.
type value struct {
	name, raw string
	refused   bool
}

// values are JSON values at the edges of what PostgreSQL keeps: text, and
// numbers at numeric's limits, written out and with exponents.
var values = func() []value {
	nines := func(n int) string { return strings.Repeat("9", n) }
	zeros := func(n int) string { return strings.Repeat("0", n) }
	return []value{
		{"plain text", `{"a":"plain"}`, false},
		{"escaped letters and a pair", `{"a":"caf\u00e9 \ud83d\ude00"}`, false},
		{"an escaped backslash before u0000", `{"a":"escaped backslash \\u0000 is text"}`, false},
		{"NUL", `{"a":"\u0000"}`, true},
		{"NUL inside", `{"a":"x\u0000y"}`, true},
		{"NUL in a member name", `{"\u0000":1}`, true},
		{"lone high surrogate", `{"a":"\ud800"}`, true},
		{"high surrogate then a letter", `{"a":"\ud800x"}`, true},
		{"lone low surrogate", `{"a":"\udc00"}`, true},
		{"high surrogate then not a low one", `{"a":"\ud800\u0041"}`, true},
		{"not UTF-8", "{\"a\":\"\xff\"}", true},
		{"small numbers", `[0, -0, 1, -1.5, 0.25e-3, 1E+2, 12.5e1]`, false},
		{"a number in a string is text", `{"a":"1e200000"}`, false},
		{"1e200000", `{"a":1e200000}`, true},
		{"140,000 digits", `{"a":` + nines(140000) + `}`, true},
		{"131072 digits", `{"a":` + nines(MaxIntegerDigits) + `}`, false},
		{"131073 digits", `{"a":` + nines(MaxIntegerDigits+1) + `}`, true},
		{"131072 digits, negative", `{"a":-` + nines(MaxIntegerDigits) + `}`, false},
		{"131072 digits and a fraction", `{"a":` + nines(MaxIntegerDigits) + `.5}`, false},
		{"1e131071", `[1e131071]`, false},
		{"1e131072", `[1e131072]`, true},
		{"1.5e131071", `[1.5e131071]`, false},
		{"10e131071", `[10e131071]`, true},
		{"0.1e131072", `[0.1e131072]`, false},
		{"0.001e131074", `[0.001e131074]`, false},
		{"16383 decimals", `[0.` + nines(MaxFractionDigits) + `]`, false},
		{"16384 decimals", `[0.` + nines(MaxFractionDigits+1) + `]`, true},
		{"16384 decimals, trailing zeros", `[1.` + zeros(MaxFractionDigits+1) + `]`, true},
		{"1e-16383", `[1e-16383]`, false},
		{"1e-16384", `[1e-16384]`, true},
		{"1.5e-16382", `[1.5e-16382]`, false},
		{"1.5e-16383", `[1.5e-16383]`, true},
		{"0e-16384", `[0e-16384]`, true},
		{"0e200000", `[0e200000]`, false},
		{"0e1073741822", `[0e1073741822]`, false},
		{"0e1073741823", `[0e1073741823]`, true},
		{"0e99999999999999999999", `[0e99999999999999999999]`, true},
		{"0e-99999999999999999999", `[0e-99999999999999999999]`, true},
		{"1e-99999999999999999999", `[1e-99999999999999999999]`, true},
		{"a large number among small ones", `{"a":[1,2,{"b":1e131072}],"c":3}`, true},
	}
}()

func TestProblem(t *testing.T) {
	for _, v := range values {
		if got := Problem([]byte(v.raw)); (got != "") != v.refused {
			t.Errorf("%s: Problem = %q, want a problem: %v", v.name, got, v.refused)
		}
	}
}

// The rule is PostgreSQL's: it keeps each value Problem lets through, as
// jsonb, and refuses each one Problem refuses.
func TestProblemIsPostgreSQLs(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, v := range values {
		var n int
		err := conn.QueryRow(ctx, `SELECT length($1::jsonb::text)`, v.raw).Scan(&n)
		if problem := Problem([]byte(v.raw)); (err != nil) != (problem != "") {
			t.Errorf("%s: PostgreSQL says %v, the rule %q", v.name, err, problem)
		}
	}
}

// texts are strings at the edges of what PostgreSQL keeps as text.
var texts = []value{
	{"plain", "Lisboa", false},
	{"accents and an emoji", "São Paulo 😀", false},
	{"control characters but NUL", "a\x01\tb\n", false},
	{"NUL", "Lis\x00boa", true},
	{"not UTF-8", "Lis\xffboa", true},
	{"a surrogate, encoded", "\xed\xa0\x80", true},
}

func TestTextProblem(t *testing.T) {
	for _, v := range texts {
		if got := TextProblem(v.raw); (got != "") != v.refused {
			t.Errorf("%s: TextProblem = %q, want a problem: %v", v.name, got, v.refused)
		}
	}
}

// The rule is PostgreSQL's: it keeps as text each string TextProblem lets
// through, and refuses each one it refuses.
func TestTextProblemIsPostgreSQLs(t *testing.T) {
	pgtest.Skip(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, v := range texts {
		var n int
		err := conn.QueryRow(ctx, `SELECT length($1::text)`, v.raw).Scan(&n)
		if problem := TextProblem(v.raw); (err != nil) != (problem != "") {
			t.Errorf("%s: PostgreSQL says %v, the rule %q", v.name, err, problem)
		}
	}
}
