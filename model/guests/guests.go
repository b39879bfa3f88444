// Package guests reads how many people travel from a message in English or
// Portuguese: "for 4 people", "3 of us", "somos 3", "me and my wife" (2),
// "family of five", "2 adults and 2 kids" (4), "casal" (2), "sozinho" (1),
// "com meus pais" (3).
package guests

import (
	"strings"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

var numberWords = map[string]int{
	"one": 1, "um": 1, "uma": 1, "a": 1, "an": 1,
	"two": 2, "dois": 2, "duas": 2, "three": 3, "tres": 3, "four": 4, "quatro": 4,
	"five": 5, "cinco": 5, "six": 6, "seis": 6, "seven": 7, "sete": 7,
	"eight": 8, "oito": 8, "nine": 9, "nove": 9, "ten": 10, "dez": 10,
	"eleven": 11, "onze": 11, "twelve": 12, "doze": 12,
}

// people are nouns counted by the number before them.
var people = wordSet(`people persons person guests guest adults adult pax travelers
travellers kids kid children child teens teenagers friends babies baby
toddlers toddler infants infant twins siblings cousins sisters brothers
pessoas pessoa hospedes hospede adultos adulto criancas crianca filhos filho
filhas filha amigos amigas viajantes bebes bebe adolescentes guys girls
caras meninas meninos gemeos gemeas irmas irmaos primos primas sobrinhos
backpackers colleagues coworkers students women men ladies girlfriends boyfriends
mochileiros colegas estudantes mulheres homens parents grandparents pais avos
teenagers criancinhas`)

// couples are counted two by two: "3 couples", "dois casais".
var couples = wordSet(`couples casais`)

// companions are one person each ("my wife"), pairs are two ("my parents").
var (
	companions = wordSet(`wife husband girlfriend boyfriend partner fiance fiancee
friend mom mum mother dad father sister brother son daughter boss colleague
esposa marido namorada namorado noiva noivo parceiro parceira amigo amiga mae pai
irma irmao filho filha mulher companheira companheiro sogra sogro chefe colega
mother-in-law avo baby bebe grandma grandpa granny grandmother grandfather cousin
uncle aunt niece nephew toddler cunhado cunhada sobrinho sobrinha primo prima tio tia
neto neta mozao moza mozinho mozinha bae namorido`)
	pairs   = wordSet(`parents pais grandparents avos in-laws inlaws sogros`)
	plurals = wordSet(`kids children filhos filhas friends amigos amigas sisters
brothers irmaos irmas twins gemeos gemeas siblings cousins primos primas`)
)

// Count returns the number of travellers a message states, or 0.
func Count(text string) int {
	w := folds(text)
	if n := explicit(w); n > 0 {
		if r, ok := roster(w); ok && r > n {
			return r // "my wife, our two kids and the nanny"
		}
		return n
	}
	if n := grouped(w); n > 0 {
		return n
	}
	if r, ok := roster(w); ok {
		return max(r, company(w)) // "my husband and I …, our kids come too"
	}
	if n := company(w); n > 0 {
		return n
	}
	if n := fixed(w); n > 0 {
		return n
	}
	return rough(w)
}

// Total returns the party a message states as a whole, or 0: "somos 6",
// "3 of us", "family of 4", "just 3 now", "só 2 agora". Such a count
// stands even beside a change ("somos 6 agora, vem mais um casal").
func Total(text string) int {
	w := folds(text)
	if n := strongGrouped(w); n > 0 {
		return n
	}
	for i := range w {
		switch w[i] {
		case "just", "only", "so", "apenas", "somente":
			if n, ok := number(word(w, i+1)); ok && word(w, i+1) != "a" && word(w, i+1) != "um" && word(w, i+1) != "uma" && !unitAfter(w, i+2) && !people[word(w, i+2)] || ok && people[word(w, i+2)] && endOfCount(w, i+3) {
				return n
			}
		}
	}
	return 0
}

// rough reads a count given roughly, when nothing else says the party:
// "uns 8", "about 10", "cerca de 12".
func rough(w []string) int {
	for i := range w {
		switch w[i] {
		case "uns", "umas", "about", "around", "roughly":
		case "cerca":
			if word(w, i+1) != "de" {
				continue
			}
			i++
		default:
			continue
		}
		if n, ok := number(word(w, i+1)); ok && n > 1 && !unitAfter(w, i+2) && word(w, i+1) != "a" && word(w, i+1) != "um" && word(w, i+1) != "uma" {
			return n
		}
	}
	return 0
}

// folds returns the folded words of text, with "," standing for any
// punctuation between two words.
func folds(text string) []string {
	ws := textnorm.Words(text)
	out := make([]string, 0, len(ws)+4)
	for i, w := range ws {
		if i > 0 {
			switch between := text[ws[i-1].End:w.Start]; {
			case strings.ContainsAny(between, ",.;:!?"):
				out = append(out, ",")
			case strings.ContainsAny(between, "+&"):
				out = append(out, "+")
			}
		}
		out = append(out, w.Fold)
	}
	return spellCounts(out)
}

func word(w []string, i int) string {
	if i < 0 || i >= len(w) {
		return ""
	}
	return w[i]
}

func number(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			v, ok := numberWords[s]
			return v, ok
		}
		n = n*10 + int(c-'0')
	}
	return n, n > 0 && n < 100
}

