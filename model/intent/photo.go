package intent

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// PhotoKind is which album tool a photo request starts with.
type PhotoKind int

// The photo request kinds.
const (
	SearchAll  PhotoKind = iota // searchPhotosAcrossAlbums {query}
	ListAlbums                  // getUserAlbums
	Album                       // getAlbumByName {name}, then an album-scoped tool
	OnDay                       // getUserAlbums, then getPhotosByDate of the album of that day
)

// PhotoRequest is what a photo question asks for.
type PhotoRequest struct {
	Kind  PhotoKind
	Album string // album name, for Album
	Query string // search term: across albums, or a place within the album
	Asked string // the search term as the traveller put it, for replies ("" when Query is)
	Stats bool   // trip statistics rather than photos
}

var (
	preps = set(`from of at in with during on do da de dos das no na em com
durante para pro pra ao a`)
	determiners = set(`my our the a an some all any meu minha meus minhas nosso
nossa nossos nossas o os as umas uns this that esse essa este esta those these`)
	termStops = set(`please pls favor that which que i eu we nos tirei took
taken last ultimo ultima passado passada year ano album albums albuns and e`)
	requestVerbs = set(`show me see find get display mostre mostra mostrar me ver
quero queria gostaria de all todas todos as os my minhas meus our nossas some
any umas algumas look at can you could pode voce i want to cade where onde estao`)
)

// ParsePhoto reads a photo request.
func ParsePhoto(text string) PhotoRequest {
	ws := textnorm.Words(text)
	var r PhotoRequest
	r.Stats = hasStats(ws)
	if name, before, after, ok := albumName(text, ws); ok {
		r.Kind, r.Album = Album, name
		r.Query = albumQuery(text, before, after)
		return r
	}
	if listsAlbums(ws) {
		r.Kind = ListAlbums
		return r
	}
	r.Asked = inCaptions(searchTerm(text, ws))
	r.Query = SearchForm(r.Asked)
	if r.Query == "" {
		r.Kind = ListAlbums
	}
	return r
}

// albumQuery reads a place or term asked for within an album: "in Kyoto"
// after the album's name, or "fotos de Quioto" before it.
func albumQuery(text string, before, after []textnorm.Word) string {
	if len(after) > 0 && preps[after[0].Fold] {
		if t := termAfter(text, after, 0); t != "" {
			return t
		}
	}
	for i, w := range before {
		if photoWords[w.Fold] && i+1 < len(before) && preps[before[i+1].Fold] {
			return termAfter(text, before, i+1)
		}
	}
	return ""
}

func hasStats(ws []textnorm.Word) bool {
	for i, w := range ws {
		if statWords[w.Fold] {
			return true
		}
		if (w.Fold == "many" && wf(ws, i-1) == "how") || w.Fold == "quantas" || w.Fold == "quantos" {
			return true
		}
	}
	return false
}

func wf(ws []textnorm.Word, i int) string {
	if i < 0 || i >= len(ws) {
		return ""
	}
	return ws[i].Fold
}

func listsAlbums(ws []textnorm.Word) bool {
	for _, w := range ws {
		if w.Fold == "albums" || w.Fold == "albuns" {
			return true
		}
	}
	return false
}

// albumName finds a named album: "my Japan album", "álbum Japão", "album
// called X", "stats of my Japan trip", "minha viagem ao Japão". It returns
// the name as written and the words before and after it.
func albumName(text string, ws []textnorm.Word) (string, []textnorm.Word, []textnorm.Word, bool) {
	for i, w := range ws {
		switch w.Fold {
		case "album":
			if s, e := nameBefore(text, ws, i); s < e {
				return span(text, ws[s:e]), ws[:s], ws[i+1:], true
			}
			if s, e := nameAfter(text, ws, i+1); s < e {
				return span(text, ws[s:e]), ws[:i], ws[e:], true
			}
		case "trip", "vacation", "holiday", "holidays":
			// "my Japan trip" names an album; "our anniversary trip to
			// Paris" does not: the place it names does.
			if s, e := nameBefore(text, ws, i); s < e && capitalised(text, ws[s]) {
				return span(text, ws[s:e]), ws[:s], ws[i+1:], true
			}
		case "viagem", "ferias":
			if p := wf(ws, i-1); p == "minha" || p == "nossa" || p == "da" || p == "na" || p == "das" || p == "nas" || p == "a" && requestBefore(ws, i-1) {
				if s, e := nameAfter(text, ws, i+1); s < e {
					return span(text, ws[s:e]), ws[:i], ws[e:], true
				}
			}
		}
	}
	return "", nil, nil, false
}

