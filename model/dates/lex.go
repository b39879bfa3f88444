package dates

import (
	"strconv"
	"strings"

	"github.com/tripgraph/tripgraph/model/internal/numwords"
	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

type kind uint8

const (
	word kind = iota
	num
	sep // "/", "-", "." between numbers
)

// token is a word, a number or a separator of the folded text.
type token struct {
	kind    kind
	text    string // folded word, digits, or the separator
	n       int    // value of a number
	digits  int    // number of digits
	ordinal bool   // "3rd", "1º", "7th", "twenty-first"
	spelled bool   // a number written in words ("twelve", "vinte e um")
	brk     bool   // punctuation (",", ";", "." …) comes right before it
}

// lex splits folded text into tokens. Ordinal suffixes stick to their
// number; other punctuation is dropped.
func lex(text string) []token {
	s := textnorm.Fold(text)
	toks := make([]token, 0, 24)
	brk := false
	for i := 0; i < len(s); {
		c := s[i]
		start := len(toks)
		switch {
		case isDigit(c):
			j := i
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			t := token{kind: num, text: s[i:j], digits: j - i}
			for _, d := range s[i:j] {
				t.n = t.n*10 + int(d-'0')
			}
			j, t.ordinal = ordinalSuffix(s, j)
			toks = append(toks, t)
			i = j
		case isLetter(c) || c >= 0x80:
			j := i
			for j < len(s) && (isLetter(s[j]) || s[j] >= 0x80) {
				j++
			}
			toks = append(toks, token{kind: word, text: s[i:j]})
			i = j
		case c == '-' && strings.HasPrefix(s[i+1:], "feira"):
			i++ // "sexta-feira" is "sexta feira"
			continue
		case c == '/' || c == '-':
			toks = append(toks, token{kind: sep, text: s[i : i+1]})
			i++
		case c == ',' || c == ';' || c == '.' || c == '!' || c == '?' || c == ':':
			brk = true
			i++
			continue
		case strings.HasPrefix(s[i:], "—") || strings.HasPrefix(s[i:], "–"):
			brk = true // a dash between clauses
			i += len("—")
			continue
		default:
			i++
			continue
		}
		if len(toks) > start {
			toks[start].brk, brk = brk, false
		}
	}
	return dropCityMonths(spellNumbers(fixTypos(weekendWords(amounts(toks, s)))))
}

// signed reports the sign and number m in s, the number whole ("$ 300",
// not "$ 3" of it).
func signed(s, m string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], m)
		if j < 0 {
			return false
		}
		end := i + j + len(m)
		if end >= len(s) || !isDigit(s[end]) {
			return true
		}
		i = end
	}
}

// moneyWords follow an amount of money: "4 mil", "300 reais", "80 euros".
var moneyWords = map[string]bool{
	"mil": true, "k": true, "reais": true, "real": true, "euros": true, "euro": true, "eur": true, "brl": true, "usd": true,
	"dolares": true, "dollars": true, "dollar": true, "bucks": true, "pounds": true, "libras": true, "contos": true, "conto": true,
	"pila": true, "pilas": true, "gbp": true, "quid": true,
}

// amounts makes the numbers that are sums of money ("R$ 300", "4 mil",
// "80 euros", "$200") a word, "amount", that no reader of dates takes
// for a day or a length. s is the folded text the tokens were read from,
// whose currency signs they no longer have; a sign is found again by
// the number's digits right after it.
func amounts(toks []token, s string) []token {
	for i := range toks {
		t := &toks[i]
		if t.kind != num {
			continue
		}
		money := i+1 < len(toks) && toks[i+1].kind == word && moneyWords[toks[i+1].text]
		if !money {
			for _, sign := range []string{"$", "€", "£", "¥"} {
				money = money || signed(s, sign+t.text) || signed(s, sign+" "+t.text)
			}
		}
		if money {
			*t = token{kind: word, text: "amount", brk: t.brk}
			if i > 0 && toks[i-1].kind == word && (toks[i-1].text == "r" || toks[i-1].text == "us" || toks[i-1].text == "u") {
				toks[i-1].text = "amount" // the "R" of "R$"
			}
		}
	}
	return toks
}

// weekendWords writes the ways Portuguese says "weekend" as one:
// "final de semana", "fim-de-semana" and "finais de semana" are "fim de
// semana" to every reader of dates.
func weekendWords(toks []token) []token {
	for i := 0; i+2 < len(toks); i++ {
		if t := toks[i].text; toks[i].kind != word || t != "fim" && t != "final" && t != "finais" && t != "fins" {
			continue
		}
		j := i + 1
		if toks[j].kind == sep && toks[j].text == "-" {
			j++
		}
		if j+1 >= len(toks) || toks[j].text != "de" {
			continue
		}
		k := j + 1
		if toks[k].kind == sep && toks[k].text == "-" {
			k++
		}
		if k >= len(toks) || toks[k].text != "semana" {
			continue
		}
		toks[i].text = "fim"
		if k-i != 2 { // drop the hyphens
			brk := toks[i].brk
			toks = append(toks[:i+1], append([]token{{kind: word, text: "de"}, toks[k]}, toks[k+1:]...)...)
			toks[i].brk = brk
		}
	}
	return toks
}

