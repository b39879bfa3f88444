package httpx

import "testing"

func TestTextProblem(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want bool // a problem
	}{
		{`{"a":"plain"}`, false},
		{`{"a":"caf\u00e9 \ud83d\ude00"}`, false},
		{`{"a":"escaped backslash \\u0000 is text"}`, false},
		{`{"a":"\u0000"}`, true},
		{`{"a":"x\u0000y"}`, true},
		{`{"a":"\ud800"}`, true},
		{`{"a":"\ud800x"}`, true},
		{`{"a":"\udc00"}`, true},
		{`{"a":"\ud800\u0041"}`, true},
		{"{\"a\":\"\xff\"}", true},
	} {
		if got := TextProblem([]byte(tc.raw)) != ""; got != tc.want {
			t.Errorf("TextProblem(%q) = %q, want a problem: %v", tc.raw, TextProblem([]byte(tc.raw)), tc.want)
		}
	}
}
