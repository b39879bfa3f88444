package offline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tripgraph/tripgraph/model/gazetteer"
)

// placeName is how to name the trip's city in a reply. The trip details
// carry the city's English name; a Portuguese reply uses the name the
// traveller wrote when it is another name of the same city ("Lisboa", "Nova
// York"), as a person would.
func placeName(c conversation, city, lang string) string {
	if lang != "pt" {
		return city
	}
	for i := len(c.users) - 1; i >= 0; i-- {
		text := c.users[i]
		for _, m := range gazetteer.Find(text).Cities {
			if m.Name != city {
				continue
			}
			written, _, _ := strings.Cut(text[m.Start:m.End], ",") // without a qualifier ("Paris, Texas")
			return properName(strings.TrimSpace(written))
		}
	}
	return city
}

// lowerWords stay lower case inside a Portuguese place name.
var lowerWords = map[string]bool{"de": true, "do": true, "da": true, "dos": true, "das": true, "e": true}

// properName capitalises a place name typed in lower case: "nova york" →
// "Nova York", "rio de janeiro" → "Rio de Janeiro".
func properName(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		if i > 0 && lowerWords[strings.ToLower(w)] {
			words[i] = strings.ToLower(w)
			continue
		}
		r, size := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToUpper(r)) + w[size:]
	}
	return strings.Join(words, " ")
}