// spellNumbers turns numbers written in words into number tokens
// ("twenty-first" → 21st, "vinte e um" → 21, "a dozen" → 12), by the
// grammar of package numwords. Words that are mostly something else stay
// words: articles ("a", "um"), weekdays ("segunda"), and "dez", also
// December.
func spellNumbers(toks []token) []token {
	out := toks[:0:0]
	for i := 0; i < len(toks); {
		if toks[i].kind != word || !numwords.Starts(toks[i].text) || toks[i].text == "dez" && !dayOfMonth(toks, i) {
			out = append(out, toks[i])
			i++
			continue
		}
		ws := make([]string, 0, 4)
		for j := i; j < len(toks) && j < i+5 && toks[j].kind != num; j++ {
			ws = append(ws, toks[j].text)
		}
		n, ok := numwords.Read(ws)
		if ok && n.Weak && n.Ordinal && dayOfMonth(toks, i) {
			n.Weak = false // "the second of January", "January second"
		}
		if !ok || n.Weak || n.Value > 999 || endsOnLink(ws, n.Words) {
			out = append(out, toks[i])
			i++
			continue
		}
		t := token{kind: num, text: strconv.Itoa(n.Value), n: n.Value, digits: len(strconv.Itoa(n.Value)), ordinal: n.Ordinal, spelled: true, brk: toks[i].brk}
		out = append(out, t)
		i += n.Words
	}
	return out
}

// dayOfMonth reports a word that stands where a day of a month does:
// before "(of|de) <month>" or after a month ("dez de janeiro", "the
// second of May", "January second").
func dayOfMonth(toks []token, i int) bool {
	isMonth := func(j int) bool {
		if j < 0 || j >= len(toks) || toks[j].kind != word {
			return false
		}
		_, ok := months[toks[j].text]
		return ok && !weakMonths[toks[j].text]
	}
	if i+1 < len(toks) && (toks[i+1].text == "of" || toks[i+1].text == "de") && isMonth(i+2) {
		return true
	}
	return isMonth(i+1) || isMonth(i-1) && !toks[i].brk
}

// endsOnLink reports a number read up to a joining word or a hyphen: the
// grammar never ends on one, so this is a reading to refuse.
func endsOnLink(ws []string, n int) bool {
	last := ws[n-1]
	return last == "e" || last == "and" || last == "-"
}

// pastWords put a clause in a trip that was: its dates are not the
// trip's ("we went to Paris in May, now Rome in October").
var pastWords = map[string]bool{
	"went": true, "been": true, "visited": true, "stayed": true, "loved": true,
	"fomos": true, "fui": true, "fiquei": true, "ficamos": true, "estive": true, "estivemos": true,
	"visitei": true, "visitamos": true, "passei": true, "passamos": true, "adoramos": true, "amamos": true,
}

// pastNouns make "last …" and "… passado" past: "last summer", "ano
// passado", "da última vez".
var pastNouns = map[string]bool{
	"year": true, "summer": true, "winter": true, "spring": true, "autumn": true, "fall": true, "time": true, "trip": true,
	"ano": true, "verao": true, "inverno": true, "vez": true, "mes": true, "outono": true, "primavera": true,
}

// turnWords begin a clause about something else: "…, but this time",
// "mas agora", "esse ano".
var turnWords = map[string]bool{"but": true, "mas": true, "now": true, "agora": true, "this": true, "esse": true, "este": true, "then": true}

// withoutPast removes the clauses about a trip that was. A clause ends at
// punctuation or at a word that turns to something else.
func withoutPast(toks []token) []token {
	out := toks[:0:0]
	for start := 0; start < len(toks); {
		end := start + 1
		for end < len(toks) && !toks[end].brk && !(toks[end].kind == word && turnWords[toks[end].text]) {
			end++
		}
		if !pastClause(toks[start:end]) {
			out = append(out, toks[start:end]...)
		}
		start = end
	}
	return out
}

func pastClause(toks []token) bool {
	for i, t := range toks {
		if t.kind != word {
			continue
		}
		next := ""
		if i+1 < len(toks) {
			next = toks[i+1].text
		}
		switch {
		case t.text == "been" && next != "to" && next != "in" && next != "there" && next != "here":
			// "have been saving for ages" is no trip that was
		case pastWords[t.text]:
			return true
		case (t.text == "last" || t.text == "ultima") && pastNouns[next]:
			return true
		case pastNouns[t.text] && (next == "passado" || next == "passada" || next == "ago" || next == "atras"):
			return true
		}
	}
	return false
}

// dropCityMonths removes month names that are part of a city's name: the
// "janeiro" of "Rio de Janeiro".
func dropCityMonths(toks []token) []token {
	out := toks[:0]
	for i, t := range toks {
		if t.text == "janeiro" && i >= 2 && toks[i-1].text == "de" && toks[i-2].text == "rio" {
			continue
		}
		out = append(out, t)
	}
	return out
}

func ordinalSuffix(s string, j int) (int, bool) {
	for _, suf := range []string{"st", "nd", "rd", "th", "º", "ª", "o", "a"} {
		if len(s)-j >= len(suf) && s[j:j+len(suf)] == suf && (j+len(suf) == len(s) || !isLetter(s[j+len(suf)])) {
			return j + len(suf), true
		}
	}
	return j, false
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' }
