package offline

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tripgraph/tripgraph/locale"

	"github.com/tripgraph/tripgraph/model/intent"
	"github.com/tripgraph/tripgraph/model/internal/textnorm"

	"github.com/tmc/langchaingo/llms"
)

func textChoice(text string) *llms.ContentChoice {
	return &llms.ContentChoice{Content: text, StopReason: "stop"}
}

// say picks the English or Portuguese text.
func say(lang, en, pt string) string {
	if lang == locale.Portuguese {
		return pt
	}
	return en
}

func summariseTrip(c conversation, e Extraction, want []string, stops []TripDetails) string {
	var parts []string
	for _, td := range stops {
		for _, name := range want {
			res, ok := c.resultOf(name, tripArgs(name, td, e), len(stops) == 1)
			if !ok {
				continue
			}
			// Both catalog tools say the same of a city they do not cover: say it once.
			if part := summariseList(c, e, td, name, parseResult(res)); !slices.Contains(parts, part) {
				parts = append(parts, part)
			}
		}
	}
	if len(e.Wishes) > 0 && slices.Contains(want, toolAccommodations) && len(parts) > 0 {
		parts = append(parts, unfiltered(e))
	}
	return strings.Join(parts, " ")
}

// wishNames name each wish the catalog cannot filter by, in English and
// Portuguese.
var wishNames = map[string][2]string{
	"pool": {"a pool", "piscina"}, "pets": {"pets", "aceitar animais (pets)"}, "kitchen": {"a kitchen", "cozinha"},
	"parking": {"parking", "estacionamento"}, "beach": {"being near the beach", "ficar perto da praia"},
	"breakfast": {"breakfast", "café da manhã"}, "wifi": {"Wi-Fi", "Wi-Fi"}, "gym": {"a gym", "academia"},
	"spa": {"a spa", "spa"}, "accessible": {"accessibility", "acessibilidade"},
}

// unfiltered says honestly which wishes the search could not filter by.
func unfiltered(e Extraction) string {
	var names []string
	for _, w := range e.Wishes {
		n := wishNames[w]
		names = append(names, say(e.Language, n[0], n[1]))
	}
	return say(e.Language,
		"I can't filter places to stay by "+andList(names, locale.English)+", so please check each place's details.",
		"Não consigo filtrar hospedagens por "+andList(names, locale.Portuguese)+"; confira os detalhes de cada lugar.")
}

// andList joins names with commas and a last "and" ("e").
func andList(names []string, lang string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + say(lang, " and ", " e ") + names[len(names)-1]
}

// capPhrase says a price cap: "up to €120 a night", "até R$ 400 no total".
func capPhrase(c intent.PriceCap, lang string) string {
	amount := money(c.Amount, c.Currency)
	if c.Total {
		return say(lang, "up to "+amount+" in total", "até "+amount+" no total")
	}
	return say(lang, "up to "+amount+" a night", "até "+amount+" por noite")
}

// money writes an amount with its currency's sign, or its code.
func money(v float64, code string) string {
	n := strconv.FormatFloat(v, 'f', -1, 64)
	switch code {
	case "EUR":
		return "€" + n
	case "USD":
		return "$" + n
	case "GBP":
		return "£" + n
	case "BRL":
		return "R$ " + n
	case "JPY":
		return "¥" + n
	case "":
		return n
	}
	return n + " " + code
}

