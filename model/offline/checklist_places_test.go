package offline

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tripgraph/tripgraph/model/gazetteer"
	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// The behaviour of place reading, checked in the manner of CheckList
// (Ribeiro et al., 2020): templates in English and Portuguese filled with
// a large vocabulary of places (the 500 most populous cities, which the
// catalog covers, the known destinations, and the next 500 cities), each
// also written with one letter dropped, doubled, swapped or replaced,
// without accents and in lower case.
//
//   - minimum functionality: a place written right is the trip's place;
//   - invariance: a misspelt, unaccented or lower-case place is the same
//     place (or, misspelt, the traveller is asked when another place is
//     as near), and changing the place changes nothing else (dates,
//     party, intent).
//
// The failure rate of each capability is logged and must stay under
// maxChecklistFailures.

const maxChecklistFailures = 0.03

// placeTemplates hold the place at %[1]s.
var placeTemplates = []struct{ lang, text string }{
	{"en", "hotel in %[1]s from May 3 to May 7 for 2"},
	{"en", "3 nights in %[1]s in october, me and my wife"},
	{"pt", "hotel em %[1]s de 3 a 7 de maio para 2 pessoas"},
	{"pt", "quero ir pra %[1]s em outubro, somos 3"},
}

// perturbation rewrites a place's name; ok false when it does not apply.
type perturbation struct {
	name string
	fn   func(r *rand.Rand, s string) (string, bool)
}

var perturbations = []perturbation{
	{"lower case", func(_ *rand.Rand, s string) (string, bool) { return strings.ToLower(s), strings.ToLower(s) != s }},
	{"accents stripped", func(_ *rand.Rand, s string) (string, bool) {
		t := stripAccents(s)
		return t, t != s
	}},
	{"letter dropped", typo(func(b []byte, i int) []byte { return slices.Delete(b, i, i+1) })},
	{"letter doubled", typo(func(b []byte, i int) []byte { return slices.Insert(b, i, b[i]) })},
	{"letters swapped", typo(func(b []byte, i int) []byte {
		if i+1 >= len(b) || b[i+1] == ' ' || b[i] == b[i+1] {
			return nil
		}
		b[i], b[i+1] = b[i+1], b[i]
		return b
	})},
	{"letter replaced", typo(func(b []byte, i int) []byte {
		b[i] = nearKey(b[i])
		return b
	})},
}

// typo applies edit at a letter inside a name written in lower case
// without accents (as travellers misspell), never a word's first letter,
// in a word of four letters or more, and only to names of six letters or
// more and three words at most: shorter names are ambiguous when
// misspelt.
func typo(edit func(b []byte, i int) []byte) func(r *rand.Rand, s string) (string, bool) {
	return func(r *rand.Rand, s string) (string, bool) {
		s = strings.ToLower(stripAccents(s))
		if len(strings.ReplaceAll(s, " ", "")) < 6 || strings.Count(s, " ") > 2 {
			return "", false
		}
		for range 5 {
			i := 1 + r.IntN(len(s)-1)
			if s[i] == ' ' || s[i-1] == ' ' || s[i] < 'a' || s[i] > 'z' || len(wordAt(s, i)) < 4 {
				continue
			}
			if b := edit([]byte(s), i); b != nil {
				return string(b), true
			}
		}
		return "", false
	}
}

// wordAt is the word of s around byte i.
func wordAt(s string, i int) string {
	start := strings.LastIndexByte(s[:i], ' ') + 1
	end := strings.IndexByte(s[i:], ' ')
	if end < 0 {
		return s[start:]
	}
	return s[start : i+end]
}

// nearKey is a letter next to c on a QWERTY keyboard.
func nearKey(c byte) byte {
	rows := []string{"qwertyuiop", "asdfghjkl", "zxcvbnm"}
	for _, row := range rows {
		if i := strings.IndexByte(row, c); i >= 0 {
			if i+1 < len(row) {
				return row[i+1]
			}
			return row[i-1]
		}
	}
	return c
}

func stripAccents(s string) string {
	var b strings.Builder
	for _, w := range strings.Split(s, " ") {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		f := textnorm.Fold(w)
		if w != "" && strings.ToUpper(w[:1]) == w[:1] && f != "" {
			f = strings.ToUpper(f[:1]) + f[1:] // keep the capital
		}
		b.WriteString(f)
	}
	return b.String()
}

