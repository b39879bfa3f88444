package gazetteer

// People and things named after cities. "Paris Hilton was on television",
// "Sydney will send the slides", "our Berlin office", "the Milan derby":
// in a message that says nothing of travel, a city's name used as a
// person's, or before the noun it qualifies, is no place.

// personVerbs follow a person (or a team) who is the subject of a
// sentence; a city would rarely do these ("Dallas left his jacket", "O
// Brasil joga hoje").
var personVerbs = wordSet(`said says told tells asked asks wants wanted left leaves called calls sent sends
approved fixed forgot forgets works worked lives lived bought brought baked cooked scored wrote writes
plays played wins won loses lost beat drew loves likes hates thinks thought knows knew will
disse falou pediu quer queria mandou ligou trouxe esqueceu comprou fez trabalha trabalhou mora
aprovou chegou saiu joga jogou ganhou perdeu venceu empatou`)

// copulas are verbs a place may follow too ("Lisbon is lovely"); they
// make a name a person's only before a possessive: "Orlando is my
// cousin's name", "O Salvador é o meu primo".
var copulas = wordSet(`is was e era`)

// possessives follow a copula when the name is a person's.
var possessives = wordSet(`my his her our their your meu minha seu sua nosso nossa`)

// determiners stand before a name used as a qualifier: "the Boston
// terrier", "our Berlin office", "o Flamengo".
var determiners = wordSet(`the our my his her their your its o a os as meu minha nosso nossa seu sua`)

// placeAfter are words after a name that keep it a place even after a
// determiner: "the Paris of the north", "a Lisboa de hoje", "the Rome
// one".
var placeAfter = wordSet(`of in de da do em no na and e or ou one ones option options opcao please pls`)

// usedAsName reports a city's name at words[i:i+n] that a message with no
// word of travel uses for a person or a thing: followed by a capitalised
// word that names no place ("Paris Hilton"); starting a sentence as the
// subject of a person's verb ("Sydney will send…"); or qualifying the
// noun after it ("our Berlin office").
func (x *index) usedAsName(text string, words []word, i, n int) bool {
	if travelCue(words) || anyWord(words, albumWords) {
		return false // "my Tokyo album" names a trip
	}
	j := i + n
	if j >= len(words) {
		return false
	}
	next := words[j]
	if next.Cap && !breaksAt(text, words, j) && !x.placeOrMonth(words, j) {
		return true // "Paris Hilton", "Florence Welch"
	}
	starts := sentenceStart(text, words, i) || i == 1 && determiners[words[0].Fold] // "O Salvador é…"
	be := j+1 < len(words) && words[j+1].Fold == "be"                               // "Rome will be lovely"
	if starts && (personVerbs[next.Fold] && !be || copulas[next.Fold] && possessiveAt(words, j+1)) {
		return true // "Dallas left his jacket", "Orlando is my cousin's name"; not "Lisbon is lovely"
	}
	return i > 0 && determiners[words[i-1].Fold] && !next.Cap && !placeAfter[next.Fold] && !breaksAt(text, words, j)
}

// placeOrMonth reports a place, a country, a US state or a month at
// words[j]: "Paris Texas", "Rome Italy", "Lisbon May 3".
func (x *index) placeOrMonth(words []word, j int) bool {
	k := words[j].Fold
	if months[k] || stopNames[k] {
		return true
	}
	if _, ok := x.countries[k]; ok {
		return true
	}
	if _, ok := x.states[k]; ok {
		return true
	}
	c, _, ok := x.candidate(k)
	return ok && (x.famous(c) || x.places.population(c) >= 100_000)
}

// possessiveAt reports a possessive at words[j], or after an article
// ("o meu").
func possessiveAt(words []word, j int) bool {
	if j < len(words) && (words[j].Fold == "o" || words[j].Fold == "a") {
		j++
	}
	return j < len(words) && possessives[words[j].Fold]
}

// anyWord reports a word of words in set.
func anyWord(words []word, set map[string]bool) bool {
	for _, w := range words {
		if set[w.Fold] {
			return true
		}
	}
	return false
}