func summariseList(c conversation, e Extraction, td TripDetails, name string, p parsed) string {
	td.Location = placeName(td.Location, e.Language)
	in := say(e.Language, "in "+td.Location, inPT(td.Location))
	if p.err != "" {
		return failed(e.Language, p)
	}
	if covered, ok := p.object["covered"].(bool); ok && !covered {
		return notCovered(e.Language, td.Location, p)
	}
	if name == toolRestaurants {
		return summariseRestaurants(c, e, in, p)
	}
	if p.total == 0 {
		if msg := str(p.object["message"]); e.PriceCap.Amount > 0 && strings.Contains(msg, "price cap") {
			return overCap(e, in, msg)
		}
		if n := td.NumberOfGuests; strings.Contains(str(p.object["message"]), "guests") || strings.Contains(str(p.object["message"]), "holds") {
			return say(e.Language,
				fmt.Sprintf("No place to stay %s holds a group of %d. Would smaller groups in separate places work?", in, n),
				fmt.Sprintf("Nenhuma hospedagem %s acomoda um grupo de %d pessoas. Vocês poderiam se dividir em mais de um lugar?", in, n))
		}
		return say(e.Language, "I couldn't find places to stay "+in+" for those dates.", "Não encontrei hospedagem "+in+" para essas datas.")
	}
	g := td.NumberOfGuests
	capped := ""
	if e.PriceCap.Amount > 0 {
		capped = ", " + capPhrase(e.PriceCap, e.Language)
	}
	found := say(e.Language,
		fmt.Sprintf("Found %d %s %s for %d %s, %s%s.", p.total, plural(p.total, "place to stay", "places to stay"), in, g, plural(g, "guest", "guests"), dateSpan(td, locale.English), capped),
		fmt.Sprintf("Encontrei %d %s de hospedagem %s para %d %s, %s%s.", p.total, plural(p.total, "opção", "opções"), in, g, plural(g, "hóspede", "hóspedes"), dateSpan(td, locale.Portuguese), capped))
	if more := stayChoice(e, p.list); more != "" {
		return found + " " + more
	}
	return found
}

// summariseRestaurants names what was found; when nothing of the cuisine
// asked for was, it says so and which cuisines there are.
func summariseRestaurants(c conversation, e Extraction, in string, p parsed) string {
	if kinds := texts(p.object["cuisines"]); e.Cuisine != "" && p.total == 0 && len(kinds) > 0 {
		return noneOfCuisine(e, in, kinds)
	}
	if e.Cuisine != "" && c.restaurantCalls() > 1 {
		kinds := cuisinesOf(p.list, 5)
		if len(kinds) == 0 {
			return say(e.Language, "I couldn't find restaurants "+in+" this time.", "Não encontrei restaurantes "+in+" desta vez.")
		}
		return noneOfCuisine(e, in, kinds)
	}
	if p.total == 0 {
		return say(e.Language, "I couldn't find restaurants "+in+" this time.", "Não encontrei restaurantes "+in+" desta vez.")
	}
	return say(e.Language,
		fmt.Sprintf("Found %d %s %s.", p.total, plural(p.total, "restaurant", "restaurants"), in),
		fmt.Sprintf("Encontrei %d %s %s.", p.total, plural(p.total, "restaurante", "restaurantes"), in))
}

// cuisinesOf lists up to n distinct cuisines of a restaurant list.
func cuisinesOf(list []any, n int) []string {
	var out []string
	seen := map[string]bool{}
	for _, it := range list {
		obj, _ := it.(map[string]any)
		k := str(obj["cuisine"])
		if k == "" || seen[strings.ToLower(k)] {
			continue
		}
		seen[strings.ToLower(k)] = true
		out = append(out, k)
		if len(out) == n {
			break
		}
	}
	return out
}

// articled are Portuguese place names said with an article: "no Rio",
// "no Porto", "na Cidade do Cabo".
var articled = map[string]string{
	"rio de janeiro": "no", "rio": "no", "porto": "no", "cairo": "no", "o cairo": "no",
	"cidade do cabo": "na", "cidade do mexico": "na", "cidade do panama": "na", "haia": "na",
	"cidade de quebec": "na",
}

// inPT is "em Lisboa", "no Rio de Janeiro", "na Cidade do Cabo".
func inPT(place string) string {
	if p, ok := articled[strings.ToLower(textnorm.Fold(place))]; ok {
		return p + " " + place
	}
	return "em " + place
}

// tripOf is the trip the Trip details line gives, else the one the
// conversation tells.
func tripOf(c conversation, e Extraction) TripDetails {
	if c.trip != nil {
		return *c.trip
	}
	td := TripDetails{Location: e.Location, Country: e.Country, StartDate: isoDate(e.Dates.Start), EndDate: isoDate(e.Dates.End), NumberOfGuests: e.Guests}
	for _, l := range e.Legs {
		td.Legs = append(td.Legs, TripLeg{Location: l.Location, Country: l.Country, StartDate: isoDate(l.Start), EndDate: isoDate(l.End)})
	}
	return td
}

