package nodes

import (
	"regexp"
	"testing"
)

// europeanPossessive is the article before a possessive that European
// Portuguese writes and Brazilian Portuguese, the replies' language, does
// not: "as suas fotos", "o seu álbum".
var europeanPossessive = regexp.MustCompile(`(?i)\b(o|a|os|as) (seu|sua|seus|suas)\b`)

func TestPortugueseRepliesAreBrazilian(t *testing.T) {
	for key, s := range replies["pt"] {
		if europeanPossessive.MatchString(s) {
			t.Errorf("reply %s is European Portuguese: %q", key, s)
		}
	}
}