// explicit adds up "<n> people", "2 adults and 2 kids".
func explicit(w []string) int {
	total := 0
	for i := 1; i < len(w); i++ {
		if couples[w[i]] {
			if n, ok := number(w[i-1]); ok {
				total += 2 * n // "3 couples"
			}
			continue
		}
		if !people[w[i]] {
			continue
		}
		j := i - 1
		if j > 0 && (w[j] == "small" || w[j] == "little" || w[j] == "young" || w[j] == "pequenas") {
			j--
		}
		if j > 0 && (w[j] == "de" || w[j] == "of") && isDigits(w[j-1]) {
			j-- // "meia dúzia de amigos" is "6 de amigos"
		}
		if n, ok := number(w[j]); ok && !(w[j] == "a" && !singular(w[i])) {
			total += n
		}
	}
	if total == 0 || anyWord(w, "adults", "adultos", "adult", "adulto", "people", "pessoas", "guests", "hospedes", "pax", "travelers", "travellers", "viajantes",
		"person", "pessoa", "guest", "hospede", "traveler", "traveller", "viajante") {
		return total
	}
	if c := company(w); c > 0 {
		return total + c // "me, my wife and our 2 kids"
	}
	if fixed(w) == 2 {
		return total + 2 // "um casal com dois filhos"
	}
	if hasSelf(w) || withCount(w) {
		total++ // "me and 3 friends", "with 3 friends"
	}
	return total
}

// withCount reports "with 3 friends", "com 2 amigos": the speaker comes too.
func withCount(w []string) bool {
	for i := 0; i+2 < len(w); i++ {
		if w[i] == "with" || w[i] == "com" {
			j := i + 1
			if owner(w[j]) {
				j++ // "com minhas três primas"
			}
			if _, ok := number(word(w, j)); ok && (people[word(w, j+1)] || isDigits(word(w, j)) && (word(w, j+1) == "de" || word(w, j+1) == "of") && people[word(w, j+2)]) {
				return true
			}
		}
	}
	return false
}

func singular(s string) bool {
	switch s {
	case "toddler", "infant", "kid", "child", "baby", "adult", "person", "guest", "friend", "crianca", "pessoa", "adulto", "bebe", "hospede", "filho", "filha", "amigo", "amiga", "teen":
		return true
	}
	return false
}

// grouped reads "3 of us", "somos 3", "family of five", "for 4", "nós
// 4", "eu e mais 5", and whoever is added after the count ("family of 4
// plus grandma").
func grouped(w []string) int {
	if n := strongGrouped(w); n > 0 {
		return n
	}
	return bareFor(w)
}

