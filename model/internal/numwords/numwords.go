// Package numwords reads numbers written in words, in English and
// Portuguese, by a small grammar rather than a list of phrases:
//
//	number   = [approx] (collective | cardinal | ordinal)
//	cardinal = hundreds [link] tens [link] unit | tens [link] unit | teen | unit
//	ordinal  = ordinal-tens [ordinal-unit] | cardinal-tens [link] ordinal-unit | ordinal-unit
//	collective = [count | "half" ["a"] | "meia"] ("dozen" | "dúzia" | "dezena" | "pair" | "par" | "trio")
//
// where link is "and", "e" or a hyphen ("twenty-one", "vinte e um",
// "a hundred and five"), approx is "about", "around", "uns", "umas",
// "cerca de", "uns" (which leave the value as it is), and count is any
// cardinal ("two dozen", "duas dúzias"). Words are folded (lower case,
// no accents), as textnorm gives them.
package numwords

// Number is a number read from words.
type Number struct {
	Value   int
	Ordinal bool // "twenty-first", "vigésimo primeiro", "3rd" is read elsewhere
	Words   int  // how many words it took, the approximation words included
	// Weak marks a reading of one word that is mostly something else:
	// the articles "a", "an", "um", "uma" (1), and the ordinals that are
	// also weekdays or units ("segunda", "quarta", "second").
	Weak bool
}

var units = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"um": 1, "uma": 1, "dois": 2, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5, "seis": 6, "sete": 7, "oito": 8, "nove": 9,
}

// articles are units that are mostly articles.
var articles = map[string]int{"a": 1, "an": 1}

var teens = map[string]int{
	"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
	"seventeen": 17, "eighteen": 18, "nineteen": 19,
	"dez": 10, "onze": 11, "doze": 12, "treze": 13, "catorze": 14, "quatorze": 14, "quinze": 15,
	"dezesseis": 16, "dezasseis": 16, "dezessete": 17, "dezassete": 17, "dezoito": 18, "dezenove": 19, "dezanove": 19,
}

var tens = map[string]int{
	"twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
	"vinte": 20, "trinta": 30, "quarenta": 40, "cinquenta": 50, "sessenta": 60, "setenta": 70, "oitenta": 80, "noventa": 90,
}

var hundreds = map[string]int{
	"cem": 100, "cento": 100, "duzentos": 200, "duzentas": 200, "trezentos": 300, "trezentas": 300,
	"quatrocentos": 400, "quinhentos": 500, "seiscentos": 600, "setecentos": 700, "oitocentos": 800, "novecentos": 900,
}

// ordinalUnits are the ordinals below ten, and the teens'.
var ordinalUnits = map[string]int{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9,
	"tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15,
	"sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
	"primeiro": 1, "primeira": 1, "segundo": 2, "segunda": 2, "terceiro": 3, "terceira": 3, "quarto": 4, "quarta": 4,
	"quinto": 5, "quinta": 5, "sexto": 6, "sexta": 6, "setimo": 7, "setima": 7, "oitavo": 8, "oitava": 8,
	"nono": 9, "nona": 9,
}

// ordinalTens are the ordinals of the tens, which a unit ordinal may
// follow ("vigésimo primeiro", "twentieth").
var ordinalTens = map[string]int{
	"twentieth": 20, "thirtieth": 30,
	"decimo": 10, "decima": 10, "vigesimo": 20, "vigesima": 20, "trigesimo": 30, "trigesima": 30,
}

// weakOrdinals are ordinals that mostly mean something else: weekdays in
// Portuguese ("segunda", "quarta", "quinta", "sexta"), a unit of time
// ("second"), a room ("quarto").
var weakOrdinals = map[string]bool{
	"segunda": true, "quarta": true, "quinta": true, "sexta": true, "second": true, "quarto": true,
}

// collectives count by groups: "a dozen", "meia dúzia", "duas dezenas".
var collectives = map[string]int{
	"dozen": 12, "dozens": 12, "duzia": 12, "duzias": 12, "dezena": 10, "dezenas": 10,
	"pair": 2, "par": 2, "trio": 3, "quarteto": 4,
}

// approx words say a number is not exact; the number stands.
var approx = map[string]bool{"about": true, "around": true, "roughly": true, "approximately": true, "uns": true, "umas": true, "aproximadamente": true, "tipo": true}

// links join the parts of a number: "twenty-one", "vinte e um", "one
// hundred and five".
var links = map[string]bool{"and": true, "e": true, "-": true}

// Read reads a number in words at the start of ws. ok is false when ws
// does not begin with one.
func Read(ws []string) (Number, bool) {
	i := 0
	for i < len(ws) && approx[ws[i]] || i+1 < len(ws) && ws[i] == "cerca" && ws[i+1] == "de" {
		if ws[i] == "cerca" {
			i++
		}
		i++
	}
	if n, ok := collective(ws[i:]); ok {
		n.Words += i
		return n, true
	}
	n, ok := cardinalOrOrdinal(ws[i:])
	if !ok {
		return Number{}, false
	}
	if i > 0 {
		n.Weak = false // "uns 8", "about a dozen": a count
	}
	n.Words += i
	return n, true
}

