package checklist_test

import (
	"fmt"
	"strings"
)

// partyInWords: every number word from one to twenty as a party, in
// both languages and several forms.
func partyInWords() []test {
	var out []test
	for n := 1; n <= 20; n++ {
		for i, c := range pick(destinations, 8, n) {
			en, pt := numbersEN[n], numbersPT[n]
			people, pessoas := "people", "pessoas"
			if n == 1 {
				people, pessoas, pt = "person", "pessoa", "uma"
			}
			if n == 2 {
				pt = "duas"
			}
			forms := []struct{ lang, text string }{
				{"en", fmt.Sprintf("hotel in %s for %s %s", c.en, en, people)},
				{"pt", fmt.Sprintf("hotel em %s para %s %s", c.pt, pt, pessoas)},
			}
			if n > 1 {
				forms = append(forms,
					struct{ lang, text string }{"en", fmt.Sprintf("%s, we are %s", c.en, en)},
					struct{ lang, text string }{"en", fmt.Sprintf("%s of us going to %s", strings.ToUpper(en[:1])+en[1:], c.en)},
					struct{ lang, text string }{"en", fmt.Sprintf("a group of %s in %s", en, c.en)},
					struct{ lang, text string }{"pt", fmt.Sprintf("%s, somos %s", c.pt, numbersPT[n])},
					struct{ lang, text string }{"pt", fmt.Sprintf("um grupo de %s em %s", numbersPT[n], c.pt)},
				)
			}
			for _, f := range forms {
				if i%2 == 1 {
					f.text += " in May"
					if f.lang == "pt" {
						f.text = strings.TrimSuffix(f.text, " in May") + " em maio"
					}
				}
				out = append(out, test{"guests/numbers in words", "MFT", f.lang, []string{f.text}, wantGuests(n)})
			}
		}
	}
	return out
}

// partyCollectives: dozens, pairs and couples.
func partyCollectives() []test {
	forms := []struct {
		lang, text string
		n          int
	}{
		{"en", "a dozen of us", 12}, {"en", "half a dozen friends", 6}, {"en", "two dozen people", 24},
		{"en", "we're a dozen", 12}, {"en", "3 couples", 6}, {"en", "two couples and a kid", 5},
		{"pt", "uma dúzia de pessoas", 12}, {"pt", "meia dúzia de amigos", 6}, {"pt", "somos uma dúzia", 12},
		{"pt", "duas dúzias de pessoas", 24}, {"pt", "três casais", 6}, {"pt", "dois casais e uma criança", 5},
	}
	var out []test
	for _, f := range forms {
		for i, c := range pick(destinations, 3, len(f.text)) {
			text := fmt.Sprintf("%s in %s", f.text, c.en)
			if f.lang == "pt" {
				text = fmt.Sprintf("%s em %s", f.text, c.pt)
			}
			if i%2 == 1 {
				text = strings.Replace(text, " in ", ", hotel in ", 1)
			}
			out = append(out, test{"guests/collectives", "MFT", f.lang, []string{text}, wantGuests(f.n)})
		}
	}
	return out
}

// role is a person or people in a list of who travels, with the words
// that own it.
type role struct {
	word  string
	n     int
	owner string // "my", "minha", …; "" when counted ("2 kids")
}

var (
	rolesEN = []role{
		{"wife", 1, "my"}, {"husband", 1, "my"}, {"girlfriend", 1, "my"}, {"boyfriend", 1, "my"}, {"mom", 1, "my"}, {"dad", 1, "my"},
		{"sister", 1, "my"}, {"brother", 1, "my"}, {"best friend", 1, "my"}, {"son", 1, "my"}, {"daughter", 1, "my"}, {"grandma", 1, "my"},
		{"grandpa", 1, "my"}, {"nanny", 1, "the"}, {"cousin", 1, "my"}, {"aunt", 1, "my"}, {"uncle", 1, "my"}, {"parents", 2, "my"},
		{"grandparents", 2, "my"}, {"in-laws", 2, "my"}, {"baby", 1, "our"}, {"newborn", 1, "our"},
	}
	countedEN = []string{"kids", "friends", "children", "cousins", "teenagers"}
	rolesPT   = []role{
		{"esposa", 1, "minha"}, {"marido", 1, "meu"}, {"namorada", 1, "minha"}, {"namorado", 1, "meu"}, {"mãe", 1, "minha"}, {"pai", 1, "meu"},
		{"irmã", 1, "minha"}, {"irmão", 1, "meu"}, {"melhor amiga", 1, "minha"}, {"filho", 1, "meu"}, {"filha", 1, "minha"}, {"avó", 1, "minha"},
		{"avô", 1, "meu"}, {"babá", 1, "a"}, {"prima", 1, "minha"}, {"tia", 1, "minha"}, {"tio", 1, "meu"}, {"pais", 2, "meus"},
		{"avós", 2, "meus"}, {"sogros", 2, "meus"}, {"bebê", 1, "o"}, {"cunhada", 1, "minha"},
	}
	countedPT = []string{"filhos", "amigos", "crianças", "primos", "amigas"}
)

// partyRoles: lists of who travels, of two to four items, with the
// speaker or their own people.
func partyRoles() []test {
	var out []test
	for lang, rs := range map[string][]role{"en": rolesEN, "pt": rolesPT} {
		counted, and, me, with := countedEN, " and ", "me", "with"
		if lang == "pt" {
			counted, and, me, with = countedPT, " e ", "eu", "com"
		}
		for i := 0; i < 900; i++ {
			size := 2 + i%3
			var items []string
			total := 0
			used := map[string]bool{}
			for k := 0; k < size; k++ {
				if k == size-1 && i%4 == 1 {
					n := 2 + (i/7)%4
					w := counted[(i+k)%len(counted)]
					owner := "our "
					if lang == "pt" {
						owner = "nossos "
						if strings.HasSuffix(w, "as") {
							owner = "nossas "
						}
					}
					items = append(items, fmt.Sprintf("%s%d %s", owner, n, w))
					total += n
					continue
				}
				r := rs[(i*7+k*11)%len(rs)]
				if used[r.word] {
					r = rs[(i*7+k*11+1)%len(rs)]
				}
				used[r.word] = true
				items = append(items, r.owner+" "+r.word)
				total += r.n
			}
			list := strings.Join(items[:len(items)-1], ", ") + and + items[len(items)-1]
			c := destinations[i%len(destinations)]
			place := fmt.Sprintf(" in %s", c.en)
			if lang == "pt" {
				place = fmt.Sprintf(" em %s", c.pt)
			}
			var text string
			switch i % 3 {
			case 0:
				text = me + ", " + list + place
			case 1:
				text = list + place // the owners make the speaker one of the party
			default:
				text = strings.TrimSpace(place) + " " + with + " " + list
			}
			out = append(out, test{"guests/lists of people", "MFT", lang, []string{text}, wantGuests(total + 1)})
		}
	}
	return out
}