// strongGrouped is grouped without the bare "for 4".
func strongGrouped(w []string) int {
	for i := range w {
		switch w[i] {
		case "nos", "we":
			if n, ok := number(word(w, i+1)); ok && word(w, i+1) != "a" && !unitAfter(w, i+2) && !people[word(w, i+2)] && word(w, i-1) != "de" && word(w, i-1) != "of" {
				return n + addedAfter(w, i+2) // "nós 4"
			}
		case "eu", "me", "i":
			j := i + 1
			for word(w, j) == "e" || word(w, j) == "and" || word(w, j) == "plus" || word(w, j) == "mais" || word(w, j) == "+" {
				j++
			}
			if n, ok := number(word(w, j)); ok && (j > i+1 || w[i] == "eu" && word(w, j) != "um" && word(w, j) != "uma") {
				if !unitAfter(w, j+1) && !people[word(w, j+1)] && word(w, j+1) != "of" && word(w, j+1) != "de" {
					return n + 1 // "eu e mais 5", "me plus 3", "eu + 4"
				}
			}
		case "of", "de":
			if word(w, i+1) == "us" || word(w, i+1) == "we" || w[i] == "de" && word(w, i+1) == "nos" {
				if n, ok := number(word(w, i-1)); ok && !dropsOut(w, i+2) {
					return n
				}
			}
		case "somos", "seremos", "estamos", "vamos", "iremos":
			j := i + 1
			for word(w, j) == "em" || word(w, j) == "ser" || word(w, j) == "so" || word(w, j) == "apenas" || word(w, j) == "somente" {
				j++
			}
			if n, ok := number(word(w, j)); ok && word(w, j) != "a" && !unitAfter(w, j+1) {
				if s := word(w, j+1); couples[s] || s == "casal" || s == "couple" {
					return 2 * n // "somos um casal", "seremos dois casais"
				}
				return n
			}
		case "family", "familia", "party", "group", "grupo", "table", "mesa":
			j := i + 1
			if f := word(w, j); f == "of" || f == "de" || f == "for" || f == "para" {
				j++
			}
			if n, ok := number(word(w, j)); ok && !unitAfter(w, j+1) && word(w, j) != "a" && word(w, j) != "um" {
				return n + addedAfter(w, j+1)
			}
		case "gente":
			j := i + 1
			for word(w, j) == "e" || word(w, j) == "eh" || word(w, j) == "vai" || word(w, j) == "ser" || word(w, j) == "sera" || word(w, j) == "em" || word(w, j) == "so" {
				j++
			}
			if n, ok := number(word(w, j)); ok && j > i+1 && word(w, j) != "a" && word(w, j) != "um" && word(w, j) != "uma" && !unitAfter(w, j+1) {
				return n // "a gente é em 5", "a gente vai ser 4"
			}
		case "are", "re":
			if word(w, i-1) == "we" || word(w, i-1) == "there" {
				if n, ok := number(word(w, i+1)); ok && !unitAfter(w, i+2) && word(w, i+1) != "a" {
					return n
				}
			}
		}
	}
	return 0
}

// bareFor reads "for 4", "pra 2": the weakest sign of a party, read when
// no other says it ("NYC for 4 nights then Boston for 2, family of 4").
func bareFor(w []string) int {
	for i := range w {
		switch w[i] {
		case "for", "para", "pra":
			if n, ok := number(word(w, i+1)); ok && word(w, i+1) != "a" && word(w, i+1) != "um" && word(w, i+1) != "uma" && endOfCount(w, i+2) {
				return n
			}
		}
	}
	return 0
}

// addedAfter counts the people added after a count: "plus grandma",
// "mais a avó", "+ my parents".
func addedAfter(w []string, i int) int {
	n := 0
	for j := i; j < len(w) && j < i+4; j++ {
		switch {
		case (companions[w[j]] || roles[w[j]]) && !onlyTalks(w, j):
			n++
		case pairs[w[j]]:
			n += 2
		case w[j] == "plus" || w[j] == "mais" || w[j] == "and" || w[j] == "e" || w[j] == "+" || owner(w[j]):
		default:
			return n
		}
	}
	return n
}

// owner reports a word that makes the next a companion: "my", "minha",
// "the", "as".
func owner(s string) bool {
	switch s {
	case "my", "our", "his", "her", "their", "minha", "meu", "meus", "minhas", "nossa", "nosso", "nossos", "nossas", "the", "a", "o", "as", "os":
		return true
	}
	return false
}

