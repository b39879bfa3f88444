package intent

import (
	"strings"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// Ask is what a question about the traveller's past trips asks for. Their
// trips are their photo albums.
type Ask int

// The kinds of question about past trips.
const (
	NoAsk     Ask = iota // not a question about past trips
	AskTrips             // which trips: "where did I travel in 2022?"
	AskStats             // how long, how many, when: "how long did my London trip last?"
	AskPhotos            // what was photographed: "what did I photograph in Porto?"
)

var (
	pastWords = set(`did was were went been gone visited took taken spent travelled
traveled stayed photographed shot viajei viajamos fui fomos estive estivemos
visitei visitamos tirei tiramos fotografei fotografamos fiz fizemos durou
duraram passei passamos fiquei ficamos conheci conhecemos foi foram andei
andamos rodei rodamos ever`)
	askWords = set(`how when where what which list show tell remind quanto quanta quantos
quantas quando onde quais qual que mostra mostre lista liste diga cade lembra lembre`)
	// futureWords make a message about a trip to come, whatever else it says.
	futureWords = set(`want wanna will would planning plan next back going
quero queria vou vamos planejando planejar proximo proxima denovo volta voltar
gostaria pretendo`)
	tripNouns = set(`trips travels places cities countries destinations viagens
lugares cidades paises destinos`)
	// everywhere asks for all the trips at once: "everywhere I've been".
	everywhere = set(`everywhere everyplace anywhere`)
	// lengthUnits in a yes-or-no question about a past trip ask how long
	// it was: "was the Japan trip 10 days or 2 weeks?".
	lengthUnits = set(`days weeks nights months dias semanas noites meses`)
	// doneVerbs ask what was done or seen there: "what did we do in Rome?".
	doneVerbs = set(`photograph photographed fotografei fotografamos shot took tirei tiramos see saw vi
do did fiz fizemos fez vimos visit visited`)
)

// History reads a question about the traveller's own past trips.
func History(text string) Ask {
	w := words(text)
	past, ask, future := false, false, false
	for _, s := range w {
		past = past || pastWords[s]
		ask = ask || askWords[s]
		future = future || futureWords[s]
	}
	if future || thisTime(w) {
		return NoAsk
	}
	if ask && listsTrips(w) || past && anyIn(w, everywhere) {
		return AskTrips
	}
	if past && pastQuestion(w) && anyIn(w, lengthUnits) {
		return AskStats // "was the Japan trip 10 days or 2 weeks?"
	}
	if !past || !ask {
		return NoAsk
	}
	switch {
	case asksStats(w):
		return AskStats
	case has(w, "where", "onde") && !has(w, "photograph", "photographed", "fotografei", "fotografamos"):
		return AskTrips
	case has(w, "what", "que") && anyIn(w, doneVerbs):
		return AskPhotos
	}
	return NoAsk
}

// thisTime reads "this time", "dessa vez", "desta vez": a trip to come
// set against one that was ("we did Rome last year, this time what
// about Madrid?").
func thisTime(w []string) bool {
	for i, s := range w {
		if s == "time" && at(w, i-1) == "this" || s == "vez" && (at(w, i-1) == "dessa" || at(w, i-1) == "desta" || at(w, i-1) == "essa" || at(w, i-1) == "esta") {
			return true
		}
	}
	return false
}

// pastQuestion reports a question that opens with a past verb: "was
// the trip …", "did we …", "foi …".
func pastQuestion(w []string) bool {
	switch at(w, 0) {
	case "was", "were", "did", "foi", "foram":
		return true
	}
	return false
}

func anyIn(w []string, s map[string]bool) bool {
	for _, x := range w {
		if s[x] {
			return true
		}
	}
	return false
}

// listsTrips reads "list my trips", "quais viagens eu fiz", "what places
// did I visit": the trips themselves, not one of them.
func listsTrips(w []string) bool {
	for i, s := range w {
		if !tripNouns[s] {
			continue
		}
		switch at(w, i-1) {
		case "my", "our", "minhas", "meus", "nossas", "nossos", "which", "what", "quais", "que", "the", "as", "os":
			return true
		}
	}
	return false
}

// asksStats reads how long, how many and when.
func asksStats(w []string) bool {
	for i, s := range w {
		switch s {
		case "year", "ano", "dates", "date", "datas", "data", "days", "dias":
			if p := at(w, i-1); p == "which" || p == "what" || p == "que" || p == "qual" || p == "quais" {
				return true // "which year did I go", "em que ano eu fui"
			}
		case "long", "many", "when", "quando", "quantos", "quantas":
			if s == "long" || s == "many" {
				if at(w, i-1) != "how" {
					continue
				}
			}
			return true
		case "tempo":
			if at(w, i-1) == "quanto" {
				return true
			}
		}
	}
	return false
}

// narrowWords introduce a narrower search: "only the ones with Vivi",
// "agora só as do deserto".
var narrowWords = set(`only just so somente apenas`)

// Narrowing reads a follow-up that narrows the previous photo search and
// returns the new term: "now only the ones with Vivi" → "Vivi", "agora só
// as do deserto" → "deserto".
func Narrowing(text string) (string, bool) {
	ws := textnorm.Words(text)
	for i, w := range ws {
		if !narrowWords[w.Fold] {
			continue
		}
		j := i + 1
		for j < len(ws) && (ones[ws[j].Fold] || determiners[ws[j].Fold]) {
			j++
		}
		if j >= len(ws) || !preps[ws[j].Fold] {
			continue
		}
		if t := termAfter(text, ws, j); t != "" {
			return strings.TrimSpace(t), true
		}
	}
	return "", false
}

var ones = set(`the ones one those photos pictures pics fotos as os aquelas aqueles essas esses`)

// offTopicWords mark questions the trip tools cannot answer: the weather,
// general knowledge, jokes, conversions.
var offTopicWords = set(`weather forecast temperature rain raining snow snowing
sunny clima previsao chover chovendo chuva temperatura capital joke jokes piada
piadas poem poema poesia homework dever licao recipe receita convert converter
conversion conversao exchange cambio cotacao dollar dollars dolar dolares
currency moeda president presidente population populacao meaning sentido
programming programacao language idioma ingles english speak fala falar
safe tap seguranca vaccine vacina visa visto invented inventou discovered
descobriu wrote escreveu won ganhou copa cup math matematica livro novel
movie filme song musica hole buraco universe universo`)

// offTopic reports a question none of the tools can serve.
func offTopic(w []string) bool {
	for i, s := range w {
		switch {
		case offTopicWords[s]:
			return true
		case s == "tempo" && at(w, i-1) == "o" && at(w, i-2) != "quanto":
			return true // "como está o tempo", but not "quanto tempo"
		case s == "time" && at(w, i-1) == "what" && at(w, i+1) == "is":
			return true
		case s == "horas" && at(w, i-1) == "que":
			return true
		case (s == "who" || s == "quem") && i == 0 && at(w, i+1) != "sabe" && at(w, i+1) != "knows":
			return true
		case s == "e" && at(w, i-1) == "que" && at(w, i-2) == "o" && i <= 3:
			return true // "o que é …?"
		case s == "is" && at(w, i-1) == "what" && i <= 2, s == "s" && at(w, i-1) == "what" && i <= 2:
			return true // "what is …?", "what's …?"
		}
	}
	return false
}

// OffTopic reports whether a message asks something none of the trip
// tools can serve (the weather, general knowledge, a joke).
func OffTopic(text string) bool {
	return ReadTalk(text) == Unrelated
}
