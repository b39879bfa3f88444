package guests

import (
	"strconv"

	"github.com/tripgraph/tripgraph/model/internal/numwords"
)

// A party is often written as a list of who comes: "grandma, grandpa, 2
// parents and 3 kids", "my wife, our two kids and the nanny", "nós 3 + a
// vó". The list is read by a small grammar:
//
//	list = item (sep item)*
//	sep  = "," | "and" | "e" | "&" | "+" | "plus" | "mais" | "with" | "com"
//	item = [det] [count] role | pronoun
//
// where a role is one person ("wife", "nanny", "vó"), a pair ("parents",
// "avós"), a couple ("casal", 2), or people counted by the number before
// them ("3 kids", "two friends"; 2 when a plural has none). The speaker
// comes too when the list says "my" or "our" and not "me" or "I".

// roles are single people who may travel with the speaker, besides the
// companions: "the nanny", "a vó", "our newborn".
var roles = wordSet(`nanny babysitter au pair baba vo vovo vovó avo grandma grandpa granny grandmother
grandfather newborn infant toddler baby bebe boy namorado namorada mate buddy pal roommate
colega chefe boss assistant driver motorista guia guide`)

// adjectives may come between an owner and a role.
var adjectives = wordSet(`best little older younger elder big baby new dear melhor pequeno pequena mais velho velha nova novo querida querido`)

// selves are the speaker in a list: "me", "I", "eu", "mim".
var selves = wordSet(`me i eu mim myself`)

// seps join the items of a list.
var seps = wordSet(`, and e & + plus mais with com`)

// possessives make an item the speaker's: "my wife" means the speaker
// comes too.
var possessives = wordSet(`my our minha meu meus minhas nosso nossa nossos nossas`)

// dets may come before an item.
var dets = wordSet(`my our his her their the a an o os as minha meu meus minhas nosso nossa nossos nossas seu sua seus suas`)

// roster reads the longest list of people in w and returns its count; ok
// is false unless the list has two items or more.
func roster(w []string) (int, bool) {
	best, bestItems := 0, 0
	for i := 0; i < len(w); i++ {
		total, items, self, owned, end := readList(w, i)
		if items < 2 || items <= bestItems {
			continue
		}
		if owned && !self {
			total++ // "my wife and our two kids": and me
		}
		best, bestItems = total, items
		i = end
	}
	return best, bestItems >= 2
}

// readList reads the list starting at w[i].
func readList(w []string, i int) (total, items int, self, owned bool, end int) {
	j := i
	for {
		n, size, isSelf, isOwned := item(w, j)
		if size == 0 {
			break
		}
		total, items = total+n, items+1
		self, owned = self || isSelf, owned || isOwned
		j += size
		end = j
		if !seps[word(w, j)] {
			break
		}
		for seps[word(w, j)] {
			j++
		}
	}
	return total, items, self, owned, end
}

// item reads one item of a list at w[i]: how many people it counts and
// how many words it took.
func item(w []string, i int) (n, size int, self, owned bool) {
	if selves[word(w, i)] {
		return 1, 1, true, false
	}
	j := i
	for dets[word(w, j)] {
		owned = owned || possessives[word(w, j)]
		j++
	}
	count, counted := number(word(w, j))
	if counted {
		j++
	}
	for adjectives[word(w, j)] && j+1 < len(w) && (roles[word(w, j+1)] || companions[word(w, j+1)] || people[word(w, j+1)]) {
		j++ // "my best friend", "minha melhor amiga", "our little ones"
	}
	s := word(w, j)
	if s == "in" && word(w, j+1) == "laws" {
		s, j = "in-laws", j+1
	}
	switch {
	case couples[s]:
		return 2 * max(count, 1), j + 1 - i, false, owned
	case s == "casal" || s == "couple" && word(w, j+1) != "of":
		return 2, j + 1 - i, false, owned
	case pairs[s] || s == "in-laws":
		if counted {
			return count, j + 1 - i, false, owned // "2 parents"
		}
		return 2, j + 1 - i, false, owned
	case people[s] && counted:
		return count, j + 1 - i, false, owned
	case plurals[s]:
		return 2, j + 1 - i, false, owned
	case (companions[s] || roles[s]) && !counted && j > i:
		return 1, j + 1 - i, false, owned
	case (companions[s] || roles[s]) && !counted && (seps[word(w, i-1)] || i == 0):
		return 1, 1, false, false // "grandma, grandpa, …"
	}
	if others[word(w, i)] && (seps[word(w, i-1)] && selves[word(w, i-2)] || seps[word(w, i+1)] && selves[word(w, i+2)]) {
		return 1, 1, false, false // "eu e ela", "me and him", "ela e eu"
	}
	return 0, 0, false, false
}

// others are a person named by a pronoun beside the speaker: "eu e ela",
// "me and her".
var others = wordSet(`ela ele her him she he`)

// spellCounts writes numbers written in words as digits ("a dozen" →
// "12", "vinte e dois" → "22", "meia dúzia" → "6"), by the grammar of
// package numwords. Ordinals and the articles "a", "um", "uma" stay.
func spellCounts(w []string) []string {
	out := w[:0:0]
	for i := 0; i < len(w); {
		if !numwords.Starts(w[i]) {
			out = append(out, w[i])
			i++
			continue
		}
		n, ok := numwords.Read(w[i:min(len(w), i+5)])
		if !ok || n.Weak || n.Ordinal || n.Value > 999 || w[i+n.Words-1] == "e" || w[i+n.Words-1] == "and" {
			out = append(out, w[i])
			i++
			continue
		}
		out = append(out, strconv.Itoa(n.Value))
		i += n.Words
	}
	return out
}