// endOfCount reports whether a bare number ("for 4") ends there: nothing
// or a word that cannot be a unit follows.
func endOfCount(w []string, i int) bool {
	next := word(w, i)
	switch next {
	case "", ",", "in", "em", "no", "na", "from", "de", "and", "e", "please", "por", "on", "at", "this", "next", "during", "durante", "to", "para", "with", "com":
		return true
	}
	return false
}

func unitAfter(w []string, i int) bool {
	switch word(w, i) {
	case "nights", "night", "noites", "noite", "days", "dias", "dia", "weeks", "semanas", "semana", "week", "stars", "estrelas", "rooms", "quartos", "hours", "horas":
		return true
	}
	return false
}

// company counts "me and my wife", "eu, minha esposa e 2 filhos", "com
// meus pais": the speaker plus everyone named.
func company(w []string) int {
	n := 0
	for i, s := range w {
		if onlyTalks(w, i) {
			continue // "my friend Florence says…", "meu chefe foi pra Cancún"
		}
		prev := word(w, i-1)
		if s == "laws" && prev == "in" {
			s, prev = "in-laws", word(w, i-2) // "my in-laws"
		}
		owned := owner(prev)
		switch {
		case companions[s] && owned:
			n++
		case pairs[s] && owned:
			n += 2
		case plurals[s] && (owned || n > 0 && (prev == "and" || prev == "e")):
			if _, ok := number(prev); !ok {
				n += 2
			}
		}
	}
	if n == 0 {
		return 0
	}
	return n + 1
}

// talkVerbs say what someone else said or did: a person they follow does
// not travel ("my colleague Austin recommended Denver").
var talkVerbs = wordSet(`says said recommended recommends told tells suggested loved went
approved approves gave gives paid pays let lets allowed sent sends
diz disse indicou indica recomendou recomenda falou sugeriu amou adorou foi
foram viajou aprovou aprova liberou libera deixou deixa mandou manda pagou paga deu da`)

// onlyTalks reports a companion word followed, within two words, by one
// of talkVerbs.
func onlyTalks(w []string, i int) bool {
	if !companions[w[i]] && !pairs[w[i]] {
		return false
	}
	for j := i + 1; j <= i+3 && j < len(w); j++ {
		if talkVerbs[w[j]] {
			return true
		}
		if w[j] == "," {
			return false
		}
	}
	return false
}

// fixed reads words that imply a number: "couple", "casal", "sozinho".
func fixed(w []string) int {
	for i, s := range w {
		switch s {
		case "alone", "solo", "myself", "sozinho", "sozinha":
			return 1
		case "me", "mim":
			if f := word(w, i-1); f == "for" || f == "pra" || f == "para" {
				if g := word(w, i-2); g == "just" || g == "only" || g == "so" || g == "apenas" || g == "somente" || endOfCount(w, i+1) && word(w, i+1) != "and" && word(w, i+1) != "e" {
					return 1 // "just for me", "só pra mim", "a hotel for me"
				}
			}
		case "couple", "casal", "honeymoon":
			if word(w, i+1) == "of" || word(w, i+1) == "de" && s == "casal" && word(w, i+2) != "" && !isPeopleish(word(w, i+2)) {
				continue
			}
			return 2
		case "lua":
			if word(w, i+1) == "de" && word(w, i+2) == "mel" {
				return 2
			}
		case "just", "only", "so", "apenas":
			if n := word(w, i+1); n == "me" || n == "eu" || n == "i" {
				return 1
			}
		case "us":
			if n, ok := number(word(w, i+1)); ok && n > 1 && n < 20 && !unitAfter(w, i+2) {
				return n // "just us two", "us 3"
			}
		}
	}
	return 0
}

func isPeopleish(s string) bool { return s == "amigos" || s == "namorados" }

func hasSelf(w []string) bool {
	return anyWord(w, "me", "eu", "i", "myself")
}

