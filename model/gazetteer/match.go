package gazetteer

import (
	"math"
	"strings"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// Match is a city named in a text.
type Match struct {
	City
	Start, End int  // byte offsets of the name (and its qualifier) in the text
	Origin     bool // introduced as a starting point ("from", "saindo de")
	Dest       bool // introduced as a destination ("to", "para", "visit")
	Fuzzy      bool // misspelt: the name nearest to what was written
	Role       Role // what the place is to the trip
}

// Mention is what a text says about places: the cities it names, in order,
// and the countries it names on their own.
type Mention struct {
	Cities    []Match
	Countries []string // ISO codes, in order
}

// months are the month names that follow a city in "Natal em janeiro".
var months = wordSet(`janeiro fevereiro marco abril maio junho julho agosto setembro outubro
novembro dezembro january february march april may june july august september october november december`)

// capitalsOnly are nicknames that are words in lower case: "LA" is Los
// Angeles, "la" an article.
var capitalsOnly = wordSet(`la ny`)

// placeWords introduce a place; they make an ambiguous name a city.
var placeWords = wordSet(`in to at near around visit visiting visit from into
em no na para pra pro ao visitar conhecer perto rumo`)

// destWords introduce a destination; originWords a starting point.
var (
	destWords   = wordSet(`to into visit visiting para pra pro rumo ao conhecer visitar`)
	originWords = wordSet(`from leaving saindo partindo`)
)

// Find returns the cities and countries named in text.
func Find(text string) Mention {
	x, err := load()
	if err != nil {
		return Mention{}
	}
	words := textnorm.Words(text)
	known := make([]bool, len(words))
	for i, w := range words {
		known[i] = knownWord(w.Fold)
	}
	var m Mention
	var key strings.Builder
	for i := 0; i < len(words); {
		n := x.matchAt(text, words, known, i, &key, &m)
		if n == 0 {
			n = 1
		}
		i += n
	}
	x.preferMentionedCountries(&m)
	return m
}

// matchAt tries the longest name starting at words[i] and records it in m.
// It returns the number of words consumed, 0 when nothing matched.
func (x *index) matchAt(text string, words []word, known []bool, i int, key *strings.Builder, m *Mention) int {
	// Only names beginning with this word, or a misspelt one of a few words.
	most := x.longest[words[i].Fold]
	if !known[i] || nameStarts[words[i].Fold] {
		most = max(most, maxFuzzyWords)
	}
	for n := min(most, len(words)-i); n >= 1; n-- {
		k := joinFolds(words[i:i+n], key)
		if cc, ok := x.countries[k]; ok && x.isCountry(words[i:i+n], k, cc) {
			m.Countries = append(m.Countries, cc)
			return n
		}
		c, alias, ok := x.candidate(k)
		fuzzy := false
		if !ok || !x.accept(text, words, i, n, k, c, alias) {
			if n > maxFuzzyWords || known[i+n-1] {
				continue // a misspelt name ends in a word no reader knows
			}
			near, found := x.fuzzyName(text, words, known[i:i+n], i, n, k)
			if !found {
				continue
			}
			k, fuzzy = near, true
			c, alias, _ = x.candidate(k)
		}
		q, qn := x.qualify(words, i+n, k, c, alias)
		match := Match{City: x.cities[q], Start: words[i].Start, End: words[i+n+qn-1].End, Fuzzy: fuzzy}
		match.Origin, match.Dest = roleOf(words, i)
		match.Role = roleAt(text, words, i, n)
		m.Cities = append(m.Cities, match)
		return n + qn
	}
	return 0
}

// fuzzyName returns the name words[i:i+n] misspell, if they are written
// where a place goes and no reader of the model knows them as words.
func (x *index) fuzzyName(text string, words []word, known []bool, i, n int, k string) (string, bool) {
	if !unknownWords(words[i:i+n], known) {
		return "", false
	}
	ctx := i > 0 && placeWords[words[i-1].Fold]
	if !ctx && !words[i].Cap && !sentenceStart(text, words, i) && !placeFollows(text, words, i+n) {
		return "", false
	}
	near, _, ok := x.nearest(k, !ctx)
	return near, ok
}

// nameStarts are known words that begin names ("new", "são", "porto").
var nameStarts = wordSet(`new san santa saint st la las los le el sao porto rio belo buenos
nova cidade ciudad ho`)

// unknownWords reports whether a run of words may misspell a name: its
// last word, at least, is no word the model knows, and the others are
// unknown too or begin names.
func unknownWords(ws []word, known []bool) bool {
	for j, w := range ws {
		if j == len(ws)-1 && (known[j] || len(w.Fold) < 3) {
			return false
		}
		if known[j] && !(j == 0 && nameStarts[w.Fold]) && !(j > 0 && nameJoins[w.Fold]) {
			return false
		}
	}
	return true
}

// maxFuzzyWords is the most words a misspelt name is read in ("morro de
// sao paolo" is not).
const maxFuzzyWords = 3

// nameJoins join the words of a name: "belo horizonte", "rio de janeiro".
var nameJoins = wordSet(`de do da dos das del di e y`)

// knownWord reports a word the model reads as something other than a
// place: a stop word, travel vocabulary, a number, a country.
func knownWord(w string) bool {
	if stopNames[w] || commonWords[w] || looksLikeWord(w) {
		return true
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return true // digits, and letters folding cannot make plain
		}
	}
	return false
}

