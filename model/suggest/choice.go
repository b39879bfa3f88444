package suggest

import "github.com/tripgraph/tripgraph/model/internal/textnorm"

// Choice reads a follow-up that picks one of n suggestions by its number
// or its order ("the second one", "a 3", "opção 2", "#1"); it returns
// the index from 0, or false.
func Choice(text string, n int) (int, bool) {
	words := textnorm.Words(text)
	if len(words) == 0 || len(words) > 6 {
		return 0, false
	}
	for _, w := range words {
		i, ok := ordinals[w.Fold]
		if !ok || i > n {
			continue
		}
		if len(w.Fold) == 1 && len(words) > 3 {
			continue // "we are 2 adults" counts people; "the 2", "opção 2" pick
		}
		return i - 1, true
	}
	return 0, false
}

var ordinals = map[string]int{
	"1": 1, "2": 2, "3": 3, "4": 4, "5": 5,
	"1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "1o": 1, "2o": 2, "3o": 3, "4o": 4, "5o": 5, "1a": 1, "2a": 2, "3a": 3, "4a": 4, "5a": 5,
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
	"primeiro": 1, "primeira": 1, "segundo": 2, "segunda": 2, "terceiro": 3, "terceira": 3, "quarto": 4, "quarta": 4, "quinto": 5, "quinta": 5,
}
