package offline

import (
	"fmt"
	"strings"
	"time"

	"github.com/tmc/langchaingo/llms"
)

func textChoice(text string) *llms.ContentChoice {
	return &llms.ContentChoice{Content: text, StopReason: "stop"}
}

// say picks the English or Portuguese text.
func say(lang, en, pt string) string {
	if lang == "pt" {
		return pt
	}
	return en
}

func summariseTrip(c conversation, e Extraction, want []string) string {
	var parts []string
	for _, name := range want {
		res, ok := c.results[name]
		if !ok {
			continue
		}
		parts = append(parts, summariseList(c, e, name, parseResult(res)))
	}
	return strings.Join(parts, " ")
}

func summariseList(c conversation, e Extraction, name string, p parsed) string {
	td := tripOf(c, e)
	td.Location = placeName(c, td.Location, e.Language)
	if p.err != "" {
		return failed(e.Language, p)
	}
	if name == toolRestaurants {
		if p.total == 0 {
			return say(e.Language, "I couldn't find restaurants in "+td.Location+" this time.", "Não encontrei restaurantes em "+td.Location+" desta vez.")
		}
		return say(e.Language,
			fmt.Sprintf("Found %d restaurants in %s.", p.total, td.Location),
			fmt.Sprintf("Encontrei %d restaurantes em %s.", p.total, td.Location))
	}
	if p.total == 0 {
		return say(e.Language, "I couldn't find places to stay in "+td.Location+" for those dates.", "Não encontrei hospedagem em "+td.Location+" para essas datas.")
	}
	return say(e.Language,
		fmt.Sprintf("Found %d places to stay in %s for %d guests, %s.", p.total, td.Location, td.NumberOfGuests, dateSpan(td, "en")),
		fmt.Sprintf("Encontrei %d opções de hospedagem em %s para %d hóspedes, %s.", p.total, td.Location, td.NumberOfGuests, dateSpan(td, "pt")))
}

func tripOf(c conversation, e Extraction) TripDetails {
	if c.trip != nil {
		return *c.trip
	}
	return TripDetails{Location: e.Location, StartDate: isoDate(e.Dates.Start), EndDate: isoDate(e.Dates.End), NumberOfGuests: e.Guests}
}

var ptMonths = [...]string{"", "janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"}

// dateSpan writes "May 3–7" or "de 3 a 7 de maio".
func dateSpan(td TripDetails, lang string) string {
	s, err1 := time.Parse("2006-01-02", td.StartDate)
	e, err2 := time.Parse("2006-01-02", td.EndDate)
	if err1 != nil || err2 != nil {
		return say(lang, "on your dates", "nas suas datas")
	}
	if lang == "pt" {
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
	q := e.Photo.Query
	switch {
	case p.err != "":
		return failed(e.Language, p)
	case p.total == 0:
		return say(e.Language, fmt.Sprintf("I couldn't find any photos of “%s”.", q), fmt.Sprintf("Não encontrei fotos de “%s”.", q))
	}
	albums := max(1, distinctAlbums(p.list))
	return say(e.Language,
		fmt.Sprintf("Found %d %s of “%s” in %d %s.", p.total, plural(p.total, "photo", "photos"), q, albums, plural(albums, "album", "albums")),
		fmt.Sprintf("Encontrei %d %s de “%s” em %d %s.", p.total, plural(p.total, "foto", "fotos"), q, albums, plural(albums, "álbum", "álbuns")))
}

func summariseAlbums(e Extraction, res string) string {
	p := parseResult(res)
	switch {
	case p.err != "":
		return failed(e.Language, p)
	case p.total == 0:
		return say(e.Language, "You don't have any albums yet.", "Você ainda não tem álbuns.")
	}
	list := strings.Join(names(p.list, 5), ", ")
	return say(e.Language,
		fmt.Sprintf("You have %d %s: %s.", p.total, plural(p.total, "album", "albums"), list),
		fmt.Sprintf("Você tem %d %s: %s.", p.total, plural(p.total, "álbum", "álbuns"), list))
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
	return say(e.Language,
		fmt.Sprintf("Here are %d %s from “%s”.", p.total, plural(p.total, "photo", "photos"), a.Name),
		fmt.Sprintf("Aqui estão %d %s de “%s”.", p.total, plural(p.total, "foto", "fotos"), a.Name))
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
	return text + "."
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
