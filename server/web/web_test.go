package web

import (
	"strings"
	"testing"
)

func TestShortTitle(t *testing.T) {
	long := strings.Repeat("á", 100)
	for _, c := range []struct{ in, want string }{
		{"  Lisbon in May ", "Lisbon in May"},
		{"first line\nsecond line", "first line"},
		{long, strings.Repeat("á", 79) + "…"},
		{strings.Repeat("b", 80), strings.Repeat("b", 80)},
	} {
		if got := shortTitle(c.in); got != c.want {
			t.Errorf("shortTitle(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
