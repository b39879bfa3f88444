package gazetteer

import (
	"math"
	"strings"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// Match is a city named in a text.
type Match struct {
	City
	Start, End int    // byte offsets of the name (and its qualifier) in the text
	Origin     bool   // introduced as a starting point ("from", "saindo de")
	Dest       bool   // introduced as a destination ("to", "para", "visit")
	Fuzzy      bool   // misspelt: the name nearest to what was written
	Unsure     bool   // misspelt, and another place is as near: ask which
	Written    string // the name as the traveller wrote it, when misspelt
	Role       Role   // what the place is to the trip
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
		known[i] = knownWord(w.Fold) && !x.misspeltIngCity(w.Fold)
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
	most := x.byName.longest(words[i].Fold)
	if !known[i] || nameStarts[words[i].Fold] {
		most = max(most, maxFuzzyWords)
	}
	for n := min(most, len(words)-i); n >= 1; n-- {
		k := joinFolds(words[i:i+n], key)
		if cc, ok := x.countries[k]; ok && x.isCountry(words[i:i+n], k, cc) {
			if !(i > 0 && placeWords[words[i-1].Fold]) && (words[i].Cap && x.usedAsName(text, words, i, n) || !countryStands(text, words, i, n)) {
				return n // "Jordan fixed the tap", "O Brasil joga hoje", "Cuba libre"
			}
			m.Countries = append(m.Countries, cc)
			return n
		}
		if cc, ok := misspeltCountries[k]; ok && n == 1 && !x.stateAt(words, i+1) {
			m.Countries = append(m.Countries, cc) // "Columbia" is Colombia, "Columbia, SC" a city
			return n
		}
		if holidayAt(words, i, n, k) {
			return n // "feriado de Corpus Christi", "Tiradentes day": the holiday
		}
		c, alias, ok := x.candidate(k)
		fuzzy, unsure := false, false
		if ok && !alias && x.nameGoesOn(words, known, i+n) {
			continue // part of a longer name the gazetteer lacks
		}
		if !ok || !x.accept(text, words, i, n, k, c, alias) {
			if ok && !alias && x.minor(c) {
				continue // a small town's own name, not a misspelt city's
			}
			if n > maxFuzzyWords {
				continue
			}
			near, found := x.fuzzyName(text, words, known[i:i+n], i, n, k)
			if !found {
				continue
			}
			k, fuzzy, unsure = near.name, true, near.competing
			c, alias, _ = x.candidate(k)
		}
		q, qn := x.qualify(words, i+n, k, c, alias)
		match := Match{City: x.places.city(q), Start: words[i].Start, End: words[i+n+qn-1].End, Fuzzy: fuzzy, Unsure: unsure}
		if fuzzy {
			match.Written = text[words[i].Start:words[i+n-1].End]
		}
		match.Origin, match.Dest = roleOf(words, i)
		match.Role = roleAt(text, words, i, n)
		m.Cities = append(m.Cities, match)
		return n + qn
	}
	return 0
}

// fuzzyName returns the name words[i:i+n] misspell, if they are written
// where a place goes and no reader of the model knows them as words.
func (x *index) fuzzyName(text string, words []word, known []bool, i, n int, k string) (reading, bool) {
	if !unknownWords(words[i:i+n], known) {
		return reading{}, false
	}
	ctx := i > 0 && placeWords[words[i-1].Fold]
	if !ctx && !words[i].Cap && !sentenceStart(text, words, i) && !placeFollows(text, words, i+n) {
		return reading{}, false
	}
	r, ok := x.nearest(k, !ctx)
	return r, ok
}

// nameStarts are known words that begin names ("new", "são", "porto").
var nameStarts = wordSet(`new san santa santo saint sankt st la las los le el sao porto puerto rio belo buenos
nova cidade ciudad ho villa vila port fort mount monte cape cabo lake lago costa ilha isla praia playa dar bandar`)

// unknownWords reports whether a run of words may misspell a name: one
// of them, at least, is no word the model knows; the first is unknown,
// begins names ("new", "são") or, before an unknown word, is no function
// word ("joao pesoa"); a last word the model knows ends a name only
// after an unknown one ("mexiko city", "joo pessoa"), and a function word
// or a month only if names end so ("sato domingo").
func unknownWords(ws []word, known []bool) bool {
	unknown := 0
	for j, w := range ws {
		switch {
		case !known[j] && len(w.Fold) >= 3:
			unknown++
		case j == 0 && !nameStarts[w.Fold] && (len(ws) == 1 || stopNames[w.Fold] || placeWords[w.Fold]):
			return false // a known word alone, or a function word, begins no misspelt name
		case j > 0 && j < len(ws)-1 && !nameJoins[w.Fold] && !nameStarts[w.Fold] && !nameEnds[w.Fold]:
			return false
		case j == len(ws)-1 && (unknown == 0 || stopNames[w.Fold] && !nameEnds[w.Fold]):
			return false
		}
	}
	return unknown > 0
}

// nameEnds are known words that end names: "Mexico City", "Santo
// Domingo", "Porto Alegre".
var nameEnds = wordSet(`city beach island islands falls bay springs park valley lake grande paulo janeiro aires
domingo cruz alegre horizonte verde branco preto novo nova sul norte santos maria jose juan luis`)

// maxFuzzyWords is the most words a misspelt name is read in ("morro de
// sao paolo" is not).
const maxFuzzyWords = 3

// nameJoins join the words of a name: "belo horizonte", "rio de janeiro".
var nameJoins = wordSet(`de do da dos das del di e y es el al as la los las du des`)

// knownWord reports a word the model reads as something other than a
// place: a stop word, travel vocabulary, a number, a country.
func knownWord(w string) bool {
	if stopNames[w] || commonWords[w] || looksLikeWord(w) || pluralOfCommon(w) {
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
	for _, i := range x.byName.get(k) {
		if x.places.inCountry(i, cc) {
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
	if c := x.byName.get(k); len(c) > 0 {
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
		var city bool
		if ctx, city = natalAsCity(words, i, ctx); !city {
			return false
		}
	}
	if !alias && x.minor(c) {
		return x.acceptMinor(text, words, i, n, c)
	}
	if ctx && !words[i].Cap && verbBefore(words, i, n) {
		return false // "to surprise her", "para dividir a conta"
	}
	if !ctx && words[i].Cap && x.usedAsName(text, words, i, n) {
		return false // "Sydney will send the slides", "our Berlin office"
	}
	if !ctx && (tentativeBefore(words, i) || legBefore(text, words, i)) && (x.famous(c) || x.places.population(c) >= 100_000) &&
		(!ambiguous[k] && !ambiguousPhrases[k] || placeFollows(text, words, i+n) || lengthFollows(words, i+n) ||
			i+n < len(words) && strings.ContainsAny(text[words[i+n-1].End:words[i+n].Start], "?!.;")) {
		return true // "maybe porto?", "thinking of florence for june", "talvez recife", "then florence 2 nights"
	}
	if n == 1 && i+1 < len(words) && len(words[i+1].Raw) == 2 && (ambiguous[k] || x.minor(c)) {
		if uf, ok := brazilianStates[words[i+1].Fold]; ok {
			if _, in := x.inPlace(k, "BR", uf); in {
				return true // "bonito ms", "penedo rj": a town and its state
			}
		}
	}
	if !ctx && !words[i].Cap && sentenceStart(text, words, i) && (x.famous(c) || x.places.population(c) >= 500_000) && (ambiguous[k] || ambiguousPhrases[k]) &&
		(lengthFollows(words, i+n) || tripFollows(words, i+n) || x.destinationJoined(words, i+n) || occasionFollows(words, i+n)) {
		return true // "rio for new year's", "salvador e depois recife", "lisboa 3 noites", "granada 2 nights"
	}
	if ambiguous[k] || ambiguousPhrases[k] {
		return x.acceptWordName(text, words, i, n, c, ctx)
	}
	return x.acceptName(text, words, i, n, c, ctx, alias)
}

// natalAsCity tells Natal the city from Christmas: "no Natal", "feliz
// Natal", "Natal em Gramado", "Natal com a família" are Christmas, "Natal
// em janeiro" the city. It returns whether the word before still
// introduces a place ("saindo de Natal", not "feriado de Natal").
func natalAsCity(words []word, i int, ctx bool) (placeWord, city bool) {
	switch words[i-1].Fold {
	case "no", "do", "o", "pro", "feliz":
		return false, false
	case "de":
		ctx = false
	}
	if !ctx && i+1 < len(words) && (words[i+1].Fold == "em" || words[i+1].Fold == "com" || words[i+1].Fold == "na" || words[i+1].Fold == "no") &&
		!(i+2 < len(words) && months[words[i+2].Fold]) {
		return ctx, false
	}
	return ctx, true
}

// acceptWordName decides a name that is also a common word ("Nice",
// "Split", "Vitória"): after a word introducing a place; capitalised in
// the middle of a message about places, or before what follows a
// destination, or joined to a known destination ("Natal e Pipa"); a large
// or famous one starting a request ("porto in october").
func (x *index) acceptWordName(text string, words []word, i, n int, c int32, ctx bool) bool {
	capital, start := words[i].Cap, sentenceStart(text, words, i)
	return ctx || capital && !start && aboutPlace(text, words, i, n) || capital && x.places.population(c) >= 1_000_000 ||
		capital && placeFollows(text, words, i+n) || start && x.famous(c) && tripFollows(words, i+n) ||
		capital && x.destinationJoined(words, i+n)
}

// acceptName decides any other name. A capitalised name may be a person
// ("Austin is starting university", "Chelsea and Madison"): a city that
// is not a known destination counts where a name stands as a place
// (aboutPlace). In lower case it takes a large city, or a known
// destination that is no common word ("zermatt ski trip", "gramado no
// natal"); a small town named like a word ("come") only after "in", "em".
func (x *index) acceptName(text string, words []word, i, n int, c int32, ctx, alias bool) bool {
	city := x.places.city(c)
	capital := words[i].Cap
	if n == 1 && !capital && !alias && city.Word && !x.famous(c) && city.Population < 100_000 {
		return false // in lower case a word: "to come", "na tela"
	}
	if ctx || alias || n > 1 {
		return true
	}
	about := aboutPlace(text, words, i, n)
	if capital {
		return x.famous(c) || city.Population >= 1_000_000 || about
	}
	return city.Population >= 100_000 && (x.famous(c) || city.Population >= 1_000_000 || about) ||
		x.famous(c) && !city.Word && about
}

// legBefore reports a word or sign that joins a city to the one before
// it in a trip of several: "then florence", "e depois porto", "lisbon +
// porto", "madrid → seville".
func legBefore(text string, words []word, i int) bool {
	if i == 0 {
		return false
	}
	switch words[i-1].Fold {
	case "then", "depois", "after":
		return true
	}
	gap := text[words[i-1].End:words[i].Start]
	return strings.Contains(gap, "+") || strings.Contains(gap, "→") || strings.Contains(gap, "->") || strings.Contains(gap, ">")
}

// lengthFollows reports a length of stay or a date right after a name:
// "lisboa 3 noites", "rio fds que vem", "salvador de 10 a 14".
func lengthFollows(words []word, j int) bool {
	if j >= len(words) {
		return false
	}
	f := words[j].Fold
	switch {
	case f[0] >= '0' && f[0] <= '9':
		return true
	case f == "fim" || f == "weekend" || f == "fds" || f == "wknd":
		return true
	case (f == "de" || f == "from" || f == "do") && j+1 < len(words) && words[j+1].Fold[0] >= '0' && words[j+1].Fold[0] <= '9':
		return true
	}
	return false
}

// occasionFollows reports "for new year's", "pro réveillon", "no
// carnaval" after a name: a trip's occasion.
func occasionFollows(words []word, j int) bool {
	if j+1 >= len(words) {
		return false
	}
	switch words[j].Fold {
	case "for", "over", "pro", "pra", "no", "na", "para":
	default:
		return false
	}
	switch words[j+1].Fold {
	case "new", "christmas", "xmas", "easter", "carnival", "thanksgiving", "reveillon", "carnaval", "natal", "pascoa", "ano", "the":
		return true
	}
	return false
}

// tentativeWords name a destination not yet decided on: "maybe porto?",
// "talvez recife", "thinking of florence". After them a well-known
// place's name counts in lower case, as after "in" or "em".
var tentativeWords = wordSet(`maybe perhaps possibly probably considering talvez`)

// tentativeBefore reports a word or two that put forward a destination
// right before words[i]: "maybe", "talvez", "thinking of", "how about",
// "quem sabe", "que tal", "pensando em".
func tentativeBefore(words []word, i int) bool {
	if i == 0 {
		return false
	}
	if tentativeWords[words[i-1].Fold] {
		return true
	}
	if i < 2 {
		return false
	}
	switch words[i-2].Fold + " " + words[i-1].Fold {
	case "thinking of", "thinking about", "how about", "what about", "quem sabe", "que tal", "pensando em", "pensei em", "pensamos em",
		"i meant", "i mean", "quis dizer", "quer dizer", "quero dizer", "ou melhor", "or rather":
		return true
	}
	return false
}

// placeFollows reports whether what comes after a name is what follows a
// destination: the end of the text, a comma, or a word such as "in",
// "for", "em", "para", "instead", "then" ("Vitória em janeiro", "Bath for
// the weekend", "and Porto instead").
func placeFollows(text string, words []word, j int) bool {
	if j >= len(words) {
		return true
	}
	if strings.ContainsAny(text[words[j-1].End:words[j].Start], ",") {
		return true
	}
	switch words[j].Fold {
	case "in", "for", "on", "this", "next", "during", "until", "from", "em", "no", "na", "para", "pra", "neste", "nesse", "durante", "ate", "por",
		"instead", "then", "depois":
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
	if j < len(words) && x.hasBrazilian(k, c) {
		if uf, ok := brazilianStates[words[j].Fold]; ok && len(words[j].Raw) == 2 {
			if i, ok := x.inPlace(k, "BR", uf); ok {
				return i, 1
			}
			return c, 1 // a state's code after a Brazilian town's name is no place of its own
		}
	}
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
	if i, ok := x.alias[k]; ok && x.places.inCountry(i, cc) && admin == "" {
		return i, true
	}
	for _, i := range x.byName.get(k) {
		c := x.places.city(i)
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
				m.Cities[j].City = x.places.city(i)
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

// misspeltCountries are countries' names as travellers often misspell
// them into a city's: "Columbia" for Colombia.
var misspeltCountries = map[string]string{"columbia": "CO"}

// stateAt reports a US state named at words[j], by name or postal code.
func (x *index) stateAt(words []word, j int) bool {
	for n := min(2, len(words)-j); n >= 1; n-- {
		if _, ok := x.states[joinFolds(words[j:j+n], new(strings.Builder))]; ok {
			return true
		}
	}
	return j < len(words) && len(words[j].Raw) == 2 && strings.ToUpper(words[j].Raw) == words[j].Raw
}

// misspeltIngCity reports a word that ends like an English "-ing" word
// but misspells a city of half a million whose name ends so too ("beiking",
// "nanjng" is caught anyway): such a word is no English word.
func (x *index) misspeltIngCity(w string) bool {
	if !strings.HasSuffix(w, "ing") || commonWords[w] {
		return false
	}
	r, ok := x.nearest(w, false)
	if !ok || !strings.HasSuffix(r.name, "ing") {
		return false
	}
	c, _, _ := x.candidate(r.name)
	return x.places.population(c) >= 500_000
}

// objectWords follow a verb, not a place: "to surprise her", "to split
// the bill".
var objectWords = wordSet(`her him them me us you it the a an my your our his their this that
ele ela eles elas me te nos voces o a os as um uma meu minha seu sua`)

// verbBefore reports a word that "to", "para" or "pra" introduce as a verb:
// one of the gazetteer's words (flagged, or among the ambiguous names)
// followed by an object.
func verbBefore(words []word, i, n int) bool {
	switch words[i-1].Fold {
	case "to", "para", "pra", "pro":
	default:
		return false
	}
	k := words[i].Fold
	if n != 1 || !(ambiguous[k] || wordNamed(k)) {
		return false
	}
	return i+1 < len(words) && objectWords[words[i+1].Fold]
}

// wordNamed reports a name the data marks as also a common word.
func wordNamed(k string) bool {
	x, err := load()
	if err != nil {
		return false
	}
	c, _, ok := x.candidate(k)
	return ok && x.places.city(c).Word
}

// holidayNames are holidays named like places: Corpus Christi, Tiradentes,
// São João, Independence (Day).
var holidayNames = phraseSet(`corpus christi|tiradentes|sao joao|independence|aparecida|finados|
reis|santo antonio|sao pedro|nossa senhora aparecida|memorial|labor|columbus|victoria`)

// holidayWords name a holiday around its name: "feriado de Tiradentes",
// "Independence Day", "Corpus Christi weekend".
var holidayWords = wordSet(`feriado feriadao festa festas dia semana day weekend holiday holidays`)

// holidayAt reports a holiday's name at words[i:i+n]: one of
// holidayNames after "feriado de", "dia de", "festa de", or before "day",
// "weekend", "feriado".
func holidayAt(words []word, i, n int, k string) bool {
	if !holidayNames[k] {
		return false
	}
	j := i - 1
	if j >= 0 && (words[j].Fold == "de" || words[j].Fold == "do" || words[j].Fold == "da") {
		j--
	}
	if j >= 0 && j < i-1 && holidayWords[words[j].Fold] {
		return true
	}
	return i+n < len(words) && holidayWords[words[i+n].Fold]
}

// tripFollows reports words after a name that make it a trip's place: a
// preposition and then a month, a season, a number or a word of travel
// ("in october", "em julho", "for 3 nights"), not "in half".
func tripFollows(words []word, j int) bool {
	if j+1 >= len(words) {
		return false
	}
	switch words[j].Fold {
	case "in", "em", "for", "no", "na", "pra", "para", "this", "next", "neste", "nesse":
	default:
		return false
	}
	next := words[j+1].Fold
	return travelCues[next] || next[0] >= '0' && next[0] <= '9'
}

// destinationJoined reports a known destination joined to the name that
// ends before words[j] ("Natal e Pipa", "Split and Hvar"): places named
// together are places.
func (x *index) destinationJoined(words []word, j int) bool {
	if j+1 >= len(words) {
		return false
	}
	switch words[j].Fold {
	case "e", "and", "then", "depois", "y":
	default:
		return false
	}
	if f := words[j+1].Fold; (f == "depois" || f == "then") && j+2 < len(words) {
		j++ // "e depois", "and then"
	}
	for n := min(x.byName.longest(words[j+1].Fold), len(words)-j-1); n >= 1; n-- {
		if c, _, ok := x.candidate(joinFolds(words[j+1:j+1+n], new(strings.Builder))); ok && (x.famous(c) || x.places.population(c) >= 500_000) {
			return true
		}
	}
	return false
}

// hasBrazilian reports a name that a town of Brazil bears.
func (x *index) hasBrazilian(k string, c int32) bool {
	if x.places.inCountry(c, "BR") {
		return true
	}
	for _, i := range x.byName.get(k) {
		if x.places.inCountry(i, "BR") {
			return true
		}
	}
	return false
}

// nameGoesOn reports a name that goes on past what the gazetteer knows:
// "Serra do Cipó", "São Bento do Sapucaí" name places it lacks, not
// Serra or São Bento.
func (x *index) nameGoesOn(words []word, known []bool, j int) bool {
	if j+1 >= len(words) || !ofWords[words[j].Fold] || known[j+1] || len(words[j+1].Fold) < 4 {
		return false
	}
	next := words[j+1].Fold
	if _, country := x.countries[next]; country {
		return false // "Santiago do Chile"
	}
	c, _, ok := x.candidate(next)
	return !ok || !x.famous(c)
}

// ofWords join a name to the words that go on naming the same place.
var ofWords = wordSet(`de do da dos das del di`)

// aboutPlace reports a message where a name stands as a place: a message
// about travel, a short one ("Madison?", "actually Porto instead"), a name
// before what follows a destination, or one picked or corrected to ("I
// meant Nice").
func aboutPlace(text string, words []word, i, n int) bool {
	if travelCue(words) || len(words) <= 3 || placeFollows(text, words, i+n) {
		return true
	}
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		if chosenWords[words[j].Fold] {
			return true
		}
	}
	return false
}

// albumWords make a message about a past trip, where a country names an
// album ("fotos do álbum Japão").
var albumWords = wordSet(`photo photos pictures pics album albums foto fotos album albuns trip viagem viagens`)

// countryStands reports a country's name where it stands as a place: in a
// message about travel or a trip's photos, a short one, or before what
// follows a destination; not "Turkey and stuffing", "Cuba libre".
func countryStands(text string, words []word, i, n int) bool {
	return aboutPlace(text, words, i, n) || anyWord(words, albumWords)
}