// requestBefore reports a request verb just before ws[i]: "me mostra a
// viagem do Porto".
func requestBefore(ws []textnorm.Word, i int) bool {
	switch wf(ws, i-1) {
	case "mostra", "mostre", "mostrar", "ver", "show", "abre", "abrir":
		return true
	}
	return false
}

// nameBefore reads "my <name> album": up to five words after a
// determiner and before ws[i]. A name of several words is taken whole,
// its joining words too ("Rio de Janeiro", "Porto e Douro", "Paris em
// família"): a joining word counts inside a name when it follows a
// capitalised word.
func nameBefore(text string, ws []textnorm.Word, i int) (int, int) {
	for s := i - 1; s >= 0 && s >= i-6; s-- {
		f := ws[s].Fold
		if f == "my" || f == "our" || f == "the" || f == "meu" || f == "nosso" {
			if s+1 < i && !photoWords[ws[s+1].Fold] && !nameJoins[ws[s+1].Fold] {
				return s + 1, i
			}
			return 0, 0
		}
		if nameJoins[f] && s > 0 && s+1 < i && capitalised(text, ws[s-1]) {
			continue
		}
		if photoWords[f] || preps[f] || termStops[f] {
			return 0, 0
		}
	}
	return 0, 0
}

// nameJoins join the words of a place's or an album's name.
var nameJoins = set(`de do da dos das e em of del di`)

// capitalised reports whether a word is written with a capital letter.
func capitalised(text string, w textnorm.Word) bool {
	r, _ := utf8.DecodeRuneInString(text[w.Start:w.End])
	return unicode.IsUpper(r)
}

// nameAfter reads "álbum (do|called|chamado) <name>" from ws[i]: up to
// three words, stopping at a preposition or the end. A joining word
// between two capitalised words is part of the name ("álbum Porto e
// Douro", "álbum Rio de Janeiro"); "álbum Japão em Quioto" is the album
// Japão.
func nameAfter(text string, ws []textnorm.Word, i int) (int, int) {
	for i < len(ws) && (preps[ws[i].Fold] || determiners[ws[i].Fold] || ws[i].Fold == "called" || ws[i].Fold == "named" || ws[i].Fold == "chamado") {
		i++
	}
	e, words := i, 0
	for e < len(ws) && words < 3 {
		if e > i && e+1 < len(ws) && innerJoins[ws[e].Fold] && capitalised(text, ws[e-1]) && capitalised(text, ws[e+1]) {
			e++
			continue
		}
		if preps[ws[e].Fold] || termStops[ws[e].Fold] || photoWords[ws[e].Fold] {
			break
		}
		e, words = e+1, words+1
	}
	return i, e
}

// innerJoins join two capitalised words of a name after "álbum".
var innerJoins = set(`de do da dos das e`)

// searchTerm reads what to look for in photos: the words after "photos
// of/from/da" ("fotos do aniversário da Vivi" → "aniversário da Vivi"),
// else the words before the photo word ("beach photos" → "beach").
func searchTerm(text string, ws []textnorm.Word) string {
	for i, w := range ws {
		if !photoWords[w.Fold] {
			continue
		}
		if t := termAfter(text, ws, i+1); t != "" {
			return t
		}
		if t := termBefore(text, ws, i); t != "" {
			return t
		}
	}
	if len(ws) > 0 && !photoWords[ws[0].Fold] {
		return termAfter(text, ws, 0)
	}
	return ""
}