var ptMonths = [...]string{"", "janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"}

// dateSpan writes "May 3–7" or "de 3 a 7 de maio".
func dateSpan(td TripDetails, lang string) string {
	s, err1 := time.Parse("2006-01-02", td.StartDate)
	e, err2 := time.Parse("2006-01-02", td.EndDate)
	if err1 != nil || err2 != nil {
		return say(lang, "on your dates", "nas suas datas")
	}
	if lang == locale.Portuguese {
		if s.Month() == e.Month() {
			return fmt.Sprintf("de %d a %d de %s", s.Day(), e.Day(), ptMonths[s.Month()])
		}
		return fmt.Sprintf("de %d de %s a %d de %s", s.Day(), ptMonths[s.Month()], e.Day(), ptMonths[e.Month()])
	}
	if s.Month() == e.Month() {
		return fmt.Sprintf("%s %d–%d", s.Month(), s.Day(), e.Day())
	}
	return fmt.Sprintf("%s %d – %s %d", s.Month(), s.Day(), e.Month(), e.Day())
}

func failed(lang string, p parsed) string {
	if p.code == "NOT_FOUND" {
		return say(lang, "Sorry, I couldn't find that. ", "Desculpe, não encontrei isso. ") + p.err
	}
	return say(lang, "Sorry, something went wrong while looking that up. Please try again in a moment.",
		"Desculpe, algo deu errado na busca. Tente de novo daqui a pouco.")
}

func summarisePhotoSearch(e Extraction, res string) string {
	p := parseResult(res)
	q := cmp.Or(e.Photo.Asked, e.Photo.Query)
	switch {
	case p.err != "":
		return failed(e.Language, p)
	case p.total == 0:
		return say(e.Language, fmt.Sprintf("I couldn't find any photos of “%s”.", q), fmt.Sprintf("Não encontrei fotos de “%s”.", q))
	}
	text := say(e.Language,
		fmt.Sprintf("Found %d %s of “%s”", p.total, plural(p.total, "photo", "photos"), q),
		fmt.Sprintf("Encontrei %d %s de “%s”", p.total, plural(p.total, "foto", "fotos"), q))
	// Only the whole list says how many albums the photos come from; a
	// preview's first few may all come from one.
	if len(p.list) >= p.total {
		albums := max(1, distinctAlbums(p.list))
		text += say(e.Language, fmt.Sprintf(" in %d %s", albums, plural(albums, "album", "albums")),
			fmt.Sprintf(" em %d %s", albums, plural(albums, "álbum", "álbuns")))
	}
	text += "."
	if e.Within != "" && !p.cut { // a cut list is not the photos shown
		n := matching(p.list, e.Within)
		text += say(e.Language,
			fmt.Sprintf(" Of those shown, %d also %s “%s”.", n, plural(n, "matches", "match"), e.Within),
			fmt.Sprintf(" Das que aparecem, %d também %s com “%s”.", n, plural(n, "combina", "combinam"), e.Within))
	}
	return text
}

// matching counts the photos of a list whose description or place
// contains term, ignoring case and accents.
func matching(list []any, term string) int {
	t := textnorm.Fold(term)
	n := 0
	for _, it := range list {
		obj, _ := it.(map[string]any)
		if strings.Contains(textnorm.Fold(str(obj["description"])+" "+str(obj["locationName"])), t) {
			n++
		}
	}
	return n
}

func summariseAlbums(e Extraction, res string) string {
	p := parseResult(res)
	switch {
	case p.err != "":
		return failed(e.Language, p)
	case p.total == 0:
		return say(e.Language, "You don't have any albums yet.", "Você ainda não tem álbuns.")
	}
	if y := e.PhotoYear; y > 0 {
		return summariseYear(e, p, y)
	}
	named := names(p.list, 5)
	list := strings.Join(named, ", ")
	if more := p.total - len(named); more > 0 {
		list += say(e.Language, fmt.Sprintf(" and %d more", more), fmt.Sprintf(" e mais %d", more))
	}
	return say(e.Language,
		fmt.Sprintf("You have %d %s: %s.", p.total, plural(p.total, "album", "albums"), list),
		fmt.Sprintf("Você tem %d %s: %s.", p.total, plural(p.total, "álbum", "álbuns"), list))
}

