package suggest

import (
	"strings"

	"github.com/tripgraph/tripgraph/model/internal/numwords"
	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// Choice reads a follow-up that picks one of n suggestions by its number
// or its order ("the second one", "a 3", "opção 2", "#1", "a 2ª"); it
// returns the index from 0, or false.
func Choice(text string, n int) (int, bool) {
	words := textnorm.Words(text)
	if len(words) == 0 || len(words) > 6 {
		return 0, false
	}
	for _, w := range words {
		v, ordinal := digits(w.Fold)
		if num, ok := numwords.Read([]string{w.Fold}); ok && num.Ordinal {
			v, ordinal = num.Value, true // "second", "terceira"
		}
		if v < 1 || v > n || !ordinal && len(words) > 3 {
			continue // "we are 2 adults" counts people; "the 2", "opção 2" pick
		}
		return v - 1, true
	}
	return 0, false
}

// digits reads a number in digits, alone ("2") or as an ordinal ("2nd",
// "2o", "2ª"); 0 when w is none.
func digits(w string) (v int, ordinal bool) {
	for _, suffix := range []string{"st", "nd", "rd", "th", "o", "a", "º", "ª"} {
		if d, ok := strings.CutSuffix(w, suffix); ok && d != "" {
			w, ordinal = d, true
			break
		}
	}
	for _, c := range w {
		if c < '0' || c > '9' || v > 99 {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, ordinal
}