func termAfter(text string, ws []textnorm.Word, i int) string {
	for i < len(ws) && (preps[ws[i].Fold] || determiners[ws[i].Fold]) {
		i++
	}
	e := i
	for e < len(ws) && !termStops[ws[e].Fold] && !photoWords[ws[e].Fold] && !(ws[e].Fold == "por" && wf(ws, e+1) == "favor") {
		if e > i && breaks(text, ws[e-1], ws[e]) {
			break
		}
		e++
	}
	for e > i && (preps[ws[e-1].Fold] || determiners[ws[e-1].Fold]) {
		e--
	}
	if e == i {
		return ""
	}
	return span(text, ws[i:e])
}

func termBefore(text string, ws []textnorm.Word, i int) string {
	s := i
	for s > 0 && !requestVerbs[ws[s-1].Fold] && !preps[ws[s-1].Fold] && !breaks(text, ws[s-1], ws[s]) {
		s--
	}
	if s == i {
		return ""
	}
	return span(text, ws[s:i])
}

// breaks reports whether punctuation separates two words.
func breaks(text string, a, b textnorm.Word) bool {
	return strings.ContainsAny(text[a.End:b.Start], ",.;:!?()\n")
}

func span(text string, ws []textnorm.Word) string {
	return text[ws[0].Start:ws[len(ws)-1].End]
}

// Besides is what a search term asks for besides a place it names:
// "beach in Lisbon" less "Lisbon" is "beach"; the place alone leaves "".
func Besides(term, place string) string {
	ws := textnorm.Words(term)
	p := textnorm.Words(place)
	for i := 0; i+len(p) <= len(ws); i++ {
		same := true
		for j := range p {
			same = same && ws[i+j].Fold == p[j].Fold
		}
		if !same {
			continue
		}
		return strings.TrimSpace(joinSpans(term, trimLinks(ws[:i]), trimLinks(ws[i+len(p):])))
	}
	return term
}

// trimLinks drops prepositions and determiners at either end of words.
func trimLinks(ws []textnorm.Word) []textnorm.Word {
	link := func(w textnorm.Word) bool { return preps[w.Fold] || determiners[w.Fold] }
	for len(ws) > 0 && link(ws[len(ws)-1]) {
		ws = ws[:len(ws)-1]
	}
	for len(ws) > 0 && link(ws[0]) {
		ws = ws[1:]
	}
	return ws
}

// joinSpans writes the text of two runs of words, a space between.
func joinSpans(text string, a, b []textnorm.Word) string {
	out := ""
	for _, ws := range [][]textnorm.Word{a, b} {
		if len(ws) > 0 {
			out += " " + span(text, ws)
		}
	}
	return out
}

// eventsPT are English event words in the form the albums' captions,
// mostly Portuguese, use.
var eventsPT = map[string]string{"birthday": "aniversário", "wedding": "casamento", "graduation": "formatura"}

// inCaptions writes an English "<name>'s <event>" the Portuguese way the
// captions do: "Vivi's birthday" → "aniversário da Vivi", so that both
// languages search the same thing. The "da" is a guess at the person's
// gender: Portuguese says "do" for a man.
func inCaptions(term string) string {
	ws := textnorm.Words(term)
	if len(ws) != 3 || ws[1].Fold != "s" || !strings.HasPrefix(term[ws[0].End:], "'") && !strings.HasPrefix(term[ws[0].End:], "’") {
		return term
	}
	ev, ok := eventsPT[ws[2].Fold]
	if !ok {
		return term
	}
	return ev + " da " + term[ws[0].Start:ws[0].End]
}