// summariseYear names the albums of trips in one year.
func summariseYear(e Extraction, p parsed, y int) string {
	var in []any
	for _, it := range p.list {
		obj, _ := it.(map[string]any)
		if strings.HasPrefix(str(obj["startDate"]), fmt.Sprint(y)) || strings.HasPrefix(str(obj["endDate"]), fmt.Sprint(y)) {
			in = append(in, it)
		}
	}
	if len(in) == 0 {
		return say(e.Language,
			fmt.Sprintf("I found no album of a trip in %d. You have %d %s.", y, p.total, plural(p.total, "album", "albums")),
			fmt.Sprintf("Não encontrei nenhum álbum de viagem em %d. Você tem %d %s.", y, p.total, plural(p.total, "álbum", "álbuns")))
	}
	list := strings.Join(names(in, len(in)), ", ")
	text := say(e.Language,
		fmt.Sprintf("In %d you have %d %s: %s.", y, len(in), plural(len(in), "trip album", "trip albums"), list),
		fmt.Sprintf("Em %d você tem %d %s: %s.", y, len(in), plural(len(in), "álbum de viagem", "álbuns de viagem"), list))
	if p.total > len(in) {
		// The album tool has no filter by year: the list shown is every album.
		text += say(e.Language,
			fmt.Sprintf(" The list shows all %d of your albums.", p.total),
			fmt.Sprintf(" A lista mostra todos os seus %d álbuns.", p.total))
	}
	return text
}

func albumNotFound(e Extraction, res string) string {
	p := parseResult(res)
	if p.err != "" && p.code != "NOT_FOUND" {
		return failed(e.Language, p)
	}
	n := e.Photo.Album
	return say(e.Language,
		fmt.Sprintf("I couldn't find an album called “%s”. Ask me “which albums do I have?” to see them all.", n),
		fmt.Sprintf("Não encontrei um álbum chamado “%s”. Pergunte “quais álbuns eu tenho?” para ver todos.", n))
}

func summariseAlbum(e Extraction, a album, tool, res string) string {
	p := parseResult(res)
	switch {
	case res == "":
		return say(e.Language, "I found the album “"+a.Name+"”.", "Encontrei o álbum “"+a.Name+"”.")
	case p.err != "":
		return failed(e.Language, p)
	case tool == toolTripStats:
		return summariseStats(e, a, p)
	case p.total == 0:
		return say(e.Language, "No photos matched in “"+a.Name+"”.", "Nenhuma foto encontrada em “"+a.Name+"”.")
	}
	if q := e.Photo.Query; tool == toolPhotosByPlace && q != "" {
		return say(e.Language,
			fmt.Sprintf("%s %d %s of “%s” in “%s”.", plural(p.total, "Here is", "Here are"), p.total, plural(p.total, "photo", "photos"), q, a.Name),
			fmt.Sprintf("%s %d %s de “%s” em “%s”.", plural(p.total, "Aqui está", "Aqui estão"), p.total, plural(p.total, "foto", "fotos"), q, a.Name))
	}
	text := say(e.Language,
		fmt.Sprintf("%s %d %s from “%s”", plural(p.total, "Here is", "Here are"), p.total, plural(p.total, "photo", "photos"), a.Name),
		fmt.Sprintf("%s %d %s de “%s”", plural(p.total, "Aqui está", "Aqui estão"), p.total, plural(p.total, "foto", "fotos"), a.Name))
	if tool == toolPhotosByDate {
		text += say(e.Language, ", taken on "+dayName(e.PhotoDay, locale.English), ", tiradas em "+dayName(e.PhotoDay, locale.Portuguese))
	}
	return text + "."
}

// dayName writes "February 13, 2025" or "13 de fevereiro de 2025".
func dayName(d time.Time, lang string) string {
	if lang == locale.Portuguese {
		return fmt.Sprintf("%d de %s de %d", d.Day(), ptMonths[d.Month()], d.Year())
	}
	return d.Format("January 2, 2006")
}