// word is a word of a text; see textnorm.Word.
type word = textnorm.Word

func joinFolds(ws []word, b *strings.Builder) string {
	if len(ws) == 1 {
		return ws[0].Fold
	}
	b.Reset()
	for j, w := range ws {
		if j > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.Fold)
	}
	return b.String()
}

// isCountry tells a country name from a city-state's city ("Singapore") and
// from a pronoun ("us"): short codes count only in capitals.
func (x *index) isCountry(ws []word, k, cc string) bool {
	if len(k) <= 3 && strings.ToUpper(ws[0].Raw) != ws[0].Raw {
		return false
	}
	for _, i := range x.byName[k] {
		if x.cities[i].Country == cc {
			return false
		}
	}
	return true
}

// candidate returns the city a folded name means on its own.
func (x *index) candidate(k string) (i int32, alias, ok bool) {
	if i, ok := x.alias[k]; ok {
		return i, true, true
	}
	if c := x.byName[k]; len(c) > 0 {
		return c[0], false, true
	}
	return 0, false, false
}

// accept decides whether words[i:i+n] name a city here, using the
// stoplists, capitalisation and the word before.
func (x *index) accept(text string, words []word, i, n int, k string, c int32, alias bool) bool {
	if n == 1 && capitalsOnly[k] {
		return words[i].Raw == strings.ToUpper(words[i].Raw) // "LA", not "la"
	}
	if n == 1 && stopNames[k] {
		return false
	}
	ctx := i > 0 && placeWords[words[i-1].Fold]
	if k == "natal" && i > 0 {
		switch words[i-1].Fold {
		case "no", "do", "o", "pro", "feliz":
			return false // "no Natal" is Christmas
		case "de":
			ctx = false // "feriado de Natal", but "saindo de Natal"
		}
		if !ctx && i+1 < len(words) && (words[i+1].Fold == "em" || words[i+1].Fold == "com" || words[i+1].Fold == "na" || words[i+1].Fold == "no") &&
			!(i+2 < len(words) && months[words[i+2].Fold]) {
			return false // "Natal em Gramado", "Natal com a família" is Christmas; "Natal em janeiro" the city
		}
	}
	capital := words[i].Cap
	start := sentenceStart(text, words, i)
	pop := x.cities[c].Population
	if ambiguous[k] || ambiguousPhrases[k] {
		return ctx || (capital && !start) || (capital && pop >= 1_000_000) || (capital && placeFollows(text, words, i+n))
	}
	if ctx || capital || alias || n > 1 {
		return true
	}
	return pop >= 100_000
}