// checklistPlaces is the vocabulary: places a name of which the gazetteer
// reads as that place on its own, written as the gazetteer names them.
func checklistPlaces() []gazetteer.City {
	var out []gazetteer.City
	seen := map[string]bool{}
	add := func(c gazetteer.City) {
		if seen[c.Name] || strings.ContainsAny(c.Name, "'’-.,()") || strings.HasPrefix(c.Name, "The ") || strings.HasPrefix(c.Name, "City of ") {
			return // administrative labels, not names travellers write
		}
		if got, ok := gazetteer.Lookup(c.Name); !ok || got.Name != c.Name || got.Country != c.Country {
			return // a namesake is better known: the name alone means it
		}
		seen[c.Name] = true
		out = append(out, c)
	}
	for _, c := range gazetteer.Largest(1000) {
		add(c)
	}
	for _, c := range gazetteer.KnownDestinations() {
		add(c)
	}
	return out
}

// tally counts cases and failures per capability.
type tally map[string]*[2]int

func (t tally) add(capability string, ok bool) {
	if t[capability] == nil {
		t[capability] = &[2]int{}
	}
	t[capability][0]++
	if !ok {
		t[capability][1]++
	}
}

func TestChecklistPlaces(t *testing.T) {
	today := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	r := rand.New(rand.NewPCG(37, 1))
	places := checklistPlaces()
	res := tally{}
	examples := map[string][]string{}
	fail := func(capability, msg string) {
		if len(examples[capability]) < 30 {
			examples[capability] = append(examples[capability], msg)
		}
	}
	for _, c := range places {
		for _, tpl := range placeTemplates {
			clean := Understand([]string{fmt.Sprintf(tpl.text, c.Name)}, today)
			ok := clean.Location == c.Name && !slices.Contains(clean.Unsure, "location")
			res.add("place read ("+tpl.lang+")", ok)
			if !ok {
				fail("place read ("+tpl.lang+")", fmt.Sprintf("%q → %q %v", fmt.Sprintf(tpl.text, c.Name), clean.Location, clean.Unsure))
				continue
			}
			for _, p := range perturbations {
				name, applies := p.fn(r, c.Name)
				if !applies {
					continue
				}
				if other, ok := gazetteer.Lookup(name); ok && other.Name != c.Name {
					continue // the misspelling is another place's name
				}
				text := fmt.Sprintf(tpl.text, name)
				got := Understand([]string{text}, today)
				// Read as the place, or asked about when another is as near.
				same := got.Location == c.Name || slices.Contains(got.Unsure, "location")
				res.add(p.name+" ("+tpl.lang+")", same)
				if !same {
					fail(p.name+" ("+tpl.lang+")", fmt.Sprintf("%q → %q", text, got.Location))
				}
				unchanged := got.Dates == clean.Dates && got.Guests == clean.Guests && got.Intent == clean.Intent
				res.add("nothing else changes ("+tpl.lang+")", unchanged)
				if !unchanged {
					fail("nothing else changes ("+tpl.lang+")", fmt.Sprintf("%q → %+v %d %s", text, got.Dates, got.Guests, got.Intent))
				}
			}
		}
	}
	reportTally(t, res, examples, len(places))
}

func reportTally(t *testing.T, res tally, examples map[string][]string, vocabulary int) {
	t.Helper()
	names := make([]string, 0, len(res))
	total := 0
	for k, v := range res {
		names = append(names, k)
		total += v[0]
	}
	slices.Sort(names)
	t.Logf("%d places, %d cases", vocabulary, total)
	for _, k := range names {
		v := res[k]
		rate := float64(v[1]) / float64(v[0])
		t.Logf("%-32s %6d cases, %5.2f%% failed", k, v[0], 100*rate)
		for _, e := range examples[k] {
			t.Logf("    %s", e)
		}
		if rate > maxChecklistFailures {
			t.Errorf("%s: %.2f%% of %d cases failed, more than %.0f%%", k, 100*rate, v[0], 100*maxChecklistFailures)
		}
	}
}