func summariseStats(e Extraction, a album, p parsed) string {
	obj := p.object
	if s, ok := obj["stats"].(map[string]any); ok {
		obj = s
	}
	photos, _ := number(obj, "totalPhotos", "photoCount", "photos", "total")
	places, hasPlaces := number(obj, "totalLocations", "locationCount", "locations", "uniqueLocations", "places")
	text := say(e.Language,
		fmt.Sprintf("“%s” has %d %s", a.Name, photos, plural(photos, "photo", "photos")),
		fmt.Sprintf("“%s” tem %d %s", a.Name, photos, plural(photos, "foto", "fotos")))
	if hasPlaces {
		text += say(e.Language, fmt.Sprintf(" from %d %s", places, plural(places, "place", "places")),
			fmt.Sprintf(" em %d %s", places, plural(places, "lugar", "lugares")))
	}
	start, end := str(obj["startDate"]), str(obj["endDate"])
	if start != "" && end != "" {
		td := TripDetails{StartDate: start, EndDate: end}
		days, _ := number(obj, "days")
		text += say(e.Language, ", taken "+dateSpan(td, locale.English), ", tiradas "+dateSpan(td, locale.Portuguese))
		if days > 0 {
			text += say(e.Language, fmt.Sprintf(" (%d %s)", days, plural(days, "day", "days")), fmt.Sprintf(" (%d %s)", days, plural(days, "dia", "dias")))
		}
	}
	return text + "."
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// texts reads a list of strings, or of records' names.
func texts(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, it := range l {
		if s := str(it); s != "" {
			out = append(out, s)
		} else if obj, ok := it.(map[string]any); ok && str(obj["name"]) != "" {
			out = append(out, str(obj["name"]))
		}
	}
	return out
}

// notCovered says the catalog does not cover the city and names the
// nearest covered ones, from the result's nearby list (else its message).
func notCovered(lang, city string, p parsed) string {
	near := strings.Join(texts(p.object["nearby"]), ", ")
	if near == "" {
		return say(lang,
			fmt.Sprintf("tripgraph's catalog doesn't cover %s yet.", city),
			fmt.Sprintf("O catálogo do tripgraph ainda não cobre %s.", city))
	}
	return say(lang,
		fmt.Sprintf("tripgraph's catalog doesn't cover %s yet. The nearest cities it covers are %s.", city, near),
		fmt.Sprintf("O catálogo do tripgraph ainda não cobre %s. As cidades mais próximas que ele cobre são %s.", city, near))
}

// noAlbumOn says that no album holds the day asked for.
func noAlbumOn(e Extraction, res string) string {
	p := parseResult(res)
	if p.err != "" {
		return failed(e.Language, p)
	}
	en, pt := dayName(e.PhotoDay, locale.English), dayName(e.PhotoDay, locale.Portuguese)
	if p.total == 1 {
		return say(e.Language, "Your album has no photos from "+en+".", "Seu álbum não tem fotos de "+pt+".")
	}
	return say(e.Language,
		fmt.Sprintf("None of your %d albums has photos from %s.", p.total, en),
		fmt.Sprintf("Nenhum dos seus %d álbuns tem fotos de %s.", p.total, pt))
}

// noneOfCuisine says no restaurant serves the cuisine asked for, and
// which cuisines there are, named in the reply's language.
func noneOfCuisine(e Extraction, in string, kinds []string) string {
	if e.Language != locale.Portuguese {
		return fmt.Sprintf("I found no %s restaurants %s. There are %s ones.", e.Cuisine, in, strings.Join(kinds, ", "))
	}
	pt := make([]string, len(kinds))
	for i, k := range kinds {
		pt[i] = intent.CuisineName(k, locale.Portuguese)
	}
	return fmt.Sprintf("Não encontrei restaurantes de cozinha %s %s. Há restaurantes destas cozinhas: %s.",
		intent.CuisineName(e.Cuisine, locale.Portuguese), in, strings.Join(pt, ", "))
}
