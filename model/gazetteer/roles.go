package gazetteer

import "strings"

// Role is what a place named in a message is to the trip.
type Role uint8

// The roles a place may have. A message names places in passing as often
// as it names the destination: where the traveller lives or leaves from,
// where they went last time, a stop on the way, the place they no longer
// want, or a person who bears a city's name.
const (
	Plain   Role = iota // nothing says otherwise: it may be the destination
	Chosen              // picked or corrected to: "I meant Nice", "melhor Gramado"
	Origin              // where they live: "I live in Houston", "moro em Campinas"
	Past                // a trip that was: "we went to Paris last year", "fomos pra Salvador"
	Transit             // a stop on the way: "layover in Frankfurt", "conexão em Lisboa"
	Negated             // not wanted: "not Boston", "e não Fortaleza", "instead of Rome"
)

// Passing reports whether the place is named in passing, not as where
// the traveller wants to go.
func (r Role) Passing() bool { return r == Origin || r == Past || r == Transit }

// personWords come before a person's name: "my friend Florence", "minha
// amiga Vitória", "my daughter Sydney". A city's name right after them
// is the person.
var personWords = wordSet(`friend friends daughter son wife husband sister brother mom mum
mother dad father cousin boss colleague aunt uncle grandma grandpa niece nephew
girlfriend boyfriend partner named called mr mrs ms miss dr doctor
dona senhor senhora sr sra
amiga amigo filha filho esposa marido irma irmao mae pai prima primo chefe colega
tia tio avo sobrinha sobrinho namorada namorado chamada chamado`)

var (
	// pastWords put a place in a trip that was.
	pastWords = wordSet(`went been visited loved stayed lived
fomos fui foi fiquei ficamos estive estivemos visitei visitamos amou amei amamos
adoramos adorei passei passamos morei`)
	// pastPhrases do too, in either order around the place.
	pastPhrases = []string{"last year", "last time", "last summer", "last winter", "ano passado",
		"ultima vez", "vez passada", "verao passado", "like last", "como da ultima", "anos atras", "years ago",
		"last month", "last spring", "last autumn", "last fall", "last christmas", "last easter", "back in",
		"year before last", "mes passado", "inverno passado", "outono passado", "primavera passada",
		"natal passado", "carnaval passado", "reveillon passado", "ano retrasado", "months ago", "meses atras"}
	// pastBefore, right before a place, make it a trip that was: "we did
	// Paris", "já fizemos Floripa".
	pastBefore = wordSet(`did done fizemos fiz`)
	// clauseBreaks end the clause a place is read in.
	clauseBreaks = wordSet(`but mas now agora this esse essa este esta porem then depois so entao`)
	transitWords = wordSet(`layover layovers stopover connecting connection via conexao escala escalas`)
	homeWords    = wordSet(`live living based moro moramos vivo vivemos`)
	negWords     = wordSet(`not nao nada forget esquece esqueca esquecer skip scratch`)
	chosenWords  = wordSet(`meant mean prefer prefiro preferimos leaning melhor actually wait
make switch change trocar troca muda mudar quer quis`)
)

// roleOf reads the role of the place at words[i:i+n] from the words
// around it in its clause.
func roleAt(text string, words []word, i, n int) Role {
	start, end := clause(text, words, i, n)
	before := words[start:i]
	for j := len(before) - 1; j >= 0 && j >= len(before)-3; j-- {
		w, prev := before[j].Fold, ""
		if j > 0 {
			prev = before[j-1].Fold
		}
		switch {
		case negWords[w] && j >= len(before)-2, w == "of" && prev == "instead", w == "than" && prev == "rather",
			w == "vez" && prev == "em", w == "inves" && prev == "ao":
			return Negated // "not Boston", "e não Fortaleza", "instead of Rome", "em vez de Paris"
		case transitWords[w]:
			return Transit
		}
	}
	// A correction may come before a comma: "Porto, quer dizer, Lisboa",
	// "ou melhor, Maragogi".
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		w := words[j].Fold
		if chosenWords[w] && (w != "quer" && w != "quis" || j+1 < len(words) && words[j+1].Fold == "dizer") {
			return Chosen
		}
	}
	if len(before) >= 1 && personWords[before[len(before)-1].Fold] {
		return Negated // a person: "my friend Florence" names no place
	}
	for _, w := range words[i+n : end] {
		if w.Fold == "nao" || w.Fold == "not" {
			return Negated // "Paris não", "Rome not"
		}
		break
	}
	if len(before) >= 1 && pastBefore[before[len(before)-1].Fold] {
		return Past
	}
	for j := len(before) - 1; j >= 0; j-- {
		if homeWords[before[j].Fold] {
			return Origin // "I live in Houston", "moro em Campinas"
		}
	}
	clauseText := " " + joinFolds(words[start:end], new(strings.Builder)) + " "
	for _, p := range pastPhrases {
		if strings.Contains(clauseText, " "+p+" ") {
			return Past
		}
	}
	for _, w := range words[start:end] {
		if pastWords[w.Fold] {
			return Past
		}
	}
	return Plain
}

// clause returns the bounds of the clause around words[i:i+n]: up to
// punctuation, or a word that turns to something else ("but", "mas",
// "now", "esse ano").
func clause(text string, words []word, i, n int) (int, int) {
	start := i
	for start > 0 && !breaksAt(text, words, start) {
		start--
		if clauseBreaks[words[start].Fold] {
			start++
			break
		}
	}
	end := i + n
	for end < len(words) && !breaksAt(text, words, end) && !clauseBreaks[words[end].Fold] {
		end++
	}
	return start, end
}

// breaksAt reports punctuation between words[j-1] and words[j].
func breaksAt(text string, words []word, j int) bool {
	return j > 0 && strings.ContainsAny(text[words[j-1].End:words[j].Start], ",.;:!?()\n")
}