func anyWord(w []string, set ...string) bool {
	for _, s := range w {
		for _, t := range set {
			if s == t {
				return true
			}
		}
	}
	return false
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

// Change returns how a later message changes the number of travellers:
// "two more of us are coming", "mais dois", "+1" (+2, +2, +1), "one of us
// can't come", "um a menos" (-1), "my parents are joining us" (+2). It is
// 0 when the message states no change.
func Change(text string) int {
	w := folds(text)
	for i, s := range w {
		switch s {
		case "more", "extra":
			if n, ok := number(word(w, i-1)); ok && !unitAfter(w, i+1) && !unitAfter(w, i+2) {
				return n
			}
		case "mais", "+":
			if n, ok := number(word(w, i+1)); ok && !unitAfter(w, i+2) && !unitAfter(w, i+3) {
				if couples[word(w, i+2)] || word(w, i+2) == "casal" || word(w, i+2) == "couple" {
					return 2 * n // "vem mais um casal"
				}
				return n
			}
		case "less", "fewer":
			if n, ok := number(word(w, i-1)); ok {
				return -n
			}
		case "menos":
			if n, ok := number(word(w, i-2)); ok && word(w, i-1) == "a" {
				return -n
			}
			if n, ok := number(word(w, i+1)); ok && !unitAfter(w, i+2) {
				return -n
			}
		case "of", "de":
			if f := word(w, i+1); (f == "us" || f == "nos") && dropsOut(w, i+2) {
				if n, ok := number(word(w, i-1)); ok {
					return -n
				}
			}
		}
	}
	for i, s := range w {
		if s == "laws" && word(w, i-1) == "in" {
			s = "in-laws"
		}
		if (companions[s] || pairs[s]) && owner(word(w, i-1)) || s == "in-laws" {
			if dropsOut(w, i+1) {
				if pairs[s] || s == "in-laws" {
					return -2 // "my parents can't come"
				}
				return -1 // "my sister can't come", "meu cunhado desistiu"
			}
		}
	}
	if joins(w) {
		if n := company(w); n > 1 {
			return n - 1
		}
		if n := explicit(w); n > 0 {
			return n
		}
	}
	return 0
}

// dropsOut reports a refusal in the words from i: "can't come", "não vai",
// "desistiu".
func dropsOut(w []string, i int) bool {
	for j := i; j < min(i+4, len(w)); j++ {
		switch w[j] {
		case "cant", "can", "cannot", "isn", "isnt", "won", "wont", "not", "nao", "desistiu", "desistiram", "dropped", "cancelled", "canceled",
			"bailed", "bails", "pulled", "furou", "cancelou", "saiu":
			return word(w, j+1) != "wait" && word(w, j+2) != "wait" // "can't wait" is eager
		}
	}
	return false
}

// joins reports that someone is added to the party: "joining us",
// "coming too", "vêm também", "vão junto".
func joins(w []string) bool {
	for i, s := range w {
		switch s {
		case "joining", "join", "joins", "bringing", "bring", "levar", "levando", "levaremos", "trazer", "trazendo":
			return true
		case "too", "also", "tambem", "junto", "juntos":
			for j := max(0, i-3); j < min(i+3, len(w)); j++ {
				switch w[j] {
				case "coming", "come", "comes", "vem", "vao", "vai", "irao", "ira", "vir":
					return true
				}
			}
			if _, ok := number(word(w, i-2)); ok && (people[word(w, i-1)] || plurals[word(w, i-1)] || companions[word(w, i-1)] || roles[word(w, i-1)]) {
				return true // "and 1 kid too", "e 2 amigos também"
			}
		}
	}
	return false
}

// Conflict reports a message that counts its party two ways that do not
// agree: "somos 4, eu e minha esposa", "3 of us: me and my husband".
//
// The people named are a subset of a larger count unless the speaker
// lists themselves among them: "5 of us; my sister loves Nashville"
// agrees, "somos 4, eu e minha esposa" does not.
func Conflict(text string) bool {
	w := folds(text)
	g, c := strongGrouped(w), company(w)
	if g == 0 || c == 0 || g == c {
		return false
	}
	return c > g || hasSelf(w)
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
