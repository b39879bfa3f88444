package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"unicode"

	"github.com/tripgraph/tripgraph/model/internal/textnorm"
)

// readWords reads the lower-case words of word lists (one word a line,
// as in /usr/share/dict), folded; capitalised entries are proper names and
// are left out.
func readWords(lists string) (map[string]bool, error) {
	words := map[string]bool{}
	if lists == "" {
		return words, nil
	}
	for _, path := range strings.Split(lists, ",") {
		if err := readList(path, words); err != nil {
			return nil, fmt.Errorf("reading word list %s: %w", path, err)
		}
	}
	return words, nil
}

func readList(path string, words map[string]bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.TrimSpace(sc.Text())
		w, _, _ = strings.Cut(w, "/") // ispell affixes
		if w == "" || strings.ContainsRune(w, '\'') || !unicode.IsLower([]rune(w)[0]) {
			continue
		}
		words[fold(w)] = true
	}
	return sc.Err()
}

// fold is a name as the gazetteer keys it: folded words joined by spaces.
func fold(s string) string { return textnorm.Key(s) }
