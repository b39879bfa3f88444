// Package chatwords writes out the abbreviations and chat words
// travellers type, in English and Brazilian Portuguese, so that the
// readers of the offline model see whole words: "3 ppl tmrw w/ my gf" is
// "3 people tomorrow with my girlfriend", "vc tem hotel p/ hj?" is "você
// tem hotel para hoje?". Place nicknames ("NYC", "Sampa") are the
// gazetteer's; this package only knows words.
package chatwords

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// words maps a chat word, in lower case, to what it stands for.
var words = map[string]string{
	// English.
	"ppl": "people", "pax": "people", "ppls": "people", "peeps": "people",
	"tmrw": "tomorrow", "tmr": "tomorrow", "tmw": "tomorrow", "tmrow": "tomorrow", "2moro": "tomorrow", "2morrow": "tomorrow",
	"tonite": "tonight", "2nite": "tonight", "2night": "tonight",
	"wknd": "weekend", "wkend": "weekend", "wkd": "weekend", "wk": "week", "wks": "weeks", "wkds": "weekends",
	"nite": "night", "nites": "nights", "nts": "nights", "nt": "night", "hrs": "hours", "hr": "hour",
	"mnth": "month", "mths": "months",
	"w/": "with", "w/o": "without", "wo/": "without",
	"gf": "girlfriend", "bf": "boyfriend", "gfs": "girlfriends", "bfs": "boyfriends", "hubby": "husband", "bff": "friend", "bro": "brother", "sis": "sister",
	"fam": "family", "bday": "birthday", "b-day": "birthday",
	"tgiving": "thanksgiving", "thxgiving": "thanksgiving", "xmas": "Christmas", "nye": "New Year's Eve",
	"pls": "please", "plz": "please", "u": "you", "ur": "your", "ya": "you",
	"accom": "accommodation", "accomm": "accommodation", "accomodation": "accommodation",
	"recs": "recommendations", "reccs": "recommendations",
	"abt": "about", "b4": "before", "cuz": "because", "bc": "because", "thru": "through", "til": "until", "till": "until",
	"yr": "year", "yrs": "years",
	"btw": "by the way", "idk": "I don't know", "rn": "right now", "asap": "as soon as possible",
	// Portuguese.
	"vc": "você", "vcs": "vocês", "voce": "você", "q": "que", "oq": "o que", "tb": "também", "tbm": "também", "tmb": "também",
	"p/": "para", "c/": "com", "s/": "sem", "pq": "porque", "hj": "hoje", "amnh": "amanhã",
	"fds": "fim de semana", "findi": "fim de semana", "finde": "fim de semana",
	"qnts": "quantas", "qnt": "quanto", "qntas": "quantas", "qntos": "quantos", "qts": "quantas", "qto": "quanto",
	"td": "tudo", "tds": "todos", "msm": "mesmo", "dps": "depois", "qdo": "quando", "qnd": "quando", "qndo": "quando",
	"mto": "muito", "mt": "muito", "mta": "muita", "mtos": "muitos", "mtas": "muitas", "ngm": "ninguém", "cmg": "comigo",
	"nd": "nada", "dnv": "de novo", "agr": "agora", "obg": "obrigado", "obgd": "obrigado", "obgda": "obrigada",
	"vlw": "valeu", "blz": "beleza", "ond": "onde", "sdd": "saudade",
	"niver": "aniversário", "aniver": "aniversário", "pfv": "por favor",
}

// Expand returns text with chat words written out. Everything else is
// left as written.
func Expand(text string) string {
	var b strings.Builder
	changed := false
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !isTokenRune(r) {
			b.WriteString(text[i : i+size])
			i += size
			continue
		}
		j := i
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if !isTokenRune(r) {
				break
			}
			j += size
		}
		tok := text[i:j]
		out, ok := expand(tok)
		if ok {
			changed = true
		}
		b.WriteString(out)
		i = j
	}
	if !changed {
		return text
	}
	return b.String()
}

// expand writes out one token: a chat word, a word with a slash ("w/",
// "p/2"), or a child's age written short ("4yo", "3y/o").
func expand(tok string) (string, bool) {
	low := strings.ToLower(tok)
	if w, ok := words[low]; ok && (len(tok) > 1 || tok == low) {
		return w, true // a single letter only in lower case: "u", "q", not "U.S."
	}
	if n, rest := digits(low); n != "" && (rest == "yo" || rest == "y/o") {
		return "child", true // "a 4yo": a child, of whatever age
	}
	if n, rest := digits(low); n != "" && rest != "" {
		if w, ok := words[rest]; ok && gluedUnits[w] {
			return n + " " + w, true // "2wks", "3nts"
		}
		if gluedUnits[rest] {
			return n + " " + rest, true // "4nights", "5noites", "2ppl"
		}
	}
	if before, after, ok := strings.Cut(low, "/"); ok && before != "" && after != "" {
		// "w/my", "p/2": a short word glued to the next.
		if w, ok := words[before+"/"]; ok {
			rest, _ := expand(tok[len(before)+1:])
			return w + " " + rest, true
		}
		return tok, false
	}
	if strings.HasSuffix(low, "/") {
		return tok, false
	}
	return tok, false
}

// gluedUnits are written glued to their number: "2wks", "5noites".
var gluedUnits = map[string]bool{
	"nights": true, "night": true, "noites": true, "noite": true, "days": true, "day": true, "dias": true,
	"weeks": true, "week": true, "semanas": true, "semana": true, "people": true, "pessoas": true,
	"adults": true, "adultos": true, "kids": true, "criancas": true, "crianças": true,
}

// digits splits a token into its leading digits and the rest.
func digits(s string) (string, string) {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return s[:i], s[i:]
}

// isTokenRune reports a rune of a token: a letter, a digit, or a slash
// inside a word ("w/", "y/o", "p/").
func isTokenRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '/'
}
