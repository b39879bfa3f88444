package gazetteer

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/tripgraph/tripgraph/model/gazetteer/internal/strtab"
)

// Misspelt places. Travellers drop, double, swap and mistype letters and
// leave out accents ("barcleona", "amsterdan", "sao paolo", "bariloxe").
// A name no exact match takes is compared with the gazetteer's names by
// edit distance (optimal string alignment: one insertion, deletion,
// substitution or swap of neighbours is one edit) and by a phonetic key
// that sounds alike what is spelt differently ("ch" and "x", "ss" and
// "z", "y" and "i"). To keep false matches rare a fuzzy match needs
//
//   - a word no reader of the model uses (not a stop word, not travel
//     vocabulary) of at least five letters;
//   - a place: after a word that introduces one ("in", "em", "pra"), at
//     the start of a sentence, capitalised, or before what follows a
//     destination ("barcleona in May");
//   - a known destination: a city of at least minFuzzyPop inhabitants,
//     or one travellers name by another name (the aliases and the
//     supplement);
//   - one edit for names of five to seven letters, two for longer names
//     when their phonetic keys agree;
//   - without a word introducing a place, a city of 100,000 or more, or
//     one known by other names; for a word of five letters, 100,000
//     after such a word and a million without.
//
// Find marks such matches Fuzzy, with the name as written; Unsure as well
// when another known place is as near and at least a tenth as likely
// (rivalRatio), so that the planner asks which one. A name that is a
// small town's own is never read as a misspelt city.

const (
	minFuzzyPop  = 25_000
	minFuzzyLen  = 5
	bigFuzzyPop  = 100_000
	hugeFuzzyPop = 1_000_000
	longFuzzyLen = 8
)

// fuzzyIndex finds names near a misspelt one: every eligible name under
// itself and under each form with one letter deleted (a symmetric
// deletion index: two strings one edit apart share such a form), and
// under its phonetic key. It lives as long as the process, in flat
// slices: the names and their phonetic keys in string tables, the names
// of a phonetic key one run of soundsLike.
type fuzzyIndex struct {
	names       strtab.Table // the names indexed
	deletes     []deletion   // sorted by hash
	phonetic    strtab.Table // the names' phonetic keys
	soundStarts []uint32     // the names of phonetic key p are soundsLike[soundStarts[p]:soundStarts[p+1]]
	soundsLike  []int32
}

// deletion is the hash of a name, or of it less one letter, and the name.
type deletion struct {
	hash uint32
	name int32
}

// buildFuzzy indexes the names of destinations a traveller may misspell.
// The deletion forms are kept as 32-bit hashes: a collision only adds a
// candidate, which the edit distance then rules out.
func (x *index) buildFuzzy() {
	var f fuzzyIndex
	var keyOf []int32 // name → its phonetic key
	add := func(k string, i int32) {
		if len(compact(k)) < minFuzzyLen || !x.fuzzyTarget(i) {
			return
		}
		n, added := f.names.Add(k)
		if !added {
			return
		}
		eachDeletion(k, func(h uint64) { f.deletes = append(f.deletes, deletion{uint32(h), n}) })
		p, _ := f.phonetic.Add(phoneticKey(k))
		keyOf = append(keyOf, p)
	}
	x.byName.each(func(k string, list []int32) { add(k, list[0]) })
	for _, k := range sortedKeys(x.alias) {
		add(k, x.alias[k])
	}
	f.names.Clip()
	f.phonetic.Clip()
	slices.SortFunc(f.deletes, func(a, b deletion) int {
		return cmp.Or(cmp.Compare(a.hash, b.hash), cmp.Compare(a.name, b.name))
	})
	f.deletes = slices.Clone(f.deletes)
	f.soundStarts, f.soundsLike = groupBy(keyOf, f.phonetic.Len())
	x.fuzzy = f
}

