package intent

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZWords(t *testing.T) {
	m := os.Getenv("ZZ")
	if m == "" {
		t.Skip()
	}
	w := words(m)
	for _, s := range w {
		one := []string{s}
		if offTopic(one) || offTopicQuestion(one) || identity(one) || howAreYou(one) || greeting(one) {
			fmt.Println("trigger:", s)
		}
	}
	fmt.Println(offTopic(w), offTopicQuestion(w), identity(w), howAreYou(w), greeting(w), strings.Join(w, " "))
}