// Value is the value of a number word read alone, or 0: "twelve" 12,
// "vinte" 20, "dozen" 12. Articles give 0.
func Value(w string) int {
	for _, m := range []map[string]int{units, teens, tens, hundreds} {
		if v, ok := m[w]; ok {
			return v
		}
	}
	return 0
}

// collective reads "a dozen", "half a dozen", "meia dúzia", "duas
// dúzias", "uma dezena de", "a pair of".
func collective(ws []string) (Number, bool) {
	at := func(i int) string {
		if i < len(ws) {
			return ws[i]
		}
		return ""
	}
	switch {
	case at(0) == "half" && at(1) == "a" && collectives[at(2)] > 0:
		return Number{Value: collectives[at(2)] / 2, Words: 3}, true
	case at(0) == "meia" && collectives[at(1)] > 0:
		return Number{Value: collectives[at(1)] / 2, Words: 2}, true
	case collectives[at(0)] > 0 && at(0) != "pair" && at(0) != "par":
		return Number{Value: collectives[at(0)], Words: 1}, true // "dozen", "dúzia" alone
	}
	count, size := 1, 0
	if a, ok := articles[at(0)]; ok {
		count, size = a, 1
	} else if c, ok := cardinalOrOrdinal(ws); ok && !c.Ordinal {
		count, size = c.Value, c.Words
	}
	if g := collectives[at(size)]; g > 0 && size > 0 {
		return Number{Value: count * g, Words: size + 1}, true
	}
	return Number{}, false
}

// cardinalOrOrdinal reads the cardinal and ordinal rules.
func cardinalOrOrdinal(ws []string) (Number, bool) {
	if len(ws) == 0 {
		return Number{}, false
	}
	if v, ok := ordinalTens[ws[0]]; ok {
		if u, ok := ordinalUnits[at(ws, 1)]; ok && u < 10 {
			return Number{Value: v + u, Ordinal: true, Words: 2}, true
		}
		return Number{Value: v, Ordinal: true, Words: 1}, true
	}
	if v, ok := ordinalUnits[ws[0]]; ok {
		return Number{Value: v, Ordinal: true, Words: 1, Weak: weakOrdinals[ws[0]]}, true
	}
	if v, ok := articles[ws[0]]; ok && at(ws, 1) != "hundred" {
		return Number{Value: v, Words: 1, Weak: true}, true
	}
	value, i := 0, 0
	if h, ok := hundreds[ws[0]]; ok {
		value, i = h, 1
	} else if ws[0] == "hundred" || at(ws, 1) == "hundred" {
		m := 1
		if ws[0] != "hundred" {
			m = units[ws[0]]
			if ws[0] == "a" || ws[0] == "one" {
				m = 1
			}
			if m == 0 {
				return readBelowHundred(ws)
			}
			i++
		}
		value, i = 100*m, i+1
	}
	if value > 0 {
		j := i
		if links[at(ws, j)] {
			j++
		}
		if rest, ok := readBelowHundred(ws[min(j, len(ws)):]); ok && !rest.Ordinal {
			return Number{Value: value + rest.Value, Words: j + rest.Words}, true
		}
		return Number{Value: value, Words: i}, true
	}
	return readBelowHundred(ws)
}

// readBelowHundred reads 1 to 99, cardinal or ordinal: "seven", "twenty
// one", "twenty-first", "vinte e um", "quarenta e cinco".
func readBelowHundred(ws []string) (Number, bool) {
	w := at(ws, 0)
	if v, ok := tens[w]; ok {
		j := 1
		if links[at(ws, j)] {
			j++
		}
		if u, ok := units[at(ws, j)]; ok {
			return Number{Value: v + u, Words: j + 1}, true
		}
		if u, ok := ordinalUnits[at(ws, j)]; ok && u < 10 {
			return Number{Value: v + u, Ordinal: true, Words: j + 1}, true
		}
		return Number{Value: v, Words: 1}, true
	}
	if v, ok := teens[w]; ok {
		return Number{Value: v, Words: 1}, true
	}
	if v, ok := units[w]; ok {
		return Number{Value: v, Words: 1, Weak: w == "um" || w == "uma"}, true
	}
	return Number{}, false
}

func at(ws []string, i int) string {
	if i < len(ws) {
		return ws[i]
	}
	return ""
}

// Starts reports whether a number in words may begin with w: a cheap
// test before Read.
func Starts(w string) bool {
	if _, ok := units[w]; ok {
		return true
	}
	if _, ok := teens[w]; ok {
		return true
	}
	if _, ok := tens[w]; ok {
		return true
	}
	if _, ok := hundreds[w]; ok {
		return true
	}
	if _, ok := ordinalUnits[w]; ok {
		return true
	}
	if _, ok := ordinalTens[w]; ok {
		return true
	}
	return approx[w] || collectives[w] > 0 || articles[w] > 0 || w == "half" || w == "meia" || w == "cerca" || w == "hundred"
}