// groupBy lists the indexes of keyOf by their value, each value's in
// order: those of value v are list[starts[v]:starts[v+1]].
func groupBy(keyOf []int32, n int) (starts []uint32, list []int32) {
	starts = make([]uint32, n+1)
	for _, k := range keyOf {
		starts[k+1]++
	}
	for v := range n {
		starts[v+1] += starts[v]
	}
	next := slices.Clone(starts[:n])
	list = make([]int32, len(keyOf))
	for i, k := range keyOf {
		list[next[k]] = int32(i)
		next[k]++
	}
	return starts, list
}

// withDeletion calls f with each name indexed under the hash h.
func (f *fuzzyIndex) withDeletion(h uint64, fn func(string)) {
	h32 := uint32(h)
	i, _ := slices.BinarySearchFunc(f.deletes, h32, func(d deletion, h uint32) int { return cmp.Compare(d.hash, h) })
	for ; i < len(f.deletes) && f.deletes[i].hash == h32; i++ {
		fn(f.names.String(f.deletes[i].name))
	}
}

// soundingLike calls fn with each name whose phonetic key is p.
func (f *fuzzyIndex) soundingLike(p string, fn func(string)) {
	k, ok := f.phonetic.Get(p)
	if !ok {
		return
	}
	for _, n := range f.soundsLike[f.soundStarts[k]:f.soundStarts[k+1]] {
		fn(f.names.String(n))
	}
}

// knownEnough reports whether a city is known enough to be what a word
// of n letters misspells: any destination after a word that introduces a
// place, a large or famous one otherwise, and for five letters a larger
// one still.
func (x *index) knownEnough(c int32, n int, weak bool) bool {
	pop := x.places.population(c)
	switch {
	case n == minFuzzyLen && weak:
		return pop >= hugeFuzzyPop
	case n == minFuzzyLen, weak:
		return pop >= bigFuzzyPop || x.famous(c)
	}
	return true
}

// famous reports a destination travellers name by other names, or one
// the gazetteer adds by hand.
func (x *index) famous(i int32) bool {
	return int(i) >= x.supplementFrom || x.aliased[i]
}

// fuzzyTarget reports whether a city is a destination worth guessing.
func (x *index) fuzzyTarget(i int32) bool {
	return x.places.population(i) >= minFuzzyPop || x.famous(i)
}

// eachDeletion calls f with the FNV-1a hash of s and of every form of s
// with one byte deleted.
func eachDeletion(s string, f func(uint64)) {
	for skip := -1; skip < len(s); skip++ {
		h := uint64(14695981039346656037)
		for i := 0; i < len(s); i++ {
			if i != skip {
				h = (h ^ uint64(s[i])) * 1099511628211
			}
		}
		f(h)
	}
}

// reading is what a misspelt name may be: the indexed name nearest to it,
// how far, and whether another place is as near and as well known, so
// that the two readings compete and the traveller is asked.
type reading struct {
	name      string
	dist      int
	competing bool
}

// nearest returns the indexed name closest to k, or ok false when none is
// close enough. Without a word that introduces a place before it (weak),
// only a well-known destination of six letters or more is taken.
func (x *index) nearest(k string, weak bool) (r reading, ok bool) {
	n := len(compact(k))
	if n < minFuzzyLen {
		return x.undoubled(k)
	}
	best, bestDist, bestPrior, bestCity := "", 3, -1, int32(-1)
	var rivals []rival
	consider := func(cand string, limit int) {
		d := osa(k, cand, limit)
		if d > limit {
			return
		}
		c, _, _ := x.candidate(cand)
		if !x.knownEnough(c, n, weak) {
			return
		}
		p := x.prior(c)
		rivals = append(rivals, rival{c, d, p})
		if d < bestDist || d == bestDist && p > bestPrior {
			best, bestDist, bestPrior, bestCity = cand, d, p, c
		}
	}
	eachDeletion(k, func(h uint64) {
		x.fuzzy.withDeletion(h, func(name string) { consider(name, 1) })
	})
	if bestDist > 1 && n >= longFuzzyLen-1 {
		x.fuzzy.soundingLike(phoneticKey(k), func(name string) { consider(name, 2) })
	}
	if best == "" {
		return x.undoubled(k)
	}
	if best == k {
		return reading{}, false
	}
	r = reading{name: best, dist: bestDist}
	// Only a well-known destination is read with no question: a smaller
	// town may be a village the gazetteer lacks ("itaúnas" is no Itaúna).
	r.competing = !x.famous(bestCity) && x.places.population(bestCity) < wellKnownPop
	for _, o := range rivals {
		if o.city != bestCity && o.dist == bestDist && o.prior*rivalRatio >= bestPrior {
			r.competing = true
		}
	}
	return r, true
}

