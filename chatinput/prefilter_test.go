package chatinput

import (
	"bufio"
	"encoding/json"
	"os"
	"regexp/syntax"
	"slices"
	"testing"
)

// scanning are the detector's patterns that scan a whole text.
func scanning(d *detector) []pattern {
	return slices.Concat(d.tokens, []pattern{d.override, d.toldYou, d.identity, d.roleplay}, d.extraction)
}

func TestNeeded(t *testing.T) {
	tests := []struct {
		expr string
		want []string // nil: nothing known
	}{
		{`abc`, []string{"abc"}},
		{`\bfoo\s+bar\b`, []string{"foo"}},
		{`\s+(alpha|beta)\s+x`, []string{"alpha", "beta"}},
		{`(ignore|ignora|ignorar)`, []string{"ignor"}},
		{`x(ab)+`, []string{"ab"}},
		{`(ab){2,3}`, []string{"ab"}},
		{`(ab)?`, nil},
		{`(ab){0,3}`, nil},
		{`a|\s+`, nil},
		{`(?i)abc`, nil},
		{`[abc]+`, nil},
	}
	for _, tt := range tests {
		re, err := syntax.Parse(tt.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := needed(re)
		if ok != (tt.want != nil) || !slices.Equal(got, tt.want) {
			t.Errorf("needed(%q) = %q, %v; want %q", tt.expr, got, ok, tt.want)
		}
	}
}

// The words a pattern needs never keep it from a text it matches: every
// text of the labelled set, attacks and harmless ones, is matched by each
// scanning pattern of both detectors exactly as the pattern's expression
// alone matches it. And the words spare work: most patterns have them.
func TestPatternsNeedTheirWords(t *testing.T) {
	f, err := os.Open("testdata/injection.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var texts []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c struct{ Text string }
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		folded, _ := folded(c.Text)
		texts = append(texts, folded)
	}
	matched := 0
	for _, d := range []*detector{single, across} {
		unknown := 0
		for _, p := range scanning(d) {
			if p.needs == nil {
				unknown++
			}
			for _, text := range texts {
				want := p.FindAllStringIndex(text, -1)
				if got := p.findAll(text); !slices.EqualFunc(got, want, slices.Equal) {
					t.Errorf("pattern %s finds %v in %q, its expression %v (it needs one of %q)", p, got, text, want, p.needs)
				}
				if want != nil {
					matched++
				}
			}
		}
		if unknown > 1 {
			t.Errorf("%d of %d patterns need no known words", unknown, len(scanning(d)))
		}
	}
	if matched < 50 {
		t.Fatalf("the patterns matched the set %d times: too few to tell", matched)
	}
}
