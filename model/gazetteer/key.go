package gazetteer

import (
	"strings"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// nameKey is textnorm.Key(name), the form names are indexed under, with
// a fast path for names written in plain ASCII, as most of the data's
// are: loading the gazetteer keys over a hundred thousand names.
func nameKey(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	space := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 0x80:
			return textnorm.Key(name)
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		default:
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteByte(c)
	}
	return b.String()
}