// rival is a place a misspelt name may be.
type rival struct {
	city  int32
	dist  int
	prior int
}

// wellKnownPop is the population from which a city that is no known
// destination is well known enough to be read from a misspelling.
const wellKnownPop = 250_000

// rivalRatio is how much better known the nearest place must be than
// another as near for the reading to be sure.
const rivalRatio = 10

// prior is how likely a traveller means a place: its population, ten
// times over for a known destination.
func (x *index) prior(i int32) int {
	p := max(x.places.population(i), 1000)
	if x.famous(i) {
		p *= 10
	}
	return p
}

// undoubled reads a short name written with a letter doubled ("romma",
// "lissbon" is long enough for nearest): the name once the doubled
// letters are written once, when it is a known destination's.
func (x *index) undoubled(k string) (reading, bool) {
	var b strings.Builder
	for i := 0; i < len(k); i++ {
		if i == 0 || k[i] != k[i-1] {
			b.WriteByte(k[i])
		}
	}
	u := b.String()
	if u == k || len(u) < 4 {
		return reading{}, false
	}
	c, _, ok := x.candidate(u)
	if !ok || !(x.famous(c) || x.places.population(c) >= hugeFuzzyPop) {
		return reading{}, false
	}
	return reading{name: u, dist: 1}, true
}

// sortedKeys are m's keys in order, so that what is built from a map
// comes out the same on every run.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// compact is a name without its spaces.
func compact(k string) string { return strings.ReplaceAll(k, " ", "") }

// osa is the optimal string alignment distance of a and b (bytes of
// folded text), or limit+1 as soon as it must exceed limit.
func osa(a, b string, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	var rows [3][64]int
	if len(b) >= 63 {
		return limit + 1
	}
	prev2, prev, cur := rows[0][:len(b)+1], rows[1][:len(b)+1], rows[2][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			low = min(low, v)
		}
		if low > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// phoneticKey writes a folded name as it sounds, roughly, in Portuguese,
// Spanish and English spelling alike: the first letter, then its
// consonants with those that sound alike merged and doubled ones once,
// vowels and spaces left out ("bariloche" and "bariloxe" are "brlx",
// "sao paulo" and "sao paolo" "spl").
func phoneticKey(k string) string {
	s := compact(k)
	var b strings.Builder
	last := byte(0)
	emit := func(c byte) {
		if c != last {
			b.WriteByte(c)
		}
		last = c
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		next := byte(0)
		if i+1 < len(s) {
			next = s[i+1]
		}
		soft := next == 'e' || next == 'i' || next == 'y'
		switch {
		case i == 0 && isVowel(c):
			emit('a')
		case isVowel(c) || c == 'h' || c == 'w' && i > 0:
			if isVowel(c) {
				last = 0 // "ana" keeps both n's apart
			}
		case (c == 'c' || c == 's') && next == 'h', c == 'x':
			emit('x')
			if next == 'h' {
				i++
			}
		case c == 'p' && next == 'h':
			emit('f')
			i++
		case (c == 'l' || c == 'n') && next == 'h':
			emit(c)
			i++
		case c == 'c' && soft, c == 'z', c == 's':
			emit('s')
		case c == 'c', c == 'q', c == 'k':
			emit('k')
		case c == 'g' && soft, c == 'j':
			emit('j')
		case c == 'v', c == 'w':
			emit('v')
		case c == 'm' && (i+1 == len(s) || !isVowel(next)):
			emit('n') // "amsterdan", "amsterdam"
		default:
			emit(c)
		}
	}
	return b.String()
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}
