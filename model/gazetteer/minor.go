package gazetteer

import "github.com/tripgraph/tripgraph/model/internal/textnorm"

// Small towns. The gazetteer holds every populated place of 1,000
// inhabitants or more, so most words of a sentence name a village
// somewhere ("Maria", "Start", "Bonus"). A town under minorPop that is
// not a known destination is taken only where a traveller would name it:
// after a word that introduces a place ("in", "em", "pra"), capitalised
// away from the start of a sentence or before what follows a destination,
// or starting a message before a month or a length ("cunha em julho"),
// and only in a message about travel (a word of travel, a month, a
// number of nights). A town named like a common word ("Praia", "Vale")
// needs both a capital and a word introducing it.

// minorPop is the population under which a town counts as small.
const minorPop = 15_000

// minor reports a small town that is no known destination.
func (x *index) minor(i int32) bool {
	return x.places.population(i) < minorPop && !x.famous(i)
}

// acceptMinor decides whether words[i:i+n] name the small town c here.
func (x *index) acceptMinor(text string, words []word, i, n int, c int32) bool {
	ctx := i > 0 && placeWords[words[i-1].Fold]
	capital := words[i].Cap
	if x.places.city(c).Word && n == 1 {
		return ctx && capital && travelCue(words)
	}
	if !ctx && !capital && !(sentenceStart(text, words, i) && tripFollows(words, i+n)) {
		return false // "cunha em julho" starts a request; "cunha" elsewhere is a word
	}
	if !ctx && sentenceStart(text, words, i) && !placeFollows(text, words, i+n) {
		return false
	}
	return travelCue(words)
}

// travelCues are words that make a message one about travel.
var travelCues = wordSet(`trip trips travel traveling travelling travelled traveled viagem viagens viajar viajando
hotel hotels hostel hostels pousada pousadas airbnb resort inn stay staying ficar hospedagem hospedar
nights noites weekend weekends fds feriado feriadao
holiday holidays vacation vacations ferias honeymoon lua mel getaway escapada
fly flying flight flights voo voos go going vou ir indo vamos head heading
visit visiting visitar conhecer passear passar tour tours roteiro itinerary
beach praia praias ski skiing esquiar hike hiking trilha trek trekking
restaurant restaurants restaurante restaurantes eat comer
january february march april may june july august september october november december
janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro
summer winter spring autumn verao inverno primavera outono natal christmas carnaval
people pessoas adults adultos guests hospedes casal couple ppl pax
jan feb mar apr jun jul aug sep sept oct nov dec fev abr mai ago dez`)

// travelCue reports a message about travel.
func travelCue(words []word) bool {
	for _, w := range words {
		if travelCues[w.Fold] {
			return true
		}
	}
	return false
}

// AboutTravel reports a message with a word of travel in it ("trip",
// "hotel", "nights", "pra", a month…).
func AboutTravel(text string) bool {
	return travelCue(textnorm.Words(text))
}
