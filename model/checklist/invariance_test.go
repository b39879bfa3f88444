package checklist_test

import (
	"strings"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// templates are requests with a city slot ({c}: English name, {p}:
// Portuguese name), dates and a party, whose reading must not depend on
// the city.
var templates = []struct{ lang, text string }{
	{"en", "hotel in {c} from May 3 to 7 for 2 people"},
	{"en", "{c}, 4 nights starting June 12, me and my wife"},
	{"en", "looking for a place in {c} next weekend, 3 of us"},
	{"en", "{c} wed to sat next week, family of four"},
	{"en", "restaurants in {c} for a dozen of us"},
	{"en", "{c} for twelve nights from the twenty-first of March, two adults and a kid"},
	{"en", "a week in {c} in August with my parents"},
	{"en", "trip to {c} over Thanksgiving, 5 people"},
	{"en", "{c} dec 28 - jan 3, just me"},
	{"en", "{c} the first weekend of April, two couples"},
	{"pt", "hotel em {p} de 3 a 7 de maio pra 2 pessoas"},
	{"pt", "{p}, 4 noites a partir de 12 de junho, eu e minha esposa"},
	{"pt", "quero ir pra {p} no próximo fim de semana, somos 3"},
	{"pt", "{p} de quarta a sábado da semana que vem, família de quatro"},
	{"pt", "restaurantes em {p} pra uma dúzia de pessoas"},
	{"pt", "{p} por doze noites a partir de vinte e um de março, dois adultos e uma criança"},
	{"pt", "uma semana em {p} em agosto com meus pais"},
	{"pt", "viagem pra {p} no carnaval, 5 pessoas"},
	{"pt", "{p} de 28/12 a 03/01, só eu"},
	{"pt", "{p} no primeiro fim de semana de abril, dois casais"},
}

func fill(tpl string, c city) string {
	return strings.NewReplacer("{c}", c.en, "{p}", c.pt).Replace(tpl)
}

// citySwaps: another city changes nothing else.
func citySwaps() []test {
	var out []test
	ref := destinations[0]
	for _, tpl := range templates {
		want := same(understand([]string{fill(tpl.text, ref)}))
		for _, c := range pick(destinations[1:], 3, len(tpl.text)) {
			out = append(out, test{"invariance/city", "INV", tpl.lang, []string{fill(tpl.text, c)}, want})
		}
	}
	return out
}

// citySpellings: a city misspelt (a letter dropped, doubled, swapped or
// wrong), in lower case or without accents changes nothing else.
func citySpellings() []test {
	var out []test
	for t, tpl := range templates {
		for i, c := range pick(destinations, 3, t) {
			want := same(understand([]string{fill(tpl.text, c)}))
			for k := 0; k < 4; k++ {
				bad := city{perturbWith(c.en, i+k, k), perturbWith(c.pt, i+k, k)}
				out = append(out, test{"invariance/city spelling", "INV", tpl.lang, []string{fill(tpl.text, bad)}, want})
			}
			low := city{strings.ToLower(c.en), strings.ToLower(textnorm.Fold(c.pt))}
			out = append(out, test{"invariance/city spelling", "INV", tpl.lang, []string{fill(tpl.text, low)}, want})
		}
	}
	return out
}

// chat are words travellers shorten, and how.
var chat = []struct{ long, short string }{
	{"people", "ppl"}, {"with", "w/"}, {"weekend", "wknd"}, {"tomorrow", "tmrw"}, {"nights", "nts"}, {"please", "pls"},
	{"fim de semana", "fds"}, {"para", "p/"}, {"com", "c/"}, {"você", "vc"}, {"pra", "p/"},
}

// messageForms: the whole message in lower case, without accents, or
// with chat words, reads the same.
func messageForms() []test {
	var out []test
	for _, tpl := range templates {
		for i, c := range pick(destinations, 3, len(tpl.text)) {
			text := fill(tpl.text, c)
			want := same(understand([]string{text}))
			out = append(out,
				test{"invariance/case and accents", "INV", tpl.lang, []string{strings.ToLower(text)}, want},
				test{"invariance/case and accents", "INV", tpl.lang, []string{textnorm.Fold(text)}, want},
			)
			if i%3 == 0 {
				out = append(out, test{"invariance/case and accents", "INV", tpl.lang, []string{strings.ToUpper(text[:1]) + text[1:] + "!!"}, want})
			}
			short := text
			for _, w := range chat {
				short = replaceWord(short, w.long, w.short)
			}
			if short != text {
				out = append(out, test{"invariance/chat words", "INV", tpl.lang, []string{short}, want})
			}
		}
	}
	return out
}

// replaceWord replaces a whole word or phrase.
func replaceWord(s, old, repl string) string {
	words := strings.Split(s, " ")
	olds := strings.Split(old, " ")
	for i := 0; i+len(olds) <= len(words); i++ {
		if strings.Join(words[i:i+len(olds)], " ") == old {
			return strings.Join(append(append(append([]string{}, words[:i]...), repl), words[i+len(olds):]...), " ")
		}
	}
	return s
}

// perturb misspells a word by one letter, the kind chosen by seed.
func perturb(w string, seed int) string { return perturbWith(w, seed, seed%4) }

// perturbWith misspells a word by one letter: 0 drops one, 1 doubles
// one, 2 swaps two, 3 replaces one with its keyboard neighbour. The first
// letter and spaces are kept.
func perturbWith(w string, seed, kind int) string {
	r := []rune(w)
	if len(r) < 4 {
		return w
	}
	i := 1 + seed%(len(r)-2)
	for r[i] == ' ' || r[i+1] == ' ' {
		i = 1 + (i % (len(r) - 2))
		if i == 1 && (r[1] == ' ' || r[2] == ' ') {
			return w
		}
	}
	switch kind {
	case 0:
		return string(append(r[:i:i], r[i+1:]...))
	case 1:
		return string(append(append(r[:i+1:i+1], r[i]), r[i+1:]...))
	case 2:
		r[i], r[i+1] = r[i+1], r[i]
		return string(r)
	}
	r[i] = neighbour(r[i])
	return string(r)
}

// neighbour is a key beside a letter on a keyboard.
func neighbour(c rune) rune {
	rows := []string{"qwertyuiop", "asdfghjkl", "zxcvbnm"}
	for _, row := range rows {
		if k := strings.IndexRune(row, c); k >= 0 {
			if k+1 < len(row) {
				return rune(row[k+1])
			}
			return rune(row[k-1])
		}
	}
	return 'e'
}