// captionWordsPT are English words for what travellers photograph, in the
// Portuguese the albums' captions mostly use.
var captionWordsPT = map[string]string{
	"beach": "praia", "beaches": "praia", "penguin": "pinguim", "penguins": "pinguim", "mountain": "montanha",
	"mountains": "montanha", "waterfall": "cachoeira", "waterfalls": "cachoeira", "cake": "bolo", "cakes": "bolo",
	"snow": "neve", "boat": "barco", "boats": "barco", "sea": "mar", "lake": "lago", "lakes": "lago",
	"castle": "castelo", "castles": "castelo", "church": "igreja", "churches": "igreja", "museum": "museu",
	"museums": "museu", "wine": "vinho", "forest": "floresta", "river": "rio", "bridge": "ponte", "bridges": "ponte",
	"market": "mercado", "markets": "mercado", "dog": "cachorro", "dogs": "cachorro", "cat": "gato", "cats": "gato",
	"flower": "flor", "flowers": "flor", "bird": "passaro", "birds": "passaro", "whale": "baleia", "whales": "baleia",
	"turtle": "tartaruga", "turtles": "tartaruga", "monkey": "macaco", "monkeys": "macaco", "dolphin": "golfinho",
	"dolphins": "golfinho", "desert": "deserto", "garden": "jardim", "gardens": "jardim", "island": "ilha",
	"islands": "ilha", "dunes": "duna", "dune": "duna", "pool": "piscina", "lighthouse": "farol", "square": "praca",
	"street": "rua", "streets": "rua", "party": "festa", "dinner": "jantar", "lunch": "almoco", "breakfast": "cafe",
	"food": "comida", "sunrise": "nascer do sol", "fireworks": "fogos",
}

// SearchForm is the term to search photos with for what the traveller
// asked: English words for what is photographed in the Portuguese of the
// captions ("penguins" → "pinguim"), and each word cut to what its
// singular and plural share, so that the search, which matches at the
// start of a word, finds both ("pinguim" and "pinguins" → "pingui",
// "praias" → "praia", "flores" → "flor"). Names (capitalised words) are
// left as written.
func SearchForm(term string) string {
	ws := textnorm.Words(term)
	if len(ws) == 0 {
		return term
	}
	// Translated only when every word but names and links is known:
	// "birthday cake" stays English rather than half Portuguese.
	translate := true
	for _, w := range ws {
		_, known := captionWordsPT[w.Fold]
		translate = translate && (known || w.Cap || preps[w.Fold] || determiners[w.Fold])
	}
	var b strings.Builder
	last := 0
	for _, w := range ws {
		b.WriteString(term[last:w.Start])
		last = w.End
		if w.Cap {
			b.WriteString(w.Raw)
			continue
		}
		word := w.Raw
		if pt, ok := captionWordsPT[w.Fold]; ok && translate {
			word = pt
		}
		b.WriteString(stem(word))
	}
	b.WriteString(term[last:])
	return b.String()
}

// stem cuts a word to what its singular and plural forms share, in
// Portuguese and English: "pinguins", "pinguim" → "pingui"; "praias" →
// "praia"; "flores" → "flor"; "beaches" → "beach"; "animais" → "anima".
// Short words, and words of several (nascer do sol), are left alone.
func stem(w string) string {
	f := textnorm.Fold(w)
	if len(f) < 5 || f != strings.ToLower(w) && len(f) != len(w) {
		return w // accented words keep their accents: cut only plain ones
	}
	switch {
	case strings.HasSuffix(f, "ns"):
		return w[:len(w)-2]
	case strings.HasSuffix(f, "m") && !strings.HasSuffix(f, "um"):
		return w[:len(w)-1]
	case strings.HasSuffix(f, "ais"):
		return w[:len(w)-2]
	case strings.HasSuffix(f, "ches") || strings.HasSuffix(f, "shes") || strings.HasSuffix(f, "res") || strings.HasSuffix(f, "zes") || strings.HasSuffix(f, "ses"):
		return w[:len(w)-2]
	case strings.HasSuffix(f, "s") && !strings.HasSuffix(f, "ss"):
		return w[:len(w)-1]
	}
	return w
}

// subjectJoins join who was photographed to where: "Vivi no Farol da
// Barra", "Leo at the lighthouse".
var subjectJoins = set(`no na em at in on`)

// SplitSubject splits a search term for someone at a place ("vivi no
// farol da barra", "Leo at Table Mountain") into who and where. The one
// is a single word, the other one to four.
func SplitSubject(term string) (who, where string, ok bool) {
	ws := textnorm.Words(term)
	if len(ws) < 3 || len(ws) > 6 || !subjectJoins[ws[1].Fold] || preps[ws[0].Fold] || determiners[ws[0].Fold] {
		return "", "", false
	}
	rest := ws[2:]
	for len(rest) > 0 && determiners[rest[0].Fold] {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return "", "", false
	}
	return ws[0].Raw, span(term, rest), true
}
