package checklist_test

import (
	"fmt"
	"strings"

	"github.com/tripgraph/tripgraph/model/intent"
	"github.com/tripgraph/tripgraph/model/internal/textnorm"
	"github.com/tripgraph/tripgraph/model/offline"
)

// album checks a question about a past trip: the album of the city as
// written, never a search, stats or photos as asked.
func album(name string, stats bool) func(offline.Extraction) string {
	return func(e offline.Extraction) string {
		switch {
		case e.Intent != intent.Photos:
			return fmt.Sprintf("intent %q, want photos", e.Intent)
		case e.Photo.Kind != intent.Album:
			return fmt.Sprintf("photo request %+v, want the album %q", e.Photo, name)
		case textnorm.Key(e.Photo.Album) != textnorm.Key(name):
			return fmt.Sprintf("album %q, want %q", e.Photo.Album, name)
		case e.Photo.Stats != stats:
			return fmt.Sprintf("stats %v, want %v", e.Photo.Stats, stats)
		}
		return ""
	}
}

// historyQuestions: questions about a trip that was, for every city.
func historyQuestions() []test {
	forms := []struct {
		lang, text string
		stats      bool
	}{
		{"en", "What dates was I in %s?", true},
		{"en", "how many photos does the %s album have?", true},
		{"en", "which year did I go to %s?", true},
		{"en", "how long was my trip to %s?", true},
		{"en", "when did we go to %s?", true},
		{"en", "show the pics from %s at christmas", false},
		{"en", "show me my %s album", false},
		{"pt", "em que ano eu fui pra %s?", true},
		{"pt", "quantas fotos tem o álbum de %s?", true},
		{"pt", "quando eu fui para %s?", true},
		{"pt", "quanto tempo durou a viagem pra %s?", true},
		{"pt", "me mostra as fotos de %s no natal", false},
		{"pt", "mostra meu álbum de %s", false},
	}
	var out []test
	for _, f := range forms {
		for _, c := range destinations {
			name := c.en
			if f.lang == "pt" {
				name = c.pt
			}
			text := fmt.Sprintf(f.text, name)
			if strings.HasPrefix(f.text, "how many") {
				text = fmt.Sprintf(f.text, name)
			}
			out = append(out, test{"history/album questions", "MFT", f.lang, []string{text}, album(name, f.stats)})
		}
	}
	return out
}

// openQuestions: wishes for somewhere to go are read as such, never as a
// search, with what they ask.
func openQuestions() []test {
	type form struct {
		lang, text string
		kind       intent.PlaceKind
		climate    intent.Climate
		near       bool
	}
	var forms []form
	for m := 1; m <= 12; m++ {
		forms = append(forms,
			form{"en", "Somewhere warm in " + monthsEN[m] + "?", "", intent.Warm, false},
			form{"en", "any ideas for somewhere cold in " + monthsEN[m] + "?", "", intent.Cold, false},
			form{"en", "where should we go in " + monthsEN[m] + " for some sun?", "", "", false},
			form{"pt", "algum lugar quente em " + monthsPT[m] + "?", "", intent.Warm, false},
			form{"pt", "sugestão de praia em " + monthsPT[m], intent.Beach, "", false},
			form{"pt", "pra onde ir em " + monthsPT[m] + " com neve?", "", intent.Snow, false},
		)
	}
	for _, k := range []struct {
		en, pt string
		kind   intent.PlaceKind
	}{{"a beach", "praia", intent.Beach}, {"mountains", "serra", intent.Mountain}, {"a lake", "lago", intent.Lake}, {"countryside", "cachoeira", ""}} {
		forms = append(forms,
			form{"en", k.en + " near %s for a weekend", k.kind, "", true},
			form{"pt", k.pt + " perto de %s pra um fim de semana", k.kind, "", true},
		)
	}
	var out []test
	for i, f := range forms {
		for _, c := range pick(destinations, 6, i) {
			text, name := f.text, c.en
			if f.lang == "pt" {
				name = c.pt
			}
			if f.near {
				text = fmt.Sprintf(f.text, name)
			}
			check := func(e offline.Extraction) string {
				switch {
				case e.Wish == nil:
					return "not read as an open question"
				case e.Intent != intent.Other:
					return fmt.Sprintf("intent %q, want other (no search)", e.Intent)
				case f.near && textnorm.Key(e.Wish.Near) != textnorm.Key(name):
					return fmt.Sprintf("near %q, want %q", e.Wish.Near, name)
				case f.kind != "" && !contains(e.Wish.Kinds, f.kind):
					return fmt.Sprintf("kinds %v, want %q", e.Wish.Kinds, f.kind)
				case f.climate != "" && !contains(e.Wish.Climates, f.climate):
					return fmt.Sprintf("climates %v, want %q", e.Wish.Climates, f.climate)
				}
				return ""
			}
			out = append(out, test{"open questions", "MFT", f.lang, []string{text}, check})
		}
	}
	return out
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