// placeFollows reports whether what comes after a name is what follows a
// destination: the end of the text, a comma, or a word such as "in",
// "for", "em", "para" ("Vitória em janeiro", "Bath for the weekend").
func placeFollows(text string, words []word, j int) bool {
	if j >= len(words) {
		return true
	}
	if strings.ContainsAny(text[words[j-1].End:words[j].Start], ",") {
		return true
	}
	switch words[j].Fold {
	case "in", "for", "on", "this", "next", "during", "until", "from", "em", "no", "na", "para", "pra", "neste", "nesse", "durante", "ate", "por":
		return true
	}
	return false
}

func sentenceStart(text string, words []word, i int) bool {
	if i == 0 {
		return true
	}
	return strings.ContainsAny(text[words[i-1].End:words[i].Start], ".!?\n:;\"")
}

// qualify resolves a name to the city in the country or US state named
// right after it ("Paris, Texas", "Córdoba Spain"), if there is one. It
// returns the city and how many words the qualifier took.
func (x *index) qualify(words []word, j int, k string, c int32, alias bool) (int32, int) {
	for n := min(3, len(words)-j); n >= 1; n-- {
		q := joinFolds(words[j:j+n], new(strings.Builder))
		if st, ok := x.states[q]; ok {
			if i, ok := x.inPlace(k, "US", st); ok {
				return i, n
			}
		}
		if n == 1 && len(words[j].Raw) == 2 && strings.ToUpper(words[j].Raw) == words[j].Raw {
			if i, ok := x.inPlace(k, "US", words[j].Raw); ok {
				return i, n
			}
		}
		if cc, ok := x.countries[q]; ok {
			if i, ok := x.inPlace(k, cc, ""); ok {
				return i, n
			}
		}
	}
	return c, 0
}

// inPlace returns the most populous city named k in country cc (and, when
// admin is set, in that first-level division).
func (x *index) inPlace(k, cc, admin string) (int32, bool) {
	if i, ok := x.alias[k]; ok && x.cities[i].Country == cc && admin == "" {
		return i, true
	}
	for _, i := range x.byName[k] {
		c := x.cities[i]
		if c.Country == cc && (admin == "" || c.Admin1 == admin) {
			return i, true
		}
	}
	return 0, false
}

func roleOf(words []word, i int) (origin, dest bool) {
	if i == 0 {
		return false, false
	}
	prev := words[i-1].Fold
	if originWords[prev] || (i > 1 && originWords[words[i-2].Fold] && (prev == "de" || prev == "do" || prev == "da")) {
		return true, false
	}
	return false, destWords[prev]
}

// preferMentionedCountries moves each city that was not qualified to a
// namesake in a country the text names, if there is one.
func (x *index) preferMentionedCountries(m *Mention) {
	if len(m.Countries) == 0 {
		return
	}
	for j, c := range m.Cities {
		for _, cc := range m.Countries {
			if c.Country == cc {
				break
			}
			if i, ok := x.inPlace(textnorm.Key(c.GeoName), cc, ""); ok {
				m.Cities[j].City = x.cities[i]
				break
			}
		}
	}
}

// Destination returns the city a text is most likely asking about: one
// picked or corrected to ("I meant Nice"), then the one named most often,
// then one introduced as a destination ("to", "para"), then the last one
// that is not a starting point. Places named in passing (a starting
// point, a past trip, a layover) count only when no other is named;
// places not wanted, or people's names, never.
func (m Mention) Destination() (Match, bool) {
	best, bestScore := -1, math.MinInt
	for j, c := range m.Cities {
		if c.Role == Negated {
			continue
		}
		score := 0
		for _, o := range m.Cities {
			if o.City == c.City && o.Role != Negated {
				score += 4
			}
		}
		if c.Dest {
			score += 2
		}
		if !c.Origin {
			score++
		}
		switch {
		case c.Role == Chosen:
			score += 16
		case c.Role.Passing():
			score -= 32
		}
		if score >= bestScore && !(score == bestScore && best >= 0 && m.Cities[best].Dest && !c.Dest) {
			best, bestScore = j, score
		}
	}
	if best < 0 {
		return Match{}, false
	}
	return m.Cities[best], true
}
